"""``witch-action``: the witch's potions, told to her only (the dawn reads them)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .types import SHAPE, Flag, Seat, no_meaning

__all__ = ["WitchDetail", "WitchDiff"]


@with_config(SHAPE)
class WitchDiff(TypedDict):
    save: Flag
    poison: Seat | None


@with_config(SHAPE)
class WitchDetail(TypedDict):
    told_target: Annotated[Seat | None, Field(description="the victim she was told, if any")]
    can_save: Flag


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    save = bool(diff.get("save"))
    poisoned = diff.get("poison")
    return replace(
        state,
        saved=state.wolf_target if save else None,
        poisoned=poisoned,
        antidote=state.antidote and not save,
        poison=state.poison and poisoned is None,
    )


SPEC = register_event(
    EventSpec(
        kind="witch-action",
        label=Names("The witch", "女巫行动"),
        diff=WitchDiff,
        detail=WitchDetail,
        fold=_fold,
        meaning=no_meaning,
        night=True,
    )
)
