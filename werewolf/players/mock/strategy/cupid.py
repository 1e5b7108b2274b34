"""Cupid: usually links himself with a seat of his choice (so the link gives his side a
player he can trust), sometimes two others; asked twice, once per lover."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["cupid_link"]


def cupid_link(turn: Turn) -> Answer:
    options = [s for s in turn.request.options if s is not None]
    if turn.context.get("first") is None and turn.me in options and turn.rng.random() < 0.6:
        return Choice(turn.me, reasoning=turn.think("cupid.self"))
    others = [s for s in options if s != turn.me] or options
    pick = turn.rng.choice(others)
    return Choice(pick, reasoning=turn.think("cupid.draw", a=pick))
