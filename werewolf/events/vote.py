"""``vote``: the day's vote (or the PK re-vote), public. The exiled dies, and a lover with
him of heartbreak; an idiot exiled for the first time shows his card and lives."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field, Strict, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import NO_MEANING, EventSpec, Meaning, Names, register_event
from ..state import Cause, Death, GameState, Stage
from ..win import winner
from .deaths import after_deaths, kill
from .hunter import HEARTBROKEN_HELP, heartbroken
from .types import DRAW_HELP, REVEALED_HELP, SHAPE, Draw, Revealed, Seat, revealed_of

__all__ = ["VoteDetail", "VoteDiff"]

# a count of ballots; a half where the sheriff's ballot weighs 1.5 (an int is a float here)
Votes = Annotated[float, Strict(), Field(ge=0)]


@with_config(SHAPE)
class VoteDiff(TypedDict):
    exiled: Seat | None
    pk: Annotated[list[Seat], Field(description="the tied seats; non-empty: a PK round follows")]
    revealed: NotRequired[
        Annotated[
            Seat | None,
            Field(description="the exiled idiot, who shows his card and lives (written when so)"),
        ]
    ]
    heartbroken: NotRequired[Annotated[list[Seat], Field(description=HEARTBROKEN_HELP)]]


@with_config(SHAPE)
class VoteDetail(TypedDict):
    round: Annotated[Literal[1, 2], Field(description="2 is the PK re-vote")]
    ballots: Annotated[list[tuple[Seat, Seat | None]], Field(description="[voter, target or null]")]
    counts: Annotated[
        list[tuple[Seat, Votes]],
        Field(description="[seat, votes], by seat (a half where the sheriff's ballot weighs 1.5)"),
    ]
    draw: NotRequired[Annotated[Draw | None, Field(description=DRAW_HELP)]]
    revealed: NotRequired[Annotated[Revealed | None, Field(description=REVEALED_HELP)]]
    sheriff: NotRequired[
        Annotated[Seat, Field(description="the sheriff, whose ballot weighs sheriff_weight")]
    ]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    pk = tuple(int(s) for s in diff.get("pk", []))
    if pk:
        return replace(state, stage=Stage.PK, pk=pk, spoken=())
    exiled = diff.get("exiled")
    state = replace(state, stage=Stage.EVENING, exiles=(*state.exiles, (state.night, exiled)))
    if exiled is None:
        return state
    if exiled == state.idiot and not state.idiot_revealed:
        # he shows his card and lives on; the win is checked as after deaths, since a
        # revealed idiot may no longer keep the gods alive (idiot_counts_as_god = false)
        state = replace(state, idiot_revealed=True)
        return replace(state, winner=winner(state))
    state, deaths = kill(state, [Death(int(exiled), state.night, Cause.EXILE)])
    # the exiled speaks, then a lover who dies of heartbreak with him (殉情时可以有遗言)
    words = tuple(d.seat for d in deaths) if state.config.last_words else ()
    return after_deaths(state, deaths, last_words=words)


_EXILE = Cause.EXILE.value


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    exiled = diff.get("exiled")
    if exiled is None:
        return NO_MEANING
    idiot = diff.get("revealed")
    if idiot is not None:  # exiled, but he lives: the card is what the table learns
        return Meaning(revealed=((int(idiot), "idiot"), *revealed_of(detail)))
    return Meaning(((int(exiled), _EXILE), *heartbroken(diff)), revealed_of(detail))


SPEC = register_event(
    EventSpec(
        kind="vote",
        label=Names("Vote", "投票"),
        diff=VoteDiff,
        detail=VoteDetail,
        fold=_fold,
        meaning=_meaning,
        causes={
            Cause.EXILE.value: Names("exiled, day {n}", "第{n}天被放逐"),
            Cause.LOVE.value: Names("died of heartbreak, day {n}", "第{n}天殉情"),
        },
    )
)
