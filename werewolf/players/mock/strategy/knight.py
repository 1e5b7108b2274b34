"""The knight: from day 2 he duels the seat he most believes a wolf, when he is sure enough
(a seer he trusts named it, or the table's case is strong); else he speaks."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["knight_duel"]

SURE = 0.8  # how likely a wolf the seat must seem to stake the knight's life on it

_WHY = {
    "duel": ("duel seat {a}: {p:.0%} a wolf", "与{a}号决斗：{p:.0%}是狼"),
    "wait": ("no duel yet: nobody is sure enough", "暂不决斗：没有足够把握"),
}


def knight_duel(turn: Turn) -> Answer:
    zh = turn.lang == "zh"
    seats = [s for s in turn.request.options if s is not None]
    if seats and int(turn.context.get("day", 1)) >= 2:
        suspect = max(seats, key=lambda s: (turn.mind.p(s), -s))
        p = turn.mind.p(suspect)
        if p >= SURE:
            return Choice(suspect, reasoning=_WHY["duel"][zh].format(a=suspect, p=p))
    return Choice(None, reasoning=_WHY["wait"][zh])
