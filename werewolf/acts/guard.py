"""The guard's night: he names the seat he protects (or nobody); only he sees it."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import DecisionKind
from ..identities import guard
from ..phases import PhaseContext
from ..state import Phase
from .protect import protect

__all__ = ["guard_protect"]


async def guard_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    options = guard.targets(state)
    return await protect(
        ctx, Identity.GUARD, DecisionKind.GUARD, Phase.GUARD, options, state.guarded_before
    )
