"""A seat's gut feeling of a day: what ``infer`` draws from the day's generator.

Beliefs draw, from ``decision_rng(seed, seat, "gut.d<day>")``, one number (the seed of the
seat's impressions of seer claimers) and then one feeling per weighed seat, in seat order.
Every belief of the day draws the same, so a player draws them once a day (``Gut.draw``)
and hands the same ``Gut`` to each belief: the numbers a fresh generator would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

__all__ = ["Gut"]


@dataclass(frozen=True, slots=True)
class Gut:
    duel: float  # seeds the generator of the seat's impressions of seer claimers
    feelings: tuple[float, ...]  # log-odds, one per weighed seat in seat order

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
