"""Seat kinds behind one ``Player`` protocol, and the seatings that fill a game with them.

``make_player(kind, game_seed=..., seat=..., **options)`` builds one seat's player from the
``PLAYER_KINDS`` registry (a kind is added with one line: ``register_player("llm",
factory)``). ``uniform_seating(kind)`` and ``mock_seating()`` return the ``seating(game_id,
state)`` function ``werewolf_workflow`` calls before every phase: players are made once per
game and dropped when the game is decided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..errors import ConfigError
from ..state import GameState
from .base import Player
from .mock import MockPlayer
from .random_player import RandomPlayer

__all__ = [
    "PLAYER_KINDS",
    "MockPlayer",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "make_player",
    "mock_seating",
    "register_player",
    "uniform_seating",
]


class PlayerFactory(Protocol):
    """Makes the player of one seat of one game."""

    def __call__(self, *, game_seed: int, seat: int, **options: Any) -> Player: ...


def _mock(*, game_seed: int, seat: int, **options: Any) -> Player:
    return MockPlayer(game_seed, seat, **options)


def _random(*, game_seed: int, seat: int, **options: Any) -> Player:
    if options:
        raise ConfigError([("options", f"the random player takes no options: {sorted(options)}")])
    return RandomPlayer(game_seed)


PLAYER_KINDS: dict[str, PlayerFactory] = {"mock": _mock, "random": _random}
"""Every known seat kind by name; other modules add theirs with ``register_player``."""


def register_player(kind: str, factory: PlayerFactory) -> None:
    """Make ``kind`` available to ``make_player`` and the seatings (replaces a previous one)."""
    PLAYER_KINDS[kind] = factory


def make_player(kind: str, *, game_seed: int, seat: int, **options: Any) -> Player:
    """The player of ``seat`` in the game seeded ``game_seed``. Raises ConfigError for an
    unknown kind or options the kind does not take."""
    factory = PLAYER_KINDS.get(kind)
    if factory is None:
        known = ", ".join(sorted(PLAYER_KINDS))
        raise ConfigError([("kind", f"unknown player kind {kind!r}: use one of {known}")])
    try:
        return factory(game_seed=game_seed, seat=seat, **options)
    except TypeError as exc:  # a keyword the factory does not know
        raise ConfigError([("options", f"{kind} player: {exc}")]) from None


Seating = Callable[[str, GameState], Mapping[int, Player]]


def uniform_seating(kind: str, **options: Any) -> Seating:
    """A seating that puts a ``kind`` player (made with ``options``) in every seat.

    Players are cached per game id, so calling it before every phase costs a lookup; a
    game's players are dropped once its state is decided (the game-end phase is the last
    one that asks for them)."""
    make_player(kind, game_seed=0, seat=1, **options)  # fail now, not in the first game
    games: dict[str, dict[int, Player]] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        players = games.get(game_id)
        if players is None:
            players = {
                seat: make_player(kind, game_seed=state.seed, seat=seat, **options)
                for seat in state.seats
            }
            games[game_id] = players
        if state.winner is not None or state.ended:
            games.pop(game_id, None)
        return players

    return seating


def mock_seating(**options: Any) -> Seating:
    """Mock players in every seat (``options`` go to each, e.g. ``personality="bold"``)."""
    return uniform_seating("mock", **options)
