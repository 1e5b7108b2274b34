"""The guard: on night 1 he protects nobody (空守: a seat he guards and the witch saves would
die), later the seer he believes, else himself now and then, else the seat he trusts most."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["guard_protect"]


def guard_protect(turn: Turn) -> Answer:
    options = turn.request.options
    if int(turn.context.get("night", 1)) == 1 and None in options:
        return Choice(None, reasoning="night 1: nobody, so the witch's antidote cannot clash")
    trusted = turn.mind.seer.trusted
    if trusted is not None and trusted in options:
        return Choice(trusted, reasoning=f"protect seat {trusted}, the seer I believe")
    if turn.me in options and turn.rng.random() < 0.5:
        return Choice(turn.me, reasoning="protect myself: the wolves may have guessed me")
    return _most_trusted(turn, options)


def _most_trusted(turn: Turn, options: tuple[int | None, ...]) -> Answer:
    seats = [s for s in options if s is not None and s != turn.me]
    if not seats:
        pick = None if None in options else options[0]
        return Choice(pick, reasoning="no one else I may protect")
    trusted = min(seats, key=lambda s: (turn.mind.p(s), s))
    return Choice(trusted, reasoning=f"protect seat {trusted}: {turn.beliefs_note([trusted])}")
