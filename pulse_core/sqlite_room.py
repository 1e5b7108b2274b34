"""Room on the disk for the WAL index that SQLite maps into memory.

A WAL database's index lives in ``<file>-shm``, which every connection maps with mmap
and writes through the map. SQLite grows it a 32 KB region at a time by writing one byte
at the end of each 4 KB page: where the file system's blocks are smaller than a page
(ext4 makes 1 KB blocks on a small volume) the rest of each page stays a hole, and the
first write into a hole through the map has to allocate a block then. On a full disk
there is none, and the kernel answers that page fault with SIGBUS: the process dies
without a word, and so does every later reader, which makes the file again the same way.
(A write() would have failed with ENOSPC, which SQLite reports as "disk is full".)

Two guards close that. ``check_room`` refuses to open a store whose file system has less
than ``ROOM`` free, before SQLite maps anything (an open may make the first region);
``IndexRoom.fill`` allocates every block of the index file, up to a region beyond what
the WAL can use, once the store is open and again before each write transaction, so no
write through the map needs a new block: a full disk is then an ``OSError`` (ENOSPC)
here or SQLite's "disk is full", never a signal. The database file itself is never
mapped (``PRAGMA mmap_size=0``, set where the connection is opened). What is left is
another process taking the last ``ROOM`` of the disk between the check and the fill.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

__all__ = ["ROOM", "IndexRoom", "check_room", "free_bytes", "index_path"]

REGION = 32 * 1024  # SQLite's wal-index region: 4096 frames (the first holds 4062)
ROOM = 4 * REGION  # free space below which a store is not opened
_WAL_HEADER = 32
_FRAME_HEADER = 24
_FRAMES_PER_REGION = 4062  # the first region's count; later ones hold 4096


def index_path(database: Path) -> Path:
    """The WAL index SQLite keeps beside ``database``."""
    return database.with_name(database.name + "-shm")


def free_bytes(folder: Path) -> int | None:
    """Bytes a process may still write on ``folder``'s file system (not counting what is
    kept for root: ext4 also keeps blocks root cannot have), or None on a read-only one,
    where SQLite maps nothing to write."""
    try:
        stats = os.statvfs(folder)
    except OSError:  # no such folder yet: opening says why
        return None
    if stats.f_flag & os.ST_RDONLY:
        return None
    return stats.f_bavail * stats.f_frsize


def check_room(database: Path) -> None:
    """Raise ``OSError`` (ENOSPC) when ``database``'s file system has less than ``ROOM``
    free: SQLite could not make the WAL index's blocks, and would die of SIGBUS."""
    free = free_bytes(database.parent)
    if free is not None and free < ROOM:
        raise OSError(
            errno.ENOSPC,
            f"No space left on device: {free // 1024} KB free, a store needs {ROOM // 1024} KB",
            str(database),
        )


class IndexRoom:
    """The blocks of one database's WAL index, allocated ahead of SQLite's use of them
    (the caller holds the connection's lock: SQLite's descriptor stays open meanwhile)."""

    def __init__(self, database: Path, page_size: int) -> None:
        self._index = index_path(database)
        self._wal = database.with_name(database.name + "-wal")
        self._frame = page_size + _FRAME_HEADER
        self._ready = 0  # the index size allocated so far

    def fill(self) -> None:
        """Allocate the index file's blocks up to one region past what the WAL's frames
        can use (and past what SQLite made): ``OSError`` (ENOSPC) when the disk is full.
        Done on SQLite's own descriptor of the file (``_sqlite_fd``); where this process
        has none (an ``immutable`` reader, no ``/proc``), nothing is done."""
        try:
            wal = os.stat(self._wal).st_size
        except FileNotFoundError:
            wal = 0
        frames = max(0, wal - _WAL_HEADER) // self._frame
        want = (frames // _FRAMES_PER_REGION + 2) * REGION
        if want <= self._ready:
            return
        fd = _sqlite_fd(self._index)
        if fd is None:
            return
        size = os.fstat(fd).st_size
        # fallocate keeps what is written and fills only the holes
        os.posix_fallocate(fd, 0, max(want, -(-size // REGION) * REGION))
        self._ready = want


def _sqlite_fd(index: Path) -> int | None:
    """The descriptor SQLite holds on ``index``, found in ``/proc/self/fd`` by its inode.
    Never a descriptor of one's own: SQLite's locks on the file are POSIX locks, which the
    close of any descriptor of the file in this process would let go of."""
    try:
        target = os.stat(index)
        names = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for name in names:
        try:
            found = os.stat(f"/proc/self/fd/{name}")  # the open file, not opened again
        except OSError:  # closed meanwhile (listdir's own descriptor among them)
            continue
        if (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino):
            return int(name)
    return None
