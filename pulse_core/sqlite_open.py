"""Opening the SQLite store's file: refusing another program's SQLite file before anything
is written to it, a read-only connection that never writes (even on a read-only file
system), the switch to WAL, and where SQLite resolved the file.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from .errors import PulseError
from .sqlite_room import check_room
from .sqlite_schema import check_schema

__all__ = [
    "ensure_room",
    "enter_wal",
    "is_foreign",
    "not_a_store",
    "open_read_only",
    "refuse_foreign",
    "resolved",
]


def is_foreign(db: sqlite3.Connection) -> bool:
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


def not_a_store(path: Path) -> PulseError:
    return PulseError(
        f"{path}: an SQLite file of another program, not an event store: it is left as it is"
    )


def open_read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A connection that never writes: ``mode=ro``, or where SQLite cannot make the WAL's
    shared-memory file (a read-only file system, a folder this process may not write)
    ``immutable=1``, which reads the file as it is without locks; not when a WAL holds
    frames, which immutable would not read."""
    if not path.is_file():
        raise PulseError(f"{path}: no such store")
    ensure_room(path)  # a reader maps the WAL index and writes through it too
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
            db.execute("PRAGMA mmap_size=0")  # see SQLiteEventStore._open_writable
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as exc:
            db.close()
            last = exc
            if not _no_index(exc) or _wal_in_use(path):
                break  # a damaged file, or commits immutable would not see
            continue
        try:
            check_schema(path, version)
        except PulseError:
            db.close()
            raise
        try:
            foreign = is_foreign(db)
        except sqlite3.Error as exc:
            db.close()
            raise PulseError(f"{path}: not a usable event store ({exc})") from exc
        if foreign:
            db.close()
            raise not_a_store(path)
        return db
    raise PulseError(f"{path}: not a usable event store ({last})")


def refuse_foreign(path: Path, busy_timeout: float) -> None:
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
        db.execute("PRAGMA mmap_size=0")  # see SQLiteEventStore._open_writable
        foreign = is_foreign(db)
    except sqlite3.Error:
        return  # a damaged file: the connection that writes says so, and writes nothing
    finally:
        db.close()
    if foreign:
        raise not_a_store(path)


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


def ensure_room(path: Path) -> None:
    """``sqlite_room.check_room`` as the store's error."""
    try:
        check_room(path)
    except OSError as exc:
        raise PulseError(f"{path}: {exc.strerror}") from exc


def resolved(db: sqlite3.Connection) -> tuple[Path, int]:
    """The database file as SQLite resolved it (absolute, symlinks followed) and its page
    size: what names and sizes the WAL and its index."""
    (_seq, _name, resolved) = db.execute("PRAGMA database_list").fetchone()
    return Path(resolved), int(db.execute("PRAGMA page_size").fetchone()[0])


def enter_wal(db: sqlite3.Connection, busy_timeout: float) -> None:
    """Switch the file to WAL. Two processes opening a new file at once race for the
    switch, and SQLite answers the loser 'locked' without waiting, so wait here."""
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
