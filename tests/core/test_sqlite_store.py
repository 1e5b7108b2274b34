"""What only the SQLite store promises: immutability in the file, WAL, schema, reopening,
several connections and processes on one file."""

import json
import re
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from pulse_core import (
    ConflictError,
    Draft,
    IdSource,
    ImmutableLogError,
    PulseError,
    SQLiteEventStore,
)
from pulse_core.chain import GENESIS, chain_hash, first_broken
from pulse_core.events import Event
from pulse_core.sqlite_objects import INLINE_MAX
from pulse_core.sqlite_rows import load_meta
from pulse_core.sqlite_schema import MIGRATIONS

IDS = IdSource()
KIND = "sqlite.step"


def draft(store: SQLiteEventStore, key: str, content: str, **meta: object) -> Draft:
    digest = store.objects.put(content.encode())
    moment = IDS.now()
    return Draft(id=IDS.new(moment), occurred_at=moment, kind=KIND, key=key, hash=digest, meta=meta)


def append(store: SQLiteEventStore, key: str, content: str, **meta: object) -> Event:
    return store.append(draft(store, key, content, **meta), store.version(key))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "events.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[SQLiteEventStore]:
    with SQLiteEventStore(db_path) as opened:
        yield opened


def raw_connection(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_updates_are_refused(store: SQLiteEventStore) -> None:
    event = append(store, IDS.new(), "original", n=1)
    for sql in (
        "UPDATE events SET meta = '{}' WHERE seq = 1",
        "UPDATE events SET version = 5",
        "UPDATE events SET hash = 'x' WHERE id = ?",
    ):
        params = (event.id,) if "?" in sql else ()
        with pytest.raises(ImmutableLogError, match="append-only"):
            store.execute_raw(sql, params)
    assert store.get(event.id) == event


def test_deletes_are_refused(store: SQLiteEventStore) -> None:
    key = IDS.new()
    events = [append(store, key, f"e{i}") for i in range(3)]
    with pytest.raises(ImmutableLogError):
        store.execute_raw("DELETE FROM events WHERE seq = 2")
    with pytest.raises(ImmutableLogError):
        store.execute_raw("DELETE FROM events")
    assert store.chain(key) == events


def test_the_triggers_guard_the_file_for_every_connection(store: SQLiteEventStore) -> None:
    append(store, IDS.new(), "kept")
    other = raw_connection(store.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            other.execute("DELETE FROM events")
    finally:
        other.close()
    assert store.last_seq() == 1


def test_journal_mode_is_wal(store: SQLiteEventStore) -> None:
    other = raw_connection(store.path)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        other.close()


def test_schema_version_is_the_number_of_migrations(store: SQLiteEventStore) -> None:
    assert store.schema_version == len(MIGRATIONS)
    other = raw_connection(store.path)
    try:
        assert other.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    finally:
        other.close()
    assert store.integrity_check() == "ok"


def test_reopening_the_file_keeps_everything(db_path: Path) -> None:
    a, b = IDS.new(), IDS.new()
    with SQLiteEventStore(db_path) as store:
        written = [
            append(store, a, "一", seat=1),
            append(store, b, "two", nested={"x": [1, 2.5, None]}),
            append(store, a, "three 🐺"),
        ]
        retried = draft(store, b, "four")
        written.append(store.append(retried, 1))
    with SQLiteEventStore(db_path) as store:
        assert store.read_after(0) == written
        assert store.topics() == [a, b]
        assert store.last_seq() == 4
        assert (store.version(a), store.version(b)) == (2, 2)
        assert [store.objects.get(e.hash).decode() for e in store.chain(a)] == ["一", "three 🐺"]
        # a retry after a restart is still recognised, and the log carries on from seq 4
        assert store.append(retried, 1) == written[3]
        assert append(store, a, "five").seq == 5


def test_small_objects_live_in_the_database_and_large_ones_beside_it(
    store: SQLiteEventStore, db_path: Path, tmp_path: Path
) -> None:
    event = append(store, IDS.new(), "content")
    large = append(store, IDS.new(), "x" * (INLINE_MAX + 1))
    with raw_connection(db_path) as other:
        rows = other.execute("SELECT hash, data FROM objects").fetchall()
    assert rows == [(event.hash, b"content")]
    stored = tmp_path / "objects" / large.hash[:2] / large.hash[2:]
    assert stored.read_bytes() == b"x" * (INLINE_MAX + 1)


def test_a_newer_schema_than_the_code_is_refused(db_path: Path) -> None:
    SQLiteEventStore(db_path).close()
    other = raw_connection(db_path)
    other.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    other.close()
    with pytest.raises(PulseError, match="newer than this code"):
        SQLiteEventStore(db_path)
    # the refusal changed nothing: with the version set back the file opens again
    other = raw_connection(db_path)
    other.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
    other.close()
    SQLiteEventStore(db_path).close()


def test_a_file_that_is_not_a_database_is_refused(db_path: Path) -> None:
    db_path.write_bytes(b"this is not a SQLite file" * 100)
    with pytest.raises(PulseError, match="not a usable event store"):
        SQLiteEventStore(db_path)


def test_a_store_that_is_not_durable_works_and_persists(db_path: Path) -> None:
    key = IDS.new()
    with SQLiteEventStore(db_path, durable=False) as store:
        written = [append(store, key, f"e{i}") for i in range(5)]
    with SQLiteEventStore(db_path, durable=False) as store:
        assert store.chain(key) == written
        assert store.objects.get(written[-1].hash) == b"e4"


def test_two_connections_see_each_other_and_the_stale_one_conflicts(db_path: Path) -> None:
    key = IDS.new()
    with SQLiteEventStore(db_path) as first, SQLiteEventStore(db_path) as second:
        one = append(first, key, "one")
        assert second.version(key) == 1
        assert second.chain(key) == [one]
        two = second.append(draft(second, key, "two"), 1)
        assert first.read_after(1) == [two]
        assert first.objects.get(two.hash) == b"two"
        stale = draft(first, key, "stale")
        with pytest.raises(ConflictError) as caught:
            first.append(stale, 1)
        assert (caught.value.expected, caught.value.actual) == (1, 2)
        assert first.get(stale.id) is None
        assert first.last_seq() == second.last_seq() == 2


def test_another_process_appends_to_the_same_file(store: SQLiteEventStore) -> None:
    key = IDS.new()
    append(store, key, "from the parent")
    script = textwrap.dedent(
        """
        import sys
        from pulse_core import Draft, IdSource, SQLiteEventStore
        path, key = sys.argv[1], sys.argv[2]
        ids = IdSource()
        with SQLiteEventStore(path) as store:
            digest = store.objects.put(b"from the child")
            moment = ids.now()
            draft = Draft(id=ids.new(moment), occurred_at=moment, kind="sqlite.step",
                          key=key, hash=digest)
            print(store.append(draft, store.version(key)).id)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(store.path), key],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    child_id = done.stdout.strip()
    chain = store.chain(key)
    assert chain[1].id == child_id
    assert store.objects.get(chain[1].hash) == b"from the child"
    with pytest.raises(ConflictError):
        store.append(draft(store, key, "stale"), 1)


def test_a_store_of_an_older_schema_is_migrated_and_keeps_its_events(tmp_path: Path) -> None:
    """A file made by schema 1 opens at the current schema with every event intact."""
    import sqlite3

    from pulse_core.sqlite_schema import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    first = MIGRATIONS[0]
    assert isinstance(first, str)
    for statement in first.split(";\n"):
        if statement.strip():
            db.execute(statement)
    db.execute("PRAGMA user_version=1")
    db.execute(
        "INSERT INTO events (id, occurred_at, kind, key, version, hash, meta, code_rev)"
        " VALUES ('01M8N48PWYAC301WX4FAWHXYXG', '2026-11-30T02:00:00+00:00', 'old.step',"
        " '01M8N48PWYAC301WX4FAWHXYXH', 1, 'ab', '{\"n\":1}', '0.0.1')"
    )
    db.close()
    old = SQLiteEventStore(path, read_only=True)  # read as it is, chain hashes unknown
    assert [(e.meta, e.chain) for e in old.read_after(0)] == [({"n": 1}, "")]
    old.close()
    store = SQLiteEventStore(path)
    assert store.schema_version == len(MIGRATIONS) == 4
    assert store.topics() == ["01M8N48PWYAC301WX4FAWHXYXH"]
    events = store.read_after(0)
    assert [e.meta for e in events] == [{"n": 1}]
    assert first_broken(events) is None  # the migration chained the old events
    assert events[0].chain == chain_hash(
        GENESIS, "old.step", "01M8N48PWYAC301WX4FAWHXYXH", 1, '{"n":1}', "ab"
    )
    with pytest.raises(ImmutableLogError):  # the update trigger is back
        store.execute_raw("UPDATE events SET chain = 'x'")
    store.close()


def test_processes_opening_a_new_file_at_once_all_get_a_store(tmp_path: Path) -> None:
    """The switch to WAL is raced by every opener of a new file; none may lose."""
    import time

    path = tmp_path / "fresh.sqlite3"
    start_at = time.time() + 1.5  # all four wake at once, after their imports
    code = textwrap.dedent(
        f"""
        import time
        from pulse_core import SQLiteEventStore
        time.sleep(max(0.0, {start_at!r} - time.time()))
        SQLiteEventStore({str(path)!r}).close()
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors


def test_a_read_only_store_reads_beside_a_writer_and_refuses_every_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "with space" / "events.db"
    with pytest.raises(PulseError, match="no such store"):
        SQLiteEventStore(path, read_only=True)
    assert not path.parent.exists()  # nothing created
    topic = IDS.new()
    with SQLiteEventStore(path) as writer:
        first = append(writer, topic, "one")
        with SQLiteEventStore(path, read_only=True) as reader:
            assert reader.chain(topic) == [first]
            second = append(writer, topic, "two")  # a running game goes on appending
            assert reader.read_after(first.seq) == [second]
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                append(reader, topic, "three")
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                reader.execute_raw("CREATE TABLE x (a)")


def test_read_after_returns_own_appends_and_another_writers_in_commit_order(
    db_path: Path,
) -> None:
    """A store hands back the events it appended without parsing them again; the events of
    another writer in between come from the file, in seq order."""
    key = IDS.new()
    with SQLiteEventStore(db_path) as first, SQLiteEventStore(db_path) as second:
        one = append(first, key, "one")
        two = append(second, key, "two")
        three = append(first, key, "three")
        assert first.read_after(0) == [one, two, three]
        assert first.read_after(0) == second.read_after(0) == [one, two, three]
        assert [e.chain for e in first.read_after(0)] == [e.chain for e in (one, two, three)]
        assert first_broken(first.chain(key)) is None


@pytest.mark.parametrize(
    "text",
    ['{"a":[1,2.5e3,{"b":null}],"é":"\\n"}', ' {"a":1}', '{"a":1} ', '{"a":1}x', '{"a":1}{}',
     "", "nul", "[1]", '{"a":NaN}'],
)  # fmt: skip
def test_meta_is_read_as_json_loads_reads_it(text: str) -> None:
    """The store's quicker meta parse answers every text as ``json.loads`` does: a stored
    meta edited to carry something after its JSON is refused, not cut short."""
    try:
        expected: object = json.loads(text)
    except ValueError as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            load_meta(text)
    else:
        assert load_meta(text) == expected


def _damaged(store: SQLiteEventStore, key: str, version: int) -> None:
    """An event row of ``key`` whose meta is not JSON (written around the store)."""
    store.execute_raw(
        "INSERT INTO events (id, occurred_at, kind, key, version, hash, meta, code_rev, chain)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (IDS.new(), IDS.now().isoformat(), KIND, key, version, "x", "{not json", "", "x"),
    )


def test_reading_some_topics_parses_no_other_topics_row_and_pages_on(db_path: Path) -> None:
    ours, theirs = IDS.new(), IDS.new()
    with SQLiteEventStore(db_path) as writer:
        append(writer, ours, "one")
        append(writer, theirs, "theirs")
        append(writer, ours, "two")
        _damaged(writer, theirs, 2)
    with SQLiteEventStore(db_path) as store:  # rows it did not write: parsed when read
        one, two = store.chain(ours)
        with pytest.raises(json.JSONDecodeError):
            store.read_after(0)
        assert store.read_topics_after(0, {ours}, 10) == ([one, two], None)
        assert store.read_topics_after(0, {ours}, 2) == ([one], 2)
        assert store.read_topics_after(2, {ours}, 2) == ([two], 4)
        assert store.read_topics_after(4, {ours}, 2) == ([], None)
        assert store.read_topics_after(0, set(), 10) == ([], None)
