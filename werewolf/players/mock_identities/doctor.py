"""The mock doctor: the seer she believes; else herself on night 1 and now and then later;
else the seat she trusts most."""

from __future__ import annotations

from ...decisions import Answer, Choice
from ..mock import _Turn, good_suspicion

__all__ = ["protect"]


def protect(turn: _Turn) -> Answer:
    table, options = turn.table, turn.request.options
    night = int(turn.context.get("night", 1))
    sus, belief = good_suspicion(table, turn.temper, turn.rng)
    if belief.trusted is not None and belief.trusted in options:
        return Choice(belief.trusted, reasoning=f"protect seat {belief.trusted}, the seer")
    if table.me in options and (night == 1 or turn.rng.random() < 0.4):
        return Choice(table.me, reasoning="protect myself: a doctor is worth keeping")
    seats = [s for s in options if s is not None and s in sus.scores]
    if not seats:
        return Choice(options[0], reasoning="the only choice")
    trusted = min(seats, key=lambda s: (sus.scores[s], s))
    return Choice(trusted, reasoning=f"protect seat {trusted}, whom I trust most")
