"""Personalities: the thresholds and style a mock seat plays with, never the rules."""

from __future__ import annotations

from dataclasses import dataclass

from ..draw import pick, seeded
from ..random_player import decision_seed

__all__ = ["PERSONALITIES", "Temper", "pick_personality"]


@dataclass(frozen=True, slots=True)
class Temper:
    """What a personality moves: how sure a seat must be before it acts, and how it talks."""

    name: str
    noise: float  # spread of the day's gut feeling, in log-odds
    seer_claims_early: bool  # the seer claims on day 1 even without a wolf to report
    save_first_night: float  # chance the witch saves the night-1 victim
    save_later: float  # chance she saves a later victim she has no reason to trust
    poison_at: float  # P(wolf) a seat needs before the witch poisons it (lowered night by night)
    accuse_at: float  # P(wolf) a seat needs before this seat names it in public
    fake_claim: float  # chance the first wolf plans a fake seer claim
    jump_when_exposed: float  # chance an exposed wolf counter-claims seer
    attack_seer: float  # chance a blending wolf doubts a lone seer claimer openly
    follow: float  # weight of the table's accusations in this seat's beliefs
    bus: float  # chance a wolf votes out a doomed fellow wolf
    self_knife: float  # chance the first wolf proposes himself on night 1 (baits the antidote)
    sentences: int  # how many reasons the seat gives for its vote
    floor: float  # a speech's usual length, in lines (fillers make up the rest: no length tell)


PERSONALITIES: dict[str, Temper] = {
    "cautious": Temper(
        name="cautious",
        noise=0.15,
        seer_claims_early=False,
        save_first_night=0.95,
        save_later=0.25,
        poison_at=0.85,
        accuse_at=0.65,
        fake_claim=0.1,
        jump_when_exposed=0.2,
        attack_seer=0.1,
        follow=0.5,
        bus=0.2,
        self_knife=0.0,
        sentences=1,
        floor=3.5,
    ),
    "steady": Temper(
        name="steady",
        noise=0.3,
        seer_claims_early=True,
        save_first_night=0.9,
        save_later=0.35,
        poison_at=0.7,
        accuse_at=0.42,
        fake_claim=0.3,
        jump_when_exposed=0.45,
        attack_seer=0.3,
        follow=0.7,
        bus=0.35,
        self_knife=0.02,
        sentences=2,
        floor=3,
    ),
    "bold": Temper(
        name="bold",
        noise=1.0,
        seer_claims_early=True,
        save_first_night=0.8,
        save_later=0.45,
        poison_at=0.6,
        accuse_at=0.35,
        fake_claim=0.85,
        jump_when_exposed=0.95,
        attack_seer=0.9,
        follow=0.6,
        bus=0.5,
        self_knife=0.05,
        sentences=3,
        floor=2.5,
    ),
}


def pick_personality(game_seed: int, seat: int) -> str:
    """The personality of a seat, drawn from the game seed and the seat only."""
    rng = seeded(decision_seed(game_seed, seat, "personality", "mock"))  # decision_rng's
    return pick(rng, sorted(PERSONALITIES))
