"""Beliefs: a probability per seat of being a wolf, from one seat's view, with the evidence.

``infer(table, temper, gut)`` weighs what the seat has seen, each piece as a log-likelihood
ratio on one seat with the reason behind it (a ``Reason``, rendered later in words):
claims and counter-claims (``claims.seer_belief``), the believed seer's reports, votes (for
the seer, away from the seer's wolf, against me), deaths (a night victim is likely good, the
witch's saved seat was the wolves' choice), the accusations heard (as far as the accuser is
trusted; a night victim's count double), role claims, and a small gut feeling per day. The
odds are then scaled so the expected number of wolves among the other seats (living and
dead) is the deck's. A wolf knows the pack: its ``Mind`` is certain, and ``public`` is what
an ordinary villager would believe from the same public record (how exposed each wolf is).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from random import Random

from ...cast import Identity
from .claims import SeerBelief, seer_belief
from .evidence import weigh
from .gut import Gut
from .reasons import Evidence, Found, Reason, Weigher, evidence_of
from .scaling import scaled
from .table import Table
from .temper import Temper

__all__ = ["Evidence", "Mind", "Reason", "infer", "public_mind"]

# public_mind's answers: (size of the record, its last pieces, temper) -> (record, mind)
_PUBLIC: dict[tuple[object, ...], tuple[tuple[object, ...], Mind]] = {}
_WEREWOLF = Identity.WEREWOLF  # read once: on Python 3.11 an enum member read passes a hook
# kept few (each mind holds its evidence: the fewer alive, the less the collector walks) and
# the oldest dropped one at a time (emptying the store at once freed dozens of minds in one
# decision); the wolves of a game ask together, so a few dozen find them all
_PUBLIC_KEPT = 64


@dataclass
class Mind:
    """One seat's beliefs: P(wolf) for every other seat, and the evidence behind them
    (``found``, as the weigher kept it; ``evidence`` makes it into objects once read)."""

    me: int
    alive: tuple[int, ...]
    probs: dict[int, float]
    found: list[Found] = field(default_factory=list)
    seer: SeerBelief = field(default_factory=lambda: SeerBelief(None, 0.0, (), {}))
    cleared: frozenset[int] = frozenset()  # seats the believed seer (or I) found good

    @cached_property
    def evidence(self) -> list[Evidence]:
        return evidence_of(self.found)

    def p(self, seat: int) -> float:
        return self.probs.get(seat, 0.0)

    def wolf_probabilities(self) -> dict[int, float]:
        """P(wolf) of every living other seat, e.g. for a belief report with a vote."""
        return {s: round(self.probs[s], 3) for s in self.alive if s != self.me and s in self.probs}

    def likeliest(self, options: Iterable[int | None], exclude: Iterable[int] = ()) -> int | None:
        """The most likely wolf among ``options`` (lowest seat on a tie), or None."""
        barred = set(exclude)
        seats = [s for s in options if s is not None and s in self.probs and s not in barred]
        return max(seats, key=lambda s: (self.probs[s], -s)) if seats else None

    def reasons(self, seat: int, *, public: bool = True) -> list[Evidence]:
        """The evidence against ``seat``, strongest first (public only unless asked)."""
        found = [f for f in self.found if f[0] == seat and f[1] > 0 and (f[6] or not public)]
        return sorted(evidence_of(found), key=lambda e: -e.weight)

    def has_reasons(self, seat: int) -> bool:
        """``bool(reasons(seat))``, without making the evidence objects."""
        return any(f[0] == seat and f[1] > 0 and f[6] for f in self.found)

    def case(self, seat: int) -> float:
        """The weight of the evidence against ``seat``, gut feeling left out: how much of
        its probability rests on something that happened."""
        return sum(f[1] for f in self.found if f[0] == seat and f[1] > 0 and f[2] != "gut")

    def support(self, seat: int) -> list[Evidence]:
        """The evidence that ``seat`` is good, strongest first."""
        found = [f for f in self.found if f[0] == seat and f[1] < 0]
        return sorted(evidence_of(found), key=lambda e: e.weight)


def infer(table: Table, temper: Temper, gut: Random | Gut, *, public: bool = False) -> Mind:
    """The beliefs of ``table.me`` (``public``: of an ordinary villager with only the public
    record, as the wolves imagine the table; then every seat, even mine, is weighed). The
    day's gut feeling is drawn from ``gut``, or given drawn (see ``Gut``)."""
    me = 0 if public else table.me
    others = _others(table.seat_count, me)
    w = Weigher(others)
    if not public and table.identity is _WEREWOLF:
        for s in others:
            w.fix(s, 1.0 if s in table.wolves else 0.0, "pack")
        probs = {s: w.fixed[s] for s in others}
        return Mind(me, table.alive, probs, w.found)
    if isinstance(gut, Random):
        gut = Gut.draw(gut, len(others), temper.noise)
    if public:
        belief = seer_belief(table, blind=True)
    else:  # no seer claim, no impression to draw: the duel's generator is not made
        duel = gut.impressions() if table.seer_claims else None
        belief = seer_belief(table, duel, temper.noise)
    cleared = weigh(table, belief, w, temper, gut, me=me)
    probs = scaled(w.logit, w.fixed, float(table.wolf_count))
    return Mind(me, table.alive, probs, w.found, belief, cleared)


@cache
def _others(seats: int, me: int) -> tuple[int, ...]:
    """The seats a belief weighs: every seat but mine (none is 0), in seat order."""
    return tuple(s for s in range(1, seats + 1) if s != me)


def public_mind(table: Table, temper: Temper) -> Mind:
    """``infer(table, temper, Gut.calm(seats), public=True)``: what an ordinary villager
    believes from the public record. A game's wolves ask it of the same record at once (a
    vote, the night), each from its own table: the mind of an equal record is made once.
    The record is compared whole, so a mind is reused only where ``infer`` would read
    exactly the same; the slot only narrows the search (the last pieces are shared objects
    where the reader shares them)."""
    record = _public_record(table)
    said, cast = table.utterances, table.ballots
    last = (id(said[-1]) if said else 0, id(cast[-1]) if cast else 0)
    slot = (len(said), len(cast), *last, table.day, table.alive, temper)
    known = _PUBLIC.get(slot)
    if known is not None and known[0] == record:
        return known[1]
    mind = infer(table, temper, Gut.calm(table.seat_count), public=True)
    if len(_PUBLIC) >= _PUBLIC_KEPT:
        del _PUBLIC[next(iter(_PUBLIC))]
    _PUBLIC[slot] = record, mind
    return mind


def _public_record(table: Table) -> tuple[object, ...]:
    """Every field of ``table`` that ``infer(..., public=True)`` reads."""
    return (
        table.utterances,
        table.said_by,
        table.ballots,
        table.seer_claims,
        table.role_claims,
        table.reports,
        table.night_deaths,
        table.exiled,
        table.shooter,
        table.revealed,
        table.my_checks,  # weighed whoever asks (a wolf has none)
        table.alive,
        table.day,
        table.seat_count,
        table.wolf_count,
    )
