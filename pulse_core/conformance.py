"""The event store conformance suite: one contract, checked against every store.

Subclass ``EventStoreConformance`` in a test module under a ``Test...`` name and implement
``make_store(tmp_path)``; pytest collects every ``test_*`` method for that store::

    class TestMemoryStore(EventStoreConformance):
        def make_store(self, tmp_path: Path) -> EventStore:
            return MemoryEventStore()

The base class is not named ``Test...``, so pytest never collects it on its own. The suite
needs pytest only as its runner (for the ``tmp_path`` argument); it imports nothing from it.
Its checks are plain ``assert`` statements: register the module for pytest's assertion
rewriting (``pytest.register_assert_rewrite("pulse_core.conformance")`` in a conftest) to get
detailed failure messages.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

from .errors import ConflictError, InvalidEventError
from .events import CODE_REV, Draft, Event, Meta
from .ids import IdSource
from .objects import digest_of
from .store import BatchAppend, EventStore

__all__ = ["EventStoreConformance"]

KIND = "conformance.step"
E = TypeVar("E", bound=BaseException)

_IDS = IdSource()


@contextmanager
def _raises(kind: type[E]) -> Iterator[list[E]]:
    """Like ``pytest.raises``: the block must raise ``kind``; the list receives it."""
    caught: list[E] = []
    try:
        yield caught
    except kind as exc:
        caught.append(exc)
    else:
        raise AssertionError(f"{kind.__name__} was not raised")


def _draft(
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
    moment = occurred_at or _IDS.now()
    return Draft(
        id=event_id or _IDS.new(moment),
        occurred_at=moment,
        kind=kind,
        key=key,
        hash=digest,
        meta=meta if meta is not None else {},
        code_rev=code_rev,
    )


def _append(store: EventStore, key: str, content: str = "content", **fields: Any) -> Event:
    """Append one event at the topic's current version."""
    return store.append(_draft(store, key, content, **fields), store.version(key))


def _snapshot(store: EventStore) -> list[Event]:
    return store.read_after(0)


