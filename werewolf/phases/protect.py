"""A protector's night, shared by the guard and the doctor: the holder names the seat he
protects (or nobody); only he sees it."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import Choice, DecisionKind
from .context import PhaseContext, seat_text

__all__ = ["protect"]


async def protect(
    ctx: PhaseContext,
    identity: Identity,
    kind: DecisionKind,
    phase: str,
    options: tuple[int | None, ...],
    last: int | None,
) -> RoleResult:
    """Ask the living holder of ``identity`` for tonight's seat (``last``: the seat he
    protected the night before) and return his private event."""
    state = ctx.state
    night = state.tonight
    me = state.seat_of(identity)
    assert me is not None  # the moderator runs this phase only for a living holder
    request = ctx.request(
        kind,
        me,
        f"n{night}.{kind.value}.s{me}",
        options=options,
        context={"night": night, "last": last},
    )
    answer = await ctx.ask(request)
    target = answer.target if isinstance(answer, Choice) else None
    return ctx.result(
        phase,
        f"Night {night}: the {identity.value} protected {seat_text(state, target)}.",
        diff={"target": target},
        visible_to=[me],
        day=night,
    )
