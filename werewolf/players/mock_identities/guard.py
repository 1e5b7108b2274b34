"""The mock guard: on night 1 he protects nobody (空守: a guarded seat the witch also saves
would die), later the seer he believes, else himself, else the seat he trusts most."""

from __future__ import annotations

from ...decisions import Answer, Choice
from ..mock import _Turn, good_suspicion

__all__ = ["protect"]


def protect(turn: _Turn) -> Answer:
    options = turn.request.options
    night = int(turn.context.get("night", 1))
    if night == 1 and None in options:
        return Choice(None, reasoning="night 1: nobody, so the witch's antidote cannot clash")
    return Choice(*_protection(turn, options))


def _protection(turn: _Turn, options: tuple[int | None, ...]) -> tuple[int | None, str]:
    table = turn.table
    sus, belief = good_suspicion(table, turn.temper, turn.rng)
    if belief.trusted is not None and belief.trusted in options:
        return belief.trusted, f"protect seat {belief.trusted}, the seer I believe"
    if table.me in options and turn.rng.random() < 0.5:
        return table.me, "protect myself: the wolves may have guessed me"
    seats = [s for s in options if s is not None and s in sus.scores]
    if not seats:
        return (None, "nobody I may protect") if None in options else (options[0], "no choice")
    trusted = min(seats, key=lambda s: (sus.scores[s], s))
    return trusted, f"protect seat {trusted}, whom I trust most"
