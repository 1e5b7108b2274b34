"""``hunter-shot``: the hunter's shot, public when he shoots (it shows his card), else told
to him only; a lover of the shot dies of heartbreak with him."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..cast import Identity
from ..errors import GameStateError
from ..records import replace
from ..registry import EventSpec, Meaning, Names, register_event, shots
from ..state import Cause, Death, GameState
from .dawn import Reveals
from .deaths import after_deaths, kill
from .types import SHAPE, Seat, revealed_of

__all__ = ["HunterDiff"]

HEARTBROKEN_HELP = "lovers who died of heartbreak (written when any)"
CARD_HELP = "the shooter's identity when he is not the hunter (the wolf king)"


@with_config(SHAPE)
class HunterDiff(TypedDict):
    card: NotRequired[Annotated[str, Field(description=CARD_HELP)]]
    shooter: Seat
    target: Seat | None
    heartbroken: NotRequired[Annotated[list[Seat], Field(description=HEARTBROKEN_HELP)]]


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    shooter = int(diff["shooter"])
    held = state.identity(shooter)
    fired = state.hunter_fired or held is Identity.HUNTER
    state = replace(state, hunter_due=None, hunter_fired=fired)
    target = diff.get("target")
    if target is None:
        return state
    shot = shots().get(held)
    if shot is None:  # a forged or corrupt log: only a card with a shot may fire
        raise GameStateError(f"seat {shooter} holds the {held.value} card, which has no shot")
    state, deaths = kill(state, [Death(int(target), state.night, shot.cause)])
    # the shot seat may shoot in turn (the hunter shoots the wolf king, or he the hunter)
    return after_deaths(state, deaths, last_words=())


def heartbroken(diff: dict[str, Any]) -> tuple[tuple[int, str | None], ...]:
    """The lovers an event's diff says died of heartbreak, as meaning deaths."""
    return tuple((int(s), _LOVE) for s in diff.get("heartbroken", ()))


_LOVE, _SHOT = Cause.LOVE.value, Cause.SHOT.value


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    card = diff.get("card", "hunter")
    shown = ((int(diff["shooter"]), card), *revealed_of(detail))  # a shot shows the card
    target = diff.get("target")
    if target is None:
        return Meaning(revealed=shown)
    cause = _SHOT if card == "hunter" else shots()[Identity(card)].cause
    return Meaning(((int(target), cause), *heartbroken(diff)), shown)


SPEC = register_event(
    EventSpec(
        kind="hunter-shot",
        label=Names("The hunter", "猎人开枪"),
        diff=HunterDiff,
        detail=Reveals,
        fold=_fold,
        meaning=_meaning,
        causes={
            Cause.SHOT.value: Names("shot by the hunter, day {n}", "第{n}天被猎人带走"),
            Cause.LOVE.value: Names("died of heartbreak, day {n}", "第{n}天殉情"),
            Cause.KING_SHOT.value: Names("shot by the wolf king, day {n}", "第{n}天被狼王带走"),
        },
    )
)
