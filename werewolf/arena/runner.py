"""Playing a run: games started, continued and finished in the store, durably.

``play_run`` plays every game of a run that has not ended. A game is started with its
planned seed, deal and seating under a fixed id (so a restart never duplicates it), driven
by a ``WorkflowRule`` scoped to the run's games, and lands in the store phase by phase.
Stopped at any point (Ctrl-C, a crash, the budget), a run continues where it stopped: ended
games are skipped, games in progress are taken up where their log ends, failed ones are
resumed, missing ones are started (``driver``, followed by ``tally``). Runs without LLM
players may use several processes, each playing a share of the games into the same SQLite
file with its own connection.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.queues import SimpleQueue
from pathlib import Path

from pulse_core import SQLiteEventStore
from pulse_core.limits import clip

from ..errors import ArenaError, ConfigError, StoreFault
from ..heap import tune_for_play
from ..storefaults import STORAGE_ERRORS, explain, lock_notice, open_store
from .driver import drive
from .seating import SeatFactory, forkable, seat_player
from .spec import RunSpec, load_run
from .tally import RunProgress, Tally

__all__ = [
    "RunResult",
    "check_play",
    "check_store_path",
    "open_run_store",
    "play_run",
]


def open_run_store(
    path: Path, *, read_only: bool = False, lock_timeout: float | None = None, then: str = ""
) -> SQLiteEventStore:
    """The store a run plays into. Not fsynced per append: a killed process loses nothing,
    a power cut may lose the last moves, which a restart plays again. ``read_only`` for the
    commands that only read (report, list): they work on a read-only file system. A write
    waits for another process's write lock up to ``lock_timeout`` seconds (None: as long
    as it takes), saying on stderr who holds it after a second. ``then``: how to go on,
    ending the line of a store that cannot be opened (``open_store``)."""
    return open_store(
        path,
        durable=False,
        read_only=read_only,
        lock_timeout=lock_timeout,
        on_lock_wait=lock_notice(path, _say),
        then=then,
    )


def _say(line: str) -> None:
    sys.stderr.write(f"werewolf: {line}\n")


@dataclass(frozen=True, slots=True)
class RunResult:
    progress: RunProgress
    stopped: str | None  # why the run stopped early (the budget), else None
    seconds: float
    workers: int

    @property
    def complete(self) -> bool:
        return len(self.progress.ended) == self.progress.total


def check_store_path(path: Path) -> None:
    """Refuse a --store that is a folder, or whose folder is a file, before anything is
    written for the run."""
    if path.exists() and not path.is_file():
        raise ConfigError([("--store", f"{clip(path, 300)}: not a store file (a folder?)")])
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ConfigError([("--store", f"{clip(parent, 300)} is a file, not a folder")])
            break


def check_play(spec: RunSpec, *, workers: int, factory: SeatFactory) -> None:
    """Refuse what ``play_run`` would refuse, so the command can check it before it saves
    the run file."""
    if workers < 1:
        raise ConfigError([("--workers", f"must be at least 1, not {workers}")])
    if workers > 1 and (spec.uses_tokens or not forkable(factory)):
        raise ConfigError(
            [
                (
                    "--workers",
                    "several processes are for mock runs: LLM games run concurrently "
                    "in one process (--concurrency)",
                )
            ]
        )
    _check_prices(spec)


def _check_prices(spec: RunSpec) -> None:
    if spec.budget.usd is None:
        return
    missing = sorted(
        {
            p.spec.model
            for p in spec.players
            if p.uses_tokens and p.spec.model and p.spec.model not in spec.prices
        }
    )
    if missing:
        raise ConfigError(
            [("--budget-usd", f"a USD budget needs a price for model {m!r}") for m in missing]
        )


# -- processes ---------------------------------------------------------------------------------
EXIT_ORPHANED = 3  # a worker whose parent died: it stops rather than play on unwatched
EXIT_STORAGE = 4  # a worker stopped by a storage fault, which it sent to the parent


def _die_with_parent() -> None:
    """End this worker as soon as the process that forked it is gone, even by kill -9: a
    worker left playing would race the next run of the same command. The parent's end of
    multiprocessing's sentinel pipe closes when it dies, so the read end sees EOF."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(EXIT_ORPHANED)  # no cleanup: the store's last transaction rolls back

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _play_share(
    run_file: str,
    store_path: str,
    indices: list[int],
    concurrency: int,
    faults: SimpleQueue[str],
    lock_timeout: float | None,
) -> None:
    """One worker process: its share of the games, on its own connection to the store. A
    storage fault goes to the parent as one line (``faults``), never as a traceback."""
    # Ctrl-C reaches the whole process group; the parent stops its workers itself, so a
    # worker does not print a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    spec = load_run(Path(run_file))
    tune_for_play()  # a worker is an entry point of its own (werewolf.heap)
    then = shlex.join(["werewolf", "arena", "run", "--name", spec.name, "--store", store_path])
    try:
        # the other workers may have filled the disk before this one opens the store
        store = open_run_store(Path(store_path), lock_timeout=lock_timeout, then=then)
        try:
            asyncio.run(drive(spec, store, indices, concurrency=concurrency))
        finally:
            store.close()
    except StoreFault as exc:  # the store could not be opened: its line is written
        faults.put(str(exc))
        os._exit(EXIT_STORAGE)
    except STORAGE_ERRORS as exc:
        faults.put(explain(exc, Path(store_path), then))
        os._exit(EXIT_STORAGE)


