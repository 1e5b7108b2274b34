"""95% intervals: Wilson for rates, percentile bootstrap over games for everything else.

Both are pure Python. The bootstrap resamples whole games (a game's decisions are not
independent of each other, so games, not decisions, are the unit), with a generator
seeded by the caller, so a report is the same every time it is made from the same games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = [
    "NONE",
    "Z95",
    "Estimate",
    "bootstrap",
    "bootstrap_ratio",
    "percentile",
    "resamples",
    "wilson",
]

Z95 = 1.959963984540054
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval; ``n`` is what it was computed over (games, votes...)."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    hits: int | None = None  # for rates: the successes behind ``value``

    def as_dict(self) -> dict[str, float | int | None]:
        out: dict[str, float | int | None] = {
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "n": self.n,
        }
        if self.hits is not None:
            out["hits"] = self.hits
        return out


NONE = Estimate(None, None, None, 0)


def wilson(hits: int, n: int, z: float = Z95) -> Estimate:
    """The rate ``hits / n`` with its Wilson score interval (sound near 0 and 1, unlike
    the normal approximation); no figure for ``n == 0``."""
    if n < 0 or not 0 <= hits <= n:
        raise ValueError(f"need 0 <= hits <= n, got {hits}/{n}")
    if n == 0:
        return Estimate(None, None, None, 0, 0)
    p = hits / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n, hits)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by linear interpolation between order
    statistics (numpy's default)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def resamples(n: int, rounds: int, seed: int | str) -> list[list[int]]:
    """``rounds`` lists of ``n`` indices drawn with replacement (one shared set of draws lets
    every figure of a report use the same resampled tournaments)."""
    rng = random.Random(seed)
    return [[rng.randrange(n) for _ in range(n)] for _ in range(rounds)] if n else []


def bootstrap(
    items: Sequence[T],
    statistic: Callable[[Sequence[T]], float | None],
    draws: Sequence[Sequence[int]],
) -> Estimate:
    """``statistic(items)`` with a 95% percentile interval over ``draws`` (index lists from
    ``resamples``); draws where the statistic is undefined are left out."""
    value = statistic(items)
    if value is None:
        return Estimate(None, None, None, len(items))
    values = [v for v in (statistic([items[i] for i in d]) for d in draws) if v is not None]
    if not values:
        return Estimate(value, None, None, len(items))
    return Estimate(value, percentile(values, 0.025), percentile(values, 0.975), len(items))


def bootstrap_ratio(
    numerators: Sequence[float], denominators: Sequence[float], draws: Sequence[Sequence[int]]
) -> Estimate:
    """``sum(numerators) / sum(denominators)`` over games (one entry each), with a 95%
    percentile interval over ``draws``; a mean per game when every denominator is 1."""
    total = sum(denominators)
    if not total:
        return Estimate(None, None, None, len(numerators))
    value = sum(numerators) / total
    values = []
    for draw in draws:
        den = sum(denominators[i] for i in draw)
        if den:
            values.append(sum(numerators[i] for i in draw) / den)
    if not values:
        return Estimate(value, None, None, len(numerators))
    return Estimate(value, percentile(values, 0.025), percentile(values, 0.975), len(numerators))
