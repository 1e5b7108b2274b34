"""The guard's night: he names the seat he protects (or nobody); only he sees it."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import Choice, DecisionKind
from ..identities import guard
from ..phases import PhaseContext, seat_text
from ..state import Phase

__all__ = ["guard_protect"]


async def guard_protect(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    night = state.tonight
    me = state.seat_of(Identity.GUARD)
    assert me is not None  # the moderator runs this phase only for a living guard
    request = ctx.request(
        DecisionKind.GUARD,
        me,
        f"n{night}.guard.s{me}",
        options=guard.targets(state),
        context={"night": night, "last": state.guarded_before},
    )
    answer = await ctx.ask(request)
    target = answer.target if isinstance(answer, Choice) else None
    return ctx.result(
        Phase.GUARD,
        f"Night {night}: the guard protected {seat_text(state, target)}.",
        diff={"target": target},
        visible_to=[me],
        day=night,
    )
