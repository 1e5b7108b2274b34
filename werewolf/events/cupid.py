"""``cupid-link``: the lovers cupid links on night 1, told to cupid; ``lovers-told``: the
two lovers learn of each other (and each other's card when the config says so)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..cast import Identity
from ..records import replace
from ..registry import NO_MEANING, EventSpec, Meaning, Names, register_event
from ..state import GameState
from .types import SHAPE, Empty, Seat, no_meaning

__all__ = ["LoversDetail", "LoversDiff"]


@with_config(SHAPE)
class LoversDiff(TypedDict):
    lovers: Annotated[tuple[Seat, Seat], Field(description="the two lovers, sorted")]


@with_config(SHAPE)
class LoversDetail(TypedDict):
    identities: Annotated[
        tuple[Identity, Identity] | None,
        Field(description="the lovers' identities when the config tells them, else null"),
    ]


def _link(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, lovers=tuple(sorted(int(s) for s in diff["lovers"])))


def _told(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    cards = detail.get("identities")
    if not cards:
        return NO_MEANING
    return Meaning(
        revealed=tuple((int(s), str(c)) for s, c in zip(diff["lovers"], cards, strict=True))
    )


LINK = register_event(
    EventSpec(
        kind="cupid-link",
        label=Names("Cupid", "丘比特连线"),
        diff=LoversDiff,
        detail=Empty,
        fold=_link,
        meaning=no_meaning,
        night=True,
    )
)
TOLD = register_event(
    EventSpec(
        kind="lovers-told",
        label=Names("The lovers", "情侣互认"),
        diff=LoversDiff,
        detail=LoversDetail,
        fold=None,  # it only tells
        meaning=_told,
        night=True,
    )
)
