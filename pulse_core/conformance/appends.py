"""Appends: versions, conflicts, retried drafts, the content they need, racing writers."""

from __future__ import annotations

import dataclasses
import threading
from datetime import timedelta
from pathlib import Path

from ..errors import ConflictError, InvalidEventError
from ..events import Draft, Event
from ..objects import digest_of
from .support import IDS, KIND, StoreSuite, append_one, make_draft, raises, snapshot

__all__ = ["AppendChecks"]


class AppendChecks(StoreSuite):
    """Appends: versions, conflicts, retried drafts, the content they need, racing writers."""

    # -- empty store ----------------------------------------------------------------------
    def test_new_store_is_empty(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            assert store.last_seq() == 0
            assert store.topics() == []
            assert store.read_after(0) == []
            assert store.version(key) == 0
            assert store.chain(key) == []
            assert store.get(IDS.new()) is None

    # -- append ---------------------------------------------------------------------------
    def test_append_sets_version_per_topic_and_seq_globally(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = IDS.new(), IDS.new()
            order = [a, a, b, a, b]
            events = [append_one(store, key, f"step {i}") for i, key in enumerate(order)]
            assert [e.version for e in events] == [1, 2, 1, 3, 2]
            assert [e.seq for e in events] == [1, 2, 3, 4, 5]
            assert store.version(a) == 3
            assert store.version(b) == 2

    def test_appended_event_carries_the_draft(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            draft = make_draft(store, key, "hello", meta={"n": 1}, code_rev="rev-7")
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
            key = IDS.new()
            append_one(store, key, "one")
            append_one(store, key, "two")
            before = snapshot(store)
            stale = make_draft(store, key, "late")
            with raises(ConflictError) as caught:
                store.append(stale, 1)
            error = caught[0]
            assert (error.key, error.expected, error.actual) == (key, 1, 2)
            assert snapshot(store) == before
            assert store.get(stale.id) is None
            assert store.version(key) == 2
            assert store.last_seq() == 2
            # the writer re-reads and retries with the version it now sees
            assert store.append(stale, 2).version == 3

    def test_expected_version_ahead_of_the_topic_conflicts(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            with raises(ConflictError) as caught:
                store.append(make_draft(store, key), 3)
            assert (caught[0].expected, caught[0].actual) == (3, 0)
            assert store.last_seq() == 0
            assert store.topics() == []

    def test_negative_expected_version_is_refused(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            with raises(InvalidEventError):
                store.append(make_draft(store, IDS.new()), -1)
            assert store.last_seq() == 0

    def test_retrying_the_same_draft_returns_the_stored_event(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            draft = make_draft(store, key, "once", meta={"a": [1, 2]})
            first = store.append(draft, 0)
            append_one(store, key, "after")
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
            key = IDS.new()
            draft = make_draft(store, key, "original", meta={"x": 1})
            store.append(draft, 0)
            before = snapshot(store)
            other_hash = store.objects.put(b"other")
            variants = [
                dataclasses.replace(draft, hash=other_hash),
                dataclasses.replace(draft, meta={"x": 2}),
                dataclasses.replace(draft, kind="conformance.other"),
                dataclasses.replace(draft, key=IDS.new()),
                dataclasses.replace(draft, occurred_at=draft.occurred_at + timedelta(seconds=1)),
                dataclasses.replace(draft, code_rev="another-rev"),
            ]
            for variant in variants:
                with raises(InvalidEventError):
                    store.append(variant, 1)
            assert snapshot(store) == before

    def test_content_must_be_in_the_object_store(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            moment = IDS.now()
            absent = digest_of(b"never stored")
            draft = Draft(id=IDS.new(moment), occurred_at=moment, kind=KIND, key=key, hash=absent)
            with raises(InvalidEventError):
                store.append(draft, 0)
            assert store.last_seq() == 0
            assert store.get(draft.id) is None
            store.objects.put(b"never stored")
            assert store.append(draft, 0).version == 1

    # -- concurrency ----------------------------------------------------------------------
    def test_one_writer_wins_a_version_race(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            append_one(store, key, "start")
            drafts = [make_draft(store, key, f"writer {i}") for i in range(4)]
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
