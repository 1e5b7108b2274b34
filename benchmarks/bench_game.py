"""Games per second: the full engine (in memory and on SQLite) against a bare loop.

The bare loop plays the same rules with the same kind of uniformly random decisions, as
plain Python over lists: no events, no object store, no views, no validation. The ratio
engine / bare loop, measured in the same run, is what the engine costs (a loaded machine
slows both alike). The mock rows have no target against the loop: about four fifths of a
mock game is the mock players' own reasoning, which the loop does not do, so they run at
about 0.005x it (README, Speed) and follow the players more than the engine. Targets
(``TARGETS``; the README's measured figures meet each, ``tests/werewolf/test_doc_figures.py``):

- 16 concurrent mock games on a durable SQLite store (every step committed and synced
  before the next, so a killed run loses nothing it reported), played as the product plays
  many mock games at once: ``werewolf arena run`` splits them across one process per core
  (``--workers``), each on its own connection to the one SQLite file and driving only its
  share (``werewolf.scope.scoped_rule``): at least 100 games/s. The same 16 games in one
  process are printed too; one process uses one core, and the players' reasoning is most
  of a game's time;
- folding stored games back to their state: at least 100,000 events/s.

    .venv/bin/python benchmarks/bench_game.py            # 200 games per configuration
    .venv/bin/python benchmarks/bench_game.py --games 50 # quicker
    .venv/bin/python benchmarks/bench_game.py --profile  # where the engine's time goes

Each kind of player plays one untimed game first: the modules it loads on first use (the
mock players' strategies and phrasings, the identities' phases) are a cost of the process,
not of its games, and would otherwise fall on whichever row runs first.

Every configuration, the bare loop too, runs with the garbage collector set as the
``werewolf`` command and the arena's workers set it (``werewolf.heap``); ``--default-gc``
leaves Python's defaults, to see what that setting is worth.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import multiprocessing
import os
import pstats
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pulse_core import EventStore, IdSource, MemoryEventStore, SQLiteEventStore, WorkflowRule
from werewolf.game import WORKFLOW, fold_chain, start_game, werewolf_workflow
from werewolf.heap import tune_for_play
from werewolf.players import Player, uniform_seating
from werewolf.scope import scoped_rule
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
    """The seating the CLI and the arena use: each game's players made once."""
    return uniform_seating(kind)


def engine_games(store: EventStore, games: int, kind: str, first_seed: int = 0) -> float:
    """Seconds to play ``games`` games at once (all started, then run together)."""
    rule = WorkflowRule(werewolf_workflow(seating_for(kind)), store)
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        start_game(rule, seed=seed)
    asyncio.run(rule.run())
    return time.perf_counter() - started


def _play_share(path: str, seeds: list[int], kind: str) -> None:
    """One worker process: its share of the games on its own durable connection, driven by
    a rule scoped to them, as an arena worker plays its share."""
    store = SQLiteEventStore(path, durable=True)
    try:
        ids = IdSource()
        keys = {seed: ids.new() for seed in seeds}
        rule = scoped_rule(werewolf_workflow(seating_for(kind)), store, keys.values())
        for seed, key in keys.items():
            start_game(rule, seed=seed, topic_id=key)
        asyncio.run(rule.run())
    finally:
        store.close()


def process_games(path: Path, games: int, kind: str, workers: int) -> float:
    """Seconds to play ``games`` games into one durable SQLite file from ``workers`` forked
    processes (forks and joins included), each playing every ``workers``-th game; checks
    that every game ended. As in ``werewolf arena run`` (``werewolf.arena.runner``), this
    process opens the store once the workers are forked and keeps it open until they are
    done: a worker is then never the file's last connection, which would checkpoint the
    whole WAL into the file and delete it on its way out."""
    SQLiteEventStore(path, durable=True).close()  # made and migrated before the workers
    shares = [list(range(games))[w::workers] for w in range(workers)]
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_play_share, args=(str(path), s, kind)) for s in shares]
    started = time.perf_counter()
    for process in processes:
        process.start()
    with SQLiteEventStore(path, durable=True) as store:  # after the forks: none inherits it
        for process in processes:
            process.join()
        seconds = time.perf_counter() - started
        if any(process.exitcode != 0 for process in processes):
            raise SystemExit(f"a worker failed: exit codes {[p.exitcode for p in processes]}")
        ended = [k for k in store.topics() if store.chain(k)[-1].kind == f"{WORKFLOW}.game-end"]
    if len(ended) != games:
        raise SystemExit(f"{len(ended)} of {games} games ended in {path}")
    return seconds


