"""The hunter (猎人): killed by the wolves or exiled, he may shoot one living player (not
when poisoned, and not when his death already decided the game)."""

from __future__ import annotations

from typing import Any

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig
from ..decisions import DecisionKind
from ..phases.context import (
    PhaseContext,
    choice_of,
    heartbreak_text,
    in_key_order,
    reveal_dead,
    seat_text,
)
from ..registry import DecisionSpec, IdentitySpec, Names, register_identity
from ..rules import heartbroken, hunter_targets
from ..state import Phase

__all__ = ["SPEC", "hunter_shot"]


async def hunter_shot(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    hunter = state.hunter_due
    assert hunter is not None  # the moderator runs this phase only when a shot is due
    request = ctx.request(
        DecisionKind.HUNTER,
        hunter,
        f"d{state.night}.hunter.s{hunter}",
        options=hunter_targets(state),
        context={"day": state.night},
    )
    target = choice_of(await ctx.ask(request))
    if target is None:
        return ctx.result(
            Phase.HUNTER,
            f"Day {state.night}: the hunter, seat {hunter}, kept his bullet.",
            diff={"shooter": hunter, "target": None},
            visible_to=[hunter],
        )
    diff: dict[str, Any] = {"shooter": hunter, "target": target}
    text = (
        f"Day {state.night}: seat {hunter} reveals the hunter card and shoots "
        f"{seat_text(state, target)}."
    )
    broken = heartbroken(state, {target})
    if broken:  # written only when a lover dies, so boards without lovers log as before
        diff = in_key_order(diff | {"heartbroken": list(broken)})
        text += heartbreak_text(state, broken)
    shown, detail = reveal_dead(state, sorted([target, *broken]))
    text += shown
    return ctx.result(Phase.HUNTER, text, diff=diff, detail=detail)


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        return "猎人：被狼杀或被放逐时可开枪带走一人；被毒不能开枪；死亡已决定胜负时不能开枪。"
    return (
        "Hunter: when killed by the wolves or exiled he may shoot one living player; "
        "not when poisoned, and not when his death already decided the game."
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.HUNTER,
        names=Names("hunter", "猎人"),
        team=Team.GOOD,
        god=True,
        order=3,
        decisions=(
            DecisionSpec(
                DecisionKind.HUNTER,
                "hunter_shot",
                "werewolf.players.mock.strategy.hunter:hunter_shot",
                tool_rank=30,
            ),
        ),
        rules=rules,
        rules_rank=12,
        phases={Phase.HUNTER: hunter_shot},
        events=(Phase.HUNTER,),
    )
)
