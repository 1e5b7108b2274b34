"""pulse_core store and adapter figures: appends per second, and tick() cost as a store grows.

Run: ``.venv/bin/python benchmarks/bench_core.py`` (about two minutes) or ``--quick``.

1. Appends per second for the memory store, SQLite ``durable=True`` and ``durable=False``:
   "append" with the content already in the object store, "put+append" storing a new
   content first (what the adapter does for every event).
2. The cost of ``tick()`` per new event while the store holds 1k, 10k, 100k events of
   finished topics of a two-role workflow (start -> a -> b -> end). The filler topics are
   appended directly; a rule catches up on them once, then the run times the ticks that move
   a few new topics to their end. Work per tick should follow new events, not the store size,
   so the per-event cost should stay flat ("vs 1,000" is its ratio to the smallest store),
   and so should an idle tick, one with nothing new to read. "calls/event" counts Python
   function calls per new event in one profiled run: the same measure of work, free of the
   machine's noise.

Every figure is the median of a few repeats; "spread" is (max - min) / median over those
repeats, the noise of this machine for that row.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import platform
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from pulse_core import (
    END,
    START,
    Draft,
    Event,
    EventStore,
    IdSource,
    MemoryEventStore,
    RoleResult,
    SQLiteEventStore,
    WorkflowRule,
    WorkflowType,
)

STORES = ("memory", "sqlite durable", "sqlite durable=False")


@dataclass(frozen=True)
class Plan:
    appends: dict[str, int]  # events per repeat, by store
    append_repeats: int
    sizes: tuple[int, ...]  # store sizes for the tick figures
    new_topics: int  # topics moved to their end per timed run
    tick_repeats: int
    tick_stores: tuple[str, ...]


FULL = Plan(
    appends={"memory": 20_000, "sqlite durable": 300, "sqlite durable=False": 3_000},
    append_repeats=5,
    sizes=(1_000, 10_000, 100_000),
    new_topics=50,
    tick_repeats=7,
    tick_stores=("memory", "sqlite durable=False"),
)
QUICK = Plan(
    appends={"memory": 5_000, "sqlite durable": 100, "sqlite durable=False": 1_000},
    append_repeats=3,
    sizes=(1_000, 10_000),
    new_topics=10,
    tick_repeats=5,
    tick_stores=("memory", "sqlite durable=False"),
)


@dataclass(frozen=True)
class Figure:
    median: float
    spread: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Figure:
        median = statistics.median(samples)
        return cls(median, (max(samples) - min(samples)) / median if median else 0.0)


@contextmanager
def quiet_gc() -> Iterator[None]:
    """No garbage collection inside a timed section (it would land on a random sample)."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@contextmanager
def opened(kind: str) -> Iterator[EventStore]:
    root = Path(tempfile.mkdtemp(prefix="pulse-bench-"))
    store: EventStore
    if kind == "memory":
        store = MemoryEventStore()
    else:
        store = SQLiteEventStore(root / "events.db", durable=kind == "sqlite durable")
    try:
        yield store
    finally:
        store.close()
        shutil.rmtree(root, ignore_errors=True)


