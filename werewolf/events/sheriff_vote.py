"""``sheriff-vote``: the election's vote (and its PK re-vote), public: those who never ran
vote among the candidates standing. A unique top is elected; a first tie sends the tied to
a PK round; a second tie, or no ballot for anyone, loses the badge."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import Election, GameState
from .sheriff_run import elected, election_over
from .sheriff_withdraw import LOST_HELP
from .types import SHAPE, Count, Flag, Seat, no_meaning

__all__ = ["ElectionVoteDetail", "ElectionVoteDiff"]


@with_config(SHAPE)
class ElectionVoteDiff(TypedDict):
    sheriff: Annotated[Seat | None, Field(description="the elected, or null")]
    pk: Annotated[list[Seat], Field(description="the tied candidates; non-empty: a PK round")]
    lost: Annotated[Flag, Field(description=LOST_HELP)]


@with_config(SHAPE)
class ElectionVoteDetail(TypedDict):
    round: Annotated[Literal[1, 2], Field(description="2 is the PK re-vote")]
    ballots: Annotated[list[tuple[Seat, Seat | None]], Field(description="[voter, target or null]")]
    counts: Annotated[list[tuple[Seat, Count]], Field(description="[candidate, votes], by seat")]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    election = state.election
    if election is None:
        return state
    sheriff = diff.get("sheriff")
    if sheriff is not None:
        return elected(state, int(sheriff))
    pk = tuple(int(s) for s in diff.get("pk", ()))
    if not pk:
        return election_over(state)
    again = Election(election.candidates, withdrawn=election.withdrawn, pk=pk)
    return replace(state, election=again)


SPEC = register_event(
    EventSpec(
        kind="sheriff-vote",
        label=Names("Sheriff vote", "警长投票"),
        diff=ElectionVoteDiff,
        detail=ElectionVoteDetail,
        fold=_fold,
        meaning=no_meaning,
    )
)
