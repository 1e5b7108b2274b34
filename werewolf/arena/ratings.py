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

from .intervals import Estimate, percentile

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


@dataclass(frozen=True, slots=True)
class Match:
    """One game for the ratings: each player's weight (wolf share - good share), the score."""

    weights: tuple[tuple[str, float], ...]
    score: float  # 1 wolves won, 0 good won, 0.5 draw


def elo(matches: Sequence[Match], players: Sequence[str], *, k: float = 16.0) -> dict[str, float]:
    """Elo ratings after ``matches`` in the given order."""
    rating = dict.fromkeys(players, ELO_BASE)
    for match in matches:
        diff = sum(w * (rating[p] - ELO_BASE) for p, w in match.weights)
        expected = 1 / (1 + 10 ** (-diff / 400))
        for player, weight in match.weights:
            rating[player] += k * weight * (match.score - expected)
    return rating


def elo_estimates(
    matches: Sequence[Match], players: Sequence[str], draws: Sequence[Sequence[int]]
) -> dict[str, Estimate]:
    """Elo in game order, with a 95% interval over resampled games in random order."""
    point = elo(matches, players)
    samples = [elo([matches[i] for i in draw], players) for draw in draws]
    return {p: _estimate(point[p], [s[p] for s in samples], len(matches)) for p in players}


@dataclass(frozen=True, slots=True)
class BradleyTerry:
    ratings: dict[str, float]  # logit scale, centred on 0
    wolf_edge: float  # logit of the wolves' chance between equal sides

    def elo_scale(self, player: str) -> float:
        return ELO_BASE + ELO_SCALE * self.ratings[player]


def bradley_terry(
    matches: Sequence[Match], players: Sequence[str], start: BradleyTerry | None = None
) -> BradleyTerry:
    """The maximum a posteriori Bradley-Terry fit (see the module docstring)."""
    index = {p: i for i, p in enumerate(players)}
    size = len(players) + 1  # the ratings, then the wolf edge
    patterns: Counter[tuple[tuple[float, ...], float]] = Counter()
    for match in matches:
        x = [0.0] * size
        for player, weight in match.weights:
            x[index[player]] += weight
        x[-1] = 1.0
        patterns[(tuple(x), match.score)] += 1
    prior = [1 / PRIOR_SD**2] * len(players) + [1 / EDGE_PRIOR_SD**2]
    theta = [start.ratings[p] for p in players] + [start.wolf_edge] if start else [0.0] * size
    for _ in range(100):
        grad = [-prior[j] * theta[j] for j in range(size)]
        info = [[prior[i] if i == j else 0.0 for j in range(size)] for i in range(size)]
        for (row, score), count in sorted(patterns.items()):
            p = _logistic(sum(a * b for a, b in zip(row, theta, strict=True)))
            for i in range(size):
                if row[i]:
                    grad[i] += count * (score - p) * row[i]
                    for j in range(size):
                        info[i][j] += count * p * (1 - p) * row[i] * row[j]
        step = _solve(info, grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    return BradleyTerry(dict(zip(players, theta[:-1], strict=True)), theta[-1])


def bradley_terry_estimates(
    matches: Sequence[Match], players: Sequence[str], draws: Sequence[Sequence[int]]
) -> tuple[dict[str, Estimate], Estimate]:
    """Bradley-Terry ratings on the Elo scale with 95% bootstrap intervals, and the wolf
    edge as the wolves' win chance between equal sides."""
    fit = bradley_terry(matches, players)
    samples = [bradley_terry([matches[i] for i in draw], players, fit) for draw in draws]
    ratings = {
        p: _estimate(fit.elo_scale(p), [s.elo_scale(p) for s in samples], len(matches))
        for p in players
    }
    edge = _estimate(
        _logistic(fit.wolf_edge), [_logistic(s.wolf_edge) for s in samples], len(matches)
    )
    return ratings, edge


def _estimate(value: float, samples: Sequence[float], n: int) -> Estimate:
    if not samples:
        return Estimate(value, None, None, n)
    return Estimate(value, percentile(samples, 0.025), percentile(samples, 0.975), n)


def _logistic(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def _solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` by Gaussian elimination with partial pivoting (the
    matrix is small and positive definite: the prior makes it so)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        for r in range(col + 1, n):
            factor = rows[r][col] / lead
            if factor:
                for c in range(col, n + 1):
                    rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (rows[i][n] - sum(rows[i][j] * x[j] for j in range(i + 1, n))) / rows[i][i]
    return x


def weights_of(sides: Mapping[str, Sequence[str]]) -> tuple[tuple[str, float], ...]:
    """A match's weights from the players of each side, one entry per seat:
    ``{"wolves": [...], "good": [...]}``."""
    weight: dict[str, float] = {}
    for side, sign in (("wolves", 1.0), ("good", -1.0)):
        seats = sides.get(side, ())
        for player, count in Counter(seats).items():
            weight[player] = weight.get(player, 0.0) + sign * count / len(seats)
    return tuple(sorted((p, w) for p, w in weight.items() if abs(w) > 1e-12))
