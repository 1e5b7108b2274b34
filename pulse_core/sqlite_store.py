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
Schema versions live in ``PRAGMA user_version``; ``MIGRATIONS`` lists them in order.
"""

from __future__ import annotations

import json
import json.scanner
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from .chain import GENESIS, chain_hash, draft_chain
from .errors import ConflictError, ImmutableLogError, InvalidEventError, PulseError
from .events import Draft, Event
from .objects import FileObjectStore, ObjectStore, put_all
from .sqlite_objects import SQLiteObjectStore
from .sqlite_room import check_room
from .sqlite_writers import WriterQueue
from .store import check_append, check_limit

__all__ = ["MIGRATIONS", "SQLiteEventStore"]


def _add_chain(db: sqlite3.Connection) -> None:
    """Schema 3: the ``chain`` column (``pulse_core.chain``), filled for the events already
    stored, topic by topic in version order. Events stay append-only: the update trigger is
    lifted for this one fill and put back in the same transaction."""
    db.execute("ALTER TABLE events ADD COLUMN chain TEXT NOT NULL DEFAULT ''")
    db.execute("DROP TRIGGER events_no_update")
    previous: dict[str, str] = {}
    rows = db.execute(
        "SELECT seq, kind, key, version, hash, meta FROM events ORDER BY key, version"
    )
    links = []
    for seq, kind, key, version, digest, meta in rows:
        link = chain_hash(previous.get(key, GENESIS), kind, key, version, meta, digest)
        previous[key] = link
        links.append((link, seq))
    db.executemany("UPDATE events SET chain = ? WHERE seq = ?", links)
    db.execute(_NO_UPDATE)


_NO_UPDATE = """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"""

# Each entry moves the schema from version i to i + 1: SQL statements, or a function for a
# step SQL alone cannot take. Never edit a released entry: add one.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    """
    CREATE TABLE events (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        id          TEXT    NOT NULL UNIQUE,
        occurred_at TEXT    NOT NULL,
        kind        TEXT    NOT NULL,
        key         TEXT    NOT NULL,
        version     INTEGER NOT NULL CHECK (version >= 1),
        hash        TEXT    NOT NULL,
        meta        TEXT    NOT NULL,
        code_rev    TEXT    NOT NULL,
        UNIQUE (key, version)
    );
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    # 2: topics() lists first events without scanning the table
    """
    CREATE INDEX events_topic_starts ON events (seq) WHERE version = 1;
    """,
    # 3: the hash chain that makes an edited event evident
    _add_chain,
    # 4: content objects inline, written in the transaction of the events that name them
    """
    CREATE TABLE objects (
        hash TEXT PRIMARY KEY,
        data BLOB NOT NULL
    );
    CREATE TRIGGER objects_no_update BEFORE UPDATE ON objects
    BEGIN SELECT RAISE(ABORT, 'objects are append-only'); END;
    CREATE TRIGGER objects_no_delete BEFORE DELETE ON objects
    BEGIN SELECT RAISE(ABORT, 'objects are append-only'); END;
    """,
)

_COLUMNS = "seq, id, occurred_at, kind, key, version, hash, meta, code_rev, chain"
_CHAIN_SCHEMA = 3  # the first schema with the chain column
_OBJECTS_SCHEMA = 4  # the first schema with the objects table
_HEADS_KEPT = 100_000  # topics whose head (version, chain hash) a store remembers
_UNREAD_KEPT = 10_000  # appended events kept for the next read_after