# -- appends ------------------------------------------------------------------------------
def time_appends(kind: str, count: int, *, put_first: bool) -> float:
    """Events per second for ``count`` appends to fresh topics of 10 events each."""
    ids = IdSource()
    with opened(kind) as store:
        keys = [ids.new() for _ in range(count // 10 + 1)]
        contents = [f"event {i} of the benchmark".encode() for i in range(count)]
        if not put_first:
            digests = [store.objects.put(c) for c in contents]
        with quiet_gc():
            started = time.perf_counter()
            for i in range(count):
                digest = store.objects.put(contents[i]) if put_first else digests[i]
                moment = ids.now()
                draft = Draft(
                    id=ids.new(moment),
                    occurred_at=moment,
                    kind="bench.step",
                    key=keys[i // 10],
                    hash=digest,
                    meta={"i": i},
                )
                store.append(draft, i % 10)
            elapsed = time.perf_counter() - started
    return count / elapsed


# -- tick ---------------------------------------------------------------------------------
async def role_a(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
    return RoleResult("a")


async def role_b(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
    return RoleResult("b")


def next_role(last: Event, state: object) -> str:
    return {START: "a", "a": "b"}.get(last.role, END)


WORKFLOW: WorkflowType[None] = WorkflowType(
    name="bench", roles={"a": role_a, "b": role_b}, moderator=next_role
)


def fill(store: EventStore, events: int) -> int:
    """About ``events`` events of finished topics (start, a, b), appended directly.

    Only whole topics: a topic cut short would be driven on by the timed ticks.
    """
    ids = IdSource()
    digest = store.objects.put(b"filler")
    total = max(round(events / 3), 1) * 3
    for n in range(total):
        version = n % 3
        if version == 0:
            key = ids.new()
        moment = ids.now()
        role = (START, "a", "b")[version]
        draft = Draft(
            id=ids.new(moment),
            occurred_at=moment,
            kind=WORKFLOW.kind(role),
            key=key,
            hash=digest,
        )
        store.append(draft, version)
    return total


async def count_calls(rule: WorkflowRule[None], new_topics: int) -> float:
    """Python function calls per event for one more run: work, with no machine noise."""
    for _ in range(new_topics):
        rule.start("go")
    profile = cProfile.Profile()
    appended = 0
    profile.enable()
    while step := await rule.tick():
        appended += step
    profile.disable()
    calls: int = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    return calls / appended


@dataclass(frozen=True)
class TickFigures:
    events: int
    per_event_us: Figure
    idle_tick_us: Figure
    calls_per_event: float
    catch_up_s: float


async def time_ticks(kind: str, size: int, plan: Plan) -> TickFigures:
    with opened(kind) as store:
        events = fill(store, size)
        rule = WorkflowRule(WORKFLOW, store)
        started = time.perf_counter()
        await rule.tick()  # reads the whole log once and ends every filler topic
        catch_up = time.perf_counter() - started
        samples = []
        for _ in range(plan.tick_repeats):
            topics = [rule.start("go") for _ in range(plan.new_topics)]
            appended = 0
            with quiet_gc():
                started = time.perf_counter()
                while True:
                    step = await rule.tick()
                    appended += step
                    if step == 0:
                        break
                elapsed = time.perf_counter() - started
            if appended != 2 * plan.new_topics or any(rule.status(t) != "ended" for t in topics):
                raise RuntimeError(f"the workflow did not finish: {appended} events appended")
            samples.append(elapsed / appended * 1e6)
        calls = await count_calls(rule, plan.new_topics)
        idle = []
        for _ in range(plan.tick_repeats):
            with quiet_gc():
                started = time.perf_counter()
                await rule.tick()  # nothing new: should cost next to nothing at any size
                idle.append((time.perf_counter() - started) * 1e6)
    return TickFigures(events, Figure.of(samples), Figure.of(idle), calls, catch_up)


# -- report -------------------------------------------------------------------------------
def row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return "  ".join(
        c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def table(title: str, header: Sequence[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [list(header), *rows]) for i in range(len(header))]
    print(f"\n{title}")
    print(row(header, widths))
    print(row(["-" * w for w in widths], widths))
    for cells in rows:
        print(row(cells, widths))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smaller run (about 15 s)")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    began = time.perf_counter()
    print(
        f"pulse_core benchmark ({'quick' if args.quick else 'full'}): Python "
        f"{platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cpu(s); median of repeats, spread = (max - min) / median"
    )

    rows = []
    for kind in STORES:
        count = plan.appends[kind]
        repeats = range(plan.append_repeats)
        bare = Figure.of([time_appends(kind, count, put_first=False) for _ in repeats])
        full = Figure.of([time_appends(kind, count, put_first=True) for _ in repeats])
        rows.append(
            [
                kind,
                str(count),
                f"{bare.median:,.0f}",
                f"{bare.spread:.0%}",
                f"{full.median:,.0f}",
                f"{full.spread:.0%}",
            ]
        )
    table(
        f"appends per second ({plan.append_repeats} repeats)",
        ["store", "events", "append/s", "spread", "put+append/s", "spread"],
        rows,
    )

    rows = []
    for kind in plan.tick_stores:
        base: float | None = None
        for size in plan.sizes:
            figures = asyncio.run(time_ticks(kind, size, plan))
            per_event = figures.per_event_us
            base = base or per_event.median
            rows.append(
                [
                    kind,
                    f"{figures.events:,}",
                    f"{figures.catch_up_s:.2f}",
                    f"{per_event.median:,.1f}",
                    f"{per_event.spread:.0%}",
                    f"{per_event.median / base:.2f}",
                    f"{figures.idle_tick_us.median:,.0f}",
                    f"{figures.idle_tick_us.spread:.0%}",
                    f"{figures.calls_per_event:,.0f}",
                ]
            )
    table(
        f"tick() cost per new event ({plan.new_topics} new topics x 2 events, "
        f"{plan.tick_repeats} repeats)",
        [
            "store",
            "events in store",
            "catch-up s",
            "us/event",
            "spread",
            f"vs {plan.sizes[0]:,}",
            "idle tick us",
            "spread",
            "calls/event",
        ],
        rows,
    )
    print(f"\ntotal {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
