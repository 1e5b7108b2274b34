"""Games per second: the full engine (in memory and on SQLite) against a bare loop.

The bare loop plays the same rules with the same kind of uniformly random decisions, as
plain Python over lists: no events, no object store, no views, no validation. The ratio
engine / bare loop, measured in the same run, is what the engine costs.

    .venv/bin/python benchmarks/bench_game.py            # 300 games per configuration
    .venv/bin/python benchmarks/bench_game.py --games 50 # quicker
    .venv/bin/python benchmarks/bench_game.py --profile  # where the engine's time goes
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

from pulse_core import EventStore, MemoryEventStore, SQLiteEventStore, WorkflowRule
from werewolf.game import start_game, werewolf_workflow
from werewolf.players.base import Player
from werewolf.players.random_player import RandomPlayer
from werewolf.state import GameState

WOLF, SEER, WITCH, HUNTER, VILLAGER = "wolf", "seer", "witch", "hunter", "villager"
DECK = [WOLF] * 3 + [SEER, WITCH, HUNTER] + [VILLAGER] * 3
GODS = {SEER, WITCH, HUNTER}


def bare_game(seed: int, day_cap: int = 20) -> str:
    """One game of the default rules with uniform random choices: the reference loop."""
    rng = random.Random(seed)
    roles = DECK[:]
    rng.shuffle(roles)
    seats = range(len(roles))
    alive = set(seats)
    antidote = poison = True
    hunter_fired = False

    def winner() -> str | None:
        wolves = [s for s in alive if roles[s] == WOLF]
        villagers = [s for s in alive if roles[s] == VILLAGER]
        gods = [s for s in alive if roles[s] in GODS]
        if not villagers or not gods:
            return "wolves"
        return "good" if not wolves else None

    def shoot(hunter: int, cause: str) -> None:
        nonlocal hunter_fired
        if roles[hunter] == HUNTER and cause != "poison" and not hunter_fired:
            hunter_fired = True
            target = rng.choice([*sorted(alive), None])
            if target is not None:
                alive.discard(target)

    for night in range(1, day_cap + 1):
        living = sorted(alive)
        target = rng.choice([*living, None])
        saved = poisoned = None
        witch = next((s for s in living if roles[s] == WITCH), None)
        if witch is not None:
            options: list[tuple[bool, int | None]] = [(False, None)]
            if antidote and target is not None and (target != witch or night == 1):
                options.append((True, None))
            if poison:
                options += [(False, s) for s in living if s != witch]
            save, poisoned = rng.choice(options)
            saved = target if save else None
            antidote, poison = antidote and not save, poison and poisoned is None
        seer = next((s for s in living if roles[s] == SEER), None)
        if seer is not None:
            rng.choice([s for s in living if s != seer])
        died = {t for t in (target, poisoned) if t is not None and t != saved}
        alive -= died
        if (won := winner()) is not None:
            return won
        for dead in sorted(died):
            shoot(dead, "poison" if dead == poisoned else "wolf")
        if (won := winner()) is not None:
            return won
        candidates: list[int] = []
        for _round in (1, 2):
            voters = [s for s in sorted(alive) if s not in candidates]
            pool = candidates or sorted(alive)
            ballots = [rng.choice([*(t for t in pool if t != v), None]) for v in voters]
            counts = Counter(b for b in ballots if b is not None)
            if not counts:
                break
            top = max(counts.values())
            leaders = [s for s, c in counts.items() if c == top]
            if len(leaders) == 1:
                alive.discard(leaders[0])
                if (won := winner()) is not None:
                    return won
                shoot(leaders[0], "exile")
                break
            if candidates:
                break
            candidates = leaders
        if (won := winner()) is not None:
            return won
    return "draw"


def seating_for(kind: str) -> Callable[[str, GameState], Mapping[int, Player]]:
    if kind == "mock":
        from werewolf.players import mock_seating  # type: ignore[attr-defined]

        return mock_seating()  # type: ignore[no-any-return]

    def seating(game: str, state: GameState) -> Mapping[int, Player]:
        return {s: RandomPlayer(state.seed) for s in state.seats}

    return seating


def engine_games(store: EventStore, games: int, kind: str) -> float:
    rule = WorkflowRule(werewolf_workflow(seating_for(kind)), store)
    started = time.perf_counter()
    for seed in range(games):
        start_game(rule, seed=seed)
    asyncio.run(rule.run())
    return time.perf_counter() - started


def bare_games(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        bare_game(seed)
    return time.perf_counter() - started


def best_of(repeats: int, run: Callable[[], float]) -> tuple[float, float]:
    times = [run() for _ in range(repeats)]
    return min(times), (max(times) - min(times)) / min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    n = args.games
    try:
        seating_for("mock")
        kinds = ["random", "mock"]
    except ImportError:
        kinds = ["random"]

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        engine_games(MemoryEventStore(), n, kinds[-1])
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
        return

    bare, bare_noise = best_of(args.repeats, lambda: bare_games(n))
    rows = [("bare loop (reference)", n / bare, 1.0, bare_noise)]
    for kind in kinds:
        mem, noise = best_of(args.repeats, lambda k=kind: engine_games(MemoryEventStore(), n, k))
        rows.append((f"engine, {kind} players, memory", n / mem, bare / mem, noise))
        with tempfile.TemporaryDirectory() as tmp:

            def on_disk(k: str = kind, d: str = tmp) -> float:
                path = Path(d) / f"{time.monotonic_ns()}.sqlite3"
                return engine_games(SQLiteEventStore(path, durable=False), n, k)

            sql, noise = best_of(args.repeats, on_disk)
            rows.append(
                (f"engine, {kind} players, SQLite (durable=False)", n / sql, bare / sql, noise)
            )
            durable_n = max(10, n // 10)
            sql_d = engine_games(SQLiteEventStore(Path(tmp) / "durable.sqlite3"), durable_n, kind)
            rows.append(
                (
                    f"engine, {kind} players, SQLite (durable)",
                    durable_n / sql_d,
                    (bare / n) * durable_n / sql_d,
                    0.0,
                )
            )

    print(f"{n} games per run, best of {args.repeats} (spread = (max-min)/min across repeats)")
    print(f"{'configuration':48} {'games/s':>9} {'vs bare':>9} {'spread':>7}")
    for name, rate, ratio, noise in rows:
        print(f"{name:48} {rate:9.1f} {ratio:9.4f} {noise:7.1%}")
    print(f"median of the ratios above: {statistics.median(r[2] for r in rows[1:]):.4f}")


if __name__ == "__main__":
    main()
