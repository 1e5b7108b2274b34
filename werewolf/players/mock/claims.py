"""Whom to believe among seer claimers, from one seat's view: credibility and consistency.

A claimer the wolves killed at night (or went for, as the witch was told) is likely real;
one who called me (good) a wolf, or the
hunter who shot, or the wolves' own victim a wolf, is lying; so, likely, is one who calls a
publicly vouched seat a wolf; reports that fit the night kills count a little; a seer who
changes a report she already gave, or checked a seat already dead, is lying. In a duel,
who claimed first counts for nothing (but for a small edge on a board that elects a
sheriff): a claimer who spent a check on his rival after she claimed acts as a wolf does (a real seer knows her rival lies), the seats that stood
behind a claimer and then died at the wolves' hands, or were shown good or wolf, say
which side he is on, and where the evidence is thin each seat goes by its own impression
of the claimers (a careful reader's is mild), kept from day to day.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ...cast import Identity
from .table import Table

__all__ = ["SeerBelief", "claim_credibility", "seer_belief"]

_WEREWOLF, _SEER = Identity.WEREWOLF, Identity.SEER  # read once (a hook on Python 3.11)
# _died_before's answers: (id of the night deaths, id of the exiles) -> (both, the answer)
_GONE: dict[tuple[int, int], tuple[object, object, dict[int, int]]] = {}
_GONE_KEPT = 1024


class Gauss(Protocol):
    """A generator's ``gauss`` (a ``Random``, or ``gut.Impressions``)."""

    def gauss(self, mu: float, sigma: float) -> float: ...


@dataclass(frozen=True, slots=True)
class SeerBelief:
    """Which seer claimer a seat believes, how firmly (0..1), who lies, and why."""

    trusted: int | None
    confidence: float
    liars: tuple[int, ...]
    caught: dict[int, tuple[str, int | None]]  # liar -> (how he was caught, the seat involved)

    @property
    def outargued(self) -> frozenset[int]:
        """Liars caught in no lie: a rival's claim only fits the facts better."""
        return frozenset(c for c, (how, _) in self.caught.items() if how == "counter_claim")


class _Sight(NamedTuple):
    """What a seat judges seer claims by: found once for all the claimers of a belief."""

    mine: int  # my seat when I am good (a claimer who calls me a wolf lies), else -1
    killed: frozenset[int]  # the night victims
    checks: dict[int, bool]  # my own checks: seat -> wolf
    framed: Collection[int | None]  # the wolves' victims I was told of
    vouched: frozenset[int]  # seats the public has reason to think good


def _sight(table: Table, blind: bool) -> _Sight:
    if blind:  # a villager who knows nothing private
        return _Sight(-1, table.night_killed, {}, (), table.vouched)
    mine = table.me if table.identity is not _WEREWOLF else -1
    framed = table.told.values()
    killed = table.night_killed  # the witch knows her own poison was no wolves' victim
    killed = killed.difference(table.poisoned) if table.poisoned else killed
    return _Sight(mine, killed, table.my_checks_by_seat, framed, table.vouched)


def claim_credibility(
    table: Table, claimer: int, *, blind: bool = False
) -> tuple[float, tuple[str, int | None] | None]:
    """Points for a seer claim as this seat sees it, with the worst lie found (or None);
    ``blind``: as a villager who knows nothing private sees it (no checks, no potions)."""
    return _credibility(table, claimer, _sight(table, blind))


def _credibility(
    table: Table, claimer: int, sight: _Sight
) -> tuple[float, tuple[str, int | None] | None]:
    mine, killed, checks, framed, vouched = sight
    points = 3.0 if claimer in killed else 0.0
    caught: tuple[str, int | None] | None = None
    gone = _died_before(table) if table.night_deaths or table.exiled else {}
    if claimer in table.revealed:  # death showed the card: a good claimer is the seer
        if table.revealed[claimer]:
            return -20.0, ("revealed", None)
        points += 20.0
    if claimer in table.contradicted:  # two different results for one seat
        points -= 10.0
        caught = ("changed_report", None)
    if claimer in framed:  # the wolves' own victim was no wolf (the witch knows)
        points += 3.0
    for u in table.said(claimer) if gone else ():
        for night, seat, _ in u.said.reports:
            if night is not None and gone.get(seat, night + 1) <= night:
                points -= 10.0  # a seat already dead cannot be checked
                caught = ("dead_check", seat)
    for seat, wolf in table.reports.get(claimer, {}).items():
        if seat == mine:  # a fake seer seldom spends a good check on a good seat
            points += -10.0 if wolf else 2.0
            if wolf:
                caught = ("framed_me", mine)
        elif wolf and (seat == table.shooter or seat in framed):
            points -= 4.0
            caught = caught or ("framed_vouched", seat)
        elif wolf and seat in vouched:
            points -= 3.0
            caught = caught or ("framed_vouched", seat)
        elif seat in killed:
            points += -1.5 if wolf else 1.0
            if wolf:
                caught = caught or ("framed_victim", seat)
        elif seat in checks:
            agrees = checks[seat] == wolf
            points += 2.0 if agrees else -10.0
            if not agrees:
                caught = ("contradicts_me", seat)
    return points, caught


