"""``wolf-night``: the wolves' talk and their target, told to the wolves only."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .types import DRAW_HELP, SHAPE, Draw, Seat, no_meaning

__all__ = ["WolfLine", "WolfNightDetail", "WolfNightDiff"]


@with_config(SHAPE)
class WolfNightDiff(TypedDict):
    target: Seat | None


@with_config(SHAPE)
class WolfLine(TypedDict):
    seat: Seat
    text: str


@with_config(SHAPE)
class WolfNightDetail(TypedDict):
    discussion: list[WolfLine]
    proposals: Annotated[
        list[list[tuple[Seat, Seat | None]]],
        Field(
            description="per round, [wolf, proposed target] pairs (wolf_kill = vote: one "
            "round of ballots)"
        ),
    ]
    draw: NotRequired[Annotated[Draw | None, Field(description=DRAW_HELP)]]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, wolf_target=diff.get("target"))


SPEC = register_event(
    EventSpec(
        kind="wolf-night",
        label=Names("The wolves' night", "狼人夜间行动"),
        diff=WolfNightDiff,
        detail=WolfNightDetail,
        fold=_fold,
        meaning=no_meaning,
        night=True,
    )
)
