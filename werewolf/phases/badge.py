"""The sheriff's badge and his day: a dead sheriff passes the badge or tears it, before
any shot or last words his death allows; a living one chooses who speaks first."""

from __future__ import annotations

from pulse_core import RoleResult

from ..decisions import DecisionKind
from ..election import badge_options, order_options
from ..state import Phase
from .context import PhaseContext, choice_of, seat_text

__all__ = ["sheriff_badge", "sheriff_order"]


async def sheriff_badge(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    holder = state.badge_due
    if holder is None:  # the moderator runs this phase only when a badge is due
        raise ValueError("no badge to pass")
    request = ctx.request(
        DecisionKind.BADGE,
        holder,
        f"d{state.night}.badge.s{holder}",
        options=badge_options(state),
        context={"day": state.night},
    )
    heir = choice_of(await ctx.ask(request))
    if heir is None:
        text = f"Day {state.night}: the sheriff, seat {holder}, tears the badge."
    else:
        text = f"Day {state.night}: the sheriff, seat {holder}, passes the badge to {seat_text(state, heir)}."
    return ctx.result(Phase.BADGE, text, diff={"holder": holder, "to": heir})


async def sheriff_order(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    sheriff = state.sheriff
    if sheriff is None:
        raise ValueError("no sheriff to choose the order")
    options = order_options(state)
    request = ctx.request(
        DecisionKind.ORDER,
        sheriff,
        f"d{state.night}.order.s{sheriff}",
        options=tuple(options),
        context={"day": state.night, "dead": list(state.dawn_died)},
    )
    first = choice_of(await ctx.ask(request))
    if first is None:
        first = options[0]
    left = len(options) > 1 and first == options[1]
    way = "left" if left else "right"
    return ctx.result(
        Phase.ORDER,
        f"Day {state.night}: the sheriff, seat {sheriff}, has {seat_text(state, first)} "
        f"speak first, to the {way}, and speaks last.",
        diff={"first": first, "left": left, "sheriff": sheriff},
    )
