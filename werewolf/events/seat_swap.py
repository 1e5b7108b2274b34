"""``seat-swap`` (``werewolf resume --seat N=KIND``): another player took a seat when the
game was resumed. Public; the game goes on unchanged (no fold)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..registry import EventSpec, Names, register_event
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["SeatSwapDetail"]

# "from" is a keyword: the functional form of a TypedDict
SeatSwapDetail = TypedDict(
    "SeatSwapDetail",
    {
        "seat": Seat,
        "from": Annotated[str, Field(description="who played the seat: a label, e.g. llm:gpt-4o")],
        "to": Annotated[str, Field(description="who plays it now: a label, e.g. mock")],
        "player": Annotated[
            dict[str, Any],
            Field(description="the new player's public spec: kind, model, personality, name"),
        ],
    },
)
with_config(SHAPE)(SeatSwapDetail)  # sets the shape's pydantic config in place

SPEC = register_event(
    EventSpec(
        kind="seat-swap",
        label=Names("Seat swap", "换人"),
        diff=Empty,
        detail=SeatSwapDetail,
        fold=None,
        meaning=no_meaning,
    )
)
