"""The table: what a seat has gathered from its own view, and nothing else.

A ``Table`` holds the public claims, reports, accusations, votes, deaths and last words as
this seat heard them, and its private knowledge (its checks, its potions, the wolves' night
plan); ``reader.read_table(view)`` makes one. Beliefs are built on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cast import Identity
from .grammar import Said

__all__ = ["Ballot", "Table", "Utterance"]


@dataclass(frozen=True, slots=True)
class Utterance:
    """One speech, last words or PK speech, as heard."""

    order: int  # position among the seat's observations
    day: int
    speaker: int
    said: Said
    text: str = ""
    last_words: bool = False


@dataclass(frozen=True, slots=True)
class Ballot:
    day: int
    round: int
    voter: int
    target: int | None
    order: int = 0  # position among the seat's observations


# made by the thousand: not frozen (a frozen init sets each field through
# object.__setattr__, several times the cost); never written to once made
@dataclass(slots=True, unsafe_hash=True)
class Table:
    """What a seat has gathered from its view: public claims, reports, accusations and
    votes, and its private knowledge (checks, potions, the wolves' plan)."""

    me: int
    identity: Identity
    wolves: tuple[int, ...]  # fellow wolves (all wolf seats), for a wolf only
    alive: tuple[int, ...]
    day: int  # the day (or night) of the latest observation
    utterances: tuple[Utterance, ...]
    seer_claims: dict[int, int]  # seat -> order of its first seer claim
    role_claims: dict[str, tuple[int, ...]]  # "witch"/"hunter" -> claimers
    reports: dict[int, dict[int, bool]]  # seer claimer -> seat -> wolf
    report_nights: dict[int, frozenset[int]]  # seer claimer -> nights already reported
    night_deaths: dict[int, tuple[int, ...]]  # night -> seats found dead at its dawn
    exiled: dict[int, int]  # day -> exiled seat
    ballots: tuple[Ballot, ...]
    shooter: int | None  # the hunter, once he has shot in public
    shot: int | None  # whom he shot
    my_checks: dict[int, tuple[int, bool]]  # seer: night -> (seat, wolf)
    told: dict[int, int | None]  # witch: night -> the wolves' victim she was told
    saved: tuple[int, ...]  # witch: seats she saved
    poisoned: tuple[int, ...]  # witch: seats she poisoned
    fake_seer: int | None  # wolves: the teammate planned to claim seer
    seat_count: int
    wolf_count: int  # wolves in the deck
    deck: tuple[Identity, ...] = ()  # every identity dealt (whom a quiet night points to)
    knifed: dict[int, int | None] = field(default_factory=dict)  # wolves: night -> our target
    shield_repeats: bool = False  # a doctor or guard in the deck may protect a seat every night
    revealed: dict[int, bool] = field(default_factory=dict)  # a dead seat shown: -> a wolf
    death_shows: bool = False  # death shows the team or the card (config reveal_on_death)
    seer_dead: bool = False  # death showed the seer's card: no seer report will come
    partner: int | None = None  # my lover, when the lovers' night told me of one
    idiot: int | None = None  # the seat that showed the idiot card at an exile
    election: bool = False  # the board elects a sheriff (seer claims made running for it)
    # speaker -> his utterances in order (decisions scan one seat's words, often)
    said_by: dict[int, tuple[Utterance, ...]] = field(default_factory=dict)
    # what the reader found in the utterances as they came, so beliefs need not scan them
    # again at every decision: seer claimer -> the day of the claim; -> the seats that spoke
    # up for him after it; the seats that gave two results for one seat
    claim_days: dict[int, int] = field(default_factory=dict)
    backers: dict[int, frozenset[int]] = field(default_factory=dict)
    contradicted: frozenset[int] = frozenset()
    # the seats found dead at any dawn: derived once (beliefs read it several times)
    night_killed: frozenset[int] = field(init=False, repr=False, compare=False)
    _vouched: frozenset[int] | None = field(default=None, init=False, repr=False, compare=False)
    # the dead this seat knows the wolves killed (``nights.sure_knifed``), found when first read
    sure_knifed_: frozenset[int] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        killed = frozenset(s for seats in self.night_deaths.values() for s in seats)
        self.night_killed = killed

    def is_alive(self, seat: int) -> bool:
        return seat in self.alive

    @property
    def vouched(self) -> frozenset[int]:
        """Seats the public has reason to think good: the hunter who shot, a lone witch or
        hunter claimer, and the seats a lone witch claimer says she saved (found once: each
        seer claim is checked against them)."""
        if self._vouched is None:
            self._vouched = self._find_vouched()
        return self._vouched

    def _find_vouched(self) -> frozenset[int]:
        seats = {self.shooter} if self.shooter is not None else set()
        for role in ("witch", "hunter"):
            if len(self.role_claims.get(role, ())) == 1:
                seats.add(self.role_claims[role][0])
        witches = self.role_claims.get("witch", ())
        if len(witches) == 1:
            for u in self.said(witches[0]):
                seats.update(u.said.saved)
        return frozenset(s for s in seats if s is not None)

    @property
    def blocked(self) -> dict[int, int]:
        """Wolves: the seats our knife reached that lived (protected or saved), with how
        many times."""
        found: dict[int, int] = {}
        for night, target in self.knifed.items():
            lived = night in self.night_deaths and target not in self.night_deaths[night]
            if target is not None and lived:
                found[target] = found.get(target, 0) + 1
        return found

    @property
    def my_checks_by_seat(self) -> dict[int, bool]:
        """The seer's own checks: seat -> wolf."""
        return {seat: wolf for seat, wolf in self.my_checks.values()}

    def claims_seer(self, seat: int) -> bool:
        return seat in self.seer_claims

    def said(self, seat: int | None) -> tuple[Utterance, ...]:
        """The utterances of ``seat``, in order (those of ``utterances`` it spoke); none
        for no seat."""
        return () if seat is None else self.said_by.get(seat, ())

    def spoken(self, seat: int, day: int | None = None) -> bool:
        """True when ``seat`` has spoken (on ``day``, or ever): only then can its words count."""
        return any(day is None or u.day == day for u in self.said(seat))

    def my_texts(self) -> list[str]:
        """Everything this seat has said in public so far."""
        return [u.text for u in self.said(self.me)]

    def my_texts_today(self) -> list[str]:
        """What this seat has said in public today."""
        return [u.text for u in self.said(self.me) if u.day == self.day]

    def accusations(self, seat: int, *, since_day: int = 0) -> list[Utterance]:
        """Speeches since ``since_day`` that accused ``seat``."""
        return [u for u in self.utterances if u.day >= since_day and seat in u.said.accuses]