def _shares(indices: Sequence[int], workers: int) -> list[list[int]]:
    shares = [list(indices[w::workers]) for w in range(workers)]
    return [s for s in shares if s]


def _todo(spec: RunSpec, store_path: Path) -> list[int]:
    store = open_run_store(store_path)
    try:
        tally = Tally(spec, store)
        ended = tally.update().ended
    finally:
        store.close()
    return [i for i in range(spec.games) if i not in ended]


def play_run(
    spec: RunSpec,
    run_file: Path,
    store_path: Path,
    *,
    concurrency: int = 8,
    workers: int = 1,
    factory: SeatFactory = seat_player,
    on_progress: Callable[[RunProgress], None] | None = None,
    lock_timeout: float | None = None,
) -> RunResult:
    """Play every game of the run not yet ended; see the module docstring.

    ``run_file`` must hold ``spec`` (worker processes read it). ``workers`` above 1 plays
    in that many processes; only for runs without LLM players (their budget is counted in
    one process, and their concurrency is asyncio's, not processes').
    """
    if concurrency < 1:
        raise ConfigError([("--concurrency", f"must be at least 1, not {concurrency}")])
    check_play(spec, workers=workers, factory=factory)
    began = time.perf_counter()
    # worker processes are forked before this process opens the store: a forked child
    # must not inherit an open SQLite connection
    faults: SimpleQueue[str] = multiprocessing.get_context("fork").SimpleQueue()
    processes = _fork_workers(
        spec, run_file, store_path, concurrency, workers, faults, lock_timeout
    )
    store = open_run_store(store_path, lock_timeout=lock_timeout)
    try:
        tally = Tally(spec, store)
        tally.update()
        report = (lambda: on_progress(tally.progress)) if on_progress is not None else None
        if report is not None:
            report()
        stopped = tally.over_budget()
        if processes:
            _wait_for(processes, tally, report, faults)
        elif stopped is None:
            todo = [i for i in range(spec.games) if i not in tally.progress.ended]
            if todo:
                stopped = asyncio.run(
                    drive(
                        spec,
                        store,
                        todo,
                        concurrency=concurrency,
                        factory=factory,
                        tally=tally,
                        on_tick=report,
                    )
                )
        tally.update()
        if report is not None:
            report()
        used = len(processes) or 1  # a run with little left plays in this process
        return RunResult(tally.progress, stopped, time.perf_counter() - began, used)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join()
        store.close()


def _fork_workers(
    spec: RunSpec,
    run_file: Path,
    store_path: Path,
    concurrency: int,
    workers: int,
    faults: SimpleQueue[str],
    lock_timeout: float | None,
) -> list[BaseProcess]:
    if workers == 1:
        return []
    shares = _shares(_todo(spec, store_path), workers)
    if len(shares) < 2:
        return []  # not worth a process: play here
    context = multiprocessing.get_context("fork")
    processes: list[BaseProcess] = [
        context.Process(
            target=_play_share,
            args=(str(run_file), str(store_path), share, concurrency, faults, lock_timeout),
            name=f"arena-{spec.name}-{n}",
            daemon=True,
        )
        for n, share in enumerate(shares)
    ]
    for process in processes:
        process.start()
    return processes


def _wait_for(
    processes: Sequence[BaseProcess],
    tally: Tally,
    report: Callable[[], None] | None,
    faults: SimpleQueue[str],
) -> None:
    """Follow the workers' games in the store until every worker has finished."""
    while True:
        for process in processes:
            process.join(timeout=0.2 / len(processes))
        tally.update()
        if report is not None:
            report()
        failed = [p for p in processes if p.exitcode not in (None, 0)]
        if failed:
            if failed[0].exitcode == EXIT_STORAGE and not faults.empty():
                raise StoreFault(faults.get())
            raise ArenaError(f"worker {failed[0].name} stopped with exit code {failed[0].exitcode}")
        if all(p.exitcode == 0 for p in processes):
            return
