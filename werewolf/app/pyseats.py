"""Seats played by Python objects: a ``Player``, or a factory that makes one per game.

::

    play_game(board="standard-9", seed=1, seats={3: MyAgent(), 4: "random"})
    play_game(seats={5: lambda game_seed, seat: MyAgent(seat)})  # called with keywords

A seat given a ``Player`` is played by that object; one given a factory by what
``factory(game_seed=..., seat=...)`` returns, made at the game's first phase. A player with an
async ``aclose()`` is closed whenever a drive stops (the game ended, failed or was
stopped), so it may be called more than once. The log records such a
seat as ``mock`` named ``python:<class>`` (a log holds data, not code): resuming the game
plays it with the Python seats passed again, else with a mock player (a recorded swap).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeAlias

from ..errors import ConfigError
from ..lineup import SeatSpec
from ..players.base import Player
from ..players.seatings import SpecSeating
from ..state import GameState

__all__ = [
    "PYTHON_PREFIX",
    "PlayerSource",
    "PythonSeating",
    "SeatChoice",
    "python_spec",
    "split_seats",
]

PYTHON_PREFIX = "python:"  # the recorded name of a seat a Python object played

PlayerSource: TypeAlias = Player | Callable[..., Player]
"""A Python seat: the player itself, or ``factory(game_seed=..., seat=...)`` making it per
game (called with keywords, as the seat kinds' factories are: ``players.PlayerFactory``)."""

SeatChoice: TypeAlias = str | PlayerSource
"""What plays a seat: a spec (``"llm:gpt-4o-mini"``, ``"mock:bold"``) or a Python seat."""


def _label(source: PlayerSource) -> str:
    named = source if isinstance(source, Player) else getattr(source, "__name__", None)
    if isinstance(named, str) and named != "<lambda>":
        return named
    return type(source).__name__ if isinstance(source, Player) else "factory"


def python_spec(source: PlayerSource) -> SeatSpec:
    """What the log records of a Python seat: a mock named after the object's class."""
    return SeatSpec(kind="mock", name=f"{PYTHON_PREFIX}{_label(source)}")


def split_seats(
    seats: Mapping[int, SeatChoice] | None, count: int
) -> tuple[dict[int, str], dict[int, PlayerSource]]:
    """``seats`` as the specs (strings) and the Python seats; a Python seat must be one of
    the game's ``count`` seats, and a Python object a ``Player`` or a callable."""
    specs: dict[int, str] = {}
    python: dict[int, PlayerSource] = {}
    for seat, choice in (seats or {}).items():
        if isinstance(choice, str):
            specs[seat] = choice
            continue
        if type(seat) is not int or not 1 <= seat <= count:
            raise ConfigError([("seats", f"seat {seat!r} is not a seat of the game (1-{count})")])
        if not isinstance(choice, Player) and not callable(choice):
            raise ConfigError(
                [
                    (
                        "seats",
                        f"seat {seat}: {type(choice).__name__} is no player (a spec string, "
                        "an object with kind and async decide, or factory(game_seed=..., seat=...))",
                    )
                ]
            )
        python[seat] = choice
    return specs, python


def _make(source: PlayerSource, game_seed: int, seat: int) -> Player:
    if isinstance(source, Player):
        return source
    made = source(game_seed=game_seed, seat=seat)
    if not isinstance(made, Player):
        raise ConfigError(
            [("seats", f"seat {seat}: the factory made a {type(made).__name__}, not a Player")]
        )
    return made


class PythonSeating:
    """``inner``'s players, with the Python seats' in their place; each game's players are
    made once, at its first phase, and dropped when it is decided (as ``SpecSeating``)."""

    def __init__(self, inner: SpecSeating, python: Mapping[int, PlayerSource]) -> None:
        self.inner = inner
        self.python = dict(python)
        self._games: dict[str, dict[int, Player]] = {}
        self._made: list[Player] = []  # closed when the drive stops

    def __call__(self, game_id: str, state: GameState) -> Mapping[int, Player]:
        players = self._games.get(game_id)
        if players is None:
            made = {
                seat: _make(source, state.seed, seat)
                for seat, source in sorted(self.python.items())
                if seat in state.seats
            }
            players = self._games[game_id] = {**self.inner(game_id, state), **made}
            self._made += [p for p in made.values() if p not in self._made]
        if state.winner is not None or state.ended:
            self._games.pop(game_id, None)
        return players

    async def aclose(self) -> None:
        """Close the inner seats' clients, then every Python player that has an async
        ``aclose()`` (an HTTP client made in the game's event loop, say)."""
        await self.inner.aclose()
        for player in self._made:  # every drive's end: an aclose may be called again
            close = getattr(player, "aclose", None)
            if callable(close):
                await close()

    def close(self) -> None:
        self.inner.close()
