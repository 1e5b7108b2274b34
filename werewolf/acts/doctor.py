"""The doctor's night: she names the seat she protects; only she sees it. When the seer
checks before the wolves (``seer_before_wolves``), her check is asked at the same time."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import DecisionKind
from ..identities import doctor
from ..phases import PhaseContext, ask_seer_ahead, seat_text
from ..state import Phase
from .protect import protect

__all__ = ["doctor_protect", "doctor_told"]


async def doctor_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    if state.config.seer_before_wolves:  # the two act together; her phase collects it
        ask_seer_ahead(ctx, state.tonight)
    options = doctor.targets(state)
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
