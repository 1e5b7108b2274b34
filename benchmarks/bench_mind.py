"""The mock players' inference alone: each decision's table and mind, replayed in CPU time.

Mock games are played once in memory and every decision's view is kept; the replay then
gives fresh players the same views in the same order (a game's wolves ask together, as in
a game) and times what a decision reads before its strategy: the seat's reader extending
its table, and its minds (for a wolf, its picture of the table too, which a game weighs
only when a strategy reads it, as most do: counted here always). Strategies, speech and the
engine are left out, so two checkouts can be compared on the inference alone. Then each
decision's whole answer (``MockPlayer.answer``: inference, strategy and words) is timed the
same way, and both are printed by decision kind: the CPU of one decision, median and 99th
percentile, each decision's fastest of the repeats (a busy machine slows some runs). Before
each replay the mock modules' stores of earlier answers are emptied (parsed speeches, shared
utterances and ballots, the wolves' public minds, scalings, deaths read): the recording's
play filled them with these very games' answers, which a game being played has to work out.

The collector is set as the ``werewolf`` command and the arena's workers set it
(``werewolf.heap.tune_for_play``); ``--default-gc`` leaves Python's defaults. A replay
allocates the same objects in the same order each time, so a collection lands on the same
decisions in every repeat (the fastest of the repeats keeps it): each table says on how many
decisions a collection ran ('collected'), the 99th percentile of the others ('p99 free'),
and the collections of a replay with their CPU. E.g.
interleaved, each checkout with its own tree first on the path:

    .venv/bin/python benchmarks/bench_mind.py --games 60 --repeats 5
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/bench_mind.py ...
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from types import ModuleType

from pulse_core import MemoryEventStore, WorkflowRule
from werewolf.decisions import Answer, Request
from werewolf.game import start_game, werewolf_workflow
from werewolf.heap import tune_for_play
from werewolf.players import MockPlayer, Player, uniform_seating
from werewolf.players.mock import beliefs, claims, grammar, reader, scaling
from werewolf.state import GameState

Asked = tuple[tuple[int, int, str, str], Request]  # (seed, seat, personality, lang), request


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
        asked.append((who, request))
        return answer(request)

    return recorded


# what a game's own records fill (a store missing from a checkout is passed over)
_STORES: tuple[tuple[ModuleType, str], ...] = (
    (reader, "_HEARD"),
    (reader, "_CAST"),
    (beliefs, "_PUBLIC"),
    (scaling, "_SCALED"),
    (claims, "_GONE"),
)


def forget() -> None:
    """Empty the stores of answers the recording's play left (see the module docstring)."""
    for module, name in _STORES:
        store = getattr(module, name, None)
        if isinstance(store, dict):
            store.clear()
    grammar.parse_speech.cache_clear()


class Collections:
    """The collector's runs while it is watching (``gc.callbacks``): how many of each
    generation, and their CPU nanoseconds."""

    def __init__(self) -> None:
        self.runs = [0, 0, 0]
        self.spent = [0, 0, 0]
        self._began = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.process_time_ns()
        else:
            self.runs[info["generation"]] += 1
            self.spent[info["generation"]] += time.process_time_ns() - self._began

    @property
    def count(self) -> int:
        return sum(self.runs)


Timed = tuple[int, bool]  # a decision's CPU nanoseconds, and whether a collection ran in it


def replay(asked: list[Asked], whole: bool = False, seen: Collections | None = None) -> list[Timed]:
    """CPU nanoseconds for fresh players to read and believe each view asked, in order (with
    ``whole``, to answer each request); the collections made meanwhile are added to ``seen``."""
    players = {who: MockPlayer(*who) for who, _ in asked}
    clock = time.process_time_ns
    spent: list[Timed] = []
    seen = Collections() if seen is None else seen
    forget()
    gc.collect()
    gc.callbacks.append(seen)
    for who, request in asked:
        player = players[who]
        collections = seen.count
        started = clock()
        if whole:
            player.answer(request)
        else:
            _, picture = player._minds(player._reader.read(request.view))  # as answer() does
            if callable(picture):
                picture()
        spent.append((clock() - started, seen.count != collections))
    gc.callbacks.remove(seen)
    return spent


def by_kind(asked: list[Asked], runs: list[list[Timed]]) -> dict[str, list[Timed]]:
    """Each decision's fastest run, grouped by the kind of decision."""
    kinds: dict[str, list[Timed]] = defaultdict(list)
    for (_, request), times in zip(asked, zip(*runs, strict=True), strict=True):
        kinds[str(request.kind)].append(min(times))
    return dict(sorted(kinds.items()))


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def print_kinds(title: str, kinds: dict[str, list[Timed]], seen: Collections, runs: int) -> None:
    """The table of a replay's decisions; ``collected``: how many decisions had a collection
    in their fastest run, and 'p99 free' the 99th percentile of the others."""
    print(f"{title}: us CPU a decision")
    print(
        f"  {'kind':12} {'decisions':>9} {'median':>8} {'p99':>8} {'collected':>9} "
        f"{'p99 free':>8} {'total ms':>9}"
    )
    every = [t for timed in kinds.values() for t in timed]
    for kind, timed in [*kinds.items(), ("all", every)]:
        times = [t for t, _ in timed]
        free = [t for t, collected in timed if not collected] or [0]
        print(
            f"  {kind:12} {len(times):9} {statistics.median(times) / 1e3:8.1f} "
            f"{percentile(times, 0.99) / 1e3:8.1f} {len(times) - len(free):9} "
            f"{percentile(free, 0.99) / 1e3:8.1f} {sum(times) / 1e6:9.1f}"
        )
    counts = ", ".join(
        f"{n / runs:.1f} {name} ({spent / runs / 1e6:.1f} ms)"
        for name, n, spent in zip(("young", "middle", "old"), seen.runs, seen.spent, strict=True)
    )
    print(f"  collections a replay (their CPU): {counts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--default-gc", action="store_true", help="leave the collector as Python sets it"
    )
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    if not args.default_gc:
        tune_for_play()
    asked = played(args.games)
    seen = Collections()
    runs = [replay(asked, seen=seen) for _ in range(args.repeats)]
    totals = [sum(t for t, _ in run) / 1e9 for run in runs]
    best = min(totals)
    print(
        f"{len(asked)} decisions of {args.games} mock games: best {best * 1000:.1f} ms CPU "
        f"of {args.repeats} ({best / len(asked) * 1e6:.1f} us a decision; "
        f"worst {max(totals) * 1000:.1f} ms)"
    )
    print_kinds("reading and believing", by_kind(asked, runs), seen, args.repeats)
    seen = Collections()
    whole = [replay(asked, whole=True, seen=seen) for _ in range(args.repeats)]
    print_kinds("the whole answer", by_kind(asked, whole), seen, args.repeats)


if __name__ == "__main__":
    main()
