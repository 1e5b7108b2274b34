"""The idiot (白痴): exiled by the vote, he shows his card and stays alive without a vote
(he still speaks); the wolves, the poison and the hunter kill him as anyone. The vote
(``phases.vote``, ``rules.idiot_reveals``) and the fold carry it out."""

from __future__ import annotations

from ..cast import Identity, Team
from ..config import GameConfig, WinRule
from ..registry import IdentitySpec, Names, register_identity

__all__ = ["SPEC"]


def _rules_en(config: GameConfig) -> str:
    return (
        "Idiot: when exiled by the vote he reveals his card and stays alive, but never votes "
        "again (he still speaks); "
        + (
            "exiled a second time he dies"
            if config.idiot_second_exile
            else "once revealed he can no longer be voted for"
        )
        + "; the wolves, the poison and the hunter kill him as anyone"
        + _as_god(
            config,
            "; revealed, he still counts as a living god.",
            "; revealed, he no longer counts as a living god: when he is the last god, the "
            "vote that reveals him wins the game for the wolves.",
        )
    )


def _rules_zh(config: GameConfig) -> str:
    return (
        "白痴：被放逐时翻牌免死，此后失去投票权（仍可发言）；"
        + ("再次被放逐则出局" if config.idiot_second_exile else "翻牌后不可再被投票")
        + "；被狼杀、被毒、被枪杀则正常出局"
        + _as_god(
            config,
            "；翻牌后仍算存活的神。",
            "；翻牌后不再算存活的神：他是最后一位神时，翻牌的那次投票即判狼人胜。",
            end="。",
        )
    )


def _as_god(config: GameConfig, counts: str, stops: str, *, end: str = ".") -> str:
    """Whether a revealed idiot counts as a god: it matters only under the side rule."""
    if config.idiot_counts_as_god:
        return counts
    return stops if config.win_rule is WinRule.SIDE else end


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.IDIOT,
        names=Names("idiot", "白痴"),
        team=Team.GOOD,
        god=True,
        order=5,
        rules=lambda config, lang: _rules_zh(config) if lang == "zh" else _rules_en(config),
        rules_rank=101,
        prompt="idiot",
    )
)
