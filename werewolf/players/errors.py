"""Why a seat could not go on: the game stops there, cleanly, and can be resumed.

::

    WerewolfError
    └── SeatError                        a seat's player cannot decide; the phase fails
        ├── SeatUnavailableError(ConnectionError)   an LLM seat's endpoint stayed down or
        │                                refused the request (after the client's retries)
        ├── BudgetExceededError          the game's token budget is spent
        └── SeatLeftError(EOFError)      the person at a human seat left (end of input)

Raised from a player's ``decide``, a ``SeatError`` fails the running phase: the adapter
records ``werewolf.__error__`` and ``werewolf resume GAME`` continues the game, with the same
players or, with ``--seat N=KIND``, another one in that seat. Messages name the seat, its
kind and model and the endpoint, never a key. ``usage`` is what the failed decision was
billed, recorded with the error so that no billed token goes uncounted.
"""

from __future__ import annotations

from collections.abc import Callable

from ..decisions import Usage
from ..errors import WerewolfError

__all__ = ["BudgetExceededError", "SeatError", "SeatLeftError", "SeatUnavailableError"]


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
