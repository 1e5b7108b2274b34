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

    .venv/bin/python benchmarks/bench_store.py                 # 16 topics, 60 ticks
    .venv/bin/python benchmarks/bench_store.py --topics 60 --ticks 30 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from pulse_core import Draft, FileObjectStore, IdSource, SQLiteEventStore, digest_of

# a day speech's size of content and meta, as a mock game writes them
SPEECH = "I watched seat {n} hesitate on the vote; a villager does not count the wolves. " * 4
META = {"seat": 3, "visible_to": None, "diff": {"spoken": [1, 2, 3], "phase": "day-speech"}}


def run(layout: str, durable: bool, topics: int, ticks: int, root: Path) -> tuple[float, float]:
    """Seconds of wall and of CPU for ``ticks`` ticks of ``topics`` topics."""
    objects = FileObjectStore(root / "objects", durable=durable) if layout == "files" else None
    store = SQLiteEventStore(root / "events.db", durable=durable, objects=objects)
    ids = IdSource()
    keys = [ids.new() for _ in range(topics)]
    wall, cpu = time.perf_counter(), time.process_time()
    for tick in range(ticks):
        items, blobs = [], []
        for n, key in enumerate(keys):
            content = f"{tick} {n} {SPEECH.format(n=n)}".encode()
            moment = ids.now()
            draft = Draft(ids.new(moment), moment, "bench.speech", key, digest_of(content), META)
            items.append((draft, tick))
            blobs.append(content)
        store.append_batch(items, blobs)
        store.read_after(tick * topics)  # the rule reads its tick back
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    store.close()
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=16)
    parser.add_argument("--ticks", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args()
    if min(args.topics, args.ticks, args.repeats) < 1:
        parser.error("--topics, --ticks and --repeats must be at least 1")
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
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
