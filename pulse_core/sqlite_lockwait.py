"""Waiting for another process's write lock on a SQLite store: a word after a second,
and a limit when one is set.

A writer waits in two places: for the stores' own turn (the ``flock`` on ``<file>-lock``,
``pulse_core.sqlite_writers``) and for SQLite's write lock (byte 120 of ``<file>-shm``,
taken by ``BEGIN IMMEDIATE``: the ``sqlite3`` shell or any other program). A holder that
does not let go (a stopped process, a forgotten shell) would make the writer wait without
a word: ``LockWait`` tells ``on_wait`` who holds the lock once ``NOTICE_AFTER`` has passed
and raises ``StoreLockedError`` once ``timeout`` has (``math.inf``: never).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from .errors import StoreLockedError

__all__ = ["NOTICE_AFTER", "LockWait", "lock_holder"]

NOTICE_AFTER = 1.0  # seconds a writer waits before it says who it waits for
_WAL_WRITE_LOCK = 120  # the -shm byte SQLite locks for its one writer


def _locks_on(path: Path) -> list[tuple[str, int, int, int]]:
    """The write locks ``/proc/locks`` lists on ``path``'s file: (type, pid, start, end);
    empty where there is no /proc (the holder is then "another process")."""
    try:
        stat = os.stat(path)
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    device = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    found = []
    for line in lines:
        words = line.split()
        if "->" in words or len(words) < 8 or words[3] != "WRITE" or words[5] != device:
            continue  # a waiter, a read lock, another file
        end = words[7]
        found.append((words[1], int(words[4]), int(words[6]), -1 if end == "EOF" else int(end)))
    return found


def _describe(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            words = fh.read().split(b"\0")
    except OSError:
        return f"process {pid}"
    command = " ".join(" ".join(w.decode(errors="replace").split()) for w in words if w)
    command = command if len(command) <= 60 else command[:57] + "..."
    return f"process {pid} ({command})" if command else f"process {pid}"


def lock_holder(database: Path) -> str:
    """Who holds ``database``'s write lock, as far as this system tells: "process 123
    (sqlite3 w.db)", or "another process"."""
    lock = database.with_name(database.name + "-lock")
    index = database.with_name(database.name + "-shm")
    me = os.getpid()
    for kind, pid, start, end in _locks_on(index):
        covers = start <= _WAL_WRITE_LOCK and (end == -1 or end >= _WAL_WRITE_LOCK)
        if kind == "POSIX" and pid != me and covers:
            return _describe(pid)
    for kind, pid, _start, _end in _locks_on(lock):
        if kind == "FLOCK" and pid != me:
            return _describe(pid)
    return "another process"


class LockWait:
    """One writer's wait for the write lock of ``database``."""

    def __init__(
        self, database: Path, timeout: float, on_wait: Callable[[str], None] | None
    ) -> None:
        self.database = database
        self.timeout = timeout
        self.on_wait = on_wait
        self._start = time.monotonic()
        self._told = False

    def next_wait(self) -> float:
        """How long to wait before ``check`` must look again (at most a second)."""
        now = time.monotonic()
        until = [now + 1.0, self._start + self.timeout]
        if not self._told:
            until.append(self._start + NOTICE_AFTER)
        return max(0.001, min(until) - now)

    def check(self) -> None:
        """Say who holds the lock once it has been waited for a second; raise
        ``StoreLockedError`` once the timeout has passed (after saying it, if due)."""
        waited = time.monotonic() - self._start
        if not self._told and waited >= NOTICE_AFTER:
            self._told = True
            if self.on_wait is not None:
                self.on_wait(lock_holder(self.database))
        if waited >= self.timeout:
            raise StoreLockedError(str(self.database), lock_holder(self.database), self.timeout)
