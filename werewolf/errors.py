"""The one exception tree of werewolf.

::

    WerewolfError(Exception)
    ├── ConfigError(ValueError)        a game config or lineup with problems (each with its path)
    ├── UnknownSeatError(KeyError)     a seat number the game does not have
    ├── IllegalDecisionError(ValueError)   a player's answer the rules refuse (kept from events)
    ├── GameStateError(ValueError)     a log that does not make a game (bad start, bad diff)
    └── GameFileError(ValueError)      a game log or store path that cannot be read

The CLI turns each into one line and exit code 2.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "GameFileError",
    "GameStateError",
    "IllegalDecisionError",
    "UnknownSeatError",
    "WerewolfError",
]


class WerewolfError(Exception):
    """Base of every error werewolf raises on purpose."""


class ConfigError(WerewolfError, ValueError):
    """A config with problems; ``problems`` lists ``(field path, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {msg}" if path else msg for path, msg in problems))


class UnknownSeatError(WerewolfError, KeyError):
    """A seat the game does not have."""

    def __init__(self, seat: int, seats: int) -> None:
        super().__init__(f"no seat {seat}: seats are 1 to {seats}")
        self.seat = seat

    def __str__(self) -> str:
        return str(self.args[0])


class IllegalDecisionError(WerewolfError, ValueError):
    """A decision the rules refuse."""


class GameStateError(WerewolfError, ValueError):
    """An event log that does not make a valid game."""


class GameFileError(WerewolfError, ValueError):
    """A game file or store that cannot be read."""
