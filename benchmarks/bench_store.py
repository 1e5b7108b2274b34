"""The SQLite store's write path, by content layout: what one tick of many topics costs.

Each tick appends one event to each of ``--topics`` topics with ``append_batch``, as the
adapter does, its contents handed over with it. Two layouts are timed in the same run,
interleaved (the machine's load falls on both alike):

- ``inline``: the default store; contents are rows of its ``objects`` table, written in the
  events' transaction (one commit, and when durable one sync, per tick);
- ``files``: every content a file of its own (``FileObjectStore``: temp file, fsync, rename,
  folder fsync when durable), stored before the events' transaction, as every store did
  before schema 4.

Printed per layout and durability: ticks and events per second (wall), CPU microseconds per
event, and the medians over ``--repeats``.

Then ``--processes`` processes (default: one per core) write their own topics into one
durable file at once, as an arena's workers do, each spending ``--think`` ms of CPU before
each tick (its players' share). Two designs, interleaved: ``store``, the store's (writers
take turns through a flock beside the file and sync the WAL after letting the next one in,
``pulse_core.sqlite_writers``), and ``sqlite``, SQLite's own (``synchronous=FULL``: the sync
inside the commit, under the write lock; a writer that finds the lock taken sleeps 1, 2, 5,
10 ms... and tries again). Printed: ticks per second of all processes together, and the
wall milliseconds an append took, its sync and its wait for the other writers included.

    .venv/bin/python benchmarks/bench_store.py                 # 16 topics, 60 ticks
    .venv/bin/python benchmarks/bench_store.py --topics 60 --ticks 30 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from pulse_core import Draft, FileObjectStore, IdSource, SQLiteEventStore, digest_of
from pulse_core.sqlite_writers import WriterQueue

# a day speech's size of content and meta, as a mock game writes them
SPEECH = "I watched seat {n} hesitate on the vote; a villager does not count the wolves. " * 4
META = {"seat": 3, "visible_to": None, "diff": {"spoken": [1, 2, 3], "phase": "day-speech"}}


Batch = tuple[list[tuple[Draft, int]], list[bytes]]


def tick_of(ids: IdSource, keys: list[str], tick: int) -> Batch:
    """One tick's drafts (one per topic, each at version ``tick``) and their contents."""
    items, blobs = [], []
    for n, key in enumerate(keys):
        content = f"{tick} {n} {SPEECH.format(n=n)}".encode()
        moment = ids.now()
        draft = Draft(ids.new(moment), moment, "bench.speech", key, digest_of(content), META)
        items.append((draft, tick))
        blobs.append(content)
    return items, blobs


def run(layout: str, durable: bool, topics: int, ticks: int, root: Path) -> tuple[float, float]:
    """Seconds of wall and of CPU for ``ticks`` ticks of ``topics`` topics."""
    objects = FileObjectStore(root / "objects", durable=durable) if layout == "files" else None
    store = SQLiteEventStore(root / "events.db", durable=durable, objects=objects)
    ids = IdSource()
    keys = [ids.new() for _ in range(topics)]
    wall, cpu = time.perf_counter(), time.process_time()
    for tick in range(ticks):
        store.append_batch(*tick_of(ids, keys, tick))
        store.read_after(tick * topics)  # the rule reads its tick back
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    store.close()
    return wall, cpu