def _claim_day(table: Table, claimer: int) -> int:
    return table.claim_days.get(claimer, table.day)


def _died_before(table: Table) -> dict[int, int]:
    """Seat -> the first night it could no longer be checked: the night after its exile, or
    the night after the one it died in. Found once for the deaths as they stand (the
    reader's containers are never changed: news makes new ones, a few times a day)."""
    deaths, exiled = table.night_deaths, table.exiled
    key = (id(deaths), id(exiled))
    known = _GONE.get(key)
    if known is not None and known[0] is deaths and known[1] is exiled:
        return known[2]
    if len(_GONE) >= _GONE_KEPT:
        _GONE.clear()
    gone = _died_before_afresh(table)
    _GONE[key] = deaths, exiled, gone  # kept with the containers: their ids stay theirs
    return gone


def _died_before_afresh(table: Table) -> dict[int, int]:
    gone: dict[int, int] = {}
    for night, died in table.night_deaths.items():
        for seat in died:
            gone.setdefault(seat, night + 1)
    for day, seat in table.exiled.items():
        gone[seat] = min(gone.get(seat, day + 1), day + 1)
    return gone


def _election_edge(table: Table, claimers: list[int]) -> int | None:
    """On a board that elects a sheriff, the first of the claimers: a real seer runs to
    give her badge order (警徽流) at once and a jump against her is a reply, so the first
    claim keeps a small edge that the evidence outweighs. Without an election, who claimed
    first counts for nothing (a wolf who jumps first on day 1 gains nothing by it)."""
    if not table.election or len(claimers) < 2:
        return None
    first, second = (_claim_day(table, c) for c in claimers[:2])
    return claimers[0] if first <= second else None


def _duel(
    table: Table, claimer: int, rivals: list[int], killed: frozenset[int]
) -> tuple[float, tuple[str, int | None] | None]:
    """Points from the duel itself: a check on a rival made after the rival claimed, the
    fate of the seats that stood behind the claimer."""
    points, caught = 0.0, None
    claimed = {r: _claim_day(table, r) for r in rivals}
    for u in table.said(claimer):
        for night, seat, _ in u.said.reports:
            if seat in claimed and night is not None and night > claimed[seat]:
                points, caught = -2.0, ("checked_rival", seat)
    for seat in table.backers.get(claimer, ()):  # (each weight is exact: any order sums alike)
        shown = table.revealed.get(seat)
        if shown is not None:
            points += -4.0 if shown else 1.0
        elif seat in killed or seat == table.shooter or seat == table.idiot:
            points += 0.75  # the wolves killed, or the card cleared, a seat of his side
    return points, caught


def seer_belief(
    table: Table, gut: Gauss | None = None, spread: float = 0.0, *, blind: bool = False
) -> SeerBelief:
    """Trust a lone seer claim unless caught lying; between several, the best evidence
    (never the order of the claims, but for a small edge in an election), weighed with the
    seat's own impression of each claimer (``gut``, of sd ``spread`` points): where the
    evidence is thin, a table splits over two seers. ``blind``: the belief of a villager
    who knows nothing private (as ``claim_credibility``)."""
    if table.identity is _SEER and not blind:
        others = tuple(s for s in table.seer_claims if s != table.me)
        mine: dict[int, tuple[str, int | None]] = {s: ("claims_my_role", None) for s in others}
        return SeerBelief(table.me, 1.0, others, mine)
    me = 0 if blind else table.me
    claimers = sorted((s for s in table.seer_claims if s != me), key=lambda s: table.seer_claims[s])
    if not claimers:
        return SeerBelief(None, 0.0, (), {})
    rated: list[tuple[float, int, tuple[str, int | None] | None]] = []
    sight = _sight(table, blind)
    edge = _election_edge(table, claimers)
    for claimer in claimers:
        points, caught = _credibility(table, claimer, sight)
        points += 0.5 if claimer == edge else 0.0
        if len(claimers) > 1:
            rivals = [c for c in claimers if c != claimer]
            more, lie = _duel(table, claimer, rivals, sight.killed)
            points += more
            caught = caught or lie
        impression = gut.gauss(0.0, spread) if gut is not None and spread > 0 else 0.0
        rated.append((points + impression, claimer, caught))
    if len(rated) == 1:
        points, claimer, lie = rated[0]
        if points <= -4.0:  # a lone claimer caught lying
            return SeerBelief(None, 0.0, (claimer,), {claimer: lie or ("lies", None)})
        if points < 2.0 and _claim_day(table, claimer) == table.day and table.day <= 1:
            return SeerBelief(claimer, 0.6, (), {})  # not yet heard out: a rival may answer
        return SeerBelief(claimer, 0.9 if points < 2.0 else 1.0, (), {})
    rated.sort(key=lambda r: (-r[0], table.seer_claims[r[1]]))
    top, trusted, _ = rated[0]
    second = rated[1][0]
    confidence = min(1.0, 0.35 + 0.12 * (top - second))
    liars = tuple(c for _, c, _ in rated[1:])
    shown = trusted in table.revealed  # death showed her card: the rivals are proven liars
    lies = {
        c: why or ("rival_shown" if shown else "counter_claim", trusted) for _, c, why in rated[1:]
    }
    return SeerBelief(trusted, confidence, liars, lies)
