"""The day's talk: ``last-words``, ``day-speech`` and, in bidding discussions,
``floor-bid`` (who speaks next). Public, and none tells a death or a card."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState, Stage
from .types import SHAPE, Flag, Seat, no_meaning

__all__ = [
    "BidDetail",
    "BidDiff",
    "LastWordsDetail",
    "SpeakerDiff",
    "SpeechDetail",
    "SpeechDiff",
]

_MORNING, _DISCUSSION = Stage.MORNING, Stage.DISCUSSION


@with_config(SHAPE)
class SpeakerDiff(TypedDict):
    speaker: Seat


@with_config(SHAPE)
class SpeechDiff(TypedDict):
    speaker: Seat
    self_destruct: NotRequired[
        Annotated[Flag, Field(description="the speaker, a wolf, self-destructed instead")]
    ]
    take: NotRequired[
        Annotated[Seat, Field(description="whom the white wolf king's self-destruct takes")]
    ]


@with_config(SHAPE)
class LastWordsDetail(TypedDict):
    text: str


@with_config(SHAPE)
class SpeechDetail(TypedDict):
    text: str
    pk: Annotated[Flag, Field(description="a PK speech (the tied players speak again)")]


@with_config(SHAPE)
class BidDiff(TypedDict):
    floor: Annotated[Seat, Field(description="the seat that won the floor: it speaks next")]


@with_config(SHAPE)
class BidDetail(TypedDict):
    speech: Annotated[int, Field(ge=1, description="the speech of the day the floor was bid for")]
    bids: Annotated[
        list[tuple[Seat, Literal[0, 1, 2, 3]]], Field(description="[seat, bid], by seat")
    ]


def _last_words(state: GameState, diff: dict[str, Any]) -> GameState:
    speaker = int(diff["speaker"])
    return replace(state, last_words_due=tuple(s for s in state.last_words_due if s != speaker))


def _speech(state: GameState, diff: dict[str, Any]) -> GameState:
    stage = _DISCUSSION if state.stage is _MORNING else state.stage
    speaker = int(diff["speaker"])
    spoken = (*state.spoken, speaker)
    if "self_destruct" in diff:  # the self-destruct phase carries it out next
        due = (speaker, diff.get("take"))
        return replace(state, stage=stage, spoken=spoken, floor=None, destruct_due=due)
    return replace(state, stage=stage, spoken=spoken, floor=None)


def _bid(state: GameState, diff: dict[str, Any]) -> GameState:
    stage = _DISCUSSION if state.stage is _MORNING else state.stage
    return replace(state, stage=stage, floor=int(diff["floor"]))


LAST_WORDS = register_event(
    EventSpec(
        kind="last-words",
        label=Names("Last words", "遗言"),
        diff=SpeakerDiff,
        detail=LastWordsDetail,
        fold=_last_words,
        meaning=no_meaning,
    )
)
SPEECH = register_event(
    EventSpec(
        kind="day-speech",
        label=Names("Speech", "发言"),
        diff=SpeechDiff,
        detail=SpeechDetail,
        fold=_speech,
        meaning=no_meaning,
    )
)
BID = register_event(
    EventSpec(
        kind="floor-bid",
        label=Names("Bids for the floor", "竞言"),
        diff=BidDiff,
        detail=BidDetail,
        fold=_bid,
        meaning=no_meaning,
    )
)
