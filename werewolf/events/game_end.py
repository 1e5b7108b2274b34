"""``game-end``: who won and why, public; it shows every card."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..cast import Identity
from ..records import replace
from ..registry import EventSpec, Meaning, Names, register_event
from ..state import GameState, Outcome, Stage
from .types import SHAPE, Seat

__all__ = ["GameEndDetail", "GameEndDiff", "SkippedStep"]


@with_config(SHAPE)
class GameEndDiff(TypedDict):
    winner: Literal["wolves", "good", "draw", "lovers"]


@with_config(SHAPE)
class SkippedStep(TypedDict):
    phase: Literal["hunter-shot", "last-words", "sheriff-badge"]
    seat: Seat


@with_config(SHAPE)
class GameEndDetail(TypedDict):
    identities: Annotated[list[Identity], Field(description="revealed: the identity of each seat")]
    reason: str
    alive: list[Seat]
    skipped: NotRequired[
        Annotated[
            list[SkippedStep],
            Field(
                description="with referee_record: the shots and last words the deaths that "
                "decided the game would have led to, not run"
            ),
        ]
    ]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, winner=Outcome(diff["winner"]), ended=True, stage=Stage.OVER)


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    cards = detail.get("identities") or ()
    return Meaning(revealed=tuple((seat, str(card)) for seat, card in enumerate(cards, 1)))


SPEC = register_event(
    EventSpec(
        kind="game-end",
        label=Names("Result", "结果"),
        diff=GameEndDiff,
        detail=GameEndDetail,
        fold=_fold,
        meaning=_meaning,
    )
)
