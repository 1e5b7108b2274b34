"""Batches: ``append_batch``, for the stores that have it."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConflictError, InvalidEventError
from ..events import Draft, Event
from ..objects import digest_of
from ..store import BatchAppend
from .support import IDS, KIND, StoreSuite, append_one, make_draft, raises

__all__ = ["BatchChecks"]


class BatchChecks(StoreSuite):
    """Batches: ``append_batch``, for the stores that have it."""

    # -- batches (stores that have append_batch) -------------------------------------------
    def test_a_batch_appends_each_item_and_reports_each_conflict(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            if not isinstance(store, BatchAppend):
                return
            first, second, third = IDS.new(), IDS.new(), IDS.new()
            append_one(store, second, "already there")
            items = [
                (make_draft(store, first, "a"), 0),
                (make_draft(store, second, "stale"), 0),
                (make_draft(store, third, "c"), 0),
                (make_draft(store, first, "a again"), 1),
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
            key = IDS.new()
            good = make_draft(store, key, "fine")
            moment = IDS.now()
            absent = Draft(IDS.new(moment), moment, KIND, IDS.new(), digest_of(b"absent"))
            with raises(InvalidEventError):
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
                key, moment = IDS.new(), IDS.now()
                large = b"large %d " % given * 20_000  # a store may keep it elsewhere
                contents = [b"first %d" % given, "second \u2028 \U0001f43a".encode(), large]
                drafts = [
                    (Draft(IDS.new(moment), moment, KIND, key, digest_of(data)), version)
                    for version, data in enumerate(contents)
                ]
                blobs = [*contents, contents[0]]
                hashes = [digest_of(blob) for blob in blobs] if given else None
                done = store.append_batch(drafts, blobs, hashes)
                assert [e.version for e in done if isinstance(e, Event)] == [1, 2, 3]
                assert [store.objects.get(e.hash) for e in store.chain(key)] == contents
                assert all(store.objects.has(digest_of(blob)) for blob in blobs)
