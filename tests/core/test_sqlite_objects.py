"""The SQLite store's content objects: inline rows written in the events' transaction, large
ones as files, stores of the older layout (every object a file) migrated and still read."""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pulse_core import (
    ConflictError,
    CorruptObjectError,
    Draft,
    Event,
    IdSource,
    ImmutableLogError,
    InvalidEventError,
    ObjectNotFoundError,
    SQLiteEventStore,
    StoreLockedError,
    digest_of,
    export_topic,
    import_topic,
    sqlite_schema,
)
from pulse_core.chain import first_broken
from pulse_core.sqlite_objects import INLINE_MAX, SQLiteObjectStore

IDS = IdSource()
LARGE = b"L" * (INLINE_MAX + 1)


def draft(key: str, content: bytes, **meta: object) -> Draft:
    moment = IDS.now()
    return Draft(
        id=IDS.new(moment),
        occurred_at=moment,
        kind="objects.step",
        key=key,
        hash=digest_of(content),
        meta=meta,
    )


def rows(path: Path) -> dict[str, bytes]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT hash, data FROM objects").fetchall())


def test_an_inline_object_round_trips_without_any_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        digest = store.objects.put(b"inline")
        assert store.objects.put(b"inline") == digest  # the same content again: a no-op
        assert store.objects.get(digest) == b"inline"
        assert store.objects.has(digest)
        assert not store.objects.has(digest_of(b"never stored"))
        with pytest.raises(ObjectNotFoundError):
            store.objects.get(digest_of(b"never stored"))
    assert rows(path) == {digest: b"inline"}
    assert not (tmp_path / "objects").exists()  # no folder until a large object needs one
    with SQLiteEventStore(path, read_only=True) as reader:
        assert reader.objects.get(digest) == b"inline"


def test_putting_stored_content_again_takes_no_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path, busy_timeout=0.05) as store:
        digest = store.objects.put(b"stored")
        with sqlite3.connect(path, isolation_level=None) as writer:
            writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            assert store.objects.put(b"stored") == digest
            with pytest.raises(StoreLockedError, match="holds the store's write lock"):
                store.objects.put(b"new content waits for the lock")
            writer.execute("ROLLBACK")


