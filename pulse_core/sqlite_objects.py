"""The SQLite store's content objects: inline in its own file, the large ones as files.

An object of at most ``INLINE_MAX`` bytes is a row of the ``objects`` table (its SHA-256 as
hex, its bytes), written in the same transaction as the events that name it, so a tick's
contents and events cost one commit and one sync, and a crash keeps both or neither. A
larger object (a long attachment) stays a file under ``objects/`` beside the database,
written whole, synced and renamed into place before that commit as ``FileObjectStore``
does: SQLite reads small blobs faster than the file system, large ones slower, and a large
blob would pass through the WAL twice. Stores written before the table existed keep their
objects as files, and those are read where they are. Every read checks the hash.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from .errors import CorruptObjectError
from .objects import FileObjectStore, digest_of
from .sqlite_writers import WriterQueue

__all__ = ["INLINE_MAX", "SQLiteObjectStore"]

INLINE_MAX = 64 * 1024  # bytes: larger objects are files

Rows = list[tuple[str, bytes]]


class SQLiteObjectStore:
    """Objects in the event store's database (``objects`` table), the large ones in
    ``files``. Shares the event store's connection, lock and writer queue; ``inline=False``
    for a store opened read-only before its migration, which has no table yet."""

    def __init__(
        self,
        db: sqlite3.Connection,
        lock: threading.RLock,
        writers: WriterQueue,
        files: FileObjectStore,
        path: Path,
        *,
        inline: bool = True,
    ) -> None:
        self._db = db
        self._lock = lock
        self._writers = writers
        self.files = files
        self.path = path
        self._inline = inline

    # -- writes ---------------------------------------------------------------------------
    def stage(
        self, blobs: Iterable[bytes], known: Sequence[str] | None = None
    ) -> tuple[list[str], Rows]:
        """Each blob's hash (``known``: the caller's, trusted), and the rows to insert with
        ``insert`` inside the caller's transaction; the large blobs are stored as files
        here, before that transaction."""
        digests: list[str] = []
        rows: Rows = []
        large: list[bytes] = []
        for index, data in enumerate(blobs):
            digest = digest_of(data) if known is None else known[index]
            digests.append(digest)
            if len(data) > INLINE_MAX or not self._inline:
                large.append(data)
            else:
                rows.append((digest, bytes(data)))
        if large:
            self.files.put_many(large)
        return digests, rows

    def insert(self, rows: Rows) -> None:
        """Insert staged rows; call inside an open write transaction, holding the lock."""
        if rows:
            self._db.executemany("INSERT OR IGNORE INTO objects (hash, data) VALUES (?, ?)", rows)

    def put(self, data: bytes) -> str:
        return self.put_many([data])[0]

    def put_many(self, blobs: Iterable[bytes]) -> list[str]:
        """Store the blobs in one transaction (large ones as files first); content already
        stored takes no write lock, as a file already there is not written again."""
        digests, rows = self.stage(blobs)
        with self._lock:
            rows = [row for row in rows if not self._stored(row[0])]
            if not rows:  # maybe another process's commit, not yet synced: sync it
                self._writers.sync()
                return digests
            with self._writers.transaction(self._db):
                self.insert(rows)
        return digests

    # -- reads ----------------------------------------------------------------------------
    def _table(self) -> bool:
        """Whether the ``objects`` table exists: a reader opened before another process
        migrated the file finds it on its first read after the migration."""
        if not self._inline:
            with self._lock:
                found = self._db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'objects'"
                ).fetchone()
            self._inline = found is not None
        return self._inline

    def _stored(self, digest: str) -> bool:
        """Whether the table holds ``digest`` (call holding the lock, the table present)."""
        found = self._db.execute("SELECT 1 FROM objects WHERE hash = ?", (digest,)).fetchone()
        return found is not None

    def _row(self, digest: str) -> bytes | None:
        if not self._table():
            return None
        with self._lock:
            row = self._db.execute("SELECT data FROM objects WHERE hash = ?", (digest,)).fetchone()
        return None if row is None else bytes(row[0])

    def get(self, digest: str) -> bytes:
        data = self._row(digest)
        if data is None:
            return self.files.get(digest)
        if digest_of(data) != digest:
            raise CorruptObjectError(digest, f"in {self.path}")
        return data

    def has(self, digest: str) -> bool:
        if self._table():
            with self._lock:
                if self._stored(digest):
                    return True
        return self.files.has(digest)

    def where(self, digest: str) -> str:
        """Where the object is, for messages: the database (inline), its file, or just its
        hash when it is in neither."""
        if self._row(digest) is not None:
            return f"{digest} in {self.path}"
        if self.files.has(digest):
            return str(self.files.path_of(digest))
        return digest
