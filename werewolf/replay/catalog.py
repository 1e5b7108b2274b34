"""The games a store holds, in a few words each, kept up to date from new events only.

``Catalog`` reads a store's events after its cursor (the store's commit order, ``seq``)
and keeps one ``GameSummary`` per game: when it started, its board, who played, the arena
run it belongs to, how far it got and who won. ``refresh`` costs what was appended since
the last one, so a list over a store of thousands of games stays cheap to reload while
games are being played. ``select`` filters by board, winner, arena run and start date.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pulse_core import ERROR, START, Event, EventStore

from ..config import GameConfig
from ..text import one_line
from .format import KIND_PREFIX
from .render import board_label

__all__ = ["UNFINISHED", "Catalog", "GameSummary"]

UNFINISHED = "unfinished"
"""The ``winner`` filter value for games that have not ended (in progress, failed)."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: str
    started: datetime
    board: str
    seats: int
    seed: int
    players: tuple[str, ...]  # who played each seat: "mock", "llm:gpt-4o", ...
    arena_run: str | None
    events: int = 1
    day: int = 0
    winner: str | None = None  # "wolves", "good", "draw"; None: not ended
    failed: bool = False  # the last event is a failure: the game waits for resume

    @property
    def ended(self) -> bool:
        return self.winner is not None

    @property
    def status(self) -> str:
        if self.winner is not None:
            return f"{self.winner} won" if self.winner != "draw" else "draw"
        return "stopped on an error" if self.failed else "in progress"


def _player(spec: Any) -> str:
    if not isinstance(spec, Mapping):
        return "?"
    kind = str(spec.get("kind", "?"))
    extra = spec.get("model") or spec.get("personality")
    return one_line(f"{kind}:{extra}" if extra else kind)


def _summary(event: Event) -> GameSummary | None:
    """The summary a start event opens; None for a start event this code cannot read."""
    game = event.meta.get("game", {})
    try:
        config = GameConfig.model_validate(game.get("config", {}))
        seed = int(game.get("seed", 0))
    except (ValueError, TypeError):
        return None
    arena = game.get("arena")
    run = arena.get("run") if isinstance(arena, Mapping) else None
    return GameSummary(
        game_id=event.key,
        started=event.occurred_at,
        board=board_label(config),
        seats=config.seats,
        seed=seed,
        players=tuple(_player(p) for p in game.get("players", [])),
        arena_run=one_line(str(run)) if run else None,
    )


class Catalog:
    """Every werewolf game in ``store``, brought up to date by ``refresh``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.cursor = 0  # the last seq read
        self._games: dict[str, GameSummary] = {}

    def refresh(self) -> None:
        for event in self.store.read_after(self.cursor):
            self.cursor = event.seq
            if event.kind.startswith(KIND_PREFIX):
                self._apply(event)

    def _apply(self, event: Event) -> None:
        if event.role == START:
            summary = _summary(event)
            if summary is not None:
                self._games[event.key] = summary
            return
        known = self._games.get(event.key)
        if known is None:
            return
        winner = known.winner
        if event.role == "game-end":
            winner = str(event.meta.get("diff", {}).get("winner", "draw"))
        day = event.meta.get("day", known.day)
        self._games[event.key] = replace(
            known,
            events=event.version,
            day=day if isinstance(day, int) else known.day,
            winner=winner,
            failed=event.role == ERROR,
        )

    def get(self, game_id: str) -> GameSummary | None:
        return self._games.get(game_id)

    def select(
        self,
        *,
        board: str | None = None,
        winner: str | None = None,
        run: str | None = None,
        date: str | None = None,
    ) -> list[GameSummary]:
        """The games that match every filter given, newest first. ``winner`` is
        ``wolves``, ``good``, ``draw`` or ``unfinished``; ``date`` is ``YYYY-MM-DD`` (UTC)."""
        out = []
        for game in self._games.values():
            if board and game.board != board:
                continue
            if winner and (game.winner or UNFINISHED) != winner:
                continue
            if run and game.arena_run != run:
                continue
            if date and game.started.date().isoformat() != date:
                continue
            out.append(game)
        out.sort(key=lambda g: (g.started, g.game_id), reverse=True)
        return out

    def values(self, field: str) -> list[str]:
        """The distinct values of ``board`` or ``arena_run`` among the games, sorted."""
        found = {getattr(g, field) for g in self._games.values()}
        return sorted(str(v) for v in found if v)
