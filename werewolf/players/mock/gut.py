"""A seat's gut feeling of a day: what ``infer`` draws from the day's generator.

Beliefs draw, from ``decision_rng(seed, seat, "gut.d<day>")``, one number (the seed of the
seat's impressions of seer claimers) and then one feeling per weighed seat, in seat order.
Every belief of the day draws the same, so a player draws them once a day (``Gut.draw``)
and hands the same ``Gut`` to each belief: the numbers a fresh generator would give. The
impressions too: each belief reads them from a fresh ``Random(duel)``, so they are drawn
once and read again from the first by each belief (``Gut.impressions``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

__all__ = ["Gut", "Impressions"]


class Impressions:
    """``Random(seed).gauss`` for one belief, from draws kept for the seed: the i-th call
    gives what the i-th call of a fresh generator gives (a generator per (mu, sigma): a
    belief draws at one spread, and ``gauss`` draws the same numbers for each pair)."""

    __slots__ = ("_drawn", "_next", "_seed")

    def __init__(self, seed: float, drawn: dict[tuple[float, float], tuple[Random, list[float]]]):
        self._seed, self._drawn, self._next = seed, drawn, 0

    def gauss(self, mu: float, sigma: float) -> float:
        kept = self._drawn.get((mu, sigma))
        if kept is None:
            kept = self._drawn[(mu, sigma)] = (Random(self._seed), [])
        rng, values = kept
        while len(values) <= self._next:
            values.append(rng.gauss(mu, sigma))
        self._next += 1
        return values[self._next - 1]


@dataclass(frozen=True, slots=True)
class Gut:
    duel: float  # seeds the generator of the seat's impressions of seer claimers
    feelings: tuple[float, ...]  # log-odds, one per weighed seat in seat order
    _drawn: dict[tuple[float, float], tuple[Random, list[float]]] = field(
        default_factory=dict, compare=False, repr=False
    )  # the impressions drawn so far

    def impressions(self) -> Impressions:
        """What ``Random(self.duel)`` gives a belief, drawn once for all of them."""
        return Impressions(self.duel, self._drawn)

    @classmethod
    def draw(cls, rng: Random, seats: int, noise: float) -> Gut:
        """The draws of a fresh ``rng`` for ``seats`` seats at spread ``noise``."""
        duel = rng.random()
        return cls(duel, tuple([rng.gauss(0.0, noise) for _ in range(seats)]))

    @classmethod
    def calm(cls, seats: int) -> Gut:
        """No gut feeling (spread 0), and no impressions to seed: what a fresh generator
        gives at spread 0 (a feeling of 0 adds nothing), without drawing."""
        return cls(0.0, (0.0,) * seats)
