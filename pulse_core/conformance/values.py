"""Values: meta, times and code revisions read back as written; events immutable."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from ..errors import InvalidEventError
from ..events import CODE_REV, Meta
from .support import IDS, StoreSuite, append_one, make_draft, raises

__all__ = ["ValueChecks"]


class ValueChecks(StoreSuite):
    """Values: meta, times and code revisions read back as written; events immutable."""

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
            key = IDS.new()
            event = store.append(make_draft(store, key, meta=meta), 0)
            canonical = json.dumps(meta, sort_keys=True)
            for read in (event, store.get(event.id), store.chain(key)[0], store.read_after(0)[0]):
                assert read is not None
                assert read.meta == meta
                # also the JSON types: 1.0 stays a float, True stays a bool
                assert json.dumps(read.meta, sort_keys=True) == canonical

    def test_meta_is_stored_as_its_json_round_trip(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            meta: Meta = {"seats": (1, 2), "votes": {3: 4}}
            event = store.append(make_draft(store, key, meta=meta), 0)
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
            key = IDS.new()
            for meta in bad:
                with raises(InvalidEventError):
                    store.append(make_draft(store, key, meta=meta), 0)
            assert store.last_seq() == 0

    def test_caller_changes_to_meta_after_append_change_no_event(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            key = IDS.new()
            meta: Meta = {"list": [1], "inner": {"n": 1}}
            event = store.append(make_draft(store, key, meta=meta), 0)
            meta["list"].append(2)
            meta["inner"]["n"] = 99
            meta["new"] = True
            assert store.chain(key)[0].meta == {"list": [1], "inner": {"n": 1}}
            assert event.meta == {"list": [1], "inner": {"n": 1}}

    def test_occurred_at_round_trips_as_utc(self, tmp_path: Path) -> None:
        india = timezone(timedelta(hours=5, minutes=30))
        moment = datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=india)
        with self.opened(tmp_path) as store:
            key = IDS.new()
            event = store.append(make_draft(store, key, occurred_at=moment), 0)
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
            key = IDS.new()
            default = append_one(store, key)
            custom = append_one(store, key, code_rev="git:0123abc")
            assert [e.code_rev for e in store.chain(key)] == [CODE_REV, "git:0123abc"]
            assert (default.code_rev, custom.code_rev) == (CODE_REV, "git:0123abc")

    def test_events_are_immutable(self, tmp_path: Path) -> None:
        with self.opened(tmp_path) as store:
            event = append_one(store, IDS.new())
            for name, value in (("version", 99), ("kind", "x.y"), ("meta", {}), ("seq", 0)):
                with raises(dataclasses.FrozenInstanceError):
                    setattr(event, name, value)
            assert store.get(event.id) == event
            assert not hasattr(store, "update")
            assert not hasattr(store, "delete")
