"""Reading the nights from one seat's view: which deaths were surely the wolves' knife.

A dawn tells who died, not how. Two deaths in a night mean one was poisoned (or died of a
lover's heartbreak); even a lone death may be the witch's poison on a night the guard or the
doctor kept the wolves' target alive. So a seat says "the wolves killed X" only when it
knows: a wolf knows the pack's target, the witch knows her own poison, and the table knows
a death was the knife's when no poison could have been used that night (no witch in the
deck, her poison already accounted for, or the first night, when a witch has no case to
poison on) and no heartbreak could have come with it.

``plain(lines, table)`` words what a seat is not sure of without the wolves: a speech
that would say the wolves killed a seat it does not know they killed says the seat died.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cast import Identity
from .lang import Line
from .table import Table

__all__ = ["peaceful_key", "plain", "poisoned_known", "sure_knifed"]

# phrase keys that say the wolves killed a seat, and how to say it without the wolves
_NEUTRAL = {
    "open.victims": "open.died",
    "r2.start.victim": "r2.start.votes",
    "why.liar.framed_victim": "why.liar.framed_dead",
    "why.victim_accused": "why.dead_accused",
}


def poisoned_known(table: Table) -> tuple[frozenset[int], int | None]:
    """The seats this seat knows were poisoned, and the day the poison was known spent
    (None: not known). The witch knows her own; the table knows what a lone witch
    claimer said she poisoned."""
    seats = set(table.poisoned)
    spent: int | None = None
    if table.poisoned:
        spent = 0
    witches = table.role_claims.get("witch", ())
    if len(witches) == 1 and witches[0] != table.me:
        for u in table.said(witches[0]):
            if u.said.poisoned:
                seats.update(u.said.poisoned)
                spent = u.day if spent is None else min(spent, u.day)
    return frozenset(seats), spent


def sure_knifed(table: Table) -> frozenset[int]:
    """The night's dead this seat knows the wolves killed (found once per table)."""
    if table.sure_knifed_ is None:
        table.sure_knifed_ = _find(table)
    return table.sure_knifed_


def _find(table: Table) -> frozenset[int]:
    if table.identity is Identity.WEREWOLF:
        return frozenset(
            seat
            for night, died in table.night_deaths.items()
            for seat in died
            if table.knifed.get(night) == seat
        )
    deck = table.deck
    witch_in_deck = Identity.WITCH in deck
    hearts = Identity.CUPID in deck  # a lover dies with the other: not the knife
    poisoned, spent = poisoned_known(table)
    i_am_witch = table.identity is Identity.WITCH
    sure: set[int] = set()
    for night, died in table.night_deaths.items():
        left = [s for s in died if s not in poisoned]
        if len(left) != 1 or (hearts and len(died) > 1):
            continue  # two unexplained deaths, or one that may be a lover's
        if i_am_witch or len(left) < len(died) or not witch_in_deck:
            sure.add(left[0])  # the witch knows her nights; a known poison explains the other
        elif night == 1 or (spent is not None and spent < night):
            sure.add(left[0])
    return frozenset(sure)


def plain(lines: Sequence[Line], table: Table) -> list[Line]:
    """``lines``, each that would say the wolves killed a seat this seat is not sure they
    killed said without the wolves."""
    out = list(lines)
    for i, line in enumerate(out):
        neutral = _NEUTRAL.get(line.key)
        if neutral is None:
            continue
        seats = line.seats if line.key in ("open.victims", "r2.start.victim") else (line.b,)
        if all(seat in sure_knifed(table) for seat in seats):
            continue
        if line.key == "open.victims" and len(line.seats) > 1 and _one_poisoned(table):
            neutral = "open.two_deaths"
        out[i] = Line(neutral, line.a, line.b, line.n, line.role, line.seats)
    return out


def _one_poisoned(table: Table) -> bool:
    """Two died tonight and only the poison can explain the second (no lovers), as a seat
    other than the witch says it (she does not speak of her own poison as another's)."""
    deck = table.deck
    mine = table.identity is Identity.WITCH
    return Identity.WITCH in deck and Identity.CUPID not in deck and not mine


def peaceful_key(table: Table) -> str:
    """How a seat words a night nobody died: the antidote, a protector, or either."""
    deck = table.deck
    shield = Identity.GUARD in deck or Identity.DOCTOR in deck
    if Identity.WITCH not in deck or table.identity is Identity.WITCH:  # not "the witch" of herself
        return "open.protected"
    if not shield:
        return "open.peaceful"
    return "open.quiet"  # the guard's or the doctor's night as much as the antidote's
