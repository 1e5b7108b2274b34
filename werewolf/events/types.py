"""The vocabulary of the event shapes: a seat, a flag, a count, a recorded random draw, the
cards death reveals. The shapes are TypedDicts (an event keeps plain dicts) whose fields
carry pydantic's annotations, so ``replay.format`` checks a loaded file against the same
shapes strictly: a forged ``true`` or ``"3"`` is refused, not read as seat 1 or 3."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, Field, Strict, ValidationInfo, with_config
from typing_extensions import TypedDict

from ..registry import NO_MEANING, Meaning

__all__ = [
    "DRAW_HELP",
    "REVEALED_HELP",
    "SHAPE",
    "Count",
    "Draw",
    "Empty",
    "Flag",
    "Revealed",
    "Seat",
    "no_meaning",
    "revealed_of",
]

SHAPE = ConfigDict(extra="forbid")
"""Every shape refuses unknown fields: a change in what the phases write shows in tests."""


def _seat_of_the_game(seat: int, info: ValidationInfo) -> int:
    """With ``context={"seats": n}`` (the game's seat count), a seat past n is refused."""
    seats = (info.context or {}).get("seats")
    if seats is not None and seat > seats:
        raise ValueError(f"no seat {seat}: the game has {seats} seats")
    return seat


Seat = Annotated[
    int,
    Strict(),
    Field(ge=1, le=20, description="a seat number, 1-based"),
    AfterValidator(_seat_of_the_game),
]
Count = Annotated[int, Strict(), Field(ge=0)]
Flag = Annotated[bool, Strict()]


@with_config(SHAPE)
class Empty(TypedDict):
    pass


@with_config(SHAPE)
class Draw(TypedDict):
    """A random draw the rules called for (a tie broken, a vote for nobody), taken from the
    game's seed and recorded, so a replay needs no random generator."""

    key: Annotated[str, Field(description="the decision it settled, e.g. d2.vote.r1")]
    among: Annotated[list[Seat], Field(min_length=1, description="the seats it picked among")]
    drawn: Seat


DRAW_HELP = "only when a random draw settled the result (a tie; a vote for nobody)"
REVEALED_HELP = (
    "only when the config reveals the dead (reveal_on_death): [seat, team or identity], public"
)
Revealed = list[tuple[Seat, str]]


def revealed_of(detail: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """The cards ``reveal_on_death`` shows with an event (``detail.revealed``), as pairs."""
    shown = detail.get("revealed")
    return tuple((int(seat), str(card)) for seat, card in shown) if shown else ()


def no_meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    """The meaning of an event that tells nobody of a death or a card."""
    return NO_MEANING
