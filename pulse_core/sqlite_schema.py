"""The SQLite store's schema: its versions, in ``PRAGMA user_version``, and the migrations
that move a file from one to the next (``MIGRATIONS``, in order), each in a transaction of
its own under the write lock.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from .chain import GENESIS, chain_hash
from .errors import PulseError

__all__ = ["CHAIN_SCHEMA", "MIGRATIONS", "OBJECTS_SCHEMA", "check_schema", "migrate"]


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


CHAIN_SCHEMA = 3  # the first schema with the chain column


OBJECTS_SCHEMA = 4  # the first schema with the objects table


def check_schema(path: Path, version: int) -> None:
    """Refuse a file whose schema is newer than this code knows."""
    if version > len(MIGRATIONS):
        raise PulseError(
            f"{path}: schema version {version} is newer than this code "
            f"({len(MIGRATIONS)}): upgrade pulse_core"
        )


def migrate(db: sqlite3.Connection, path: Path, sync: Callable[[], None]) -> None:
    """Bring the file to the newest schema, one committed step at a time (``sync`` after
    each: the writer queue's, which makes it durable when the store is)."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    check_schema(path, current)
    for target in range(current + 1, len(MIGRATIONS) + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            # re-check under the write lock: another process may have migrated meanwhile
            if int(db.execute("PRAGMA user_version").fetchone()[0]) >= target:
                db.execute("ROLLBACK")
                continue
            step = MIGRATIONS[target - 1]
            if callable(step):
                step(db)
            else:
                for statement in step.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
            db.execute(f"PRAGMA user_version={target}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # a failed COMMIT (a full disk) already ended it
                db.execute("ROLLBACK")
            raise
        sync()
