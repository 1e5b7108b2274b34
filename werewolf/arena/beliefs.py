"""Belief figures: how well seats saw through the wolves, and how well wolves hid.

When a game asks for belief reports (config ``beliefs``), every voter attaches to its vote
its probability that each other living seat is a wolf (``beliefs/<seat>/vote``, private).
These figures score the reports of good seats against the truth; docs/arena.md defines
them:

- Brier score: the mean of ``(p - y)^2`` over reports (``y`` 1 for a wolf, else 0): 0 is
  perfect, 0.25 is a shrug of 0.5 everywhere; by day and by the believer's identity too.
- log-loss: the mean of ``-ln(p)`` for wolves and ``-ln(1 - p)`` for good seats, with ``p``
  clipped to [0.01, 0.99] so one certain mistake does not make it infinite.
- deception, of a wolf player: the mean of ``1 - p`` over good seats' reports about that
  player's wolf seats (how strongly the good side believed its wolves were good).
- calibration: reports in ten bins of ``p``; per bin, the mean ``p`` and the share that
  were wolves (a Wilson interval): a calibrated player's two columns agree.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pulse_core import Event

from ..cast import Identity, Team, team_of
from .intervals import Draws, Estimate, bootstrap_ratio, wilson

__all__ = [
    "BINS",
    "BeliefRecord",
    "CalibrationBin",
    "belief_records",
    "brier",
    "calibration",
    "clipped",
    "deception",
    "log_loss",
]

BINS = 10
CLIP = 0.01  # log-loss clips reports to [CLIP, 1 - CLIP]
ReadAttachment = Callable[[Event, str], str | None]


@dataclass(frozen=True, slots=True)
class BeliefRecord:
    """One report: on ``day``, seat ``believer`` gave ``target`` the probability ``p`` of
    being a wolf; ``wolf`` is the truth."""

    day: int
    believer: int
    target: int
    p: float
    wolf: bool


def belief_records(chain: Sequence[Event], read: ReadAttachment) -> tuple[BeliefRecord, ...]:
    """Every belief report of a game's votes, in log order (``read`` gives an attachment's
    text: the reports live in the object store, not in the events)."""
    deal = [Identity(i) for i in chain[0].meta.get("deal", [])]
    records: list[BeliefRecord] = []
    for event in chain:
        if event.role != "vote":
            continue
        names = sorted(n for n in event.meta.get("attachments", {}) if n.startswith("beliefs/"))
        for name in names:
            text = read(event, name)
            if text is None:
                continue
            believer = int(name.split("/")[1])
            for target, p in sorted(json.loads(text).items(), key=lambda kv: int(kv[0])):
                seat = int(target)
                records.append(
                    BeliefRecord(
                        day=int(event.meta.get("day", 0)),
                        believer=believer,
                        target=seat,
                        p=float(p),
                        wolf=deal[seat - 1] is Identity.WEREWOLF,
                    )
                )
    return tuple(records)


def clipped(p: float) -> float:
    return min(1 - CLIP, max(CLIP, p))


def _squared(r: BeliefRecord) -> float:
    return (r.p - (1.0 if r.wolf else 0.0)) ** 2


def _surprise(r: BeliefRecord) -> float:
    return -math.log(clipped(r.p) if r.wolf else 1 - clipped(r.p))


def _per_game(
    games: Sequence[Sequence[BeliefRecord]], score: Callable[[BeliefRecord], float], draws: Draws
) -> Estimate:
    """A mean over every report, with a bootstrap interval over games."""
    return bootstrap_ratio(
        [sum(score(r) for r in g) for g in games], [float(len(g)) for g in games], draws
    )


def brier(games: Sequence[Sequence[BeliefRecord]], draws: Draws) -> Estimate:
    """The Brier score of the reports (one list per game) with a 95% interval."""
    return _per_game(games, _squared, draws)


def log_loss(games: Sequence[Sequence[BeliefRecord]], draws: Draws) -> Estimate:
    return _per_game(games, _surprise, draws)


def deception(games: Sequence[Sequence[BeliefRecord]], draws: Draws) -> Estimate:
    """The mean of ``1 - p`` over good seats' reports about the player's wolf seats (the
    lists hold only those reports)."""
    return _per_game(games, lambda r: 1.0 - r.p, draws)


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    low: float  # the bin is [low, high); the last one includes 1
    high: float
    reports: int
    mean_belief: float | None
    wolf_rate: Estimate  # the share of those reports that were about wolves

    def as_dict(self) -> dict[str, object]:
        return {
            "low": self.low,
            "high": self.high,
            "reports": self.reports,
            "mean_belief": self.mean_belief,
            "wolf_rate": self.wolf_rate.as_dict(),
        }


def calibration(records: Sequence[BeliefRecord]) -> list[CalibrationBin]:
    """The reliability table: reports in ``BINS`` bins of ``p``."""
    bins: list[list[BeliefRecord]] = [[] for _ in range(BINS)]
    for r in records:
        bins[min(BINS - 1, int(r.p * BINS))].append(r)
    return [
        CalibrationBin(
            low=i / BINS,
            high=(i + 1) / BINS,
            reports=len(held),
            mean_belief=sum(r.p for r in held) / len(held) if held else None,
            wolf_rate=wilson(sum(r.wolf for r in held), len(held)),
        )
        for i, held in enumerate(bins)
    ]


def good_reports(
    records: Sequence[BeliefRecord], identity: Callable[[int], Identity]
) -> list[BeliefRecord]:
    """The reports of good seats (a wolf's reports score nothing: it knows)."""
    return [r for r in records if team_of(identity(r.believer)) is Team.GOOD]
