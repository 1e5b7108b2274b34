"""``dawn``: who died in the night, told to everyone without causes. The fold gives each
death its cause from the night's actions (the poison, the wolves, a lover's heartbreak)."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from ..cast import Identity
from ..records import replace
from ..registry import NO_MEANING, EventSpec, Meaning, Names, register_event
from ..state import Cause, Death, GameState, Stage
from .deaths import after_deaths, kill
from .types import REVEALED_HELP, SHAPE, Revealed, Seat, revealed_of

__all__ = ["DawnDiff", "Reveals"]


@with_config(SHAPE)
class DawnDiff(TypedDict):
    died: Annotated[list[Seat], Field(description="sorted; no causes")]


@with_config(SHAPE)
class Reveals(TypedDict):
    revealed: NotRequired[Annotated[Revealed | None, Field(description=REVEALED_HELP)]]


def _cause(state: GameState, seat: int) -> Cause:
    if seat == state.poisoned:
        return Cause.POISON
    return Cause.WOLF if seat == state.wolf_target else Cause.LOVE


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    died = tuple(int(s) for s in diff.get("died", []))
    deaths = [Death(s, state.night, _cause(state, s)) for s in died]
    stage = Stage.EVENING if state.destructed == state.night else Stage.MORNING  # no talk
    state = replace(state, stage=stage, spoken=(), pk=(), dawn_died=died)
    state, deaths = kill(state, deaths)
    if state.winner is None:
        state = replace(state, doctor_told_due=_doctor_saved(state, died))
    first = state.night == 1 and state.config.last_words
    words = tuple(sorted(d.seat for d in deaths)) if first else ()
    return after_deaths(state, deaths, last_words=words)


def _doctor_saved(state: GameState, died: tuple[int, ...]) -> int | None:
    """The wolves' victim the living doctor protected and who lives, when the config tells
    her of it (``doctor_told_save``), else None."""
    target = state.wolf_target
    doctor = state.seat_of(Identity.DOCTOR)
    if not state.config.doctor_told_save or target is None or target in died:
        return None
    if doctor is None or doctor not in state.alive or state.protected != target:
        return None
    return target


def _meaning(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    died = diff.get("died")
    if not died and not detail:
        return NO_MEANING
    return Meaning(tuple((int(s), None) for s in died or ()), revealed_of(detail))


SPEC = register_event(
    EventSpec(
        kind="dawn",
        label=Names("Dawn", "天亮"),
        diff=DawnDiff,
        detail=Reveals,
        fold=_fold,
        meaning=_meaning,
        causes={
            Cause.WOLF.value: Names("killed by wolves, night {n}", "第{n}夜被狼人杀害"),
            Cause.POISON.value: Names("poisoned, night {n}", "第{n}夜被毒杀"),
            Cause.LOVE.value: Names("died of heartbreak, day {n}", "第{n}天殉情"),
        },
    )
)
