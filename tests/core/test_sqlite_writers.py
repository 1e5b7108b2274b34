"""Processes writing one SQLite file take turns through a flock beside it: a writer waits
in the kernel's queue rather than on SQLite's busy timeout, and a writer killed in its
transaction lets the next one in with nothing of its own written. A durable write syncs
the WAL after it has let the next writer in, and before it returns."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import signal
import sqlite3
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest

from pulse_core import (
    ConflictError,
    Draft,
    Event,
    IdSource,
    SQLiteEventStore,
    StoreLockedError,
    digest_of,
    sqlite_writers,
)
from pulse_core.sqlite_writers import lock_path, wal_path

IDS = IdSource()
CONTEXT = multiprocessing.get_context("fork")


def _draft(key: str, content: bytes) -> tuple[Draft, bytes]:
    moment = IDS.now()
    return Draft(IDS.new(moment), moment, "writers.step", key, digest_of(content), {}), content


def _append(store: SQLiteEventStore, key: str, content: bytes) -> Event | ConflictError:
    draft, blob = _draft(key, content)
    return store.append_batch([(draft, store.version(key))], [blob])[0]


def _hold(path: str, key: str, told: Connection) -> None:
    """Append to ``key``, but say so inside the transaction and wait there for "go"."""

    class Slow(SQLiteEventStore):
        def _insert(
            self, draft: Draft, expected_version: int, heads: dict[str, tuple[int, str]]
        ) -> Event | ConflictError:
            done = super()._insert(draft, expected_version, heads)
            told.send("inside")
            assert told.recv() == "go"
            return done

    with Slow(path) as store:
        _append(store, key, b"written by the holder")


def _start_holder(path: Path, key: str) -> tuple[BaseProcess, Connection]:
    ours, theirs = CONTEXT.Pipe()
    holder = CONTEXT.Process(target=_hold, args=(str(path), key, theirs))
    holder.start()
    assert ours.poll(30), "the holder never began its transaction"
    assert ours.recv() == "inside"
    return holder, ours


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "events.db"
    SQLiteEventStore(path).close()
    return path


def test_a_writer_waits_its_turn_in_the_queue_not_on_the_busy_timeout(path: Path) -> None:
    held, waiting = IDS.new(), IDS.new()
    holder, holding = _start_holder(path, held)
    results: list[Event | ConflictError] = []

    def write() -> None:
        with SQLiteEventStore(path, busy_timeout=0.01) as store:
            results.append(_append(store, waiting, b"written by the waiter"))

    waiter = threading.Thread(target=write, daemon=True)
    try:
        # the holder has SQLite's write lock: a writer outside the queue gives up at once
        outside = sqlite3.connect(path, timeout=0.01, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            outside.execute("BEGIN IMMEDIATE")
        outside.close()
        # a store's writer waits in the queue, far past its own busy timeout
        waiter.start()
        waiter.join(0.3)
        assert waiter.is_alive()  # neither written nor given up
        assert not results
    finally:
        holding.send("go")
        holder.join(30)
    waiter.join(30)
    assert holder.exitcode == 0
    [done] = results  # and writes once the holder has committed
    assert isinstance(done, Event)
    with SQLiteEventStore(path) as store:
        assert [e.key for e in store.read_after(0)] == [held, waiting]
    assert lock_path(path).is_file()


def test_a_writer_past_its_lock_timeout_names_the_holder_and_writes_nothing(path: Path) -> None:
    held, waiting = IDS.new(), IDS.new()
    holder, holding = _start_holder(path, held)  # its turn and SQLite's write lock
    told: list[str] = []
    try:
        with (
            SQLiteEventStore(path, lock_timeout=1.5, on_lock_wait=told.append) as store,
            pytest.raises(StoreLockedError) as refused,
        ):
            _append(store, waiting, b"written by the waiter")
    finally:
        holding.send("go")
        holder.join(30)
    assert holder.exitcode == 0
    assert len(told) == 1  # said once, after a second
    assert told[0].startswith(f"process {holder.pid} (")
    assert refused.value.holder == told[0]
    assert f"{told[0]} holds the store's write lock; gave up after 1.5 s" in str(refused.value)
    with SQLiteEventStore(path) as store:
        assert [e.key for e in store.read_after(0)] == [held]


def test_a_writer_killed_in_its_transaction_lets_the_next_one_in(path: Path) -> None:
    key = IDS.new()
    holder, _holding = _start_holder(path, key)
    assert holder.pid is not None
    os.kill(holder.pid, signal.SIGKILL)
    holder.join(30)
    assert holder.exitcode == -signal.SIGKILL
    results: list[Event | ConflictError] = []

    def write() -> None:
        with SQLiteEventStore(path) as store:
            results.append(_append(store, key, b"written after the kill"))

    writer = threading.Thread(target=write, daemon=True)  # a test that fails, not one that hangs
    writer.start()
    writer.join(30)
    assert not writer.is_alive(), "the killed writer's flock was never let go"
    [event] = results
    assert isinstance(event, Event)
    assert event.version == 1  # the killed transaction left nothing behind
    with SQLiteEventStore(path) as store:
        assert [e.id for e in store.read_after(0)] == [event.id]
        assert store.objects.get(event.hash) == b"written after the kill"
        assert not store.objects.has(digest_of(b"written by the holder"))
        assert store.integrity_check() == "ok"


def test_a_store_whose_folder_takes_no_lock_file_still_writes(path: Path) -> None:
    lock_path(path).mkdir()  # where the lock file would go: it cannot be opened
    key = IDS.new()
    with SQLiteEventStore(path) as store:
        assert isinstance(_append(store, key, b"no queue"), Event)
        assert store.version(key) == 1


@pytest.mark.parametrize("durable", [True, False])
def test_a_durable_write_syncs_the_wal_once_the_next_writer_may_go(
    path: Path, monkeypatch: pytest.MonkeyPatch, durable: bool
) -> None:
    synced: list[tuple[int, bool]] = []  # (WAL inode, the write lock free) at each sync

    def datasync(fd: int) -> None:
        other = os.open(lock_path(path), os.O_RDWR)
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if still held
            free = True
        except BlockingIOError:
            free = False
        finally:
            os.close(other)
        synced.append((os.fstat(fd).st_ino, free))
        os.fsync(fd)

    monkeypatch.setattr(sqlite_writers, "_datasync", datasync)
    with SQLiteEventStore(path, durable=durable) as store:
        key = IDS.new()
        assert isinstance(_append(store, key, b"first"), Event)
        assert isinstance(_append(store, key, b"second"), Event)
        wal = wal_path(path).stat().st_ino
    assert synced == ([(wal, True)] * 2 if durable else [])


def _synced_inodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The inode of every file the writer queue syncs from now on."""
    synced: list[int] = []

    def datasync(fd: int) -> None:
        synced.append(os.fstat(fd).st_ino)
        os.fsync(fd)

    monkeypatch.setattr(sqlite_writers, "_datasync", datasync)
    return synced


