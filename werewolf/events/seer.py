"""``seer-check``: the seer's check, told to her only; its meaning shows her the target's
side (or card, with ``seer_learns = identity``)."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import NO_MEANING, EventSpec, Meaning, Names, register_event
from ..state import Check, GameState
from .types import SHAPE, Empty, Flag, Seat

__all__ = ["SeerDiff"]


@with_config(SHAPE)
class SeerDiff(TypedDict):
    target: Annotated[Seat | None, Field(description="null: no check (night_fallback = nothing)")]
    wolf: Flag | None
    identity: NotRequired[
        Annotated[
            str | None,
            Field(description="the target's identity (written when seer_learns = identity)"),
        ]
    ]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    if diff.get("target") is None:  # no check (a failed answer, night_fallback)
        return state
    check = Check(state.night, int(diff["target"]), bool(diff["wolf"]))
    return replace(state, checks=(*state.checks, check))


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    target = diff.get("target")
    if target is None:
        return NO_MEANING
    shown = diff.get("identity") or ("wolves" if diff.get("wolf") else "good")
    return Meaning(revealed=((int(target), str(shown)),))


SPEC = register_event(
    EventSpec(
        kind="seer-check",
        label=Names("The seer", "预言家查验"),
        diff=SeerDiff,
        detail=Empty,
        fold=_fold,
        meaning=_meaning,
        night=True,
    )
)
