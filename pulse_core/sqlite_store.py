"""The embedded default event store: one SQLite file, with its events and their content.

WAL journal, ``BEGIN IMMEDIATE`` for every write, one transaction per append or batch
(``pulse_core.sqlite_writers``: processes writing one file take turns): the contents
(``pulse_core.sqlite_objects``: inline rows, the large ones as files in ``objects/`` beside
the file) and the events that name them commit together. With ``durable=True`` (the
default) an append is durable when it returns, at one sync of the WAL per transaction,
made after the commit lets the next writer in; ``durable=False`` skips that sync and can
lose the last appends on a power cut, never on a crash of the process alone. Both commit
with ``synchronous=NORMAL``, which keeps the file consistent through a power cut.
``UNIQUE(key, version)`` is the concurrency control; triggers refuse updates and deletes.
Its schema and migrations: ``pulse_core.sqlite_schema``; opening the file:
``pulse_core.sqlite_open``; rows read back as events: ``pulse_core.sqlite_rows``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Container, Sequence
from pathlib import Path

from .chain import GENESIS, draft_chain
from .errors import ConflictError, ImmutableLogError, InvalidEventError, PulseError
from .events import Draft, Event
from .objects import FileObjectStore, ObjectStore, put_all
from .sqlite_objects import SQLiteObjectStore
from .sqlite_open import (
    ensure_room,
    enter_wal,
    is_foreign,
    not_a_store,
    open_read_only,
    refuse_foreign,
    resolved,
)
from .sqlite_rows import COLUMNS, row_to_event
from .sqlite_schema import CHAIN_SCHEMA, OBJECTS_SCHEMA, migrate
from .sqlite_writers import WriterQueue
from .store import check_append, check_limit

__all__ = ["SQLiteEventStore"]

_HEADS_KEPT = 100_000  # topics whose head (version, chain hash) a store remembers
_UNREAD_KEPT = 10_000  # appended events kept for the next read_after


class SQLiteEventStore:
    """Events and their content in a SQLite file (large objects in ``objects/`` beside it);
    ``objects`` replaces that content store with another. A write waits up to
    ``lock_timeout`` seconds (None: ``busy_timeout``; ``math.inf``: as long as it takes) for
    another process's write lock, then raises ``StoreLockedError``; ``on_lock_wait`` is
    told who holds it after a second (``pulse_core.sqlite_lockwait``)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        objects: ObjectStore | None = None,
        durable: bool = True,
        busy_timeout: float = 30.0,
        read_only: bool = False,
        lock_timeout: float | None = None,
        on_lock_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        try:  # SQLite names its files (and reports them) in UTF-8: another name breaks later
            os.fsencode(os.path.abspath(self.path)).decode("utf-8")
        except UnicodeDecodeError:
            raise PulseError(f"{self.path}: the path is not valid UTF-8: rename it") from None
        if self.path.exists() and not self.path.is_file():  # SQLite would block on a pipe
            raise PulseError(f"{self.path}: not a store file (a folder, a device or a pipe)")
        if not read_only:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a read-only file system, a folder not ours
                raise PulseError(f"{self.path}: cannot make its folder ({exc})") from exc
            ensure_room(self.path)
        elif not self.path.is_file():
            raise PulseError(f"{self.path}: no such store")
        self._lock = threading.RLock()
        # opens its lock file on the first write
        self._writers = WriterQueue(
            self.path,
            durable=durable and not read_only,
            busy_timeout=busy_timeout,
            lock_timeout=lock_timeout,
            on_lock_wait=on_lock_wait,
        )
        self._columns = COLUMNS
        # (version, chain hash) of the last event this store committed to each topic: facts
        # of an append-only log, so an append that names that version needs no lookup
        self._heads: dict[str, tuple[int, str]] = {}
        # events this store committed and no read has returned yet, by seq: a rule reads
        # back what it appended on its next tick, and need not parse those rows again
        self._unread: dict[int, Event] = {}
        if read_only:
            self._db = open_read_only(self.path, busy_timeout)
            self._fill_room()
            if self.schema_version < CHAIN_SCHEMA:  # not migrated: read, chain unknown
                self._columns = COLUMNS.replace(", chain", ", '' AS chain")
        else:
            self._db = self._open_writable(busy_timeout)
        self._own: SQLiteObjectStore | None = None
        if objects is None:
            files = FileObjectStore(self.path.parent / "objects", durable=durable, lazy=True)
            inline = self.schema_version >= OBJECTS_SCHEMA
            objects = self._own = SQLiteObjectStore(
                self._db, self._lock, self._writers, files, self.path, inline=inline
            )
        self.objects: ObjectStore = objects

    def _open_writable(self, busy_timeout: float) -> sqlite3.Connection:
        """The connection that writes: WAL, schema migrated (and synced when durable)."""
        if self.path.is_file() and self.path.stat().st_size > 0:
            refuse_foreign(self.path, busy_timeout)
        try:
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.DatabaseError as exc:
            raise PulseError(f"{self.path}: not a usable event store ({exc})") from exc
        try:
            # SQLite writes the database file with write(), never through a map: a map
            # of it only adds a way to die of SIGBUS (see pulse_core.sqlite_room)
            self._db.execute("PRAGMA mmap_size=0")
            # before the first write (the switch to WAL): another program's file stays as it is
            if is_foreign(self._db):
                raise not_a_store(self.path)
            enter_wal(self._db, busy_timeout)
            self._writers.place(*resolved(self._db))
            self._writers.room.fill()  # before the migrations write through the index
            self._db.execute("PRAGMA synchronous=NORMAL")  # durable: the writer queue syncs
            migrate(self._db, self.path, self._writers.sync)
        except BaseException as exc:
            self._db.close()  # a store that failed to open must not hold the file
            self._writers.close()
            if isinstance(exc, sqlite3.DatabaseError | OSError):
                raise PulseError(f"{self.path}: not a usable event store ({exc})") from exc
            raise
        return self._db

    def _fill_room(self) -> None:
        """A reader's WAL index allocated (``pulse_core.sqlite_room``): a reader writes
        its read marks through the map."""
        try:
            self._writers.place(*resolved(self._db))
            self._writers.room.fill()
        except (OSError, sqlite3.Error) as exc:
            self._db.close()
            raise PulseError(f"{self.path}: not a usable event store ({exc})") from exc

    # -- schema ---------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- writes ---------------------------------------------------------------------------
    def append(self, draft: Draft, expected_version: int) -> Event:
        done = self.append_batch([(draft, expected_version)])[0]
        if isinstance(done, ConflictError):
            raise done
        return done

    def append_batch(
        self,
        items: Sequence[tuple[Draft, int]],
        blobs: Sequence[bytes] = (),
        digests: Sequence[str] | None = None,
    ) -> list[Event | ConflictError]:
        """Store ``blobs`` and append every item, in one transaction: one commit (one sync
        when durable) for all of them, and no event committed without its content."""
        own = self._own
        if own is not None:
            hashes, rows = own.stage(blobs, digests)  # large blobs become files here
        else:
            hashes, rows = put_all(self.objects, blobs), []
        staged = set(hashes)
        for draft, expected_version in items:
            check_append(self.objects, draft, expected_version, staged)
        if not items and not rows:  # nothing for the database: take no write lock
            return []
        with self._lock:
            heads: dict[str, tuple[int, str]] = {}
            with self._writers.transaction(self._db):
                if own is not None:
                    own.insert(rows)
                done = [self._insert(draft, version, heads) for draft, version in items]
            if len(self._heads) + len(heads) > _HEADS_KEPT:
                self._heads.clear()
            self._heads.update(heads)  # committed: facts now
            if len(self._unread) > _UNREAD_KEPT:  # nobody reads them back
                self._unread.clear()
            for event in done:
                if isinstance(event, Event):
                    self._unread[event.seq] = event
        return done

    def _insert(
        self, draft: Draft, expected_version: int, heads: dict[str, tuple[int, str]]
    ) -> Event | ConflictError:
        """One append inside the open transaction: the new event, the stored event of a
        retried draft, or the conflict (a failed INSERT undoes itself alone, not the others).
        The fast path is one INSERT: the previous chain hash comes from ``heads`` (this
        batch's appends) or the store's memory of committed ones, else from one lookup; a
        retried id or a topic that moved on makes the INSERT fail, and the slow path says
        which."""
        key = draft.key
        head = heads.get(key) or self._heads.get(key)
        if expected_version == 0:
            previous = GENESIS
        elif head is not None and head[0] == expected_version:
            previous = head[1]
        else:
            row = self._db.execute(
                "SELECT chain FROM events WHERE key = ? AND version = ?", (key, expected_version)
            ).fetchone()
            if row is None:  # the topic is not at that version yet
                return self._refused(draft, expected_version)
            previous = str(row[0])
        version = expected_version + 1
        link = draft_chain(previous, draft, version)
        try:
            cursor = self._db.execute(
                "INSERT INTO events"
                " (id, occurred_at, kind, key, version, hash, meta, code_rev, chain)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    draft.id,
                    draft.occurred_at.isoformat(),
                    draft.kind,
                    key,
                    version,
                    draft.hash,
                    draft.meta_text,
                    draft.code_rev,
                    link,
                ),
            )
        except sqlite3.IntegrityError:  # UNIQUE(id) or UNIQUE(key, version)
            return self._refused(draft, expected_version)
        heads[key] = (version, link)
        seq = cursor.lastrowid
        assert seq is not None
        return Event.from_draft(draft, version=version, seq=seq, chain=link)

    def _refused(self, draft: Draft, expected_version: int) -> Event | ConflictError:
        """Why a draft cannot be appended at ``expected_version``: its id is stored (the
        stored event when it is the same draft, else InvalidEventError), or the topic is
        at another version (the conflict)."""
        found = self._db.execute(
            f"SELECT {self._columns} FROM events WHERE id = ?", (draft.id,)
        ).fetchone()
        if found is not None:
            stored = row_to_event(found)
            if stored.same_draft(draft):
                return stored
            raise InvalidEventError(f"event id {draft.id} is already used by another event")
        return ConflictError(draft.key, expected_version, self._version(draft.key))

    def _version(self, key: str) -> int:
        row = self._db.execute(
            "SELECT COALESCE(MAX(version), 0) FROM events WHERE key = ?", (key,)
        ).fetchone()
        return int(row[0])

    def execute_raw(self, sql: str, params: tuple[object, ...] = ()) -> None:
        """Run raw SQL (for tests and maintenance); a write to events raises ImmutableLogError."""
        with self._lock:
            try:
                self._db.execute(sql, params)
            except sqlite3.IntegrityError as exc:
                if "append-only" in str(exc):
                    raise ImmutableLogError(str(exc)) from exc
                raise
            if not self._db.in_transaction:  # committed: durable as an append is
                self._writers.sync()

    # -- reads ----------------------------------------------------------------------------
    def chain(self, key: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE key = ? ORDER BY version", (key,)
            ).fetchall()
        return [row_to_event(r) for r in rows]

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        check_limit(limit)
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, -1 if limit is None else limit),
            ).fetchall()
            unread = self._unread
            if not unread:
                return [row_to_event(r) for r in rows]
            return [unread.pop(r[0]) if r[0] in unread else row_to_event(r) for r in rows]

    def read_topics_after(
        self, seq: int, keys: Container[str], limit: int
    ) -> tuple[list[Event], int | None]:
        """``read_after(seq, limit)`` of the topics ``keys`` (``TopicReads``): the other
        rows are read but never parsed, and an event this store appended is left for the
        reader of its topic."""
        check_limit(limit)
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, limit),
            ).fetchall()
            unread = self._unread
            found = [
                unread.pop(r[0]) if r[0] in unread else row_to_event(r)
                for r in rows
                if r[4] in keys
            ]
        return found, (rows[-1][0] if len(rows) == limit and rows else None)

    def version(self, key: str) -> int:
        with self._lock:
            return self._version(key)

    def get(self, event_id: str) -> Event | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE id = ?", (event_id,)
            ).fetchone()
        return None if row is None else row_to_event(row)

    def topics(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key FROM events WHERE version = 1 ORDER BY seq"
            ).fetchall()
        return [r[0] for r in rows]

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer: ``"ok"`` when the file is sound."""
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def quick_check(self) -> str:
        """SQLite's ``PRAGMA quick_check`` answer (``"ok"`` when sound): the integrity
        check without its slow index cross-checks, cheap enough before every write session."""
        with self._lock:
            return str(self._db.execute("PRAGMA quick_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._writers.close()

    def __enter__(self) -> SQLiteEventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
