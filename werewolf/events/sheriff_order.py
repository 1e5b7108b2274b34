"""``sheriff-order``: the living sheriff chooses who speaks first today, to his right or
his left of the night's death (of himself after a peaceful night); he speaks last (归票).
Public."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .types import SHAPE, Empty, Flag, Seat, no_meaning

__all__ = ["OrderDiff"]


@with_config(SHAPE)
class OrderDiff(TypedDict):
    sheriff: Seat
    first: Annotated[Seat, Field(description="who speaks first today; the sheriff speaks last")]
    left: Annotated[Flag, Field(description="to the left: seat numbers falling from the start")]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, ordered=(state.night, bool(diff.get("left"))))


SPEC = register_event(
    EventSpec(
        kind="sheriff-order",
        label=Names("Speaking order", "发言顺序"),
        diff=OrderDiff,
        detail=Empty,
        fold=_fold,
        meaning=no_meaning,
    )
)
