"""What a played or resumed game came to: ``GameResult``, made by ``finish_game``.

A result holds the game's log as the store has it (``chain``), how the drive stopped
(``status``: ``ended`` or ``failed``, resumable) and, for a game in a SQLite store, the
replay file it was exported to. The winner and the reason are read from the log's
``game-end`` event; ``log()`` and ``view()`` give the replay's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pulse_core import ERROR, Event, EventStore, export_topic
from pulse_core.limits import clip

from ..argtypes import is_number
from ..errors import ConfigError
from ..game import fold_chain
from ..lineup import Price
from ..replay import GameLog, ViewKind, ViewSpec, load_game, replay_text
from ..state import GameState
from .store import replay_file_path

__all__ = ["GameResult", "View", "finish_game", "view_spec"]

View = ViewSpec | str | int
"""A view of a game: a ``ViewSpec``, ``"god"``, ``"public"``, ``"seat:N"`` or a seat number."""


def view_spec(view: View, option: str = "view") -> ViewSpec:
    """``view`` as a ``ViewSpec`` (``"god"``, ``"public"``, ``"seat:3"`` or ``3``); one
    word, so a command line's ``--view`` never takes the game id that follows it."""
    if isinstance(view, ViewSpec):
        return view
    if isinstance(view, int):
        return ViewSpec.of_seat(view)
    if view in ("god", "public"):
        return ViewSpec(ViewKind(view))
    kind, colon, seat = view.partition(":")
    if kind == "seat" and colon and is_number(seat):
        return ViewSpec.of_seat(int(seat))
    raise ConfigError([(option, f"{clip(view)!r}: use public, god or seat:N (e.g. seat:3)")])


@dataclass(frozen=True)
class GameResult:
    """One game as far as it was driven; see the module docstring."""

    game_id: str
    status: str  # "ended", or "failed" (stopped on an error: resumable)
    chain: tuple[Event, ...]
    store_path: Path | None = None  # None: the game was played in memory
    replay_file: Path | None = None  # where the game was exported, if it was
    prices: Mapping[str, Price] = field(default_factory=dict)  # the lineup's, for a cost
    humans: frozenset[int] = frozenset()  # the seats people played
    # the memory store a game played in memory lives in (its texts are read from it)
    memory: EventStore | None = field(default=None, repr=False, compare=False)

    @property
    def ended(self) -> bool:
        return self.status == "ended"

    @property
    def _end(self) -> Mapping[str, Any] | None:
        return next((e.meta for e in reversed(self.chain) if e.role == "game-end"), None)

    @property
    def winner(self) -> str | None:
        """``wolves``, ``good``, ``draw`` or ``lovers``; None for a game that has not ended."""
        end = self._end
        return None if end is None else str(end["diff"]["winner"])

    @property
    def reason(self) -> str | None:
        """Why the game ended, as the end event says; None for a game that has not ended."""
        end = self._end
        return None if end is None else str(end["detail"]["reason"])

    @property
    def error(self) -> str:
        """The error the game stopped on, as the log records it ("" for none)."""
        found = (e.meta.get("error") for e in reversed(self.chain) if e.role == ERROR)
        return str(next(found, ""))

    @property
    def game(self) -> Mapping[str, Any]:
        """The start event's description of the game (config, names, seed, players)."""
        game: Mapping[str, Any] = self.chain[0].meta.get("game", {})
        return game

    @property
    def seed(self) -> int | None:
        seed = self.game.get("seed")
        return None if seed is None else int(seed)

    @property
    def state(self) -> GameState:
        """The game state after the whole log."""
        return fold_chain(self.chain)

    def log(self, *, trust: bool = True) -> GameLog:
        """The game's log with its texts, ready to draw (``werewolf.replay``); re-judged by
        the rules unless ``trust``."""
        if self.memory is not None:
            return load_game(self.memory, self.game_id, "memory", trust=trust)
        if self.store_path is None:
            raise ValueError("a result without a store holds no texts")
        from .replay import load_log

        return load_log(self.game_id, self.store_path, trust=trust)

    def view(self, view: View = "god", *, width: int = 100) -> str:
        """The replay as plain text, as ``view`` saw it."""
        return replay_text(self.log(), view_spec(view), width=width)


def finish_game(
    store: EventStore,
    store_path: Path | None,
    game_id: str,
    status: str,
    *,
    prices: Mapping[str, Price] | None = None,
    humans: frozenset[int] = frozenset(),
) -> GameResult:
    """Export the game (a SQLite store's games go to their replay file beside it) and
    return its result; a game played in memory keeps its store, to be read later."""
    replay_file = None
    if store_path is not None:
        replay_file = replay_file_path(store_path, game_id)
        export_topic(store, game_id, replay_file)
    return GameResult(
        game_id=game_id,
        status=status,
        chain=tuple(store.chain(game_id)),
        store_path=store_path,
        replay_file=replay_file,
        prices=dict(prices or {}),
        humans=humans,
        memory=store if store_path is None else None,
    )
