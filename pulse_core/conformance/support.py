"""What every part of the conformance suite shares: its drafts, its ids, and the base class
that opens a store for each check.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ..events import CODE_REV, Draft, Event, Meta
from ..ids import IdSource
from ..store import EventStore

__all__ = ["IDS", "KIND", "StoreSuite", "append_one", "make_draft", "raises", "snapshot"]

KIND = "conformance.step"
E = TypeVar("E", bound=BaseException)

IDS = IdSource()


@contextmanager
def raises(kind: type[E]) -> Iterator[list[E]]:
    """Like ``pytest.raises``: the block must raise ``kind``; the list receives it."""
    caught: list[E] = []
    try:
        yield caught
    except kind as exc:
        caught.append(exc)
    else:
        raise AssertionError(f"{kind.__name__} was not raised")


def make_draft(
    store: EventStore,
    key: str,
    content: str = "content",
    *,
    kind: str = KIND,
    meta: Meta | None = None,
    occurred_at: datetime | None = None,
    event_id: str | None = None,
    code_rev: str = CODE_REV,
) -> Draft:
    """A draft whose content is already in the store's object store."""
    digest = store.objects.put(content.encode("utf-8"))
    moment = occurred_at or IDS.now()
    return Draft(
        id=event_id or IDS.new(moment),
        occurred_at=moment,
        kind=kind,
        key=key,
        hash=digest,
        meta=meta if meta is not None else {},
        code_rev=code_rev,
    )


def append_one(store: EventStore, key: str, content: str = "content", **fields: Any) -> Event:
    """Append one event at the topic's current version."""
    return store.append(make_draft(store, key, content, **fields), store.version(key))


def snapshot(store: EventStore) -> list[Event]:
    return store.read_after(0)


class StoreSuite(ABC):
    """A part of the suite: ``make_store`` gives each check a new store, ``opened`` closes it."""

    @abstractmethod
    def make_store(self, tmp_path: Path) -> EventStore:
        """A new, empty store (files, if any, under ``tmp_path``)."""

    @contextmanager
    def opened(self, tmp_path: Path) -> Iterator[EventStore]:
        store = self.make_store(tmp_path)
        try:
            yield store
        finally:
            store.close()
