"""The witch (女巫): one antidote and one poison for the whole game; told the wolves'
victim while she holds the antidote."""

from __future__ import annotations

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig, SelfSave
from ..decisions import DecisionKind, WitchChoice
from ..phases.context import PhaseContext, seat_text
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..rules import witch_options
from ..state import Phase

__all__ = ["SPEC", "witch_action"]


async def witch_action(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    options = witch_options(state)
    witch = options.witch
    request = ctx.request(
        DecisionKind.WITCH,
        witch,
        f"n{state.night}.witch.s{witch}",
        witch=options,
        context={"night": state.night, "told_target": options.told_target},
    )
    answer = await ctx.ask(request)
    assert isinstance(answer, WitchChoice)  # checked by problem() or made by fallback()
    told = options.told_target
    parts = [
        f"Night {state.night}: the witch was told {seat_text(state, told)}"
        if told is not None
        else f"Night {state.night}: the witch was told no victim"
    ]
    parts.append("used the antidote" if answer.save else "kept the antidote")
    if answer.poison is not None:
        parts.append(f"poisoned {seat_text(state, answer.poison)}")
    return ctx.result(
        Phase.WITCH,
        "; ".join(parts) + ".",
        diff={"poison": answer.poison, "save": answer.save},
        detail={"can_save": options.can_save, "told_target": told},
        visible_to=[witch],
    )


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        save = {
            SelfSave.FIRST_NIGHT: "仅首夜可自救",
            SelfSave.NEVER: "不可自救",
            SelfSave.ALWAYS: "可自救",
        }[config.witch_self_save]
        return (
            "女巫：解药毒药各一瓶，"
            + ("同一夜可双药；" if config.witch_both_potions else "每晚最多用一瓶；")
            + f"{save}；解药用掉后不再得知刀口；不能毒自己。"
        )
    save = {
        SelfSave.FIRST_NIGHT: "she may save herself on night 1 only",
        SelfSave.NEVER: "she may never save herself",
        SelfSave.ALWAYS: "she may save herself",
    }[config.witch_self_save]
    return (
        "Witch: one antidote and one poison for the whole game; "
        + (
            "she may use both in one night; "
            if config.witch_both_potions
            else "at most one potion a night; "
        )
        + f"{save}; she learns the wolves' victim only while she holds the antidote; "
        "she never poisons herself."
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.WITCH,
        names=Names("witch", "女巫"),
        team=Team.GOOD,
        god=True,
        order=2,
        night=(NightStep(Phase.WITCH, rank=60),),
        decisions=(
            DecisionSpec(
                DecisionKind.WITCH,
                "witch_action",
                "werewolf.players.mock.strategy.witch:witch_night",
                tool_rank=50,
            ),
        ),
        rules=rules,
        rules_rank=10,
        night_text=Names("the witch", "女巫"),
        phases={Phase.WITCH: witch_action},
        events=(Phase.WITCH,),
    )
)
