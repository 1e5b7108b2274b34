"""Reads: chains, the read cursor and its pages, topics, ids, the last seq."""

from __future__ import annotations

from pathlib import Path

from .support import IDS, StoreSuite, append_one, raises

__all__ = ["ReadChecks"]


class ReadChecks(StoreSuite):
    """Reads: chains, the read cursor and its pages, topics, ids, the last seq."""

    # -- reads ----------------------------------------------------------------------------
    def test_chain_is_in_version_order(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = IDS.new(), IDS.new()
            for i in range(4):
                append_one(store, a, f"a{i}")
                append_one(store, b, f"b{i}")
            for key, prefix in ((a, "a"), (b, "b")):
                chain = store.chain(key)
                assert [e.version for e in chain] == [1, 2, 3, 4]
                assert all(e.key == key for e in chain)
                texts = [store.objects.get(e.hash).decode() for e in chain]
                assert texts == [f"{prefix}{i}" for i in range(4)]

    def test_read_after_follows_commit_order_from_a_cursor(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            keys = [IDS.new() for _ in range(3)]
            written = [append_one(store, keys[i % 3], f"e{i}") for i in range(7)]
            assert store.read_after(0) == written
            assert store.read_after(3) == written[3:]
            assert store.read_after(7) == []
            assert store.read_after(100) == []
            assert [e.seq for e in store.read_after(0)] == list(range(1, 8))

    def test_read_after_pages_with_limit(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            written = [append_one(store, key, f"e{i}") for i in range(7)]
            assert store.read_after(0, 3) == written[:3]
            assert store.read_after(5, 10) == written[5:]
            assert store.read_after(0, 0) == []
            with raises(ValueError) as caught:
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
            first, second, third = IDS.new(), IDS.new(), IDS.new()
            # the key's own order differs from the order the topics began
            for key in (third, first, third, second, first):
                append_one(store, key)
            assert store.topics() == [third, first, second]

    def test_get_finds_events_by_id(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            a, b = IDS.new(), IDS.new()
            events = [append_one(store, a), append_one(store, b), append_one(store, a)]
            for event in events:
                assert store.get(event.id) == event
            assert store.get(IDS.new()) is None

    def test_last_seq_is_the_newest_seq(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            for expected in range(1, 4):
                assert append_one(store, key).seq == expected
                assert store.last_seq() == expected
