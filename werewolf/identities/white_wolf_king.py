"""The white wolf king (白狼王): a wolf who may self-destruct by day (config
``self_destruct``) and take one living player with him; he has no other shot. He plays the
wolves' night and day as any wolf; his self-destruct is every wolf's (offered in his day
speech, ``rules.destruct_options``), with seats to take (``destruct_takes``)."""

from __future__ import annotations

from ..cast import Identity, Team
from ..config import GameConfig
from ..registry import IdentitySpec, Names, register_identity

__all__ = ["SPEC"]


def rules(config: GameConfig, lang: str) -> str:
    if lang == "zh":
        return (
            "白狼王：狼人阵营，夜里与狼人一同行动；白天发言时可以自爆并带走一名存活玩家；"
            "没有其他开枪能力。"
        )
    return (
        "White wolf king: a wolf, who acts with the wolves at night; by day, in place of a "
        "speech, he may self-destruct and take one living player with him; he has no other shot."
    )


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.WHITE_WOLF_KING,
        names=Names("white wolf king", "白狼王"),
        team=Team.WOLVES,
        god=False,
        order=10,
        rules=rules,
        rules_rank=106,
        prompt="white-wolf-king",
        destruct_takes=True,
    )
)
