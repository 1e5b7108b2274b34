"""The event store protocol and its in-memory implementation.

Every store keeps the same contract, checked by ``pulse_core.conformance``:

- ``append(draft, expected_version)`` writes one event as version ``expected_version + 1`` of
  its topic, or raises ``ConflictError`` and writes nothing when the topic is elsewhere.
- Appending a draft whose id is already stored returns the stored event (an append that
  committed but was never acknowledged can be retried safely).
- The draft's content must already be in ``store.objects``.
- Events are never updated or deleted.
- ``append_batch(items, blobs)``, where a store has it (the memory and SQLite stores do),
  stores the content ``blobs`` and appends many drafts in one transaction, each as
  ``append`` would: a topic that moved on gives that item a ``ConflictError`` (in the
  returned list) and the others are appended; any other error appends none of them.
- ``chain(key)`` is a topic's events by version; ``read_after(seq)`` is every event after a
  global cursor, in commit order.
"""

from __future__ import annotations

import threading
from collections.abc import Container, Sequence
from typing import Protocol, runtime_checkable

from .chain import GENESIS, draft_chain
from .errors import ConflictError, InvalidEventError
from .events import Draft, Event
from .objects import MemoryObjectStore, ObjectStore, put_all

__all__ = [
    "BatchAppend",
    "EventStore",
    "MemoryEventStore",
    "TopicReads",
    "append_each",
    "check_append",
    "check_limit",
]


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


@runtime_checkable
class BatchAppend(Protocol):
    """A store that appends many drafts in one transaction (one commit for all of them)."""

    def append_batch(
        self,
        items: Sequence[tuple[Draft, int]],
        blobs: Sequence[bytes] = (),
        digests: Sequence[str] | None = None,
    ) -> list[Event | ConflictError]:
        """``blobs`` stored (the contents the drafts name, if not stored yet), then the
        ``(draft, expected_version)`` pairs appended in order: each item's event, or the
        ``ConflictError`` of an item whose topic moved on (nothing written for it).
        ``digests``, when given, are the blobs' ``digest_of`` hashes, which the caller has
        already: a store may use them instead of hashing each blob again."""
        ...


@runtime_checkable
class TopicReads(Protocol):
    """A store that reads the events of some topics after a cursor without building the
    others' events (a store that parses its rows: another process's games cost it nothing)."""

    def read_topics_after(
        self, seq: int, keys: Container[str], limit: int
    ) -> tuple[list[Event], int | None]:
        """Of the next ``limit`` events after ``seq``, those of topics in ``keys``, in
        commit order; and the seq to read on from, None when no event follows them."""
        ...


def check_limit(limit: int | None) -> None:
    """A page size is None (no limit) or a whole number >= 0, in every store."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be None or >= 0, not {limit}")


def check_append(
    store: ObjectStore, draft: Draft, expected_version: int, staged: Container[str] = ()
) -> None:
    """The checks every store makes before it writes (shared, so stores agree); ``staged``:
    hashes of content written in the same transaction."""
    if expected_version < 0:
        raise InvalidEventError(f"expected_version must be >= 0, not {expected_version}")
    if draft.hash not in staged and not store.has(draft.hash):
        raise InvalidEventError(
            f"content {draft.hash} of event {draft.id} is not in the object store: put it first"
        )


def append_each(
    store: EventStore, items: Sequence[tuple[Draft, int]], blobs: Sequence[bytes] = ()
) -> list[Event | ConflictError]:
    """``append_batch``'s answer for a store without one: ``blobs`` stored first, then each
    item appended on its own, a topic that moved on giving its ``ConflictError`` in the
    item's place."""
    put_all(store.objects, blobs)
    done: list[Event | ConflictError] = []
    for draft, expected_version in items:
        try:
            done.append(store.append(draft, expected_version))
        except ConflictError as exc:
            done.append(exc)
    return done


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
            return self._append(draft, expected_version)

    def append_batch(
        self,
        items: Sequence[tuple[Draft, int]],
        blobs: Sequence[bytes] = (),
        digests: Sequence[str] | None = None,
    ) -> list[Event | ConflictError]:
        objects = self.objects
        if digests is not None and isinstance(objects, MemoryObjectStore):
            for digest, blob in zip(digests, blobs, strict=True):
                objects.put_hashed(digest, blob)
        else:
            for blob in blobs:
                objects.put(blob)
        with self._lock:
            before = len(self._events)
            done: list[Event | ConflictError] = []
            try:
                for draft, expected_version in items:
                    try:
                        done.append(self._append(draft, expected_version))
                    except ConflictError as exc:
                        done.append(exc)
            except BaseException:
                self._undo(before)
                raise
            return done

    def _undo(self, length: int) -> None:
        """Drop the events after the first ``length`` (a batch that failed part way)."""
        while len(self._events) > length:
            event = self._events.pop()
            self._by_id.pop(event.id, None)
            topic = self._by_key[event.key]
            topic.pop()
            if not topic:
                del self._by_key[event.key]

    def _append(self, draft: Draft, expected_version: int) -> Event:
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
        link = draft_chain(topic[-1].chain if topic else GENESIS, draft, actual + 1)
        event = Event.from_draft(draft, version=actual + 1, seq=len(self._events) + 1, chain=link)
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
