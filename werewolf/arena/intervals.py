"""95% intervals: Wilson for rates, percentile bootstrap over games for everything else.

The bootstrap resamples whole games (a game's decisions are not independent of each
other, so games, not decisions, are the unit), with a generator seeded by the caller, so a
report is the same every time it is made from the same games. Draws are one numpy array
(rounds x games) and every bootstrapped figure is computed over all rounds at once: a
thousand resamples of a thousand games cost milliseconds, not seconds of Python loops.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, TypeVar

if TYPE_CHECKING:  # numpy is imported where it is used: the CLI starts without it
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "NONE",
    "Z95",
    "Draws",
    "Estimate",
    "bootstrap",
    "bootstrap_ratio",
    "percentile",
    "percentile_interval",
    "resamples",
    "wilson",
]

Z95 = 1.959963984540054
T = TypeVar("T")
Draws: TypeAlias = "npt.NDArray[np.intp]"  # rounds x n indices into the games


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


def resamples(n: int, rounds: int, seed: int | str) -> Draws:
    """``rounds`` rows of ``n`` indices drawn with replacement (one shared set of draws lets
    every figure of a report use the same resampled tournaments). The seed, text or number,
    is hashed into numpy's generator, so the same seed gives the same draws everywhere."""
    import numpy as np

    digest = hashlib.sha256(str(seed).encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:16], "big"))
    if not n:
        return np.zeros((0, 0), dtype=np.intp)
    return rng.integers(0, n, size=(rounds, n), dtype=np.intp)


def percentile_interval(value: float, samples: npt.NDArray[np.float64], n: int) -> Estimate:
    """``value`` with the 2.5% and 97.5% percentiles of ``samples`` (NaN left out)."""
    import numpy as np

    kept = samples[~np.isnan(samples)]
    if not kept.size:
        return Estimate(value, None, None, n)
    low, high = np.percentile(kept, [2.5, 97.5])
    return Estimate(value, float(low), float(high), n)


def bootstrap(
    items: Sequence[T],
    statistic: Callable[[Sequence[T]], float | None],
    draws: Draws,
) -> Estimate:
    """``statistic(items)`` with a 95% percentile interval over ``draws`` (from
    ``resamples``); draws where the statistic is undefined are left out. For statistics
    that are not sums: it calls ``statistic`` once per draw."""
    import numpy as np

    value = statistic(items)
    if value is None:
        return Estimate(None, None, None, len(items))
    values = [statistic([items[i] for i in d]) for d in draws]
    samples = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    return percentile_interval(value, samples, len(items))


def bootstrap_ratio(
    numerators: Sequence[float], denominators: Sequence[float], draws: Draws
) -> Estimate:
    """``sum(numerators) / sum(denominators)`` over games (one entry each), with a 95%
    percentile interval over ``draws``; a mean per game when every denominator is 1."""
    import numpy as np

    total = sum(denominators)
    if not total:
        return Estimate(None, None, None, len(numerators))
    value = sum(numerators) / total
    if not len(draws):
        return Estimate(value, None, None, len(numerators))
    num = np.asarray(numerators, dtype=np.float64)[draws].sum(axis=1)
    den = np.asarray(denominators, dtype=np.float64)[draws].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)
    return percentile_interval(value, ratios, len(numerators))
