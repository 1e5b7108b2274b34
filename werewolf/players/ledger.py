"""The bill ledger: every answer an LLM seat received, written to the store as it arrives.

A phase records what its decisions were billed in its event, but only once the phase is
done; a process killed before that (``kill -9``, a power cut) loses the tokens of the
answers it had received: refused answers asked again, the concurrent night decisions in
flight, the retries of a decision. So each answer is also written, the moment it
arrives, to a table of the store file (``werewolf_bills``), durable before the seat reads
the answer, with the game, seat, decision and the decision's key.

When a game is taken up again, ``unrecorded(game, chain)`` compares the two per decision
key: what the ledger holds beyond what the game's events recorded under that key was billed
to a process that stopped before recording it. Those records (``"recovered": true``) go
into the game's next event, so the log's totals, the budget and the arena count every
billed token once, also after further stops. Events without keys (games recorded before
the ledger) and games without ledger rows recover nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pulse_core import Event

if TYPE_CHECKING:
    from ..decisions import Request
    from .bills import Billed

__all__ = ["ASKING_GAME", "BillLedger", "recovered_tokens"]

ASKING_GAME: ContextVar[str] = ContextVar("werewolf_asking_game", default="")
"""The game whose phase is running (set by the workflow): which game an answer is for,
where players are made without knowing it (an arena run's seat factory)."""

_SCHEMA = """CREATE TABLE IF NOT EXISTS werewolf_bills (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    seat INTEGER NOT NULL,
    decision TEXT NOT NULL,
    key TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    latency_ms REAL NOT NULL,
    estimated INTEGER NOT NULL
)"""
_INDEX = "CREATE INDEX IF NOT EXISTS werewolf_bills_game ON werewolf_bills (game)"


class BillLedger:
    """The ``werewolf_bills`` table of the SQLite store at ``path`` (opened when first
    used, on a connection of its own that syncs every commit)."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 30.0) -> None:
        self.path = Path(path)
        self._busy_timeout = busy_timeout
        self._db: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None)
            db.execute("PRAGMA synchronous=FULL")  # an answer is on disk before it is read
            db.execute(_SCHEMA)
            db.execute(_INDEX)
            self._db = db
        return self._db

    def record(self, game: str, seat: int, decision: str, key: str, bill: Billed) -> None:
        """One answer received for ``key`` (``seat``'s ``decision`` in ``game``)."""
        self._open().execute(
            "INSERT INTO werewolf_bills (game, seat, decision, key, prompt_tokens, "
            "completion_tokens, latency_ms, estimated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game,
                seat,
                decision,
                key,
                bill.prompt_tokens,
                bill.completion_tokens,
                round(bill.seconds * 1000, 3),
                int(bill.estimated),
            ),
        )

    def note(self, request: Request, bill: Billed) -> None:
        """One answer received for ``request``, in the game whose phase is running."""
        self.record(ASKING_GAME.get(), request.seat, request.kind.value, request.key, bill)

    def unrecorded(self, game: str, chain: Sequence[Event]) -> list[dict[str, Any]]:
        """Usage records of what the ledger holds for ``game`` beyond what ``chain``'s
        events recorded, per decision key (see the module docstring)."""
        if not self.path.is_file():
            return []
        rows = (
            self._open()
            .execute(
                "SELECT key, MIN(seat), MIN(decision), SUM(prompt_tokens), SUM(completion_tokens),"
                " COUNT(*), SUM(latency_ms), MAX(estimated) FROM werewolf_bills WHERE game = ?"
                " GROUP BY key ORDER BY MIN(id)",
                (game,),
            )
            .fetchall()
        )
        logged: dict[str, list[float]] = {}
        for event in chain:
            for use in event.meta.get("usage", ()):
                key = use.get("key")
                if isinstance(key, str):
                    sums = logged.setdefault(key, [0, 0, 0, 0.0])
                    sums[0] += int(use.get("prompt_tokens", 0))
                    sums[1] += int(use.get("completion_tokens", 0))
                    sums[2] += int(use.get("calls", 0))
                    sums[3] += float(use.get("latency_ms", 0.0))
        records: list[dict[str, Any]] = []
        for key, seat, decision, prompt, completion, calls, latency, estimated in rows:
            p, c, n, ms = logged.get(key, [0, 0, 0, 0.0])
            missing = (max(0, prompt - p), max(0, completion - c), max(0, calls - n))
            if not any(missing):
                continue
            record: dict[str, Any] = {
                "seat": int(seat),
                "decision": str(decision),
                "key": str(key),
                "prompt_tokens": int(missing[0]),
                "completion_tokens": int(missing[1]),
                "latency_ms": round(max(0.0, float(latency) - float(ms)), 1),
                "calls": int(missing[2]),
                "recovered": True,
            }
            if estimated:
                record["estimated"] = True
            records.append(record)
        return records

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def recovered_tokens(records: Sequence[dict[str, Any]]) -> int:
    """Prompt plus completion tokens of ``records``."""
    return sum(int(r["prompt_tokens"]) + int(r["completion_tokens"]) for r in records)
