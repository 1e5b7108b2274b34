"""The one exception tree of werewolf: every exception werewolf defines is defined here.

::

    WerewolfError(Exception)
    ├── ConfigError(ValueError)        a game config or lineup with problems (each with its path)
    ├── PlayerProtocolError(TypeError) a player that breaks the Player protocol (a sync
    │                                  ``decide``, an answer of the wrong type, a seating
    │                                  missing a seat): raised, never retried or recorded only
    ├── UnknownSeatError(KeyError)     a seat number the game does not have
    ├── IllegalDecisionError(ValueError)   a player's answer the rules refuse (kept from events)
    ├── GameStateError(ValueError)     a log that does not make a game (bad start, bad diff)
    ├── GameFileError(ValueError)      a game log or store path that cannot be read
    │   └── UnrecordedDecisionError    a decision a replayed phase asks for that its event
    │                                  does not record (the judge turns it into a GameFileError
    │                                  naming the event)
    ├── ReplayOptionError(ValueError)  a replay option the game cannot honour
    ├── StoreFault                     the store could not be read or written (full disk,
    │                                  read-only, damaged file, missing object)
    ├── ArenaError                     an arena run that could not be played
    ├── PageRefusedError               a web request `werewolf serve` refuses (its HTTP status)
    ├── StoreUnopenedError             `werewolf serve`'s store exists but cannot be opened now
    └── SeatError                      a seat's player cannot decide; the phase fails
        ├── SeatUnavailableError(ConnectionError)   an LLM seat's endpoint stayed down or
        │                              refused the request (after the client's retries)
        ├── BudgetExceededError        the game's token budget is spent
        └── SeatLeftError(EOFError)    the person at a human seat left (end of input)

The CLI turns each into one line and exit code 2.

Raised from a player's ``decide``, a ``SeatError`` fails the running phase: the adapter
records ``werewolf.__error__`` and ``werewolf resume GAME`` continues the game, with the same
players or, with ``--seat N=KIND``, another one in that seat. Messages name the seat, its
kind and model and the endpoint, never a key. ``usage`` is what the failed decision was
billed, recorded with the error so that no billed token goes uncounted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .decisions import Usage

__all__ = [
    "ArenaError",
    "BudgetExceededError",
    "ConfigError",
    "GameFileError",
    "GameStateError",
    "IllegalDecisionError",
    "PageRefusedError",
    "PlayerProtocolError",
    "ReplayOptionError",
    "SeatError",
    "SeatLeftError",
    "SeatUnavailableError",
    "StoreFault",
    "StoreUnopenedError",
    "UnknownSeatError",
    "UnrecordedDecisionError",
    "WerewolfError",
]


class WerewolfError(Exception):
    """Base of every error werewolf raises on purpose."""


class ConfigError(WerewolfError, ValueError):
    """A config with problems; ``problems`` lists ``(field path, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {msg}" if path else msg for path, msg in problems))


class PlayerProtocolError(WerewolfError, TypeError):
    """A player (or a seating) that breaks the ``Player`` protocol: the message names the
    seat, the decision and what was expected. Not an illegal answer to ask again: the code
    is wrong, so the game stops and the error is raised to the caller (the log records it
    too, so the game can be resumed with another player in the seat)."""


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


class UnrecordedDecisionError(GameFileError):
    """A decision a replayed phase asks for that its event does not record."""


class ReplayOptionError(WerewolfError, ValueError):
    """A replay option the game cannot honour (a day it does not have, a seat it lacks)."""


class StoreFault(WerewolfError):
    """The store could not be read or written; the message says what to do."""


class ArenaError(WerewolfError):
    """A run that could not be played (a worker process that died)."""


class PageRefusedError(WerewolfError):
    """A request ``werewolf serve`` refuses (a view or seat the game lacks, a live game's
    secret view): the page says why, with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class StoreUnopenedError(WerewolfError):
    """The store ``werewolf serve`` shows exists but cannot be opened now (a full disk, a
    damaged file): the request gets the one line a command would print, and the next
    request tries again."""


class SeatError(WerewolfError):
    """A seat's player cannot decide; ``seat`` names it."""

    def __init__(self, seat: int, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.usage = usage


class SeatUnavailableError(SeatError, ConnectionError):
    """An LLM seat's endpoint stayed down, or refused every request."""


class BudgetExceededError(SeatError):
    """The game spent its token budget; ``spent`` and ``budget`` are token counts.

    ``spent`` reads the game's counter when asked (``spent_now``), not when raised: the
    requests already in flight when the budget ran out still finish and are billed before
    the failure is recorded and reported, and the message counts them too, so it agrees with
    the game's total."""

    def __init__(self, seat: int, spent_now: Callable[[], int], budget: int) -> None:
        super().__init__(seat, "the game's token budget is spent")
        self._spent_now = spent_now
        self.budget = budget

    @property
    def spent(self) -> int:
        return self._spent_now()

    def __str__(self) -> str:
        return (
            f"the game's token budget is spent ({self.spent:,} of {self.budget:,} tokens) "
            f"before seat {self.seat}'s next request: raise [budget] tokens in the lineup to "
            "go on"
        )


class SeatLeftError(SeatError, EOFError):
    """The person at a human seat closed the input."""
