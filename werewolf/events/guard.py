"""``guard-protect``: whom the guard protects tonight, told to him only."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["ProtectDiff"]


@with_config(SHAPE)
class ProtectDiff(TypedDict):
    target: Annotated[
        Seat | None,
        Field(
            description="the protected seat; null: nobody (the guard, or a doctor's failed "
            "answer under night_fallback = nothing)"
        ),
    ]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, guarded=diff.get("target"))


SPEC = register_event(
    EventSpec(
        kind="guard-protect",
        label=Names("The guard", "守卫守护"),
        diff=ProtectDiff,
        detail=Empty,
        fold=_fold,
        meaning=no_meaning,
        night=True,
    )
)
