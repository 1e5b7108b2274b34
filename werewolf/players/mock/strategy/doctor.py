"""The doctor: the seer she believes; else herself on night 1 and now and then later; else
the seat she trusts most."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn
from .guard import _most_trusted

__all__ = ["doctor_protect"]


def doctor_protect(turn: Turn) -> Answer:
    options = turn.request.options
    trusted = turn.mind.seer.trusted
    if trusted is not None and trusted in options:
        return Choice(trusted, reasoning=turn.think("protect.seer", a=trusted))
    night = int(turn.context.get("night", 1))
    if turn.me in options and (night == 1 or turn.rng.random() < 0.4):
        return Choice(turn.me, reasoning=turn.think("protect.self.doctor"))
    return _most_trusted(turn, options)
