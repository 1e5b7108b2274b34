"""The mock cupid: usually links himself with a seat of his choice (so the link gives his
side a player he can trust), sometimes two others; asked twice, once per lover."""

from __future__ import annotations

from ...decisions import Answer, Choice
from ..mock import _Turn

__all__ = ["link"]


def link(turn: _Turn) -> Answer:
    options = [s for s in turn.request.options if s is not None]
    me = turn.table.me
    first = turn.context.get("first")
    if first is None and me in options and turn.rng.random() < 0.6:
        return Choice(me, reasoning="I link myself: one lover I can be sure of")
    others = [s for s in options if s != me] or options
    pick = turn.rng.choice(others)
    return Choice(pick, reasoning=f"seat {pick} as a lover: a draw, I know nothing yet")