class EventStoreConformance(ABC):
    """The contract of ``pulse_core.store.EventStore``, as tests."""

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

    # -- empty store ----------------------------------------------------------------------
    def test_new_store_is_empty(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            assert store.last_seq() == 0
            assert store.topics() == []
            assert store.read_after(0) == []
            assert store.version(key) == 0
            assert store.chain(key) == []
            assert store.get(_IDS.new()) is None

    # -- append ---------------------------------------------------------------------------
    def test_append_sets_version_per_topic_and_seq_globally(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = _IDS.new(), _IDS.new()
            order = [a, a, b, a, b]
            events = [_append(store, key, f"step {i}") for i, key in enumerate(order)]
            assert [e.version for e in events] == [1, 2, 1, 3, 2]
            assert [e.seq for e in events] == [1, 2, 3, 4, 5]
            assert store.version(a) == 3
            assert store.version(b) == 2

    def test_appended_event_carries_the_draft(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            draft = _draft(store, key, "hello", meta={"n": 1}, code_rev="rev-7")
            event = store.append(draft, 0)
            assert (event.id, event.kind, event.key, event.hash) == (
                draft.id,
                draft.kind,
                draft.key,
                draft.hash,
            )
            assert event.occurred_at == draft.occurred_at
            assert event.meta == {"n": 1}
            assert event.code_rev == "rev-7"
            assert event.workflow == "conformance"
            assert event.role == "step"
            assert store.get(event.id) == event
            assert store.chain(key) == [event]
            assert store.read_after(0) == [event]
            assert store.objects.get(event.hash) == b"hello"

    def test_stale_expected_version_raises_conflict_and_writes_nothing(
        self, tmp_path: Path
    ) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            _append(store, key, "one")
            _append(store, key, "two")
            before = _snapshot(store)
            stale = _draft(store, key, "late")
            with _raises(ConflictError) as caught:
                store.append(stale, 1)
            error = caught[0]
            assert (error.key, error.expected, error.actual) == (key, 1, 2)
            assert _snapshot(store) == before
            assert store.get(stale.id) is None
            assert store.version(key) == 2
            assert store.last_seq() == 2
            # the writer re-reads and retries with the version it now sees
            assert store.append(stale, 2).version == 3

    def test_expected_version_ahead_of_the_topic_conflicts(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            with _raises(ConflictError) as caught:
                store.append(_draft(store, key), 3)
            assert (caught[0].expected, caught[0].actual) == (3, 0)
            assert store.last_seq() == 0
            assert store.topics() == []

    def test_negative_expected_version_is_refused(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            with _raises(InvalidEventError):
                store.append(_draft(store, _IDS.new()), -1)
            assert store.last_seq() == 0

    def test_retrying_the_same_draft_returns_the_stored_event(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            draft = _draft(store, key, "once", meta={"a": [1, 2]})
            first = store.append(draft, 0)
            _append(store, key, "after")
            # the retry names the version it expected the first time, now stale
            again = store.append(draft, 0)
            assert again == first
            assert store.last_seq() == 2
            assert store.chain(key)[0].id == draft.id
            # an equal draft built anew (same id and fields) is the same retry
            rebuilt = dataclasses.replace(draft, meta={"a": [1, 2]})
            assert store.append(rebuilt, 2) == first
            assert store.last_seq() == 2

    def test_reused_id_with_different_content_is_refused(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            draft = _draft(store, key, "original", meta={"x": 1})
            store.append(draft, 0)
            before = _snapshot(store)
            other_hash = store.objects.put(b"other")
            variants = [
                dataclasses.replace(draft, hash=other_hash),
                dataclasses.replace(draft, meta={"x": 2}),
                dataclasses.replace(draft, kind="conformance.other"),
                dataclasses.replace(draft, key=_IDS.new()),
                dataclasses.replace(draft, occurred_at=draft.occurred_at + timedelta(seconds=1)),
                dataclasses.replace(draft, code_rev="another-rev"),
            ]
            for variant in variants:
                with _raises(InvalidEventError):
                    store.append(variant, 1)
            assert _snapshot(store) == before

    def test_content_must_be_in_the_object_store(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            moment = _IDS.now()
            absent = digest_of(b"never stored")
            draft = Draft(id=_IDS.new(moment), occurred_at=moment, kind=KIND, key=key, hash=absent)
            with _raises(InvalidEventError):
                store.append(draft, 0)
            assert store.last_seq() == 0
            assert store.get(draft.id) is None
            store.objects.put(b"never stored")
            assert store.append(draft, 0).version == 1

    # -- batches (stores that have append_batch) -------------------------------------------
    def test_a_batch_appends_each_item_and_reports_each_conflict(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            if not isinstance(store, BatchAppend):
                return
            first, second, third = _IDS.new(), _IDS.new(), _IDS.new()
            _append(store, second, "already there")
            items = [
                (_draft(store, first, "a"), 0),
                (_draft(store, second, "stale"), 0),
                (_draft(store, third, "c"), 0),
                (_draft(store, first, "a again"), 1),
            ]
            done = store.append_batch(items)
            assert [type(d) for d in done] == [Event, ConflictError, Event, Event]
            conflict = done[1]
            assert isinstance(conflict, ConflictError)
            assert (conflict.key, conflict.expected, conflict.actual) == (second, 0, 1)
            assert [e.seq for e in done if isinstance(e, Event)] == [2, 3, 4]
            assert store.read_after(1) == [d for d in done if isinstance(d, Event)]
            assert [e.version for e in store.chain(first)] == [1, 2]
            assert store.get(items[1][0].id) is None
            # a retried batch (acknowledged or not) returns the stored events
            again = store.append_batch([items[0], items[2]])
            assert again == [done[0], done[2]]
            assert store.last_seq() == 4

    def test_a_batch_with_an_invalid_item_appends_nothing(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            if not isinstance(store, BatchAppend):
                return
            key = _IDS.new()
            good = _draft(store, key, "fine")
            moment = _IDS.now()
            absent = Draft(_IDS.new(moment), moment, KIND, _IDS.new(), digest_of(b"absent"))
            with _raises(InvalidEventError):
                store.append_batch([(good, 0), (absent, 0)])
            assert store.last_seq() == 0
            assert store.get(good.id) is None
            assert store.append_batch([(good, 0)])[0] == store.chain(key)[0]

    def test_a_batch_stores_the_contents_it_is_given(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            if not isinstance(store, BatchAppend):
                return
            # hashed by the store, then with the hashes given (as an adapter gives them)
            for given in (False, True):
                key, moment = _IDS.new(), _IDS.now()
                large = b"large %d " % given * 20_000  # a store may keep it elsewhere
                contents = [b"first %d" % given, "second \u2028 \U0001f43a".encode(), large]
                drafts = [
                    (Draft(_IDS.new(moment), moment, KIND, key, digest_of(data)), version)
                    for version, data in enumerate(contents)
                ]
                blobs = [*contents, contents[0]]
                hashes = [digest_of(blob) for blob in blobs] if given else None
                done = store.append_batch(drafts, blobs, hashes)
                assert [e.version for e in done if isinstance(e, Event)] == [1, 2, 3]
                assert [store.objects.get(e.hash) for e in store.chain(key)] == contents
                assert all(store.objects.has(digest_of(blob)) for blob in blobs)

    # -- reads ----------------------------------------------------------------------------
    def test_chain_is_in_version_order(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = _IDS.new(), _IDS.new()
            for i in range(4):
                _append(store, a, f"a{i}")
                _append(store, b, f"b{i}")
            for key, prefix in ((a, "a"), (b, "b")):
                chain = store.chain(key)
                assert [e.version for e in chain] == [1, 2, 3, 4]
                assert all(e.key == key for e in chain)
                texts = [store.objects.get(e.hash).decode() for e in chain]
                assert texts == [f"{prefix}{i}" for i in range(4)]

    def test_read_after_follows_commit_order_from_a_cursor(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            keys = [_IDS.new() for _ in range(3)]
            written = [_append(store, keys[i % 3], f"e{i}") for i in range(7)]
            assert store.read_after(0) == written
            assert store.read_after(3) == written[3:]
            assert store.read_after(7) == []
            assert store.read_after(100) == []
            assert [e.seq for e in store.read_after(0)] == list(range(1, 8))

    def test_read_after_pages_with_limit(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            written = [_append(store, key, f"e{i}") for i in range(7)]
            assert store.read_after(0, 3) == written[:3]
            assert store.read_after(5, 10) == written[5:]
            assert store.read_after(0, 0) == []
            with _raises(ValueError) as caught:
                store.read_after(0, -1)
            assert "limit must be None or >= 0" in str(caught[0])
            cursor, pages = 0, []
            while page := store.read_after(cursor, 2):
                pages.append(page)
                cursor = page[-1].seq
            assert [len(p) for p in pages] == [2, 2, 2, 1]
            assert [e for p in pages for e in p] == written

    def test_topics_in_the_order_they_began(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            first, second, third = _IDS.new(), _IDS.new(), _IDS.new()
            # the key's own order differs from the order the topics began
            for key in (third, first, third, second, first):
                _append(store, key)
            assert store.topics() == [third, first, second]

    def test_get_finds_events_by_id(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = _IDS.new(), _IDS.new()
            events = [_append(store, a), _append(store, b), _append(store, a)]
            for event in events:
                assert store.get(event.id) == event
            assert store.get(_IDS.new()) is None

    def test_last_seq_is_the_newest_seq(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            for expected in range(1, 4):
                assert _append(store, key).seq == expected
                assert store.last_seq() == expected

    # -- values ---------------------------------------------------------------------------
    def test_meta_round_trips_json_exactly(self, tmp_path: Path) -> None:
        meta: Meta = {
            "text": "狼人杀 — «ünïcödé» 🐺 \u200b\u2028 end",
            "escapes": 'quote " backslash \\ newline \n tab \t nul \x00',
            "🔑 key": "emoji key",
            "numbers": [0, -7, 2**70, 0.1, -2.5e-300, 1e300, 1.0],
            "flags": [True, False, None],
            "empty": {"list": [], "dict": {}, "text": ""},
            "nested": {"a": {"b": {"c": [1, [2, [3, {"d": "深"}]]]}}},
        }
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            event = store.append(_draft(store, key, meta=meta), 0)
            canonical = json.dumps(meta, sort_keys=True)
            for read in (event, store.get(event.id), store.chain(key)[0], store.read_after(0)[0]):
                assert read is not None
                assert read.meta == meta
                # also the JSON types: 1.0 stays a float, True stays a bool
                assert json.dumps(read.meta, sort_keys=True) == canonical

    def test_meta_is_stored_as_its_json_round_trip(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            meta: Meta = {"seats": (1, 2), "votes": {3: 4}}
            event = store.append(_draft(store, key, meta=meta), 0)
            for read in (event, store.chain(key)[0]):
                assert read.meta == {"seats": [1, 2], "votes": {"3": 4}}

    def test_meta_that_is_not_json_is_refused(self, tmp_path: Path) -> None:
        bad: list[Meta] = [
            {"x": object()},
            {"x": float("nan")},
            {"x": float("inf")},
            {"x": {1, 2}},
            {"x": "lone surrogate \ud800"},
            {"x": b"bytes"},
        ]
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            for meta in bad:
                with _raises(InvalidEventError):
                    store.append(_draft(store, key, meta=meta), 0)
            assert store.last_seq() == 0

    def test_caller_changes_to_meta_after_append_change_no_event(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            meta: Meta = {"list": [1], "inner": {"n": 1}}
            event = store.append(_draft(store, key, meta=meta), 0)
            meta["list"].append(2)
            meta["inner"]["n"] = 99
            meta["new"] = True
            assert store.chain(key)[0].meta == {"list": [1], "inner": {"n": 1}}
            assert event.meta == {"list": [1], "inner": {"n": 1}}

    def test_occurred_at_round_trips_as_utc(self, tmp_path: Path) -> None:
        india = timezone(timedelta(hours=5, minutes=30))
        moment = datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=india)
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            event = store.append(_draft(store, key, occurred_at=moment), 0)
            for read in (event, store.get(event.id), store.chain(key)[0]):
                assert read is not None
                assert read.occurred_at == moment
                assert read.occurred_at.utcoffset() == timedelta(0)
                assert read.occurred_at.replace(tzinfo=None) == datetime(
                    2024, 2, 29, 18, 29, 58, 123456
                )
                assert read.occurred_at.tzinfo == UTC

    def test_code_rev_is_kept(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            default = _append(store, key)
            custom = _append(store, key, code_rev="git:0123abc")
            assert [e.code_rev for e in store.chain(key)] == [CODE_REV, "git:0123abc"]
            assert (default.code_rev, custom.code_rev) == (CODE_REV, "git:0123abc")

    def test_events_are_immutable(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            event = _append(store, _IDS.new())
            for name, value in (("version", 99), ("kind", "x.y"), ("meta", {}), ("seq", 0)):
                with _raises(dataclasses.FrozenInstanceError):
                    setattr(event, name, value)
            assert store.get(event.id) == event
            assert not hasattr(store, "update")
            assert not hasattr(store, "delete")

    # -- concurrency ----------------------------------------------------------------------
    def test_one_writer_wins_a_version_race(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = _IDS.new()
            _append(store, key, "start")
            drafts = [_draft(store, key, f"writer {i}") for i in range(4)]
            barrier = threading.Barrier(len(drafts))
            outcomes: list[Event | BaseException] = []
            lock = threading.Lock()

            def write(draft: Draft) -> None:
                barrier.wait()
                try:
                    result: Event | BaseException = store.append(draft, 1)
                except ConflictError as exc:
                    result = exc
                with lock:
                    outcomes.append(result)

            threads = [threading.Thread(target=write, args=(d,)) for d in drafts]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            winners = [o for o in outcomes if isinstance(o, Event)]
            losers = [o for o in outcomes if isinstance(o, ConflictError)]
            assert len(winners) == 1
            assert len(losers) == len(drafts) - 1
            assert all((e.expected, e.actual) == (1, 2) for e in losers)
            assert store.chain(key) == [store.chain(key)[0], winners[0]]
            assert store.last_seq() == 2
