"""The end of a game: its event (the winner, the cards shown) and why, in words."""

from __future__ import annotations

from typing import Any

from pulse_core import RoleResult

from ..cast import Identity
from ..config import WinRule
from ..registry import god_order
from ..state import GameState, Outcome, Phase
from .context import PhaseContext

__all__ = ["game_end", "outcome_reason"]


def outcome_reason(state: GameState) -> str:
    """Why the game ended, in words, under the config's win rule."""
    winner = state.winner
    if winner is None or winner is Outcome.DRAW:
        return f"the day cap of {state.config.day_cap} days was reached"
    if winner is Outcome.GOOD:
        return "every wolf is dead"
    if winner is Outcome.LOVERS:
        return "only cupid and the lovers are left"
    rule = state.config.win_rule
    if rule is WinRule.PARITY:
        return "the wolves are as many as everyone else"
    if rule is WinRule.TOWN:
        return "every good player is dead"
    villagers = state.seats_of(Identity.VILLAGER)
    if villagers and not any(state.is_alive(s) for s in villagers):
        return "every villager is dead"
    idiot = state.idiot
    if idiot is not None and state.is_alive(idiot):  # revealed, he no longer counts
        others = ", ".join(
            g.value for g in god_order() if g in state.identities and g is not Identity.IDIOT
        )
        return f"every other god ({others}) is dead and the idiot is revealed"
    gods = ", ".join(g.value for g in god_order() if g in state.identities)
    return f"every god ({gods}) is dead"


async def game_end(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    winner = state.winner or Outcome.DRAW
    reason = outcome_reason(state)
    cast = [identity.value for identity in state.identities]
    lines = [
        f"Game over: {'a draw' if winner is Outcome.DRAW else winner.value + ' win'} ({reason})."
    ]
    lines += [
        f"  seat {s} {state.names[s - 1]}: {state.identity(s).value}"
        + ("" if state.is_alive(s) else " (dead)")
        for s in state.seats
    ]
    return ctx.result(
        Phase.GAME_END,
        "\n".join(lines),
        diff={"winner": winner.value},
        detail=_end_detail(state, cast, reason),
    )


def _end_detail(state: GameState, cast: list[str], reason: str) -> dict[str, Any]:
    detail: dict[str, Any] = {"alive": list(state.living), "identities": cast, "reason": reason}
    if state.config.referee_record:  # the steps the decided game did not run, in order
        detail["skipped"] = [{"phase": p, "seat": s} for p, s in state.skipped]
    return detail
