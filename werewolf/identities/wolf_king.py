"""The wolf king (狼王): a wolf who, when he dies by any cause but the poison, may shoot one
living player, as the hunter does. He plays the wolves' night and day as any wolf; his
shot is the hunter's phase (``hunter-shot``, the one phase of every ``registry.Shot``),
asked as his own decision (``wolf-king``) and written with his card."""

from __future__ import annotations

from ..cast import Identity, Team
from ..config import GameConfig
from ..decisions import DecisionKind
from ..registry import DecisionSpec, IdentitySpec, Names, Shot, register_identity
from ..state import Cause, GameState

__all__ = ["SPEC", "shoots"]


def shoots(state: GameState, cause: str) -> bool:
    """Any death but the poison gives him his shot (exiled, killed, self-destructed, shot)."""
    return cause != Cause.POISON


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        return (
            "狼王：狼人阵营，夜里与狼人一同行动；除被毒死外，以任何方式出局（被放逐、被刀、"
            "自爆、被枪、决斗）都可以开枪带走一名存活玩家；死亡已决定胜负时不能开枪。"
        )
    return (
        "Wolf king: a wolf, who acts with the wolves at night; when he dies by any cause but "
        "the poison (exiled, killed, self-destructed, shot, dueled) he may shoot one living "
        "player; not when his death already decided the game."
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.WOLF_KING,
        names=Names("wolf king", "狼王"),
        team=Team.WOLVES,
        god=False,
        order=9,
        decisions=(
            DecisionSpec(
                DecisionKind.WOLF_KING,
                "wolf_king_shot",
                "werewolf.players.mock.strategy.wolf_kings:wolf_king_shot",
                tool_rank=91,
            ),
        ),
        rules=rules,
        rules_rank=105,
        prompt="wolf-king",
        shot=Shot(shoots, DecisionKind.WOLF_KING, Cause.KING_SHOT),
    )
)
