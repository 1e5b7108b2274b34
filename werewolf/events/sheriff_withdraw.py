"""``sheriff-withdraw``: the candidates who withdraw (退水) after the speeches, public. One
left is elected without a vote; none left, or nobody left to vote, loses the badge."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .sheriff_run import elected, election_over
from .types import SHAPE, Empty, Flag, Seat, no_meaning

__all__ = ["WithdrawDiff"]

LOST_HELP = "the badge is lost (警徽流失): nobody is elected, and no election follows"


@with_config(SHAPE)
class WithdrawDiff(TypedDict):
    withdrawn: Annotated[list[Seat], Field(description="who withdrew, by seat")]
    sheriff: Annotated[Seat | None, Field(description="the one candidate left, elected")]
    lost: Annotated[Flag, Field(description=LOST_HELP + " (nobody left standing or to vote)")]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    election = state.election
    if election is None:
        return state
    sheriff = diff.get("sheriff")
    if sheriff is not None:
        return elected(state, int(sheriff))
    if diff.get("lost"):
        return election_over(state)
    withdrawn = tuple(int(s) for s in diff.get("withdrawn", ()))
    return replace(state, election=replace(election, withdrawn=withdrawn, step="vote"))


SPEC = register_event(
    EventSpec(
        kind="sheriff-withdraw",
        label=Names("Withdrawals", "退水"),
        diff=WithdrawDiff,
        detail=Empty,
        fold=_fold,
        meaning=no_meaning,
    )
)
