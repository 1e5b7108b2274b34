"""An event store seen through a set of topics, for a rule that drives only some games.

``TopicScope`` is what ``werewolf play``/``resume`` (one game) and ``werewolf arena run`` (a
run's games) hand to a ``WorkflowRule``: appends and chains go to the store, reads skip every
other topic, so games already in the store (finished or interrupted) are left alone. Reading
costs what is new since the cursor, never a whole chain; ``on_read`` sees each batch the rule
reads, so a live view is drawn from events already read. ``floor_seq`` is where a rule's
cursor starts: just before the scope's first event, not at the beginning of the store;
``scoped_rule`` is a rule over a scope with its cursor there, as every player of a share of
a store's games (an arena worker, the benchmark's processes) makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar, cast

from pulse_core import ConflictError, Draft, Event, EventStore, WorkflowRule, WorkflowType
from pulse_core.objects import ObjectStore
from pulse_core.store import BatchAppend, TopicReads, append_each

__all__ = ["TopicScope", "floor_seq", "scoped_rule"]

S = TypeVar("S")


class TopicScope:
    """``store`` limited to the topics ``keys`` (the ``EventStore`` methods a rule uses)."""

    def __init__(
        self,
        store: EventStore,
        keys: Iterable[str],
        *,
        batch: int = 5_000,
        on_read: Callable[[Sequence[Event]], None] | None = None,
    ) -> None:
        self._store = store
        self._batched = isinstance(store, BatchAppend)  # asked once: a protocol check is slow
        self._filtered = isinstance(store, TopicReads)
        self._keys = frozenset(keys)
        self._batch = batch
        self._on_read = on_read
        self.objects: ObjectStore = store.objects

    def append(self, draft: Draft, expected_version: int) -> Event:
        return self._store.append(draft, expected_version)

    def append_batch(
        self,
        items: Sequence[tuple[Draft, int]],
        blobs: Sequence[bytes] = (),
        digests: Sequence[str] | None = None,
    ) -> list[Event | ConflictError]:
        """One transaction for ``blobs`` and all of ``items`` where the store can, else the
        blobs first, then the items one by one."""
        if self._batched:
            return cast(BatchAppend, self._store).append_batch(items, blobs, digests)
        return append_each(self._store, items, blobs)

    def chain(self, key: str) -> list[Event]:
        return self._store.chain(key)

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        found = self._scan(seq, limit)
        if found and self._on_read is not None:
            self._on_read(found)
        return found

    def _scan(self, seq: int, limit: int | None) -> list[Event]:
        found: list[Event] = []
        while limit is None or len(found) < limit:
            events, more = self._page(seq)
            for event in events:
                if event.key in self._keys:
                    found.append(event)
                    if limit is not None and len(found) == limit:
                        return found
            if more is None:
                break
            seq = more
        return found

    def _page(self, seq: int) -> tuple[list[Event], int | None]:
        """The next ``batch`` events after ``seq`` (only the scope's where the store can
        leave the others unparsed), and the seq to read on from (None: none follow)."""
        if self._filtered:
            return cast(TopicReads, self._store).read_topics_after(seq, self._keys, self._batch)
        events = self._store.read_after(seq, self._batch)
        return events, (events[-1].seq if len(events) == self._batch and events else None)

    def version(self, key: str) -> int:
        return self._store.version(key)

    def get(self, event_id: str) -> Event | None:
        return self._store.get(event_id)

    def topics(self) -> list[str]:
        return [k for k in self._store.topics() if k in self._keys]

    def last_seq(self) -> int:
        return self._store.last_seq()

    def close(self) -> None:
        pass  # the scope does not own the store


def floor_seq(store: EventStore, keys: Iterable[str]) -> int:
    """A cursor just before the first event of ``keys``: reading starts there, not at the
    beginning of a store that may hold many other games (the store's end if none began)."""
    firsts = [chain[0].seq for chain in (store.chain(k)[:1] for k in keys) if chain]
    return min(firsts) - 1 if firsts else store.last_seq()


def scoped_rule(
    workflow: WorkflowType[S], store: EventStore, keys: Iterable[str]
) -> WorkflowRule[S]:
    """A rule that drives the topics ``keys`` of ``store`` and no other: several processes,
    each with its own connection and its own share of the topics, play into one store
    without taking each other's steps."""
    keys = list(keys)
    rule = WorkflowRule(workflow, TopicScope(store, keys))
    rule.cursor = floor_seq(store, keys)
    return rule