_scan_json = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _load_meta(text: str) -> Any:
    """``json.loads(text)`` at a fifth less for the meta this store writes: the C scanner
    ``json.loads`` ends in, without the Python around it. Text the scanner does not take whole (spaces
    around it, something after it, no JSON at all) goes to ``json.loads``, which answers
    for it as it always did."""
    try:
        value, end = _scan_json(text, 0)
    except (StopIteration, ValueError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _row_to_event(row: tuple[int, str, str, str, str, int, str, str, str, str]) -> Event:
    seq, id_, occurred_at, kind, key, version, digest, meta, code_rev, link = row
    return Event(
        id=id_,
        occurred_at=datetime.fromisoformat(occurred_at),
        kind=kind,
        key=key,
        hash=digest,
        meta=_load_meta(meta),
        code_rev=code_rev,
        version=version,
        seq=seq,
        chain=link,
    )


def _foreign(db: sqlite3.Connection) -> bool:
    """Whether ``db`` is an SQLite file of another program: a store has the ``events``
    table from its first schema on; a file with no table and no schema version is a new
    one (just made, or one whose first migration never committed). Both are read in one
    transaction: another opener of a new file may migrate it between two reads."""
    db.execute("BEGIN")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.execute("COMMIT")
    if version == 0:
        return bool(tables)
    return "events" not in tables


def _not_a_store(path: Path) -> PulseError:
    return PulseError(
        f"{path}: an SQLite file of another program, not an event store: it is left as it is"
    )


def _open_read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A connection that never writes: ``mode=ro``, or where SQLite cannot make the WAL's
    shared-memory file (a read-only file system, a folder this process may not write)
    ``immutable=1``, which reads the file as it is without locks; not when a WAL holds
    frames, which immutable would not read."""
    if not path.is_file():
        raise PulseError(f"{path}: no such store")
    _check_room(path)  # a reader maps the WAL index and writes through it too
    last: sqlite3.Error | None = None
    for flags in ("mode=ro", "mode=ro&immutable=1"):
        try:
            db = sqlite3.connect(
                f"{path.absolute().as_uri()}?{flags}",
                uri=True,
                timeout=busy_timeout,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            db.execute("PRAGMA mmap_size=0")  # see _open_writable
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as exc:
            db.close()
            last = exc
            if not _no_index(exc) or _wal_in_use(path):
                break  # a damaged file, or commits immutable would not see
            continue
        if version > len(MIGRATIONS):
            db.close()
            raise PulseError(
                f"{path}: schema version {version} is newer than this code "
                f"({len(MIGRATIONS)}): upgrade pulse_core"
            )
        try:
            foreign = _foreign(db)
        except sqlite3.Error as exc:
            db.close()
            raise PulseError(f"{path}: not a usable event store ({exc})") from exc
        if foreign:
            db.close()
            raise _not_a_store(path)
        return db
    raise PulseError(f"{path}: not a usable event store ({last})")


def _refuse_foreign(path: Path, busy_timeout: float) -> None:
    """Refuse another program's file through a connection that cannot write: closing the
    last connection that may write checkpoints a WAL into the file, and a WAL beside the
    file that another database left there would then be written over the store."""
    try:
        db = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode=ro",
            uri=True,
            timeout=busy_timeout,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error:
        return  # the connection that writes says what is wrong
    try:
        db.execute("PRAGMA mmap_size=0")  # see _open_writable
        foreign = _foreign(db)
    except sqlite3.Error:
        return  # a damaged file: the connection that writes says so, and writes nothing
    finally:
        db.close()
    if foreign:
        raise _not_a_store(path)


def _no_index(exc: sqlite3.Error) -> bool:
    """SQLite could not make or write the WAL's index beside the file: the folder is
    read-only to this process (a read-only file system, or no permission)."""
    text = str(exc)
    return "unable to open" in text or "readonly" in text


def _wal_in_use(path: Path) -> bool:
    """The file has a WAL with frames in it: commits that only a reader with the WAL's
    index sees (``immutable=1`` would read the file as if they had never been made)."""
    try:
        return (path.parent / (path.name + "-wal")).stat().st_size > 0
    except OSError:
        return False


def _check_room(path: Path) -> None:
    """``sqlite_room.check_room`` as the store's error."""
    try:
        check_room(path)
    except OSError as exc:
        raise PulseError(f"{path}: {exc.strerror}") from exc


def _resolved(db: sqlite3.Connection) -> tuple[Path, int]:
    """The database file as SQLite resolved it (absolute, symlinks followed) and its page
    size: what names and sizes the WAL and its index."""
    (_seq, _name, resolved) = db.execute("PRAGMA database_list").fetchone()
    return Path(resolved), int(db.execute("PRAGMA page_size").fetchone()[0])


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
            _check_room(self.path)
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
        self._columns = _COLUMNS
        # (version, chain hash) of the last event this store committed to each topic: facts
        # of an append-only log, so an append that names that version needs no lookup
        self._heads: dict[str, tuple[int, str]] = {}
        # events this store committed and no read has returned yet, by seq: a rule reads
        # back what it appended on its next tick, and need not parse those rows again
        self._unread: dict[int, Event] = {}
        if read_only:
            self._db = _open_read_only(self.path, busy_timeout)
            self._fill_room()
            if self.schema_version < _CHAIN_SCHEMA:  # not migrated: read, chain unknown
                self._columns = _COLUMNS.replace(", chain", ", '' AS chain")
        else:
            self._db = self._open_writable(busy_timeout)
        self._own: SQLiteObjectStore | None = None
        if objects is None:
            files = FileObjectStore(self.path.parent / "objects", durable=durable, lazy=True)
            inline = self.schema_version >= _OBJECTS_SCHEMA
            objects = self._own = SQLiteObjectStore(
                self._db, self._lock, self._writers, files, self.path, inline=inline
            )
        self.objects: ObjectStore = objects

    def _open_writable(self, busy_timeout: float) -> sqlite3.Connection:
        """The connection that writes: WAL, schema migrated (and synced when durable)."""
        if self.path.is_file() and self.path.stat().st_size > 0:
            _refuse_foreign(self.path, busy_timeout)
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
            if _foreign(self._db):
                raise _not_a_store(self.path)
            self._enter_wal(busy_timeout)
            self._writers.place(*_resolved(self._db))
            self._writers.room.fill()  # before the migrations write through the index
            self._db.execute("PRAGMA synchronous=NORMAL")  # durable: the writer queue syncs
            self._migrate()
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
            self._writers.place(*_resolved(self._db))
            self._writers.room.fill()
        except (OSError, sqlite3.Error) as exc:
            self._db.close()
            raise PulseError(f"{self.path}: not a usable event store ({exc})") from exc

    def _enter_wal(self, busy_timeout: float) -> None:
        """Switch the file to WAL. Two processes opening a new file at once race for the
        switch, and SQLite answers the loser 'locked' without waiting, so wait here."""
        deadline = time.monotonic() + busy_timeout
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    # -- schema ---------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        current = self.schema_version
        if current > len(MIGRATIONS):
            raise PulseError(
                f"{self.path}: schema version {current} is newer than this code "
                f"({len(MIGRATIONS)}): upgrade pulse_core"
            )
        for target in range(current + 1, len(MIGRATIONS) + 1):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # re-check under the write lock: another process may have migrated meanwhile
                if int(self._db.execute("PRAGMA user_version").fetchone()[0]) >= target:
                    self._db.execute("ROLLBACK")
                    continue
                step = MIGRATIONS[target - 1]
                if callable(step):
                    step(self._db)
                else:
                    for statement in step.split(";\n"):
                        if statement.strip():
                            self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={target}")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT (a full disk) already ended it
                    self._db.execute("ROLLBACK")
                raise
            self._writers.sync()

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
            stored = _row_to_event(found)
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
        return [_row_to_event(r) for r in rows]

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        check_limit(limit)
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, -1 if limit is None else limit),
            ).fetchall()
            unread = self._unread
            if not unread:
                return [_row_to_event(r) for r in rows]
            return [unread.pop(r[0]) if r[0] in unread else _row_to_event(r) for r in rows]

    def version(self, key: str) -> int:
        with self._lock:
            return self._version(key)

    def get(self, event_id: str) -> Event | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._columns} FROM events WHERE id = ?", (event_id,)
            ).fetchone()
        return None if row is None else _row_to_event(row)

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
