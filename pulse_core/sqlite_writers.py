"""The SQLite store's write transactions, one writer of a file at a time, queued by the kernel.

A writer that finds a file's write lock taken is made by SQLite to sleep and try again
(1, 2, 5, 10 ms... in its busy handler), far longer than a tick's transaction holds the lock
(under a millisecond, its sync included), so processes writing one file at once, as an
arena's workers do, lose much of their time asleep. The stores' writers therefore first take
an exclusive ``flock`` on ``<file>-lock`` beside the database: the kernel queues the
waiters and wakes the next one as the holder lets go. It only orders the stores' writers:
SQLite's own locks still guard the file, and a writer without the flock (the ``sqlite3``
shell) is waited for through the busy timeout as before. A holder killed by SIGKILL loses
the flock with its file descriptors; a stopped one keeps it until it goes on or dies, where
SQLite alone would make the others give up after the busy timeout. Where the lock file
cannot be made, SQLite's locks order the writers alone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

__all__ = ["WriterQueue", "lock_path"]


def lock_path(database: Path) -> Path:
    """The lock file of ``database``'s writers, named as SQLite names its ``-wal``."""
    return database.with_name(database.name + "-lock")


class WriterQueue:
    """The write transactions of one connection to ``database``, each holding the flock."""

    def __init__(self, database: Path) -> None:
        self.path = lock_path(database)
        self._fd: int | None = None
        self._usable = True  # False once the lock file could not be made

    def _lock_fd(self) -> int | None:
        if self._fd is None and self._usable:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:  # a folder the store may write its file in but not add to
                self._usable = False
        return self._fd

    @contextlib.contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` on ``db`` holding the flock, rolled back when
        the block raises; the flock is let go once the transaction has ended either way."""
        fd = self._lock_fd()
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # a failed COMMIT (a full disk) already ended it
                    db.execute("ROLLBACK")
                raise
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # lets go of the flock, were it held
            self._fd = None
