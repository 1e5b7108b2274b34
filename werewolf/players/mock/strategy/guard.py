"""The guard: on night 1 he protects nobody (空守: a seat he guards and the witch saves would
die), later the seer he believes, else himself now and then, else the seat he trusts most."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["guard_protect"]


def guard_protect(turn: Turn) -> Answer:
    options = turn.request.options
    if int(turn.context.get("night", 1)) == 1 and None in options:
        return Choice(None, reasoning=turn.think("guard.empty"))
    trusted = turn.mind.seer.trusted
    if trusted is not None and trusted in options:
        return Choice(trusted, reasoning=turn.think("protect.seer", a=trusted))
    if turn.me in options and turn.rng.random() < 0.5:
        return Choice(turn.me, reasoning=turn.think("protect.self.guard"))
    return _most_trusted(turn, options)


def _most_trusted(turn: Turn, options: tuple[int | None, ...]) -> Answer:
    seats = [s for s in options if s is not None and s != turn.me]
    if not seats:
        pick = None if None in options else options[0]
        return Choice(pick, reasoning=turn.think("protect.nobody"))
    trusted = min(seats, key=lambda s: (turn.mind.p(s), s))
    why = turn.think("protect.trusted", a=trusted, rest=turn.beliefs_note([trusted]))
    return Choice(trusted, reasoning=why)
