"""The doctor's night: she names the seat she protects; only she sees it. When the seer
checks before the wolves (``seer_before_wolves``), her check is asked at the same time."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import DecisionKind
from ..identities import doctor
from ..phases import PhaseContext, ask_seer_ahead
from ..state import Phase
from .protect import protect

__all__ = ["doctor_protect"]


async def doctor_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    if state.config.seer_before_wolves:  # the two act together; her phase collects it
        ask_seer_ahead(ctx, state.tonight)
    options = doctor.targets(state)
    return await protect(
        ctx, Identity.DOCTOR, DecisionKind.DOCTOR, Phase.DOCTOR, options, state.protected_before
    )
