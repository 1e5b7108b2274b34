"""Bidding for the floor (config ``discussion = "bidding"``): how much a seat wants to speak.

More before its first speech of the day; most for a seer with checks to tell, or for a
seat sure of a wolf; less, now and then, for a seat that already spoke.
"""

from __future__ import annotations

from ....cast import Identity
from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["floor_bid"]


def floor_bid(turn: Turn) -> Answer:
    spoken = int(turn.context.get("spoken", 0))
    level, why = (2, "bid.first") if spoken == 0 else (1, "bid.again")
    suspect = turn.mind.likeliest(turn.others_alive())
    if (
        suspect is not None
        and turn.mind.p(suspect) >= 0.8
        and turn.identity is not Identity.WEREWOLF
    ):
        level, why = level + 1, "bid.sure"
    if turn.identity is Identity.SEER and spoken == 0:
        level, why = 3, "bid.seer"
    if spoken and turn.rng.random() < 0.5:
        level, why = level - 1, "bid.yield"
    level = max(0, min(3, level))
    return Choice(level, reasoning=turn.think("bid", n=level, rest=turn.think(why, a=suspect)))
