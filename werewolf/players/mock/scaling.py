"""Log-odds to probabilities, shifted so the free seats hold the deck's wolves.

The shift is defined by a 40-step bisection on ``_mass`` (its exact steps are part of every
mock game, down to the last bit). ``_mass`` is monotone in the shift (each term is, rounded
or not), so a step whose midpoint lies at or beyond a point already evaluated goes the
same way as that point without evaluating it again: a few Newton steps find the root, the
two points around it are evaluated exactly, and the bisection then evaluates only the
midpoints between them (usually none). Same shift, same bits, in about a third of the time.
Newton's own sums are ``_mass``'s expression to the bit, so the points it stepped on count
as evaluated: the last lies within 1e-13 of the root, and only the other side is evaluated.
"""

from __future__ import annotations

import math

__all__ = ["bisect_shift", "scaled"]

_SCALED: dict[tuple[object, ...], dict[int, float]] = {}  # scaled's answers (a pure function)
_SCALED_KEPT = 4096
_LOW, _HIGH, _STEPS = -20.0, 20.0, 40
_NEAR = 1e-12  # how far either side of the Newton root the bracketing points lie


def scaled(logit: dict[int, float], fixed: dict[int, float], wolves: float) -> dict[int, float]:
    """Probabilities from log-odds, shifted so the free seats hold ``wolves`` wolves. The
    same beliefs recur (a seat asked twice before anything new happened): the answer of
    the same log-odds in the same order is remembered (a copy is handed out)."""
    key = (*logit.items(), None, *fixed.items(), wolves)
    known = _SCALED.get(key)
    if known is None:
        if len(_SCALED) >= _SCALED_KEPT:
            _SCALED.clear()
        known = _SCALED[key] = _probabilities(logit, fixed, wolves)
    return dict(known)


def _probabilities(
    logit: dict[int, float], fixed: dict[int, float], wolves: float
) -> dict[int, float]:
    free = [s for s in logit if s not in fixed]
    target = min(max(wolves - sum(fixed.values()), 0.05), len(free) - 0.05) if free else 0.0
    values = [logit[s] for s in free]
    shift = bisect_shift(values, target, *_newton(values, target))
    exp = math.exp
    probs = {s: 1 / (1 + exp(-(logit[s] + shift))) for s in free}
    probs.update(fixed)
    return probs


def _mass(values: list[float], shift: float) -> float:
    """The expected number of wolves at ``shift``: the bisection's exact expression."""
    exp = math.exp
    return sum([1 / (1 + exp(-(v + shift))) for v in values])


def bisect_shift(
    values: list[float],
    target: float,
    guess: float | None = None,
    below: float = -math.inf,
    above: float = math.inf,
) -> float:
    """The low end of the 40-step bisection of ``_mass(values, x) < target`` on [-20, 20].
    ``guess`` (near the root, or None) only saves evaluations: the answer is the same.
    ``below``/``above``: the highest point known to have ``_mass`` under target, the lowest
    known not to (evaluated exactly, e.g. by ``_newton``)."""
    if guess is not None:
        for point in (guess - _NEAR, guess + _NEAR):
            if point <= below or point >= above:
                continue  # known already: the other side of a point evaluated
            if _mass(values, point) < target:
                below = max(below, point)
            else:
                above = min(above, point)
    low, high = _LOW, _HIGH
    for _ in range(_STEPS):
        mid = (low + high) / 2
        if mid <= below:
            low = mid
        elif mid >= above:
            high = mid
        elif _mass(values, mid) < target:
            low = below = mid
        else:
            high = above = mid
    return low


def _newton(values: list[float], target: float) -> tuple[float, float, float]:
    """The root of ``_mass(values, x) = target`` in [-20, 20], to about 1e-13 (a guess),
    with the highest point it evaluated under target and the lowest not (or infinities)."""
    exp = math.exp
    low, high, n = _LOW, _HIGH, len(values)
    below, above = -math.inf, math.inf
    x = 0.0
    if 0 < target < n:  # the root were every seat alike: a close start
        x = min(max(math.log(target / (n - target)) - sum(values) / n, _LOW), _HIGH)
    for _ in range(60):
        ps = [1 / (1 + exp(-(v + x))) for v in values]
        gap = sum(ps) - target  # sum(ps) is _mass(values, x): negative gap iff under target
        if gap < 0:
            low = below = x
        else:
            high = above = x
        slope = sum([p * (1 - p) for p in ps])
        step = gap / slope if slope > 1e-300 else math.inf
        if abs(step) < 1e-13 or high - low < 1e-13:
            return (x - step if abs(step) < 1e-13 else x), below, above
        x = x - step if low < x - step < high else (low + high) / 2  # else: halve the bracket
    return x, below, above
