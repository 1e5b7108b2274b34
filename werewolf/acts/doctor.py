"""The doctor's night: she names the seat she protects; only she sees it. When the seer
checks before the wolves (``seer_before_wolves``), her check is asked at the same time."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import Choice, DecisionKind
from ..identities import doctor
from ..phases import PhaseContext, ask_seer_ahead, seat_text
from ..state import Phase

__all__ = ["doctor_protect"]


async def doctor_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    night = state.tonight
    me = state.seat_of(Identity.DOCTOR)
    assert me is not None  # the moderator runs this phase only for a living doctor
    if state.config.seer_before_wolves:  # the two act together; her phase collects it
        ask_seer_ahead(ctx, night)
    request = ctx.request(
        DecisionKind.DOCTOR,
        me,
        f"n{night}.doctor.s{me}",
        options=doctor.targets(state),
        context={"night": night, "last": state.protected_before},
    )
    answer = await ctx.ask(request)
    target = answer.target if isinstance(answer, Choice) else None
    return ctx.result(
        Phase.DOCTOR,
        f"Night {night}: the doctor protected {seat_text(state, target)}.",
        diff={"target": target},
        visible_to=[me],
        day=night,
    )
