"""The store conformance suite against every store shipped in pulse_core."""

from pathlib import Path

from pulse_core import FileObjectStore, MemoryEventStore, SQLiteEventStore
from pulse_core.conformance import EventStoreConformance
from pulse_core.store import EventStore


class TestMemoryStore(EventStoreConformance):
    def make_store(self, tmp_path: Path) -> EventStore:
        return MemoryEventStore()


class TestMemoryStoreWithFileObjects(EventStoreConformance):
    def make_store(self, tmp_path: Path) -> EventStore:
        return MemoryEventStore(FileObjectStore(tmp_path / "objects", durable=False))


class TestSQLiteStore(EventStoreConformance):
    def make_store(self, tmp_path: Path) -> EventStore:
        return SQLiteEventStore(tmp_path / "events.db")


class TestSQLiteStoreNotDurable(EventStoreConformance):
    def make_store(self, tmp_path: Path) -> EventStore:
        return SQLiteEventStore(tmp_path / "events.db", durable=False)
