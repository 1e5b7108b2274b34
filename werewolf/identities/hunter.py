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
from ..registry import (
    DecisionSpec,
    IdentitySpec,
    Names,
    Shot,
    identity_spec,
    register_identity,
    shots,
)
from ..rules import heartbroken, hunter_targets
from ..state import Cause, GameState, Phase

__all__ = ["SPEC", "hunter_shot"]


async def hunter_shot(ctx: PhaseContext) -> RoleResult:
    """The shot of whoever is due one (``state.hunter_due``): the hunter, or another
    identity with a ``registry.Shot`` (the wolf king), asked its own decision kind; the
    event names a shooter who is not the hunter by his ``card``."""
    state = ctx.state
    hunter = state.hunter_due
    assert hunter is not None  # the moderator runs this phase only when a shot is due
    held = state.identity(hunter)
    shot = shots()[held]
    card = {} if held is Identity.HUNTER else {"card": held.value}
    request = ctx.request(
        DecisionKind(shot.decision),
        hunter,
        f"d{state.night}.{'hunter' if not card else held.value}.s{hunter}",
        options=hunter_targets(state),
        context={"day": state.night},
    )
    name = identity_spec(held).names.en
    target = choice_of(await ctx.ask(request))
    if target is None:
        return ctx.result(
            Phase.HUNTER,
            f"Day {state.night}: the {name}, seat {hunter}, kept his bullet.",
            diff={**card, "shooter": hunter, "target": None},
            visible_to=[hunter],
        )
    diff: dict[str, Any] = {**card, "shooter": hunter, "target": target}
    text = (
        f"Day {state.night}: seat {hunter} reveals the {name} card and shoots "
        f"{seat_text(state, target)}."
    )
    broken = heartbroken(state, {target})
    if broken:  # written only when a lover dies, so boards without lovers log as before
        diff = in_key_order(diff | {"heartbroken": list(broken)})
        text += heartbreak_text(state, broken)
    shown, detail = reveal_dead(state, sorted([target, *broken]))
    text += shown
    return ctx.result(Phase.HUNTER, text, diff=diff, detail=detail)


_SHOOTS_ON = frozenset({Cause.WOLF, Cause.EXILE, Cause.TAKEN, Cause.KING_SHOT})


def shoots(state: GameState, cause: str) -> bool:
    """Killed by the wolves (at night, by the white wolf king's self-destruct, by the wolf
    king's shot) or exiled, once; not poisoned; heartbroken as the config says."""
    if state.hunter_fired:
        return False
    if cause == Cause.LOVE:
        return state.config.heartbroken_hunter_shoots
    return cause in _SHOOTS_ON


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
        shot=Shot(shoots, DecisionKind.HUNTER, Cause.SHOT),
    )
)
