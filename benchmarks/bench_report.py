"""Seconds for ``werewolf arena report`` of a large run: cold (every game read and folded
from the store) and warm (records from the report cache), and the figures alone.

The target is 1,000 games in under 2 s. Without ``--store`` the benchmark first plays a
mock round-robin of ``--games`` games into a temporary store (about a minute for 1,000 on
two cores); with ``--store`` and ``--name`` it reports on a run that is already there.

    .venv/bin/python benchmarks/bench_report.py                      # plays 1,008 games
    .venv/bin/python benchmarks/bench_report.py --games 120          # quicker
    .venv/bin/python benchmarks/bench_report.py --store S.db --name big
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from werewolf.app.arena_runs import build_report
from werewolf.arena.metrics import tournament_metrics
from werewolf.arena.record_cache import cache_path
from werewolf.arena.spec import load_run, run_path

PLAYERS = "mock:cautious,mock:steady,mock:bold,random"


def _cli(*args: str) -> tuple[float, float]:
    """Wall and CPU seconds for one ``werewolf`` command in a fresh process (imports
    included); CPU time is what a busy shared machine does not inflate."""
    start, cpu = time.perf_counter(), _child_cpu()
    subprocess.run(
        [sys.executable, "-c", "import sys, werewolf.cli; sys.exit(werewolf.cli.main())", *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start, _child_cpu() - cpu


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _median(times: list[tuple[float, float]]) -> str:
    wall = statistics.median(t[0] for t in times)
    cpu = statistics.median(t[1] for t in times)
    return f"{wall:.2f} s wall, {cpu:.2f} s CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1008)
    parser.add_argument("--store", type=Path, help="an existing store (with --name)")
    parser.add_argument("--name", default="bench")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = None
    store = args.store
    if store is None:
        folder = Path(tempfile.mkdtemp(prefix="bench-report-"))
        store = folder / "store.db"
        print(f"playing {args.games} mock games into {store} ...", flush=True)
        played = _cli(
            "arena", "run", "--players", PLAYERS, "--games", str(args.games),
            "--name", args.name, "--store", str(store), "-q",
        )  # fmt: skip
        print(f"  played in {played[0]:.1f} s")
    try:
        spec = load_run(run_path(store, args.name))
        report = ["arena", "report", args.name, "--store", str(store)]
        cold, warm = [], []
        for _ in range(args.repeats):
            cache_path(run_path(store, args.name)).unlink(missing_ok=True)
            cold.append(_cli(*report))
            warm.append(_cli(*report))
        records = build_report(spec, store).games.records
        names = [p.name for p in spec.players]
        figures = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                tournament_metrics(records, names, prices=spec.prices, seed=spec.seed)
            figures.append(time.perf_counter() - start)
        print(f"arena report of {len(records)} games (median of {args.repeats}):")
        print(f"  cold (reads and folds every game): {_median(cold)}")
        print(f"  warm (records from the cache):     {_median(warm)}")
        print(f"  figures alone (1,000 bootstraps):  {statistics.median(figures):.2f} s")
        ratio = statistics.median(t[0] for t in warm) / 2
        print(f"  target: under 2 s wall; warm / target = {ratio:.2f}")
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
