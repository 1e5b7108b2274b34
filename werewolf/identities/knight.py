"""The knight (骑士): once per game, by day, in place of his speech, he duels a living
seat. A wolf dies at once and the day goes straight to night (no further speeches, no
vote); a good seat lives and the knight dies, and the speeches go on. Neither death has
last words. He is offered the duel before each of his speeches of the discussion (not
before a PK speech, not in his last words); declining, he speaks as anyone.

Everything the knight is lives here: his spec (a day step, not a night step), the phase
role that asks him, and his event (``knight-duel``: its shape, fold and public meaning).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired

from typing_extensions import TypedDict  # pydantic reads it (the replay file's check)

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig
from ..decisions import DecisionKind
from ..events.deaths import after_deaths, kill
from ..events.hunter import heartbroken as heartbroken_meaning
from ..phases.context import (
    PhaseContext,
    choice_of,
    heartbreak_text,
    reveal_dead,
    seat_text,
)
from ..records import replace
from ..registry import (
    DayStep,
    DecisionSpec,
    EventSpec,
    IdentitySpec,
    Meaning,
    Names,
    register_event,
    register_identity,
)
from ..rules import heartbroken, next_speaker
from ..state import Death, GameState, Stage

__all__ = ["DUEL", "EVENT", "SPEC", "knight_duel", "offered", "targets"]

DUEL = "knight-duel"
DUEL_CAUSE = "duel"  # the cause of a duel's death (``Death.cause``: any string an event declares)


class DuelDiff(TypedDict):
    heartbroken: NotRequired[list[int]]  # the lover who dies with the duel's dead, if any
    knight: int
    target: int | None  # None: he declined and speaks
    wolf: bool | None  # the target was a wolf (None when declined)


class DuelDetail(TypedDict, total=False):
    revealed: list[list[int | str]]  # reveal_on_death: the dead's team or identity


# -- the rules ---------------------------------------------------------------------------------
def offered(state: GameState, seat: int) -> bool:
    """The knight may duel now: his power unspent, in the day's discussion (not a PK)."""
    return DUEL not in state.spent and state.stage is not Stage.PK


def targets(state: GameState, knight: int) -> tuple[int | None, ...]:
    """Any other living seat, or None: no duel, he speaks."""
    return (*(s for s in state.living if s != knight), None)


# -- the phase role ----------------------------------------------------------------------------
async def knight_duel(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    knight = next_speaker(state)
    assert knight is not None  # the moderator runs this phase only before his speech
    times = state.spoken.count(knight) + 1  # before his first speech of the day, or a later
    request = ctx.request(
        DecisionKind.KNIGHT,
        knight,
        f"d{state.night}.knight.s{knight}" + (f".r{times}" if times > 1 else ""),
        options=targets(state, knight),
        context={"day": state.night},
    )
    target = choice_of(await ctx.ask(request))
    if target is None:
        return ctx.result(
            DUEL,
            f"Day {state.night}: the knight, seat {knight}, does not duel.",
            diff={"knight": knight, "target": None, "wolf": None},
            visible_to=[knight],
        )
    wolf = state.team(target) is Team.WOLVES
    dead = target if wolf else knight
    diff: dict[str, Any] = {"knight": knight, "target": target, "wolf": wolf}
    broken = heartbroken(state, {dead})
    if broken:  # written only when a lover dies, as the hunter's shot does
        diff = {"heartbroken": list(broken), **diff}
    text = (
        f"Day {state.night}: seat {knight} reveals the knight card and duels "
        f"{seat_text(state, target)}: "
        + (
            "a wolf, who dies; night falls at once."
            if wolf
            else f"not a wolf: the knight dies and {seat_text(state, target)} lives on."
        )
    )
    shown, detail = reveal_dead(state, sorted([dead, *broken]))
    return ctx.result(DUEL, text + heartbreak_text(state, broken) + shown, diff=diff, detail=detail)


# -- the event ---------------------------------------------------------------------------------
def fold(state: GameState, diff: dict[str, Any]) -> GameState:
    """A declined duel only marks him asked; a duel spends the power and kills (the wolf,
    ending the day, or the knight), with heartbreak and a heartbroken hunter's shot."""
    knight = int(diff["knight"])
    state = replace(state, day_asked=(state.night, knight, len(state.spoken)))
    target = diff.get("target")
    if target is None:
        return state
    wolf = bool(diff["wolf"])
    state = replace(state, spent=state.spent | {DUEL}, floor=None)
    dead = int(target) if wolf else knight
    state, deaths = kill(state, [Death(dead, state.night, DUEL_CAUSE)])
    if wolf:
        state = replace(state, stage=Stage.EVENING)  # no more speeches, no vote: night
    return after_deaths(state, deaths, last_words=())


def meaning(diff: Mapping[str, Any], detail: Mapping[str, Any]) -> Meaning:
    """Public: the knight's card, and the seat that died of the duel."""
    target = diff.get("target")
    if target is None:
        return Meaning()
    knight = int(diff["knight"])
    dead = int(target) if diff.get("wolf") else knight
    return Meaning(
        deaths=((dead, DUEL_CAUSE), *heartbroken_meaning(dict(diff))),
        revealed=((knight, Identity.KNIGHT.value),),
    )


def _observe(diff: Mapping[str, Any]) -> tuple[str, Mapping[str, int | None]]:
    target = diff.get("target")
    variant = "declined" if target is None else "wolf" if diff.get("wolf") else "good"
    return variant, {"knight": diff.get("knight"), "target": target}


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        return (
            "骑士：每局一次，白天轮到自己发言时可翻牌代替发言，与一名存活玩家决斗：对方是狼人则"
            "狼人立即出局，当天直接进入黑夜（不再发言、不投票）；对方是好人则骑士出局，发言继续。"
            "决斗的死者没有遗言；PK发言时不能决斗。"
        )
    return (
        "Knight: once per game, by day, in place of one of his speeches, he may reveal his "
        "card and duel a living player: a wolf dies at once and the day goes straight to "
        "night (no more speeches, no vote); a good player lives and the knight dies, and "
        "the speeches go on. Neither death gives last words; no duel in a PK round."
    )


EVENT = register_event(
    EventSpec(
        kind=DUEL,
        label=Names("knight's duel", "骑士决斗"),
        diff=DuelDiff,
        detail=DuelDetail,
        fold=fold,
        meaning=meaning,
        causes={DUEL_CAUSE: Names("died in a duel, day {n}", "第{n}天死于决斗")},
    )
)

SPEC = register_identity(
    IdentitySpec(
        identity=Identity.KNIGHT,
        names=Names("knight", "骑士"),
        team=Team.GOOD,
        god=True,
        order=8,
        day=(DayStep(DUEL, offered),),
        decisions=(
            DecisionSpec(
                DecisionKind.KNIGHT,
                "knight_duel",
                "werewolf.players.mock.strategy.knight:knight_duel",
                tool_rank=90,
            ),
        ),
        rules=rules,
        rules_rank=104,
        prompt="knight",
        phases={DUEL: knight_duel},
        events=(DUEL,),
        observe={DUEL: _observe},
    )
)
