"""Cupid (丘比特): on night 1, before everyone, links two players as lovers. When one lover
dies the other dies at once (殉情). A wolf and a good lover form a third side with cupid
(人狼恋), which wins when only they are left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cast import Identity
from ..config import GameConfig, WinRule

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["rules_en", "rules_zh", "targets"]


def targets(state: GameState, first: int | None = None) -> tuple[int, ...]:
    """The legal lovers: living seats (himself if allowed), and not the first lover when
    choosing the second."""
    me = state.seat_of(Identity.CUPID)
    return tuple(s for s in state.living if (state.config.cupid_self or s != me) and s != first)


def rules_en(config: GameConfig) -> str:
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


def rules_zh(config: GameConfig) -> str:
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