def test_a_large_object_is_a_synced_file_beside_the_database(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        small, large = store.objects.put_many([b"small", LARGE])  # type: ignore[attr-defined]
        assert store.objects.get(large) == LARGE
        assert store.objects.get(small) == b"small"
    assert rows(path) == {small: b"small"}
    assert (tmp_path / "objects" / large[:2] / large[2:]).read_bytes() == LARGE
    assert list((tmp_path / "objects").glob("*/*.tmp")) == []


def test_a_batch_stores_its_contents_and_events_in_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    keys = [IDS.new() for _ in range(3)]
    contents = [f"event {i}".encode() for i in range(3)]
    with SQLiteEventStore(path) as store:
        drafts = [(draft(key, content), 0) for key, content in zip(keys, contents, strict=True)]
        done = store.append_batch(drafts, [*contents, LARGE])
        assert all(isinstance(event, Event) for event in done)
        for key, content in zip(keys, contents, strict=True):
            (event,) = store.chain(key)
            assert store.objects.get(event.hash) == content
    assert set(rows(path)) == {digest_of(c) for c in contents}


def test_a_batch_that_fails_leaves_neither_its_objects_nor_its_events(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        taken = draft(IDS.new(), b"first")
        store.append_batch([(taken, 0)], [b"first"])
        fresh = draft(IDS.new(), b"fresh")
        reused = Draft(
            id=taken.id,  # the id of another event: the whole batch is refused
            occurred_at=taken.occurred_at,
            kind=taken.kind,
            key=IDS.new(),
            hash=digest_of(b"other"),
        )
        with pytest.raises(InvalidEventError):
            store.append_batch([(fresh, 0), (reused, 0)], [b"fresh", b"other"])
        assert store.chain(fresh.key) == []
        assert not store.objects.has(digest_of(b"fresh"))
        assert not store.objects.has(digest_of(b"other"))
        with pytest.raises(InvalidEventError, match="not in the object store"):
            store.append_batch([(draft(IDS.new(), b"nowhere"), 0)], [b"elsewhere"])


def test_a_corrupted_inline_object_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        digest = store.objects.put(b"the original")
        for sql in ("UPDATE objects SET data = x'00'", "DELETE FROM objects"):
            with pytest.raises(ImmutableLogError):  # refused through the store's connection
                store.execute_raw(sql)
    with sqlite3.connect(path, isolation_level=None) as raw:  # an edit that bypasses it
        raw.execute("DROP TRIGGER objects_no_update")
        raw.execute("UPDATE objects SET data = ? WHERE hash = ?", (b"edited", digest))
    with SQLiteEventStore(path) as store:
        with pytest.raises(CorruptObjectError) as caught:
            store.objects.get(digest)
        assert caught.value.digest == digest
        assert str(path) in str(caught.value)
        assert isinstance(store.objects, SQLiteObjectStore)
        assert store.objects.where(digest) == f"{digest} in {path}"


def _write_old_layout(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[Event]]:
    """A store as schema 3 wrote it (every object a file under ``objects/``)."""
    with monkeypatch.context() as patch:
        patch.setattr(sqlite_schema, "MIGRATIONS", sqlite_schema.MIGRATIONS[:3])
        with SQLiteEventStore(path) as old:
            assert old.schema_version == 3
            key = IDS.new()
            written = []
            for content in (b"old one", b"old two", LARGE):
                old.objects.put(content)
                written.append(old.append(draft(key, content, n=len(written)), len(written)))
    return key, written


def test_a_store_of_the_file_layout_is_migrated_and_reads_its_objects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    key, written = _write_old_layout(path, monkeypatch)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'objects'").fetchall() == []
    files = sorted(p.name for p in (tmp_path / "objects").glob("*/*"))
    assert files == sorted(e.hash[2:] for e in written)
    with SQLiteEventStore(path, read_only=True) as reader:  # read as it is, not migrated
        assert reader.schema_version == 3
        assert [reader.objects.get(e.hash) for e in reader.chain(key)][:2] == [
            b"old one",
            b"old two",
        ]
    with SQLiteEventStore(path) as store:
        assert store.schema_version == len(sqlite_schema.MIGRATIONS) == 4
        chain = store.chain(key)
        assert chain == written
        assert first_broken(chain) is None
        assert [store.objects.get(e.hash) for e in chain] == [b"old one", b"old two", LARGE]
        new = store.append_batch([(draft(key, b"new"), 3)], [b"new"])[0]
        assert isinstance(new, Event)
        assert first_broken(store.chain(key)) is None
        export_topic(store, key, tmp_path / "topic.jsonl")
    assert set(rows(path)) == {digest_of(b"new")}  # old files stay where they are
    with SQLiteEventStore(tmp_path / "copy" / "s.sqlite3") as copy:
        assert import_topic(copy, tmp_path / "topic.jsonl") == key
        assert [copy.objects.get(e.hash) for e in copy.chain(key)][-1] == b"new"
        assert copy.chain(key) == [*written, new]


def test_a_reader_opened_before_the_migration_reads_inline_objects_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    key, written = _write_old_layout(path, monkeypatch)
    with SQLiteEventStore(path, read_only=True) as reader:
        assert not reader.objects.has(digest_of(b"new"))
        with SQLiteEventStore(path) as writer:  # migrates, then writes inline
            writer.append_batch([(draft(key, b"new"), 3)], [b"new"])
        new = reader.chain(key)[-1]
        assert reader.objects.has(new.hash)
        assert reader.objects.get(new.hash) == b"new"
        assert reader.objects.get(written[0].hash) == b"old one"


def test_two_stores_on_one_file_keep_the_chain_whole(tmp_path: Path) -> None:
    """A store remembers the heads it wrote; another writer's appends never break the chain."""
    path = tmp_path / "s.sqlite3"
    key = IDS.new()
    with SQLiteEventStore(path) as first, SQLiteEventStore(path) as second:
        first.append_batch([(draft(key, b"1"), 0)], [b"1"])
        second.append_batch([(draft(key, b"2"), 1)], [b"2"])
        stale = first.append_batch([(draft(key, b"x"), 1)], [b"x"])[0]
        assert isinstance(stale, ConflictError)
        assert stale.actual == 2
        first.append_batch([(draft(key, b"3"), 2)], [b"3"])
        same = draft(key, b"4")
        one, again = first.append_batch([(same, 3), (same, 3)], [b"4"])
        assert one == again  # a retried draft in one batch is the stored event
        chain = second.chain(key)
        assert [e.version for e in chain] == [1, 2, 3, 4]
        assert first_broken(chain) is None


_KILLED_WRITER = textwrap.dedent(
    """
    import sys
    from pulse_core import Draft, IdSource, SQLiteEventStore, digest_of
    ids = IdSource()
    keys = [ids.new() for _ in range(8)]
    with SQLiteEventStore(sys.argv[1]) as store:
        for tick in range(1_000_000):
            blobs, items = [], []
            for n, key in enumerate(keys):
                content = f"{key} tick {tick}".encode()
                if (tick + n) % 5 == 0:
                    content = content * (int(sys.argv[2]) // len(content) + 1)
                moment = ids.now()
                blobs.append(content)
                items.append((Draft(id=ids.new(moment), occurred_at=moment, kind="k.step",
                                    key=key, hash=digest_of(content)), tick))
            store.append_batch(items, blobs)
            if tick == 3:
                print("ticking", flush=True)
    """
)


@pytest.mark.parametrize("delay", [0.05, 0.2])
def test_a_writer_killed_mid_tick_leaves_no_event_without_its_content(
    tmp_path: Path, delay: float
) -> None:
    path = tmp_path / "s.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(path), str(INLINE_MAX + 1)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "ticking\n"
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    with SQLiteEventStore(path) as store:
        assert store.integrity_check() == "ok"
        events = store.read_after(0)
        assert len(events) >= 8 * 4
        for key in store.topics():
            chain = store.chain(key)
            assert [e.version for e in chain] == list(range(1, len(chain) + 1))
            assert first_broken(chain) is None
        for event in events:
            assert store.objects.get(event.hash).startswith(event.key.encode())
