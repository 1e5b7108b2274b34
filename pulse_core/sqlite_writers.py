"""The SQLite store's write transactions: one writer of a file at a time, queued by the
kernel, each synced after it lets the next one in.

Turns. A writer that finds a file's write lock taken is made by SQLite to sleep and try
again (1, 2, 5, 10 ms... in its busy handler), far longer than a transaction holds the
lock, so processes writing one file at once, as an arena's workers do, lose much of their
time asleep. The stores' writers therefore first take an exclusive ``flock`` on
``<file>-lock`` beside the database: the kernel queues the waiters and wakes the next one
as the holder lets go. It only orders the stores' writers: SQLite's own locks still guard
the file, and a writer without the flock (the ``sqlite3`` shell) is waited for through the
busy timeout as before. A holder killed by SIGKILL loses the flock with its file
descriptors; a stopped one keeps it until it goes on or dies. A writer waits in that queue
in a thread of its own, so that it can say who holds the lock after a second and give up
at its ``lock_timeout`` (``pulse_core.sqlite_lockwait``); the queue is entered only when a
non-blocking try finds the lock taken. The lock file is opened for each transaction,
so a forked child never shares a parent's turn. Where it cannot be made or flocked, SQLite's
locks order the writers alone.

Durability. With ``synchronous=FULL`` SQLite syncs the WAL inside the commit, holding the
write lock, so writers queue behind each other's syncs. A durable store commits with
``synchronous=NORMAL`` instead and, once the transaction is over and the lock let go,
syncs the WAL file itself before the write returns: the frames of every transaction
committed so far are then on disk, so the write is as durable when it returns as with
FULL, and the syncs of several processes overlap (one may cover another's commit). NORMAL
keeps the file consistent through a power cut: SQLite syncs the WAL before each
checkpoint, the database after it, and a reused WAL's header before its first frame, so a
commit a checkpoint moved into the database is on disk there. What changes is that another
connection may read a commit a moment before its sync; a power cut in that moment loses it,
as it loses any write that has not returned.
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from .sqlite_lockwait import LockWait
from .sqlite_room import IndexRoom

__all__ = ["WriterQueue", "lock_path", "wal_path"]

_datasync = getattr(os, "fdatasync", os.fsync)  # the data and the size, not the times


def lock_path(database: Path) -> Path:
    """The lock file of ``database``'s writers, named as SQLite names its ``-wal``."""
    return database.with_name(database.name + "-lock")


def wal_path(database: Path) -> Path:
    """The write-ahead log SQLite keeps beside ``database``."""
    return database.with_name(database.name + "-wal")


class WriterQueue:
    """The write transactions of one connection to ``database``: each holding the flock,
    and when ``durable`` synced before it returns."""

    def __init__(
        self,
        database: Path,
        *,
        durable: bool,
        busy_timeout: float = 30.0,
        lock_timeout: float | None = None,
        on_lock_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.durable = durable
        # how long a write waits for another process's write lock (None: its turn as long
        # as it takes, SQLite's lock busy_timeout; math.inf: both as long as they take)
        self.lock_timeout = lock_timeout
        self._busy = busy_timeout
        self.on_lock_wait = on_lock_wait  # told who holds the lock after a second
        self.place(database)
        self._usable = True  # False once the lock file could not be made or locked
        self._wal_fd: int | None = None

    def place(self, database: Path, page_size: int = 4096) -> None:
        """Name the files after ``database`` as SQLite resolved it (``PRAGMA
        database_list``: absolute, symlinks followed), so that a relative path and a later
        ``chdir``, or a symlinked file, still name the WAL SQLite writes."""
        self.database = database
        self.path = lock_path(database)
        self._wal = wal_path(database)
        self.room = IndexRoom(database, page_size)

    def _take_turn(self, wait: LockWait) -> int | None:
        """The lock file opened and flocked, or None where it cannot be. It is opened for
        each transaction, not kept: a forked child would share a kept descriptor's lock
        (and keep it held past a killed parent), and an open is cheap beside a commit."""
        if not self._usable:
            return None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:  # a folder the store may write its file in but not add to
            self._usable = False
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another writer's turn
            return self._queue(fd, wait)
        except OSError:  # no flock here (some network file systems): SQLite's locks alone
            os.close(fd)
            self._usable = False
            return None
        return fd

    def _queue(self, fd: int, wait: LockWait) -> int | None:
        """Wait in the kernel's queue for the flock (in a thread, so that this one can say
        who holds it and give up at the timeout); an abandoned wait lets go of the lock as
        soon as it gets it."""
        taken = threading.Event()
        guard = threading.Lock()
        state = {"abandoned": False, "usable": True}

        def take() -> None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                state["usable"] = False
            with guard:
                taken.set()
                if state["abandoned"]:
                    os.close(fd)

        threading.Thread(target=take, name="store-turn", daemon=True).start()
        while not taken.wait(wait.next_wait()):
            try:
                wait.check()
            except BaseException:
                with guard:
                    if not taken.is_set():
                        state["abandoned"] = True
                        raise
                break  # taken meanwhile: the turn is ours after all
        if not state["usable"]:
            os.close(fd)
            self._usable = False
            return None
        return fd

    def _begin(self, db: sqlite3.Connection, wait: LockWait) -> None:
        """``BEGIN IMMEDIATE``, waiting for SQLite's write lock at most a second at a time
        (its busy timeout, put back after) so that ``wait`` can speak and give up."""
        db.execute(f"PRAGMA busy_timeout={round(wait.next_wait() * 1000)}")
        try:
            while True:
                try:
                    db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) and "busy" not in str(exc):
                        raise
                wait.check()
                db.execute(f"PRAGMA busy_timeout={round(wait.next_wait() * 1000)}")
        finally:
            db.execute(f"PRAGMA busy_timeout={round(self._busy * 1000)}")

    @contextlib.contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` on ``db`` holding the flock, rolled back when
        the block raises; the flock is let go once the transaction has ended either way,
        and a committed one is synced (``sync``) after that. The WAL index's blocks are
        allocated first (``sqlite_room``): a full disk is an ENOSPC here, not a SIGBUS."""
        self.room.fill()
        limit = self.lock_timeout
        wait = LockWait(self.database, math.inf if limit is None else limit, self.on_lock_wait)
        fd = self._take_turn(wait)
        if limit is None:  # SQLite's lock: its busy timeout, from now
            wait = LockWait(self.database, self._busy, self.on_lock_wait)
        try:
            self._begin(db, wait)
            try:
                yield
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # a failed COMMIT (a full disk) already ended it
                    db.execute("ROLLBACK")
                raise
        finally:
            if fd is not None:
                os.close(fd)  # lets go of the flock
        self.sync()

    def sync(self) -> None:
        """When durable, put every transaction committed to the file so far on disk: one
        sync of its WAL. The WAL stays while a connection is open, so its descriptor is
        kept; the folder is synced once too, so that a WAL file just made is found after a
        power cut."""
        if not self.durable:
            return
        if self._wal_fd is None:
            self._wal_fd = os.open(self._wal, os.O_RDONLY | os.O_CLOEXEC)
            folder = os.open(self._wal.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        _datasync(self._wal_fd)

    def close(self) -> None:
        if self._wal_fd is not None:
            os.close(self._wal_fd)
        self._wal_fd = None
