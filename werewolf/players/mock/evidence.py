"""Gathering the evidence a good seat sees, each piece a log-odds weight with its reason.

Reason kinds (rendered in words by the language modules):
``checked`` (my own check), ``liar`` (a seer claimer caught lying, ``role`` says how),
``trusted_seer``, ``seer_found`` / ``seer_cleared`` (the believed seer's reports),
``claims_my_role``, ``claims_role``, ``shooter``, ``wolves_target`` (the witch's knowledge),
``voted_seer``, ``shielded`` (voted away from the seer's wolf), ``voted_wolf``, ``voted_me``,
``accused_me``, ``attacks_seer``, ``attacks_cleared``, ``backs_liar``, ``accused_by``,
``revealed`` (death showed the card), ``wolf_vouched`` (a revealed wolf spoke up for the seat),
``victim_accused`` (a night victim's suspicion), ``night_victim``, ``quiet``, ``gut``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ...cast import Identity
from .claims import SeerBelief
from .gut import Gut
from .reasons import Weigher
from .table import Table
from .temper import Temper

__all__ = ["weigh"]

_NONE: dict[int, bool] = {}  # no reports (never written to)
# read once: on Python 3.11 an enum member read (or its value) passes a hook, and a belief
# reads them at every decision
_WEREWOLF = Identity.WEREWOLF
_ROLE_OF = {Identity.WITCH: "witch", Identity.HUNTER: "hunter"}  # the roles claimed below
_NOBODY: frozenset[int] = frozenset()


def weigh(
    table: Table, belief: SeerBelief, w: Weigher, temper: Temper, gut: Gut, *, me: int
) -> frozenset[int]:
    """Add every piece of evidence to ``w``; return the seats believed cleared."""
    seer = _seer_said(table, belief.trusted)
    cleared = _hard(table, belief, w, me, seer)
    _votes(table, belief, w, me, seer)
    _words(table, belief, w, temper, me, cleared, seer)
    w.add_feelings(gut.feelings)
    return frozenset(cleared)


class _SeerSaid(NamedTuple):
    """What the believed seer said, read in one pass over her words for the whole belief."""

    nights: dict[int, int]  # seat -> the night she first said she checked it (when named)
    named: list[tuple[int, int]]  # (when, seat): her wolf reports, in order
    cleared_at: dict[int, int]  # seat -> when she first cleared it in public


def _seer_said(table: Table, trusted: int | None) -> _SeerSaid:
    nights: dict[int, int] = {}
    named: list[tuple[int, int]] = []
    cleared_at: dict[int, int] = {}
    for u in table.said(trusted):
        for night, seat, wolf in u.said.reports:
            if night is not None:
                nights.setdefault(seat, night)
            if wolf:
                named.append((u.order, seat))
            else:
                cleared_at.setdefault(seat, u.order)
    return _SeerSaid(nights, named, cleared_at)


def _hard(table: Table, belief: SeerBelief, w: Weigher, me: int, seer: _SeerSaid) -> set[int]:
    cleared: set[int] = set()
    for night, (seat, wolf) in sorted(table.my_checks.items()):
        w.fix(seat, 1.0 if wolf else 0.0, "checked", night)
        if not wolf:
            cleared.add(seat)
    conf = belief.confidence
    for liar in belief.liars:
        how, other = belief.caught.get(liar, ("counter_claim", belief.trusted))
        w.add(liar, 3.0 + 3.0 * conf, "liar", other, role=how)
    trusted = belief.trusted
    if trusted is not None and trusted != me:
        w.add(trusted, -3.0 * conf, "trusted_seer")
        nights = seer.nights
        for seat, wolf in table.reports.get(trusted, {}).items():
            night = nights.get(seat, 0)
            if wolf:
                w.add(seat, 4.5 * conf, "seer_found", trusted, night)
            else:
                w.add(seat, -3.0 * conf, "seer_cleared", trusted, night)
                if conf >= 0.6:
                    cleared.add(seat)
    if me:
        for night, told in table.told.items():
            if told is not None and told != me:
                w.add(told, -2.5, "wolves_target", None, night, public=False)
    my_role = _ROLE_OF.get(table.identity, "") if me else ""
    for role in ("witch", "hunter"):
        claimers = table.role_claims.get(role, ())
        if role == my_role:
            for claimer in claimers:
                w.add(claimer, 6.0, "claims_my_role", role=role)
        elif len(claimers) == 1:
            w.add(claimers[0], -1.2, "claims_role", role=role)
    for seat, wolf in table.revealed.items():  # death showed the card
        w.fix(seat, 1.0 if wolf else 0.0, "revealed")
    if table.shooter is not None:
        w.fix(table.shooter, 0.0, "shooter")
        cleared.add(table.shooter)
    mine = table.poisoned  # the witch's own poison victims: no sign of a good seat
    for night, died in table.night_deaths.items():
        for seat in died:
            if mine and seat in mine:
                continue
            w.add(seat, -2.5 if len(died) == 1 else -1.2, "night_victim", None, night)
    return cleared


def _votes(table: Table, belief: SeerBelief, w: Weigher, me: int, seer: _SeerSaid) -> None:
    trusted, conf = belief.trusted, belief.confidence
    good_me = me and table.identity is not _WEREWOLF
    add = w.add
    if trusted is None:  # no seer believed: of the ballots, only those against me weigh
        if good_me:
            for b in table.ballots:
                if b.target == me and b.voter != me:
                    add(b.voter, 0.4, "voted_me", None, b.day)
        return
    named = seer.named  # (when, seat): the believed seer's wolf reports
    living: dict[int, frozenset[int]] = {}  # a vote's ballots (one order) -> its wolves
    for b in table.ballots:
        voter, target = b.voter, b.target
        if target is None or voter == me:
            continue
        # the seer's living wolves when the ballot was cast
        wolves = living.get(b.order) if named else _NOBODY
        if wolves is None:
            wolves = living[b.order] = _named_alive(table, named, b.day, b.order)
        if target == trusted:
            add(voter, 1.2 * conf, "voted_seer", trusted, b.day)
        elif target in wolves:
            add(voter, -0.4 * conf, "voted_wolf", target, b.day)
        elif wolves and voter not in wolves and b.round == 1:
            add(voter, 0.7 * conf, "shielded", min(wolves), b.day)
        if target == me and good_me:
            add(voter, 0.4, "voted_me", None, b.day)


def _named_alive(
    table: Table, named: list[tuple[int, int]], day: int, order: int
) -> frozenset[int]:
    """The seats the seer named wolves before ``order`` that were not gone by ``day``'s vote."""
    gone = {s for d, s in table.exiled.items() if d < day}
    gone.update(s for d, died in table.night_deaths.items() if d <= day for s in died)
    return frozenset(seat for when, seat in named if when < order and seat not in gone)


