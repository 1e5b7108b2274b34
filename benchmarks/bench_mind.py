"""The mock players' inference alone: each decision's table and mind, replayed in CPU time.

Mock games are played once in memory and every decision's view is kept; the replay then
gives fresh players the same views in the same order (a game's wolves ask together, as in
a game) and times what a decision reads before its strategy: the seat's reader extending
its table, and its minds (for a wolf, its picture of the table too, which a game weighs
only when a strategy reads it, as most do: counted here always). Strategies, speech and the
engine are left out, so two checkouts can be compared on the inference alone, e.g.
interleaved, each with its own tree first on the path:

    .venv/bin/python benchmarks/bench_mind.py --games 60 --repeats 5
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/bench_mind.py ...
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from collections.abc import Callable, Mapping

from pulse_core import MemoryEventStore, WorkflowRule
from werewolf.decisions import Answer, Request
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import MockPlayer, Player, uniform_seating
from werewolf.state import GameState
from werewolf.visibility import SeatView

Asked = tuple[tuple[int, int, str, str], SeatView]  # (seed, seat, personality, lang), view


def played(games: int) -> list[Asked]:
    """Every decision of ``games`` mock games played together, in the order asked."""
    asked: list[Asked] = []
    seating, watching = uniform_seating("mock"), set[int]()

    def watched(game_id: str, state: GameState) -> Mapping[int, Player]:
        players = seating(game_id, state)  # the same players each time a game asks
        for player in players.values():
            if isinstance(player, MockPlayer) and id(player) not in watching:
                watching.add(id(player))
                player.answer = _recording(player, asked)  # type: ignore[method-assign, assignment]
        return players

    rule = WorkflowRule(werewolf_workflow(watched), MemoryEventStore())
    for seed in range(games):
        start_game(rule, seed=seed)
    asyncio.run(rule.run())
    return asked


def _recording(player: MockPlayer, asked: list[Asked]) -> Callable[[Request], Answer]:
    """``player.answer``, noting who was asked what first."""
    answer = player.answer
    who = (player.game_seed, player.seat, player.personality, player.lang)

    def recorded(request: Request) -> Answer:
        asked.append((who, request.view))
        return answer(request)

    return recorded


def replay(asked: list[Asked]) -> float:
    """CPU seconds for fresh players to read and believe every view asked, in order."""
    players = {who: MockPlayer(*who) for who, _ in asked}
    gc.collect()
    started = time.process_time()
    for who, view in asked:
        player = players[who]
        _, picture = player._minds(player._reader.read(view))  # as answer() does
        if callable(picture):
            picture()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    asked = played(args.games)
    times = [replay(asked) for _ in range(args.repeats)]
    best = min(times)
    print(
        f"{len(asked)} decisions of {args.games} mock games: best {best * 1000:.1f} ms CPU "
        f"of {args.repeats} ({best / len(asked) * 1e6:.1f} us a decision; "
        f"worst {max(times) * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