def _spin(seconds: float) -> None:
    """Spend ``seconds`` of this process's CPU, as a tick's players do."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def open_durable(path: str, design: str) -> SQLiteEventStore:
    """A durable store that takes turns and syncs as ``design`` says."""
    store = SQLiteEventStore(path, durable=True)
    if design == "sqlite":  # the design before: no flock, and SQLite syncs in the commit
        store._writers = WriterQueue(Path(path), durable=False)
        store._writers._usable = False
        if store._own is not None:
            store._own._writers = store._writers
        store._db.execute("PRAGMA synchronous=FULL")
    return store


def _writer(path: str, design: str, topics: int, ticks: int, think: float, out: Connection) -> None:
    """One process's ticks into the shared file; sends the seconds its appends took."""
    store = open_durable(path, design)
    ids = IdSource()
    keys = [ids.new() for _ in range(topics)]
    appending = 0.0
    for tick in range(ticks):
        _spin(think)
        batch = tick_of(ids, keys, tick)
        started = time.perf_counter()
        store.append_batch(*batch)
        appending += time.perf_counter() - started
        store.read_after(store.last_seq() - topics)
    store.close()
    out.send(appending)


def shared(
    design: str, processes: int, topics: int, ticks: int, think: float, path: Path
) -> tuple[float, float]:
    """Wall seconds for ``processes`` processes to write their ticks into one durable file,
    and the mean wall seconds of one append."""
    SQLiteEventStore(path, durable=True).close()
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe(duplex=False) for _ in range(processes)]
    workers = [
        context.Process(target=_writer, args=(str(path), design, topics, ticks, think, sender))
        for _, sender in pipes
    ]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    appending = sum(receiver.recv() for receiver, _ in pipes)
    for worker in workers:
        worker.join()
    return time.perf_counter() - started, appending / (processes * ticks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=16)
    parser.add_argument("--ticks", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--think", type=float, default=2.5, help="ms of CPU before each tick")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args()
    if min(args.topics, args.ticks, args.repeats, args.processes) < 1 or args.think < 0:
        parser.error("--topics, --ticks, --repeats and --processes must be at least 1")
    configs = [(layout, durable) for durable in (True, False) for layout in ("files", "inline")]
    samples: dict[tuple[str, bool], list[tuple[float, float]]] = {c: [] for c in configs}
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            for index, (layout, durable) in enumerate(configs):
                root = Path(tmp) / f"{repeat}-{index}"
                samples[layout, durable].append(run(layout, durable, args.topics, args.ticks, root))
    events = args.topics * args.ticks
    rows = {}
    print(f"{args.topics} topics x {args.ticks} ticks, median of {args.repeats}")
    print(f"{'layout':8} {'durable':8} {'ticks/s':>9} {'events/s':>10} {'CPU us/event':>13}")
    for layout, durable in configs:
        wall = statistics.median(w for w, _ in samples[layout, durable])
        cpu = statistics.median(c for _, c in samples[layout, durable])
        rows[f"{layout} durable={durable}"] = {
            "ticks_per_s": args.ticks / wall,
            "events_per_s": events / wall,
            "cpu_us_per_event": cpu / events * 1e6,
        }
        print(
            f"{layout:8} {durable!s:8} {args.ticks / wall:9,.0f} {events / wall:10,.0f} "
            f"{cpu / events * 1e6:13.1f}"
        )
    per = max(1, args.topics // args.processes)
    designs = ("store", "sqlite")
    timed: dict[str, list[tuple[float, float]]] = {d: [] for d in designs}
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            for design in designs if repeat % 2 == 0 else designs[::-1]:
                path = Path(tmp) / f"shared-{repeat}-{design}" / "events.db"
                timed[design].append(
                    shared(design, args.processes, per, args.ticks, args.think / 1e3, path)
                )
    print(
        f"\n{args.processes} processes x {per} topics x {args.ticks} ticks into one durable "
        f"file, {args.think} ms of CPU before each tick, median of {args.repeats}"
    )
    print(f"{'design':8} {'ticks/s':>9} {'ms/append':>10}")
    for design in designs:
        wall = statistics.median(w for w, _ in timed[design])
        append = statistics.median(a for _, a in timed[design])
        rate = args.processes * args.ticks / wall
        rows[f"{args.processes} processes, {design}"] = {
            "ticks_per_s": rate,
            "ms_per_append": append * 1e3,
        }
        print(f"{design:8} {rate:9,.0f} {append * 1e3:10.2f}")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
