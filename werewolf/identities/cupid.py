"""Cupid (丘比特): on night 1, before everyone, links two players as lovers. When one lover
dies the other dies at once (殉情). A wolf and a good lover form a third side with cupid
(人狼恋), which wins when only they are left. Cupid is no god (for 屠边, neither god nor
villager)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig, WinRule
from ..decisions import Choice, DecisionKind
from ..phases.context import seat_text
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..state import Phase

if TYPE_CHECKING:
    from ..phases.context import PhaseContext
    from ..state import GameState

__all__ = ["SPEC", "cupid_link", "lovers_told", "targets"]


def targets(state: GameState, first: int | None = None) -> tuple[int, ...]:
    """The legal lovers: living seats (himself if allowed), and not the first lover when
    choosing the second."""
    me = state.seat_of(Identity.CUPID)
    return tuple(s for s in state.living if (state.config.cupid_self or s != me) and s != first)


def _rules_en(config: GameConfig) -> str:
    return (
        "Cupid: on night 1, before everyone, links two players as lovers"
        + (" (himself allowed)" if config.cupid_self else " (never himself)")
        + "; each lover is told the other's seat"
        + (" and identity" if config.lovers_see_identity else "")
        + ". When one lover dies the other dies at once (heartbreak)"
        + (
            ", and a heartbroken hunter may shoot"
            if config.heartbroken_hunter_shoots
            else ", and a heartbroken hunter does not shoot"
        )
        + ". Lovers of one side play for it; a wolf and a good lover form a third side with "
        "cupid, which wins when only they are left, and the other sides must then also see "
        "the lovers dead to win."
        + (
            " For the side rule cupid is neither a god nor a villager."
            if config.win_rule is WinRule.SIDE
            else ""
        )
    )


def _rules_zh(config: GameConfig) -> str:
    return (
        "丘比特：首夜最先行动，连接两名玩家为情侣"
        + ("（可连自己）" if config.cupid_self else "（不可连自己）")
        + "；情侣互知座位"
        + ("与身份" if config.lovers_see_identity else "")
        + "。一方死亡另一方立即殉情"
        + ("，殉情的猎人可开枪" if config.heartbroken_hunter_shoots else "，殉情的猎人不能开枪")
        + "。同阵营情侣为本阵营而战；人狼恋则与丘比特组成第三方，场上只剩他们时获胜，"
        "其余阵营须情侣出局方能获胜。"
        + ("屠边时丘比特既不算神也不算民。" if config.win_rule is WinRule.SIDE else "")
    )


async def cupid_link(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    night = state.tonight
    me = state.seat_of(Identity.CUPID)
    assert me is not None  # the moderator runs this phase only for cupid, on night 1
    lovers: list[int] = []
    for turn in ("a", "b"):
        first = lovers[0] if lovers else None
        options = targets(state, first)
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


def _linked(state: GameState) -> bool:
    return len(state.lovers) == 2  # the lovers are told even when cupid is dead by then


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.CUPID,
        names=Names("cupid", "丘比特"),
        team=Team.GOOD,
        god=False,
        order=6,
        night=(
            NightStep(Phase.CUPID, rank=0, first_night_only=True),
            NightStep(Phase.LOVERS, rank=1, first_night_only=True, runs=_linked),
        ),
        decisions=(
            DecisionSpec(
                DecisionKind.CUPID,
                "cupid_link",
                "werewolf.players.mock.strategy.cupid:cupid_link",
                tool_rank=80,
            ),
        ),
        rules=lambda config, lang: _rules_zh(config) if lang == "zh" else _rules_en(config),
        rules_rank=102,
        night_text=Names("on night 1 cupid", "首夜丘比特先行动，"),
        prompt="cupid",
        phases={Phase.CUPID: cupid_link, Phase.LOVERS: lovers_told},
        events=(Phase.CUPID, Phase.LOVERS),
    )
)