def bare_games(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        bare_game(seed)
    return time.perf_counter() - started


# The folds are timed in CPU seconds of this process (they wait on nothing), so other work on
# a shared machine does not count against them; the games are compared with the bare loop.
def fold_rate(store: EventStore) -> float:
    """Events per CPU second folding every game of ``store`` from its stored chain."""
    chains = [store.chain(key) for key in store.topics()]
    events = sum(len(chain) for chain in chains)
    started = time.process_time()
    for chain in chains:
        fold_chain(chain)
    return events / (time.process_time() - started)


def read_and_fold_rate(store: EventStore) -> float:
    """Events per CPU second reading every game's chain from ``store`` and folding it."""
    keys = store.topics()
    started = time.process_time()
    events = 0
    for key in keys:
        chain = store.chain(key)
        events += len(chain)
        fold_chain(chain)
    return events / (time.process_time() - started)


def best_of(repeats: int, run: Callable[[], float]) -> tuple[float, float]:
    """The fastest of ``repeats`` timings and their spread ((max - min) / min)."""
    times = [run() for _ in range(repeats)]
    return min(times), (max(times) - min(times)) / min(times)


@dataclass
class Row:
    name: str
    rate: float  # games/s, or events/s for the folds
    unit: str
    ratio: float | None  # games/s against the bare loop's
    spread: float
    target: str = ""
    met: bool | None = None


TARGETS = {  # row (the durable one by its unit): (what is printed, the least rate)
    "mock players, SQLite durable, 16 at once": (">= 100 games/s", 100.0),
    "fold stored games (CPU time)": (">= 100,000 events/s", 100_000.0),
}


def _aim(row: Row, key: str) -> None:
    """Give ``row`` its target, and whether its rate meets it."""
    row.target, least = TARGETS[key]
    row.met = row.rate >= least


def measure(games: int, repeats: int, tmp: Path) -> list[Row]:
    for kind in ("random", "mock"):  # the modules a kind loads on first use, loaded untimed
        engine_games(MemoryEventStore(), 1, kind)
    bare, bare_noise = best_of(repeats, lambda: bare_games(games))
    per_bare = games / bare
    rows = [Row("bare loop (reference)", per_bare, "games/s", 1.0, bare_noise)]

    def row(name: str, n: int, seconds: float, noise: float) -> Row:
        return Row(name, n / seconds, "games/s", n / seconds / per_bare, noise)

    counter = iter(range(1_000_000))

    def sqlite(durable: bool) -> SQLiteEventStore:
        return SQLiteEventStore(tmp / f"{next(counter)}" / "games.sqlite3", durable=durable)

    for kind in ("random", "mock"):
        mem, noise = best_of(repeats, lambda k=kind: engine_games(MemoryEventStore(), games, k))
        rows.append(row(f"{kind} players, memory", games, mem, noise))
        lazy, noise = best_of(repeats, lambda k=kind: engine_games(sqlite(False), games, k))
        rows.append(row(f"{kind} players, SQLite durable=False", games, lazy, noise))
    durable, noise = best_of(repeats, lambda: engine_games(sqlite(True), 16, "mock"))
    rows.append(row("mock players, SQLite durable, 16 at once, 1 process", 16, durable, noise))
    workers = os.cpu_count() or 1  # as many as `werewolf arena run` uses by default
    paths = (tmp / f"shared-{n}" / "games.sqlite3" for n in range(repeats))
    durable, noise = best_of(repeats, lambda: process_games(next(paths), 16, "mock", workers))
    unit = "processes" if workers > 1 else "process"
    name = f"mock players, SQLite durable, 16 at once, {workers} {unit}"
    rows.append(row(name, 16, durable, noise))
    _aim(rows[-1], "mock players, SQLite durable, 16 at once")

    memory = MemoryEventStore()
    engine_games(memory, games, "mock")
    rate = max(fold_rate(memory) for _ in range(repeats))
    rows.append(Row("fold stored games (CPU time)", rate, "events/s", None, 0.0))
    _aim(rows[-1], "fold stored games (CPU time)")
    on_disk = sqlite(False)
    engine_games(on_disk, games, "mock")
    rate = max(read_and_fold_rate(on_disk) for _ in range(repeats))
    rows.append(Row("read from SQLite and fold (CPU time)", rate, "events/s", None, 0.0))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--default-gc", action="store_true", help="Python's collector settings")
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    if not args.default_gc:
        tune_for_play()  # as the entry points play (the forked workers inherit it)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        engine_games(MemoryEventStore(), args.games, "mock")
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
        return

    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(args.games, args.repeats, Path(tmp))
    print(
        f"{args.games} games per run (16 for the durable rows), best of {args.repeats}; "
        f"spread = (max-min)/min across repeats; {os.cpu_count()} cores; "
        f"{'default' if args.default_gc else 'werewolf.heap'} collector settings"
    )
    print(f"{'configuration':56} {'rate':>12} {'unit':9} {'vs bare':>8} {'spread':>7}  target")
    for r in rows:
        ratio = "" if r.ratio is None else f"{r.ratio:.4f}"
        verdict = "" if r.met is None else ("met" if r.met else "NOT met")
        target = f"{r.target} ({verdict})" if r.target else ""
        print(f"{r.name:56} {r.rate:12,.1f} {r.unit:9} {ratio:>8} {r.spread:7.1%}  {target}")


if __name__ == "__main__":
    main()
