"""The guard (守卫): each night, before the wolves, protects one living player from their
kill (not from the poison), never the same player two nights running, or nobody (空守)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig, GuardClash
from ..decisions import DecisionKind
from ..phases.protect import protect
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..state import Phase

if TYPE_CHECKING:
    from ..phases.context import PhaseContext
    from ..state import GameState

__all__ = ["SPEC", "guard_protect", "targets"]


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


def _rules_en(config: GameConfig) -> str:
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


def _rules_zh(config: GameConfig) -> str:
    clash = "同守同救则死亡" if config.guard_witch_clash is GuardClash.DIES else "同守同救仍存活"
    return (
        "守卫：每晚在狼人之前守护一名存活玩家，使其免于狼刀（不防毒药）"
        + ("，可自守" if config.guard_self else "，不可自守")
        + ("，可连续两晚守同一人" if config.guard_repeat else "，不可连续两晚守同一人")
        + f"，可空守；{clash}。"
    )


async def guard_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    options = targets(state)
    return await protect(
        ctx, Identity.GUARD, DecisionKind.GUARD, Phase.GUARD, options, state.guarded_before
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.GUARD,
        names=Names("guard", "守卫"),
        team=Team.GOOD,
        god=True,
        order=4,
        night=(NightStep(Phase.GUARD, rank=20),),
        decisions=(
            DecisionSpec(
                DecisionKind.GUARD,
                "guard_protect",
                "werewolf.players.mock.strategy.guard:guard_protect",
                tool_rank=60,
            ),
        ),
        rules=lambda config, lang: _rules_zh(config) if lang == "zh" else _rules_en(config),
        rules_rank=100,
        night_text=Names("the guard", "守卫先守护，"),
        prompt="guard",
        phases={Phase.GUARD: guard_protect},
        events=(Phase.GUARD,),
    )
)
