"""Cupid's night 1: he names two lovers, one after the other (his event, his eyes only);
then the lovers are told of each other (their event: the pair, and the identities when
the config says so)."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity
from ..decisions import Choice, DecisionKind
from ..identities import cupid
from ..phases import PhaseContext, seat_text
from ..state import Phase

__all__ = ["cupid_link", "lovers_told"]


async def cupid_link(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    night = state.tonight
    me = state.seat_of(Identity.CUPID)
    assert me is not None  # the moderator runs this phase only for cupid, on night 1
    lovers: list[int] = []
    for turn in ("a", "b"):
        first = lovers[0] if lovers else None
        options = cupid.targets(state, first)
        request = ctx.request(
            DecisionKind.CUPID,
            me,
            f"n{night}.cupid.{turn}.s{me}",
            options=options,
            context={"night": night, "first": first},
        )
        answer = await ctx.ask(request)
        target = answer.target if isinstance(answer, Choice) else None
        lovers.append(target if target is not None else options[0])
    pair = sorted(lovers)
    return ctx.result(
        Phase.CUPID,
        f"Night {night}: cupid linked {seat_text(state, pair[0])} and "
        f"{seat_text(state, pair[1])} as lovers.",
        diff={"lovers": pair},
        visible_to=[me],
        day=night,
    )


async def lovers_told(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    a, b = state.lovers
    shown = state.config.lovers_see_identity
    identities = [state.identity(a).value, state.identity(b).value] if shown else None
    text = f"Night {state.night}: {seat_text(state, a)} and {seat_text(state, b)} are lovers"
    if identities is not None:
        text += f" ({identities[0]} and {identities[1]})"
    return ctx.result(
        Phase.LOVERS,
        text + ".",
        diff={"lovers": [a, b]},
        detail={"identities": identities},
        visible_to=[a, b],
    )
