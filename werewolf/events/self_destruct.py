"""``self-destruct``: a wolf who, in place of a day speech, revealed himself (自爆). He dies
at once, with the seat the white wolf king takes along; the day ends without a vote and
night follows. Public: it shows the wolf's side (the white wolf king's card when he takes
someone)."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..cast import Identity
from ..records import replace
from ..registry import EventSpec, Meaning, Names, register_event
from ..state import Cause, Death, GameState, Stage
from .dawn import Reveals
from .deaths import after_deaths, kill
from .hunter import HEARTBROKEN_HELP, heartbroken
from .types import SHAPE, Seat, revealed_of

__all__ = ["DestructDiff"]

_EVENING, _NIGHT = Stage.EVENING, Stage.NIGHT
_DESTRUCT, _TAKEN = Cause.SELF_DESTRUCT.value, Cause.TAKEN.value
_WHITE = Identity.WHITE_WOLF_KING.value


@with_config(SHAPE)
class DestructDiff(TypedDict):
    wolf: Seat
    target: Annotated[Seat | None, Field(description="the seat the white wolf king takes")]
    heartbroken: NotRequired[Annotated[list[Seat], Field(description=HEARTBROKEN_HELP)]]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    """The wolf (and whom he takes) die; no more speeches, no vote: the evening, then night
    (in the election, before the dawn: its day then goes from the dawn to the evening)."""
    wolf = int(diff["wolf"])
    target = diff.get("target")
    deaths = [Death(wolf, state.night, _DESTRUCT)]
    if target is not None:
        deaths.append(Death(int(target), state.night, _TAKEN))
    if state.stage is _NIGHT:  # in the election: the night's deaths are told, then evening
        state = replace(state, destruct_due=None, destructed=state.night)
    else:
        state = replace(state, destruct_due=None, stage=_EVENING, floor=None, pk=())
    state, deaths = kill(state, deaths)
    words = (wolf,) if state.config.self_destruct_last_words else ()
    return after_deaths(state, deaths, last_words=words)


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    wolf = int(diff["wolf"])
    target = diff.get("target")
    deaths: tuple[tuple[int, str | None], ...] = ((wolf, _DESTRUCT),)
    if target is not None:
        deaths += ((int(target), _TAKEN),)
    card = "wolves" if target is None else _WHITE  # taking someone shows the white wolf king
    return Meaning((*deaths, *heartbroken(diff)), ((wolf, card), *revealed_of(detail)))


SPEC = register_event(
    EventSpec(
        kind="self-destruct",
        label=Names("Self-destruct", "自爆"),
        diff=DestructDiff,
        detail=Reveals,
        fold=_fold,
        meaning=_meaning,
        causes={
            _DESTRUCT: Names("self-destructed, day {n}", "第{n}天自爆"),
            _TAKEN: Names("taken by the white wolf king, day {n}", "第{n}天被白狼王带走"),
        },
    )
)
