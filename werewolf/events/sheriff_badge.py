"""``sheriff-badge``: a dead sheriff passes the badge to a living player or tears it
(撕警徽), public; it comes before any shot or last words his death allows."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["BadgeDiff"]


@with_config(SHAPE)
class BadgeDiff(TypedDict):
    holder: Annotated[Seat, Field(description="the dead sheriff")]
    to: Annotated[Seat | None, Field(description="the new sheriff, or null: the badge is torn")]


def _badge(state: GameState, diff: dict[str, Any]) -> GameState:
    heir = diff.get("to")
    return replace(state, badge_due=None, sheriff=None if heir is None else int(heir))


BADGE = register_event(
    EventSpec(
        kind="sheriff-badge",
        label=Names("The badge", "警徽"),
        diff=BadgeDiff,
        detail=Empty,
        fold=_badge,
        meaning=no_meaning,
    )
)
