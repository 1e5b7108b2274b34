"""Random draws of the rules (tie-breaks, a random exile), taken from the game's seed.

A draw is a pure function of the seed, a key naming the decision it settles and the seats
it picks among, so the engine makes the same draw however often a phase is run (a resumed
game, a rerun). The event that uses a draw records it (``detail["draw"]``) and its result
(in the diff), so a replay or a fold never needs a random generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Draw", "draw"]


@dataclass(frozen=True, slots=True)
class Draw:
    key: str  # the decision it settles, e.g. "d2.vote.r1"
    among: tuple[int, ...]  # the seats it picked among, by seat
    drawn: int

    def record(self) -> dict[str, Any]:
        """The draw as the event's detail records it."""
        return {"among": list(self.among), "drawn": self.drawn, "key": self.key}


def draw(seed: int, key: str, among: Iterable[int]) -> Draw:
    """One seat of ``among``, drawn from the game's ``seed`` and the ``key`` of the decision
    (a string seed: the same on every run and Python build)."""
    seats = tuple(sorted(set(among)))
    if not seats:
        raise ValueError("a draw needs at least one seat")
    picked = random.Random(f"werewolf/{seed}/{key}").choice(seats)
    return Draw(key, seats, picked)