def test_a_symlinked_or_relative_store_syncs_the_wal_sqlite_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    synced = _synced_inodes(monkeypatch)
    with SQLiteEventStore(tmp_path / "link" / "games.db") as store:
        assert isinstance(_append(store, IDS.new(), b"through a link"), Event)
        assert synced[-1] == wal_path(real / "games.db").stat().st_ino
    monkeypatch.chdir(real)
    with SQLiteEventStore("games.db") as store:
        monkeypatch.chdir(tmp_path)  # a relative name now means another file
        assert isinstance(_append(store, IDS.new(), b"after a chdir"), Event)
        assert synced[-1] == wal_path(real / "games.db").stat().st_ino
    assert not (tmp_path / "games.db-lock").exists()


def test_content_already_stored_is_synced_before_it_is_reported(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SQLiteEventStore(path) as writer, SQLiteEventStore(path) as other:
        writer.objects.put(b"written by another connection")
        synced = _synced_inodes(monkeypatch)
        # what another process committed may not be synced yet: saying it is stored syncs it
        other.objects.put(b"written by another connection")
        assert synced == [wal_path(path).stat().st_ino]


def test_a_file_system_without_flock_leaves_the_ordering_to_sqlite(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_flock(fd: int, operation: int) -> None:
        raise OSError(37, "No locks available")

    monkeypatch.setattr(sqlite_writers.fcntl, "flock", no_flock)
    key = IDS.new()
    with SQLiteEventStore(path) as store:
        assert isinstance(_append(store, key, b"first"), Event)
        assert isinstance(_append(store, key, b"second"), Event)
        assert store.version(key) == 2


def test_a_forked_child_holds_no_writer_lock(path: Path) -> None:
    with SQLiteEventStore(path) as store:
        assert isinstance(_append(store, IDS.new(), b"before the fork"), Event)
        reader, writer = CONTEXT.Pipe(duplex=False)
        child = CONTEXT.Process(target=_report_lock_fds, args=(str(lock_path(path)), writer))
        child.start()
        child.join(10)
        assert reader.recv() == 0  # the lock file is opened per transaction, never kept


def _report_lock_fds(lock: str, told: Connection) -> None:
    fds = os.listdir("/proc/self/fd")
    told.send(sum(1 for fd in fds if _target(fd) == lock))


def _target(fd: str) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""
