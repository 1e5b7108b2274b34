"""The fate of each dead seat, in words: with its cause for the god (the fold's deaths),
as the viewer was told it otherwise (the entries' meanings). Every cause is worded by the
event that writes it (``EventSpec.causes``), so a new cause needs no edit here."""

from __future__ import annotations

from collections.abc import Iterable

from ..events import UNTOLD_KEY, cause_label, meaning_of
from ..state import GameState
from .views import Entry

__all__ = ["SEEN_DIED", "god_fates", "seen_deaths", "seen_fates"]


def god_fates(state: GameState, lang: str = "en") -> dict[int, str]:
    """Each dead seat's fate with its cause, from the god's-eye state (the fold's deaths)."""
    return {d.seat: cause_label(d.cause, lang).format(n=d.day) for d in state.deaths}


SEEN_DIED = UNTOLD_KEY
"""How a seat died as the table learned it, when only the dawn told: no cause."""


def seen_deaths(entries: Iterable[Entry]) -> dict[int, tuple[str, int]]:
    """Each dead seat's death as the viewer learned it, from the entries' meanings:
    ``(how, day)``, ``how`` being the cause the table was told (``exile``, ``shot``,
    ``heartbreak``, ...) or ``died`` (at night: no cause). An idiot who showed his card
    lives: no death."""
    deaths: dict[int, tuple[str, int]] = {}
    for e in entries:
        for seat, cause in meaning_of(e.phase, dict(e.diff), dict(e.detail)).deaths:
            deaths[seat] = (cause or SEEN_DIED, e.day)
    return deaths


def seen_fates(entries: Iterable[Entry], lang: str = "en") -> dict[int, str]:
    """Each dead seat's fate as the public learned it: when, and its cause when told."""
    deaths = seen_deaths(entries).items()
    return {seat: cause_label(how, lang).format(n=day) for seat, (how, day) in deaths}
