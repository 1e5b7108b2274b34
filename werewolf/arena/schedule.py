"""Which game a run plays at each index: its seed, its deal and who holds each seat.

Pure and deterministic, so a run can be continued or replayed game for game.

- head-to-head and round-robin: games come in matches of two with one seed and one deal;
  in the first the match's first player holds every wolf seat and the second every good
  seat, in the second they swap. A round-robin cycles through the pairs.
- lineup: the players keep their seats; the deck, shuffled once from the run seed, turns
  one seat per game, so over every ``seats`` games each seat holds each card once.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pulse_core import IdSource

from ..cast import Identity, Team, team_of
from .spec import RunSpec, Schedule

__all__ = ["GamePlan", "game_id", "game_seed", "plan_game"]


@dataclass(frozen=True, slots=True)
class GamePlan:
    index: int
    seed: int
    deal: tuple[Identity, ...]
    assignment: tuple[str, ...]  # the player holding each seat, in seat order

    def sides(self) -> dict[Team, tuple[str, ...]]:
        """The players of each team, with repeats (one entry per seat)."""
        seats = list(zip(self.assignment, self.deal, strict=True))
        return {
            team: tuple(p for p, identity in seats if team_of(identity) is team) for team in Team
        }


def game_seed(run_seed: int, slot: int) -> int:
    """The game seed of a slot of the run: a 31-bit number from the run seed and the slot."""
    digest = hashlib.sha256(f"werewolf-arena|{run_seed}|{slot}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def _shuffled(spec: RunSpec, seed: int) -> tuple[Identity, ...]:
    deck = list(spec.config.identities)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def plan_game(spec: RunSpec, index: int) -> GamePlan:
    """The plan of game ``index`` (0-based) of the run."""
    if index < 0:
        raise ValueError(f"game index must be >= 0, not {index}")
    if spec.schedule is Schedule.LINEUP:
        assert spec.lineup is not None  # the spec's validator requires it
        base = _shuffled(spec, game_seed(spec.seed, -1))
        turn = index % len(base)
        deal = base[-turn:] + base[:-turn] if turn else base
        return GamePlan(index, game_seed(spec.seed, index), deal, spec.lineup)
    match, swapped = divmod(index, 2)
    first, second = spec.pairs[match % len(spec.pairs)]
    wolves, good = (second, first) if swapped else (first, second)
    seed = game_seed(spec.seed, match)
    deal = _shuffled(spec, seed)
    assignment = tuple(wolves if team_of(i) is Team.WOLVES else good for i in deal)
    return GamePlan(index, seed, deal, assignment)


def game_id(spec: RunSpec, index: int) -> str:
    """The topic id of game ``index``: a ULID fixed by the run, so a restarted run finds
    (and never duplicates) the games it already began."""
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=spec.created_ms)
    digest = hashlib.sha256(f"{spec.name}|{index}".encode()).digest()
    ids = IdSource(clock=lambda: moment, rng=random.Random(int.from_bytes(digest[:16], "big")))
    return ids.new()
