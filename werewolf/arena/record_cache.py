"""Records of ended games kept between reports, so a report reads only what is new.

An ended game's record is a pure function of its events, and events are never changed or
deleted, so a record stays right for as long as no event of its game comes after it. The
cache keeps the store's read position (the highest ``seq`` it has seen) and the first
event of the store (a store made anew at the same path starts with another event); a
report reads only the events after that position, and drops the records of the games
they touch. A fingerprint of the code that makes records (the pure game modules and the
metrics) drops the whole cache when that code changes. A cache that cannot be read is
ignored: it is only ever a shortcut.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, fields
from functools import cache
from pathlib import Path
from typing import Any

from pulse_core import EventStore
from pulse_core.limits import parse_json, read_bounded

from ..cast import Identity
from ..state import Outcome
from .beliefs import BeliefRecord
from .game_records import GameRecord, SeatRecord

__all__ = ["RecordCache", "cache_path", "code_fingerprint"]

CACHE_FORMAT = 2  # 2: belief reports


def cache_path(run_file: Path) -> Path:
    """The cache of the run whose file is ``run_file`` (a hidden folder beside the runs)."""
    return run_file.parent / ".cache" / f"{run_file.stem}.records.json"


@cache
def code_fingerprint() -> str:
    """A hash of the sources that decide a record: the game's pure modules and metrics."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    arena = package / "arena"
    for path in [*sorted(package.glob("*.py")), arena / "metrics.py", arena / "beliefs.py"]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


# a seat's counts are mostly zero: only the fields that differ from these are written
_ZERO: dict[str, object] = {f.name: f.default for f in fields(SeatRecord)}


def _record_json(record: GameRecord) -> dict[str, Any]:
    return {
        "index": record.index,
        "winner": record.winner.value,
        "seats": [
            {k: v for k, v in {**asdict(s), "identity": s.identity.value}.items() if v != _ZERO[k]}
            for s in record.seats
        ],
        "exiles": [list(e) for e in record.exiles],
        "beliefs": [[b.day, b.believer, b.target, b.p, b.wolf] for b in record.beliefs],
    }


def _record(data: dict[str, Any]) -> GameRecord:
    return GameRecord(
        index=int(data["index"]),
        winner=Outcome(data["winner"]),
        seats=tuple(
            SeatRecord(**{**s, "identity": Identity(s["identity"])}) for s in data["seats"]
        ),
        exiles=tuple((int(seat), bool(wolf)) for seat, wolf in data["exiles"]),
        beliefs=tuple(
            BeliefRecord(int(d), int(b), int(t), float(p), bool(w))
            for d, b, t, p, w in data.get("beliefs", [])
        ),
    )


class RecordCache:
    """The cached records of one run, brought up to date with ``store`` on load."""

    def __init__(self, path: Path, store: EventStore) -> None:
        self.path = path
        self.records: dict[str, GameRecord] = {}
        self.changed = False
        first = store.read_after(0, limit=1)
        self._first = first[0].id if first else ""
        self._seq = 0
        saved = self._read()
        if saved is None:  # start from here: every record is read from the store
            self._seq = store.last_seq()
            self.changed = True
            return
        self._seq = int(saved["seq"])
        self.records = {k: _record(v) for k, v in saved["records"].items()}
        for event in store.read_after(self._seq):  # only what came after the last report
            self._seq = max(self._seq, event.seq)
            self.records.pop(event.key, None)
            self.changed = True

    def _read(self) -> dict[str, Any] | None:
        try:
            data = parse_json(read_bounded(self.path, 1 << 30), str(self.path))
            if (
                data.get("format") == CACHE_FORMAT
                and data.get("code") == code_fingerprint()
                and data.get("store_first") == self._first
                and isinstance(data.get("records"), dict)
            ):
                return dict(data)
        except (OSError, ValueError, TypeError, KeyError):
            pass
        return None

    def add(self, key: str, record: GameRecord) -> None:
        self.records[key] = record
        self.changed = True

    def save(self) -> None:
        """Write the cache atomically, if anything changed (a failed write is ignored)."""
        if not self.changed:
            return
        data = {
            "format": CACHE_FORMAT,
            "code": code_fingerprint(),
            "store_first": self._first,
            "seq": self._seq,
            "records": {k: _record_json(r) for k, r in sorted(self.records.items())},
        }
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            return
        self.changed = False
