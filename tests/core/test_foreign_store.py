"""A store path that holds something else is refused before anything is written to it:
another program's SQLite file keeps its bytes, its journal mode and its neighbours."""

import os
import sqlite3
from pathlib import Path

import pytest

from pulse_core import PulseError, SQLiteEventStore


def _foreign(path: Path, *tables: str) -> bytes:
    with sqlite3.connect(path) as db:
        for table in tables:
            db.execute(f"CREATE TABLE {table} (x)")
    db.close()
    return path.read_bytes()


@pytest.mark.parametrize("tables", [("notes",), ("events",), ("events", "objects")])
@pytest.mark.parametrize("read_only", [False, True])
def test_another_programs_sqlite_file_is_refused_untouched(
    tmp_path: Path, tables: tuple[str, ...], read_only: bool
) -> None:
    path = tmp_path / "theirs.db"
    before = _foreign(path, *tables)
    with pytest.raises(PulseError, match="not an event store"):
        SQLiteEventStore(path, read_only=read_only)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]  # no -wal, -shm, -lock
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


def test_a_schema_version_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (x)")
        db.execute("PRAGMA user_version = 2")
    db.close()
    before = path.read_bytes()
    with pytest.raises(PulseError, match="not an event store"):
        SQLiteEventStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("make", ["new", "empty file", "empty database"])
def test_a_new_or_empty_file_becomes_a_store(tmp_path: Path, make: str) -> None:
    path = tmp_path / "s.sqlite3"
    if make == "empty file":
        path.touch()
    elif make == "empty database":
        sqlite3.connect(path).close()
    store = SQLiteEventStore(path)
    try:
        assert store.topics() == []
    finally:
        store.close()
    reopened = SQLiteEventStore(path, read_only=True)  # and it opens as one again
    reopened.close()


@pytest.mark.parametrize("read_only", [False, True])
def test_a_pipe_or_folder_is_refused_before_sqlite_opens_it(
    tmp_path: Path, read_only: bool
) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for path in (pipe, tmp_path):
        with pytest.raises(PulseError, match="not a store file"):
            SQLiteEventStore(path, read_only=read_only)
