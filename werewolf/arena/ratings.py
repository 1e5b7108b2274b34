"""Ratings over a tournament: Elo (sequential) and Bradley-Terry (fitted over all games).

A game is a match between the wolf side and the good side. Each player's weight in a match
is its share of the wolf seats minus its share of the good seats (+1 and -1 in a
head-to-head game; fractions when a lineup puts several players on a side), and a side's
strength is the weighted sum of its players' ratings. The score is 1 when the wolves win,
0 when the good side wins, 1/2 for a draw.

- Elo: every player starts at 1500; after each game, in game order, each player moves by
  ``k * weight * (score - expected)``. Its interval is a bootstrap over games in random
  order (Elo depends on the order; the spread shows how much).
- Bradley-Terry: ``P(wolves win) = logistic(sum of weight * rating + wolf_edge)``, fitted by
  Newton's method with a weak Gaussian prior (sd 2 on the logit scale, about 350 Elo
  points), which keeps ratings finite when a player won every game and centres them on 0.
  ``wolf_edge`` absorbs how much easier one side is on this board. Ratings are shown on the
  Elo scale (1500 + 400/ln 10 * rating); the interval is a bootstrap over games.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # numpy is imported where it is used: the CLI starts without it
    import numpy as np
    import numpy.typing as npt

from .intervals import Draws, Estimate, percentile_interval

__all__ = [
    "ELO_BASE",
    "ELO_SCALE",
    "BradleyTerry",
    "Match",
    "bradley_terry",
    "bradley_terry_estimates",
    "elo",
    "elo_estimates",
    "weights_of",
]

ELO_BASE = 1500.0
ELO_SCALE = 400 / math.log(10)  # logit units -> Elo points
PRIOR_SD = 2.0  # of a rating, in logit units
EDGE_PRIOR_SD = 10.0  # of the wolf edge: nearly flat
Floats: TypeAlias = "npt.NDArray[np.float64]"


@dataclass(frozen=True, slots=True)
class Match:
    """One game for the ratings: each player's weight (wolf share - good share), the score."""

    weights: tuple[tuple[str, float], ...]
    score: float  # 1 wolves won, 0 good won, 0.5 draw


def _design(matches: Sequence[Match], players: Sequence[str]) -> tuple[Floats, Floats]:
    """The games as a matrix (one row per game: each player's weight) and their scores."""
    import numpy as np

    index = {p: i for i, p in enumerate(players)}
    rows = np.zeros((len(matches), len(players)), dtype=np.float64)
    for g, match in enumerate(matches):
        for player, weight in match.weights:
            rows[g, index[player]] += weight
    return rows, np.array([m.score for m in matches], dtype=np.float64)


def _elo_runs(rows: Floats, scores: Floats, orders: Draws, k: float) -> Floats:
    """Elo after playing the games in each order (one row of ``orders`` per run), every
    run at once: one step per position, vectorised over the runs."""
    import numpy as np

    rating = np.zeros((len(orders), rows.shape[1]), dtype=np.float64)  # minus ELO_BASE
    for position in range(orders.shape[1] if orders.ndim == 2 else 0):
        game = orders[:, position]
        weights = rows[game]
        diff = np.einsum("rp,rp->r", weights, rating)
        expected = 1 / (1 + 10 ** (-diff / 400))
        rating += k * weights * (scores[game] - expected)[:, None]
    return rating + ELO_BASE


def elo(matches: Sequence[Match], players: Sequence[str], *, k: float = 16.0) -> dict[str, float]:
    """Elo ratings after ``matches`` in the given order."""
    import numpy as np

    rows, scores = _design(matches, players)
    order = np.arange(len(matches), dtype=np.intp)[None, :]
    final = _elo_runs(rows, scores, order, k)[0]
    return {p: float(final[i]) for i, p in enumerate(players)}


def elo_estimates(
    matches: Sequence[Match], players: Sequence[str], draws: Draws
) -> dict[str, Estimate]:
    """Elo in game order, with a 95% interval over resampled games in random order."""
    point = elo(matches, players)
    rows, scores = _design(matches, players)
    samples = _elo_runs(rows, scores, draws, 16.0) if len(draws) else None
    return {
        p: _estimate(point[p], None if samples is None else samples[:, i], len(matches))
        for i, p in enumerate(players)
    }


