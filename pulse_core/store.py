"""The event store protocol and its in-memory implementation.

Every store keeps the same contract, checked by ``pulse_core.conformance``:

- ``append(draft, expected_version)`` writes one event as version ``expected_version + 1`` of
  its topic, or raises ``ConflictError`` and writes nothing when the topic is elsewhere.
- Appending a draft whose id is already stored returns the stored event (an append that
  committed but was never acknowledged can be retried safely).
- The draft's content must already be in ``store.objects``.
- Events are never updated or deleted.
- ``chain(key)`` is a topic's events by version; ``read_after(seq)`` is every event after a
  global cursor, in commit order.
"""

from __future__ import annotations

import threading
from typing import Protocol

from .errors import ConflictError, InvalidEventError
from .events import Draft, Event
from .objects import MemoryObjectStore, ObjectStore

__all__ = ["EventStore", "MemoryEventStore", "check_append", "check_limit"]


class EventStore(Protocol):
    objects: ObjectStore

    def append(self, draft: Draft, expected_version: int) -> Event:
        """Append ``draft`` as version ``expected_version + 1`` of its topic."""
        ...

    def chain(self, key: str) -> list[Event]:
        """A topic's events in version order (empty for an unknown topic)."""
        ...

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        """Events with ``seq`` greater than ``seq``, in commit order, at most ``limit``."""
        ...

    def version(self, key: str) -> int:
        """The topic's current version: 0 before its first event."""
        ...

    def get(self, event_id: str) -> Event | None: ...

    def topics(self) -> list[str]:
        """Every topic key, in the order the topics began."""
        ...

    def last_seq(self) -> int:
        """The seq of the newest event, 0 when empty."""
        ...

    def close(self) -> None: ...


def check_limit(limit: int | None) -> None:
    """A page size is None (no limit) or a whole number >= 0, in every store."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be None or >= 0, not {limit}")


def check_append(store: ObjectStore, draft: Draft, expected_version: int) -> None:
    """The checks every store makes before it writes (shared, so stores agree)."""
    if expected_version < 0:
        raise InvalidEventError(f"expected_version must be >= 0, not {expected_version}")
    if not store.has(draft.hash):
        raise InvalidEventError(
            f"content {draft.hash} of event {draft.id} is not in the object store: put it first"
        )


class MemoryEventStore:
    """An event store in lists and dicts; the reference for the conformance suite."""

    def __init__(self, objects: ObjectStore | None = None) -> None:
        self.objects: ObjectStore = objects if objects is not None else MemoryObjectStore()
        self._events: list[Event] = []
        self._by_key: dict[str, list[Event]] = {}
        self._by_id: dict[str, Event] = {}
        self._lock = threading.Lock()

    def append(self, draft: Draft, expected_version: int) -> Event:
        with self._lock:
            stored = self._by_id.get(draft.id)
            if stored is not None:
                if stored.same_draft(draft):
                    return stored
                raise InvalidEventError(f"event id {draft.id} is already used by another event")
            check_append(self.objects, draft, expected_version)
            topic = self._by_key.get(draft.key)
            actual = len(topic) if topic else 0
            if actual != expected_version:
                raise ConflictError(draft.key, expected_version, actual)
            event = Event.from_draft(draft, version=actual + 1, seq=len(self._events) + 1)
            self._events.append(event)
            self._by_key.setdefault(draft.key, []).append(event)
            self._by_id[event.id] = event
            return event

    def chain(self, key: str) -> list[Event]:
        return list(self._by_key.get(key, ()))

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        check_limit(limit)
        start = max(seq, 0)
        end = None if limit is None else start + limit
        return self._events[start:end]

    def version(self, key: str) -> int:
        return len(self._by_key.get(key, ()))

    def get(self, event_id: str) -> Event | None:
        return self._by_id.get(event_id)

    def topics(self) -> list[str]:
        return list(self._by_key)

    def last_seq(self) -> int:
        return len(self._events)

    def close(self) -> None:
        pass