def _words(
    table: Table,
    belief: SeerBelief,
    w: Weigher,
    temper: Temper,
    me: int,
    cleared: set[int],
    seer: _SeerSaid,
) -> None:
    trusted, conf = belief.trusted, belief.confidence
    standing = dict(w.logit)  # the hard evidence: how far each speaker is trusted
    since = table.seer_claims.get(trusted) if trusted is not None else None
    victims = table.night_killed
    cleared_at = seer.cleared_at  # seat -> when the believed seer cleared it in public
    good_me = me and table.identity is not _WEREWOLF
    revealed, reports, alive, liars = table.revealed, table.reports, table.alive, belief.liars
    follow, today, add = temper.follow, table.day, w.add
    creds: dict[int, float] = {}  # speaker -> how far he is trusted (standing is fixed)
    for u in table.utterances:  # the lookups are made only for what an utterance says
        speaker = u.speaker
        if speaker == me:
            continue
        said = u.said
        # a wolf shown by death: whom he vouched for is suspect
        if revealed and revealed.get(speaker):
            for seat in said.trusts:
                add(seat, 0.8, "wolf_vouched", speaker, u.day)
            continue
        accuses = said.accuses
        if accuses:
            reported = reports.get(speaker, _NONE)
            for seat in accuses:
                if seat == speaker or (seat in reported and seat != me):
                    continue  # a seer claimer's report is weighed with the claim, not twice
                if seat == me and good_me:
                    add(speaker, 0.7, "accused_me", None, u.day)
                elif seat == trusted and since is not None and since < u.order:
                    add(speaker, 0.9 * conf, "attacks_seer", seat, u.day)
                elif cleared_at and cleared_at.get(seat, u.order) < u.order:
                    add(speaker, 0.6, "attacks_cleared", seat, u.day)
                elif seat in cleared or seat == trusted:
                    continue  # said before the claim or the check was known: it proves nothing
                elif speaker in victims:
                    add(seat, 0.8 * follow, "victim_accused", speaker, u.day)
                else:
                    cred = creds.get(speaker)
                    if cred is None:
                        trust = 2.0 / (1.0 + math.exp(standing.get(speaker, 0.0)))
                        cred = creds[speaker] = min(1.5, max(0.2, trust))
                    recent = 1.0 if u.day >= today else 0.5
                    add(seat, 0.45 * follow * cred * recent, "accused_by", speaker, u.day)
        if since is not None and said.trusts:
            for seat in said.trusts:
                if seat in liars and u.order > since:
                    add(speaker, 1.0, "backs_liar", seat, u.day)
        quiet = not accuses and u.day >= 2 and not u.last_words and not said.roles
        if quiet and speaker in alive:
            add(speaker, 0.25, "quiet", None, u.day)