@dataclass(frozen=True, slots=True)
class BradleyTerry:
    ratings: dict[str, float]  # logit scale, centred on 0
    wolf_edge: float  # logit of the wolves' chance between equal sides

    def elo_scale(self, player: str) -> float:
        return ELO_BASE + ELO_SCALE * self.ratings[player]


def _patterns(rows: Floats, scores: Floats) -> tuple[Floats, Floats, npt.NDArray[np.intp]]:
    """The distinct (weights + edge column, score) rows, and each game's pattern number: a
    tournament has few distinct rows, so a fit works on their counts, not on every game."""
    import numpy as np

    full = np.hstack([rows, np.ones((len(rows), 1)), scores[:, None]])
    distinct, which = np.unique(full, axis=0, return_inverse=True)
    return distinct[:, :-1], distinct[:, -1], which.reshape(-1).astype(np.intp)


def _bt_fits(x: Floats, score: Floats, counts: Floats, start: Floats) -> Floats:
    """Bradley-Terry posterior modes, one per row of ``counts`` (games per pattern), all
    at once by Newton's method (the prior keeps each system positive definite)."""
    import numpy as np

    size = x.shape[1]
    prior = np.full(size, 1 / PRIOR_SD**2)
    prior[-1] = 1 / EDGE_PRIOR_SD**2
    theta = np.array(start, dtype=np.float64)
    for _ in range(100):
        p = 0.5 * (1 + np.tanh(0.5 * (theta @ x.T)))  # the logistic, runs x patterns
        grad = (counts * (score - p)) @ x - prior * theta
        info = np.einsum("rk,ki,kj->rij", counts * p * (1 - p), x, x) + np.diag(prior)
        step = np.linalg.solve(info, grad[..., None])[..., 0]
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return theta


def bradley_terry(
    matches: Sequence[Match], players: Sequence[str], start: BradleyTerry | None = None
) -> BradleyTerry:
    """The maximum a posteriori Bradley-Terry fit (see the module docstring)."""
    import numpy as np

    x, score, which = _patterns(*_design(matches, players))
    counts = np.bincount(which, minlength=len(x)).astype(np.float64)[None, :]
    begin = np.zeros((1, len(players) + 1))
    if start is not None:
        begin[0] = [*(start.ratings[p] for p in players), start.wolf_edge]
    theta = _bt_fits(x, score, counts, begin)[0]
    return BradleyTerry({p: float(theta[i]) for i, p in enumerate(players)}, float(theta[-1]))


def bradley_terry_estimates(
    matches: Sequence[Match], players: Sequence[str], draws: Draws
) -> tuple[dict[str, Estimate], Estimate]:
    """Bradley-Terry ratings on the Elo scale with 95% bootstrap intervals, and the wolf
    edge as the wolves' win chance between equal sides."""
    import numpy as np

    fit = bradley_terry(matches, players)
    n = len(matches)
    samples: Floats | None = None
    if len(draws) and n:
        x, score, which = _patterns(*_design(matches, players))
        cells = which[draws] + len(x) * np.arange(len(draws))[:, None]  # (round, pattern)
        tally = np.bincount(cells.ravel(), minlength=len(draws) * len(x))
        counts = tally.reshape(len(draws), len(x)).astype(np.float64)
        begin = np.tile([*(fit.ratings[p] for p in players), fit.wolf_edge], (len(draws), 1))
        samples = _bt_fits(x, score, counts, begin)
    ratings = {
        p: _estimate(
            fit.elo_scale(p), None if samples is None else ELO_BASE + ELO_SCALE * samples[:, i], n
        )
        for i, p in enumerate(players)
    }
    edge_samples = None if samples is None else 0.5 * (1 + np.tanh(0.5 * samples[:, -1]))
    return ratings, _estimate(_logistic(fit.wolf_edge), edge_samples, n)


def _estimate(value: float, samples: Floats | None, n: int) -> Estimate:
    if samples is None:
        return Estimate(value, None, None, n)
    return percentile_interval(value, samples, n)


def _logistic(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def weights_of(sides: Mapping[str, Sequence[str]]) -> tuple[tuple[str, float], ...]:
    """A match's weights from the players of each side, one entry per seat:
    ``{"wolves": [...], "good": [...]}``."""
    weight: dict[str, float] = {}
    for side, sign in (("wolves", 1.0), ("good", -1.0)):
        seats = sides.get(side, ())
        for player, count in Counter(seats).items():
            weight[player] = weight.get(player, 0.0) + sign * count / len(seats)
    return tuple(sorted((p, w) for p, w in weight.items() if abs(w) > 1e-12))
