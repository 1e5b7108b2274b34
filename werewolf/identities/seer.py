"""The seer (预言家): each night checks one living player and learns good or wolf (or the
identity, ``seer_learns = "identity"``). Her check is asked as the night begins, so it runs
while the others decide (``ask_seer_ahead``)."""

from __future__ import annotations

import asyncio
from typing import Any

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig, SeerLearns
from ..decisions import Answer, DecisionKind, Request
from ..phases.context import PhaseContext, choice_of, in_key_order, seat_text
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..rules import seer_targets
from ..state import Phase

__all__ = ["SPEC", "ask_seer_ahead", "seer_check"]

_MOCK = "werewolf.players.mock.strategy.seer:"


def _seer_request(ctx: PhaseContext, night: int) -> Request:
    seer = ctx.state.seat_of(Identity.SEER)
    assert seer is not None  # asked only for a living seer
    return ctx.request(
        DecisionKind.SEER,
        seer,
        f"n{night}.seer.s{seer}",
        options=seer_targets(ctx.state),
        context={"night": night},
    )


def ask_seer_ahead(ctx: PhaseContext, night: int) -> None:
    """Start the seer's check as the night begins, so it runs while the wolves and the
    witch decide: her view and options cannot change before her phase (she sees neither
    event, and deaths resolve at dawn). Her own context keeps her reasoning, fallbacks and
    usage out of the wolves' event; if the game stops first, her phase simply asks again.
    A seer who answers at once (``Player.immediate``) has nothing to overlap: her phase
    asks her, with no task."""
    seer = ctx.state.seat_of(Identity.SEER)
    if seer is None or not ctx.state.is_alive(seer):
        return
    if getattr(ctx.players[seer], "immediate", False):
        return
    own = PhaseContext(ctx.chain, ctx.state, ctx.players, ctx.views, retries=ctx.retries)
    task = asyncio.ensure_future(own.ask(_seer_request(own, night)))
    task.add_done_callback(_retrieve)  # a failure surfaces in her phase, or nowhere
    ctx.ahead["seer"] = (night, own, task)


def _retrieve(task: asyncio.Future[Answer]) -> None:
    if not task.cancelled():
        task.exception()


async def seer_check(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    seer = state.seat_of(Identity.SEER)
    assert seer is not None  # the moderator runs this phase only for a living seer
    night = state.tonight  # she may open the night (seer_before_wolves, no living doctor)
    ahead = ctx.ahead.pop("seer", None)
    own: PhaseContext
    answer: Answer
    if ahead is not None and ahead[0] == night:
        _, own, task = ahead
        answer = await task
    else:
        own = ctx
        answer = await ctx.ask(_seer_request(ctx, night))
    target = choice_of(answer)
    if target is None:  # her fallback under night_fallback = "nothing": no check tonight
        return own.result(
            Phase.SEER,
            f"Night {night}: the seer checked nobody.",
            diff={"target": None, "wolf": None},
            visible_to=[seer],
            day=night,
        )
    wolf = state.team(target) is Team.WOLVES
    diff: dict[str, Any] = {"target": target, "wolf": wolf}
    told = "a wolf" if wolf else "good"
    if state.config.seer_learns is SeerLearns.IDENTITY:  # the key only when asked for
        diff = in_key_order(diff | {"identity": state.identity(target).value})
        told = f"the {diff['identity']} ({'wolf' if wolf else 'good'})"
    return own.result(
        Phase.SEER,
        f"Night {night}: the seer checked {seat_text(state, target)}: {told}.",
        diff=diff,
        visible_to=[seer],
        day=night,
    )


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        return "预言家：每晚查验一名存活玩家，得知" + (
            "其身份（从而知道好人或狼人）。"
            if config.seer_learns is SeerLearns.IDENTITY
            else "好人或狼人。"
        )
    return "Seer: each night checks one living player and learns " + (
        "their identity (and so good or wolf)."
        if config.seer_learns is SeerLearns.IDENTITY
        else "good or wolf."
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.SEER,
        names=Names("seer", "预言家"),
        team=Team.GOOD,
        god=True,
        order=1,
        # seer_before_wolves: right after the doctor (asked with her), before the wolves
        night=(NightStep(Phase.SEER, rank=70, early_rank=40),),
        decisions=(
            DecisionSpec(DecisionKind.SEER, "seer_check", _MOCK + "seer_check", tool_rank=20),
            DecisionSpec(DecisionKind.SPEECH, "speak", _MOCK + "seer_speech"),
            DecisionSpec(DecisionKind.LAST_WORDS, "speak", _MOCK + "seer_last_words"),
        ),
        rules=rules,
        rules_rank=11,
        night_text=Names("the seer", "预言家"),
        phases={Phase.SEER: seer_check},
        events=(Phase.SEER,),
    )
)
