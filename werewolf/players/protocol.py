"""The checks that a player, and a seating, keep the ``Player`` protocol.

A player's mistakes in code (a sync ``decide``, an answer that is no answer at all, a
player that is no player) and a seating's (a seat of the game left out, a seat it does not have)
raise ``PlayerProtocolError`` at once, naming the seat, the decision and what was expected:
they are not illegal answers to ask again (see ``PhaseContext.ask``).
"""

from __future__ import annotations

import inspect
from collections.abc import Collection, Mapping
from typing import Any

from ..decisions import Choice, DecisionKind, NoAnswer, Request, Speech, WitchChoice
from ..errors import PlayerProtocolError

__all__ = [
    "ANSWER_TYPES",
    "check_answer_type",
    "check_awaitable",
    "check_player",
    "check_seating",
    "expected",
    "not_an_answer",
]

_SPEAKS = (Speech, NoAnswer)
_WITCH = (WitchChoice, NoAnswer)
_CHOOSES = (Choice, NoAnswer)


def expected(kind: DecisionKind) -> tuple[type, ...]:
    """The answer types a decision of ``kind`` takes (``NoAnswer``: none could be made)."""
    if kind.speaks:
        return _SPEAKS
    return _WITCH if kind is DecisionKind.WITCH else _CHOOSES


ANSWER_TYPES = (Speech, Choice, WitchChoice, NoAnswer)
"""What ``decide`` may return. An answer of another of these types than its decision takes
(a choice for a speech) is an illegal answer, asked again: the rules refuse it."""


def _asked(request: Request) -> str:
    return f"seat {request.seat}'s {request.kind.value} decision {request.key!r}"


def not_an_answer(request: Request, given: object) -> PlayerProtocolError:
    """The error of a ``decide`` that returned ``given``, no answer at all."""
    names = " or ".join(t.__name__ for t in expected(request.kind))
    return PlayerProtocolError(
        f"{_asked(request)}: decide returned {type(given).__name__} {_short(given)}, "
        f"expected {names} (werewolf.decisions)"
    )


def check_answer_type(request: Request, answer: object) -> None:
    """Raise unless ``answer`` is an answer at all (its legality is the rules')."""
    if not isinstance(answer, ANSWER_TYPES):
        raise not_an_answer(request, answer)


def check_awaitable(request: Request, pending: object) -> None:
    """Raise unless what ``decide`` returned can be awaited (a sync ``decide`` cannot)."""
    if not inspect.isawaitable(pending):
        raise PlayerProtocolError(
            f"{_asked(request)}: decide returned {type(pending).__name__} {_short(pending)}, "
            "not an awaitable: decide must be an async def (async def decide(self, request))"
        )


def check_player(player: Any, who: str) -> None:
    """Raise unless ``player`` has an async ``decide`` (``who`` names the seat or spec)."""
    decide = getattr(player, "decide", None)
    if decide is None or not callable(decide):
        raise PlayerProtocolError(
            f"{who}: {type(player).__name__} {_short(player)} is no player: a player has an "
            "async decide(request) method (werewolf.players.Player)"
        )
    if not inspect.iscoroutinefunction(decide):
        raise PlayerProtocolError(
            f"{who}: {type(player).__name__}.decide is not a coroutine function: write "
            "async def decide(self, request)"
        )


def check_seating(players: Mapping[int, object], seats: Collection[int]) -> None:
    """Raise unless the seating gave one player for each seat of the game, and no other."""
    given = set(players)
    missing = sorted(set(seats) - given)
    extra = sorted(given - set(seats), key=repr)
    if not (missing or extra):
        return
    parts = []
    if missing:
        parts.append(f"no player for seat{'s' if len(missing) > 1 else ''} {_seats(missing)}")
    if extra:
        parts.append(f"a player for {_seats(extra)}, which the game does not have")
    raise PlayerProtocolError(
        f"the seating gave {'; '.join(parts)}: a seating gives one player for each seat "
        f"1 to {len(seats)}"
    )


def _seats(seats: list[Any]) -> str:
    return ", ".join(map(repr, seats))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
