"""The guard (守卫): each night, before the wolves, protects one living player from their
kill (not from the poison), never the same player two nights running, or nobody (空守)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cast import Identity
from ..config import GameConfig, GuardClash

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["rules_en", "rules_zh", "targets"]


def targets(state: GameState) -> tuple[int | None, ...]:
    """Tonight's legal choices: living seats (himself if allowed), never last night's
    choice unless repeats are allowed, and None for nobody."""
    config = state.config
    me = state.seat_of(Identity.GUARD)
    seats = [
        s
        for s in state.living
        if (config.guard_self or s != me) and (config.guard_repeat or s != state.guarded_before)
    ]
    return (*seats, None)


def rules_en(config: GameConfig) -> str:
    clash = (
        "dies (the protections cancel out)"
        if config.guard_witch_clash is GuardClash.DIES
        else "lives"
    )
    return (
        "Guard: each night, before the wolves, protects one living player from the wolves' "
        "kill (not from the poison)"
        + (", himself allowed" if config.guard_self else ", never himself")
        + (
            "; he may protect the same player two nights running"
            if config.guard_repeat
            else "; never the same player two nights running"
        )
        + f"; he may protect nobody. A player both guarded and saved by the witch {clash}."
    )


def rules_zh(config: GameConfig) -> str:
    clash = "同守同救则死亡" if config.guard_witch_clash is GuardClash.DIES else "同守同救仍存活"
    return (
        "守卫：每晚在狼人之前守护一名存活玩家，使其免于狼刀（不防毒药）"
        + ("，可自守" if config.guard_self else "，不可自守")
        + ("，可连续两晚守同一人" if config.guard_repeat else "，不可连续两晚守同一人")
        + f"，可空守；{clash}。"
    )
