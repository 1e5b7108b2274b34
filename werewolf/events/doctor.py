"""``doctor-protect``: whom the doctor protects tonight; ``doctor-told`` (with
``doctor_told_save``): after the dawn, she alone learns her protection saved the wolves'
victim. Both are told to her only."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .guard import ProtectDiff
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["DoctorToldDiff"]


def _protect(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, protected=diff.get("target"))


@with_config(SHAPE)
class DoctorToldDiff(TypedDict):
    saved: Annotated[Seat, Field(description="the wolves' victim her protection saved")]


def _told(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, doctor_told_due=None)


PROTECT = register_event(
    EventSpec(
        kind="doctor-protect",
        label=Names("The doctor", "医生救治"),
        diff=ProtectDiff,
        detail=Empty,
        fold=_protect,
        meaning=no_meaning,
        night=True,
    )
)
TOLD = register_event(
    EventSpec(
        kind="doctor-told",
        label=Names("The doctor is told", "医生得知救人"),
        diff=DoctorToldDiff,
        detail=Empty,
        fold=_told,
        meaning=no_meaning,
    )
)
