"""The games a store holds, newest first: one summary per game for listings.

``list_games`` is the query behind ``werewolf games`` (and any other listing, such as a
page of games): it reads the store's topics, then the events of the games it shows, and
returns plain data; drawing it is the caller's job. ``Catalog`` keeps the same summaries
for a long-lived reader (``werewolf serve``): it reads only the events appended since its
last ``refresh`` (a seq cursor), keeping each game's first and last event, which is all a
summary needs, and ``select`` filters by board, winner, arena run and start date.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pulse_core import ERROR, Event, EventStore

from ..boards import board_of
from ..config import STANDARD_NINE, parse_config
from ..errors import ConfigError
from ..game import WORKFLOW

KIND_PREFIX = WORKFLOW + "."  # the kinds of a werewolf game's events

__all__ = ["UNFINISHED", "Catalog", "GameSummary", "game_summary", "list_games"]

UNFINISHED = "unfinished"
"""The ``winner`` filter value of ``Catalog.select`` for games that have not ended."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: str
    started: datetime  # UTC, when the game's start event was written
    board: str  # a named board ("standard-9", "kaggle-8"), or "custom" with the deck's size
    seats: int
    players: str  # who sat there, e.g. "mock×9" or "mock×8, llm:gpt-4o-mini"
    status: str  # "ended", "stopped" (on an error: resumable) or "in progress"
    winner: str | None  # "wolves", "good", "lovers" or "draw" once ended
    run: str | None  # the arena run the game belongs to, if any
    seed: int | None
    last: datetime | None = None  # UTC, when the game's last event was written

    @property
    def result(self) -> str:
        """The winner of an ended game, else its status."""
        return self.winner if self.winner is not None else self.status


def _board(config: Mapping[str, Any], seats: int) -> str:
    """The board the recorded config plays (its deck and the rule fields that name it, as
    ``--board`` set them), else ``custom-<seats>``."""
    try:
        named = board_of(parse_config(dict(config)))
    except ConfigError:  # a log written by a newer version, or edited by hand
        named = None
    return named or f"custom-{seats}"


def _players(players: Sequence[Mapping[str, Any]]) -> str:
    labels = Counter(
        str(p.get("kind", "?")) + (f":{p['model']}" if p.get("model") else "") for p in players
    )
    return ", ".join(f"{label}×{n}" if n > 1 else label for label, n in labels.most_common())


def game_summary(chain: Sequence[Event]) -> GameSummary:
    """The summary of one game's events (its chain, from the start event)."""
    if not chain:
        raise ConfigError([("game", "an empty chain is not a game")])
    start = chain[0]
    game = start.meta.get("game", {}) if isinstance(start.meta.get("game"), dict) else {}
    config = game.get("config", {}) if isinstance(game.get("config"), dict) else {}
    identities = config.get("identities") or [i.value for i in STANDARD_NINE]
    players = [p for p in game.get("players") or [] if isinstance(p, dict)]
    last = chain[-1]
    winner: str | None = None
    if last.role == "game-end":
        status, winner = "ended", str(last.meta.get("diff", {}).get("winner", "draw"))
    elif last.role == ERROR:
        status = "stopped"
    else:
        status = "in progress"
    arena = game.get("arena")
    seed = game.get("seed")
    return GameSummary(
        game_id=start.key,
        started=start.occurred_at,
        board=_board(config, len(identities)),
        seats=len(identities),
        players=_players(players) if players else "",
        status=status,
        winner=winner,
        run=str(arena.get("run")) if isinstance(arena, dict) and arena.get("run") else None,
        seed=seed if isinstance(seed, int) else None,
        last=last.occurred_at,
    )


def list_games(store: EventStore, *, limit: int | None = None) -> list[GameSummary]:
    """The werewolf games in ``store``, newest first; ``limit`` keeps the newest ones
    (only their events are read)."""
    keys = list(reversed(store.topics()))  # topics come in the order they started
    shown: list[GameSummary] = []
    for key in keys:
        if limit is not None and len(shown) >= limit:
            break
        chain = store.chain(key)
        if chain and chain[0].kind.startswith(KIND_PREFIX):
            shown.append(game_summary(chain))
    return shown


class Catalog:
    """Every werewolf game in ``store``, brought up to date by ``refresh``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.cursor = 0  # the last seq read
        self._ends: dict[str, tuple[Event, Event]] = {}  # game -> (start event, last event)
        self._games: dict[str, GameSummary] = {}

    def refresh(self) -> None:
        changed: set[str] = set()
        for event in self.store.read_after(self.cursor):
            self.cursor = event.seq
            if not event.kind.startswith(KIND_PREFIX):
                continue
            known = self._ends.get(event.key)
            if known is not None:
                self._ends[event.key] = (known[0], event)
            elif event.version == 1:
                self._ends[event.key] = (event, event)
            changed.add(event.key)
        for key in changed & self._ends.keys():
            start, last = self._ends[key]
            self._games[key] = game_summary([start] if last is start else [start, last])

    def select(
        self,
        *,
        board: str | None = None,
        winner: str | None = None,
        run: str | None = None,
        date: str | None = None,
    ) -> list[GameSummary]:
        """The games that match every filter given, newest first. ``winner`` is ``wolves``,
        ``good``, ``lovers``, ``draw`` or ``unfinished``; ``date`` is ``YYYY-MM-DD`` (UTC)."""
        out = [
            g
            for g in self._games.values()
            if (not board or g.board == board)
            and (not winner or (g.winner or UNFINISHED) == winner)
            and (not run or g.run == run)
            and (not date or g.started.date().isoformat() == date)
        ]
        out.sort(key=lambda g: (g.started, g.game_id), reverse=True)
        return out

    def game(self, game_id: str) -> GameSummary | None:
        """The summary of one game, None if the store has no such game."""
        return self._games.get(game_id)

    def values(self, field: str) -> list[str]:
        """The distinct values of ``board`` or ``run`` among the games, sorted."""
        return sorted({str(v) for g in self._games.values() if (v := getattr(g, field))})
