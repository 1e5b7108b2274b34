"""The doctor (of the seer-doctor boards other benchmarks play): each night protects one
living player from the wolves' kill; told of a save when the config says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig
from ..decisions import DecisionKind
from ..phases.context import seat_text
from ..phases.protect import protect
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..state import Phase
from .seer import ask_seer_ahead

if TYPE_CHECKING:
    from ..phases.context import PhaseContext
    from ..state import GameState

__all__ = ["SPEC", "doctor_protect", "doctor_told", "targets"]


def targets(state: GameState) -> tuple[int | None, ...]:
    """Tonight's legal choices: living seats (herself if allowed), last night's choice only
    if repeats are allowed, or when nobody else is left. She always protects somebody."""
    config = state.config
    me = state.seat_of(Identity.DOCTOR)
    mine = tuple(s for s in state.living if config.doctor_self or s != me)
    fresh = tuple(s for s in mine if config.doctor_repeat or s != state.protected_before)
    return fresh or mine


def _rules_en(config: GameConfig) -> str:
    return (
        "Doctor: each night protects one living player from the wolves' kill"
        + (", herself allowed" if config.doctor_self else ", never herself")
        + (
            "; the same player may be protected night after night"
            if config.doctor_repeat
            else "; never the same player two nights running, unless nobody else is left"
        )
        + (
            "; she alone is told when her protection saved the wolves' victim."
            if config.doctor_told_save
            else "."
        )
    )


def _rules_zh(config: GameConfig) -> str:
    return (
        "医生：每晚保护一名存活玩家免于狼刀"
        + ("，可自救" if config.doctor_self else "，不可保护自己")
        + (
            "，可连续保护同一人"
            if config.doctor_repeat
            else "，不可连续两晚保护同一人（别无可选时除外）"
        )
        + ("；保护救下狼刀对象时，仅她本人会得知。" if config.doctor_told_save else "。")
    )


async def doctor_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    if state.config.seer_before_wolves:  # the two act together; her phase collects it
        ask_seer_ahead(ctx, state.tonight)
    options = targets(state)
    return await protect(
        ctx, Identity.DOCTOR, DecisionKind.DOCTOR, Phase.DOCTOR, options, state.protected_before
    )


async def doctor_told(ctx: PhaseContext) -> RoleResult:
    """``doctor_told_save``: after the dawn, the doctor alone learns that her protection
    saved the wolves' victim (the dawn itself reads like a night without a kill)."""
    state = ctx.state
    doctor = state.seat_of(Identity.DOCTOR)
    saved = state.doctor_told_due
    assert doctor is not None  # the moderator runs this phase only for a save to tell of
    assert saved is not None
    return ctx.result(
        Phase.DOCTOR_TOLD,
        f"Night {state.night}: the doctor's protection saved {seat_text(state, saved)} "
        "from the wolves.",
        diff={"saved": saved},
        visible_to=[doctor],
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.DOCTOR,
        names=Names("doctor", "医生"),
        team=Team.GOOD,
        god=True,
        order=7,
        night=(NightStep(Phase.DOCTOR, rank=30),),
        decisions=(
            DecisionSpec(
                DecisionKind.DOCTOR,
                "doctor_protect",
                "werewolf.players.mock.strategy.doctor:doctor_protect",
                tool_rank=70,
            ),
        ),
        rules=lambda config, lang: _rules_zh(config) if lang == "zh" else _rules_en(config),
        rules_rank=103,
        night_text=Names("the doctor", "医生先保护，"),
        prompt="doctor",
        phases={Phase.DOCTOR: doctor_protect, Phase.DOCTOR_TOLD: doctor_told},
        events=(Phase.DOCTOR, Phase.DOCTOR_TOLD),
    )
)
