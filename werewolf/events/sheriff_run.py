"""``sheriff-run``: who runs for sheriff (上警), public. Nobody: no sheriff; one: he is
elected without a vote; more: the candidates speak in turn (``sheriff-speech``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import Election, GameState
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["RunDiff", "elected", "election_over"]


@with_config(SHAPE)
class RunDiff(TypedDict):
    candidates: Annotated[list[Seat], Field(description="who runs, by seat")]
    sheriff: Annotated[Seat | None, Field(description="the one candidate, elected unopposed")]


def election_over(state: GameState) -> GameState:
    """The election ended without a sheriff (nobody ran, the badge was lost)."""
    return replace(state, election=None, election_over=True)


def elected(state: GameState, sheriff: int) -> GameState:
    return replace(state, election=None, election_over=True, sheriff=sheriff)


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    sheriff = diff.get("sheriff")
    if sheriff is not None:
        return elected(state, int(sheriff))
    candidates = tuple(int(s) for s in diff.get("candidates", ()))
    if not candidates:
        return election_over(state)
    return replace(state, election=Election(candidates))


SPEC = register_event(
    EventSpec(
        kind="sheriff-run",
        label=Names("Sheriff election", "警长竞选"),
        diff=RunDiff,
        detail=Empty,
        fold=_fold,
        meaning=no_meaning,
    )
)
