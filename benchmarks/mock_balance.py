"""Balance of mock games: win rates by side over seeded games, played in memory.

Each side's share comes with a 95% Wilson interval; draws count for neither side. Also the
mean number of days, how many games had fallbacks (illegal mock answers: should be none)
and games per second.

    .venv/bin/python benchmarks/mock_balance.py               # seeds 0..999
    .venv/bin/python benchmarks/mock_balance.py --games 200   # quicker
    .venv/bin/python benchmarks/mock_balance.py --personality bold
    .venv/bin/python benchmarks/mock_balance.py --board guard-12
    .venv/bin/python benchmarks/mock_balance.py --board all --games 300
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import dataclass

from pulse_core import MemoryEventStore, WorkflowRule
from werewolf.arena import intervals
from werewolf.boards import BOARDS, board_config
from werewolf.config import GameConfig
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating


@dataclass(frozen=True)
class Tally:
    games: int
    winners: Counter[str]
    mean_days: float
    games_with_fallbacks: int
    seconds: float


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The package's 95% Wilson interval (``werewolf.arena.intervals``) as (low, high);
    (0, 1) over no games."""
    estimate = intervals.wilson(successes, n)
    low, high = estimate.low, estimate.high
    return (0.0 if low is None else low), (1.0 if high is None else high)


def play(seeds: range, personality: str | None = None, config: GameConfig | None = None) -> Tally:
    """Play one mock game per seed in one in-memory store and count the outcomes."""
    options = {} if personality is None else {"personality": personality}
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating(**options)), store)
    began = time.perf_counter()
    games = [start_game(rule, seed=seed, config=config) for seed in seeds]
    asyncio.run(rule.run())
    seconds = time.perf_counter() - began
    winners: Counter[str] = Counter()
    days = 0
    with_fallbacks = 0
    for game in games:
        chain = store.chain(game)
        end = chain[-1]
        winners[end.meta["diff"]["winner"]] += 1
        days += int(end.meta["day"])
        with_fallbacks += any("fallbacks" in e.meta for e in chain)
    return Tally(len(games), winners, days / max(len(games), 1), with_fallbacks, seconds)


def report(tally: Tally, board: str = "standard-9") -> str:
    lines = [f"{tally.games} mock games on {board}"]
    sides = (
        ("good", "wolves", "lovers", "draw")
        if "lovers" in tally.winners or "cupid" in board
        else ("good", "wolves", "draw")
    )
    for side in sides:
        won = tally.winners[side]
        low, high = wilson(won, tally.games)
        lines.append(
            f"  {side:<7} {won:>5}  {won / tally.games:6.1%}  95% CI [{low:.1%}, {high:.1%}]"
        )
    lines.append(f"  mean days {tally.mean_days:.2f}")
    lines.append(f"  games with fallbacks {tally.games_with_fallbacks}")
    lines.append(
        f"  {tally.games / tally.seconds:.1f} games/s ({tally.seconds:.1f} s on one process)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeds 0..N-1 (default 1000)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--personality", default=None, help="one personality for every seat")
    parser.add_argument(
        "--board",
        default="standard-9",
        choices=[*BOARDS, "all"],
        help="the board to play (default standard-9), or all of them in turn",
    )
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    for board in BOARDS if args.board == "all" else [args.board]:
        print(report(play(seeds, args.personality, board_config(board)), board))


if __name__ == "__main__":
    main()
