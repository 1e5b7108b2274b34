"""The doctor (of the seer-doctor boards other benchmarks play): each night protects one
living player from the wolves' kill."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cast import Identity
from ..config import GameConfig

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["rules_en", "rules_zh", "targets"]


def targets(state: GameState) -> tuple[int | None, ...]:
    """Tonight's legal choices: living seats (herself if allowed), last night's choice only
    if repeats are allowed, or when nobody else is left. She always protects somebody."""
    config = state.config
    me = state.seat_of(Identity.DOCTOR)
    mine = tuple(s for s in state.living if config.doctor_self or s != me)
    fresh = tuple(s for s in mine if config.doctor_repeat or s != state.protected_before)
    return fresh or mine


def rules_en(config: GameConfig) -> str:
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


def rules_zh(config: GameConfig) -> str:
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
