"""Log-odds to probabilities, shifted so the free seats hold the deck's wolves.

The shift is defined by a 40-step bisection of ``_mass(values, x) < target`` on [-20, 20]
(``bisect_shift``; its exact steps are part of every mock game, down to the last bit). Its
midpoints all lie on the grid -20 + k * 40 / 2**40, every point of which is exact in
floating point, and ``_mass`` is monotone in the shift (each term is, rounded or not): so
the bisection ends on the highest grid point whose mass is under target (-20 if none, which
it never evaluates). ``_shift`` finds that point straight away: Newton's method, on a
cheaper form of the sum, lands next to the root; the grid points either side of it are then
evaluated exactly (stepping on along the grid in the rare case the root lies further, and
bisecting if Newton strayed). Same shift, same bits, at about two evaluations of ``_mass``.
"""

from __future__ import annotations

import math

__all__ = ["bisect_shift", "scaled"]

_SCALED: dict[tuple[object, ...], dict[int, float]] = {}  # scaled's answers (a pure function)
_SCALED_KEPT = 4096
_LOW, _HIGH, _STEPS = -20.0, 20.0, 40
_STEP: float = (_HIGH - _LOW) / 2**_STEPS  # 5 * 2**-37: every grid point is exact
_TOP: int = 2**_STEPS - 1  # the highest grid point the bisection can end on
_WALK = 6  # grid points evaluated from Newton's root before bisecting instead
# a Newton step this small leaves the root about a grid step away at most: the error after a
# step s is f''/(2f') s**2, and |f''| <= f' for a sum of logistic terms, so under s**2 / 2
# (5e-11, 1.4 grid steps), which the walk covers (a guess is never trusted, only walked from)
_CLOSE = 1e-5
_NARROW = 1e-7  # a bracket this narrow holds the root (when Newton's steps were refused)


def scaled(logit: dict[int, float], fixed: dict[int, float], wolves: float) -> dict[int, float]:
    """Probabilities from log-odds, shifted so the free seats hold ``wolves`` wolves. The
    same beliefs recur (a seat asked twice before anything new happened): the answer of
    the same log-odds in the same order is remembered (a copy is handed out). The key is
    one flat tuple (a pair per seat would keep a dozen objects alive for the collector to
    walk, per answer kept): the sizes first, so its parts cannot be read another way."""
    key = (len(logit), len(fixed), *logit, *logit.values(), *fixed, *fixed.values(), wolves)
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
    # the probabilities are the terms of the mass at the shift
    probs = dict(zip(free, _shift([logit[s] for s in free], target), strict=True))
    probs.update(fixed)
    return probs


def _terms(values: list[float], shift: float) -> list[float]:
    """P(wolf) of each value at ``shift``: the bisection's exact expression."""
    exp = math.exp
    return [1 / (1 + exp(-(v + shift))) for v in values]


def _mass(values: list[float], shift: float) -> float:
    """The expected number of wolves at ``shift``."""
    return sum(_terms(values, shift))


def bisect_shift(values: list[float], target: float) -> float:
    """The low end of the 40-step bisection of ``_mass(values, x) < target`` on [-20, 20]:
    the definition of the shift (``_shift`` finds the same point sooner)."""
    low, high = _LOW, _HIGH
    for _ in range(_STEPS):
        mid = (low + high) / 2
        if _mass(values, mid) < target:
            low = mid
        else:
            high = mid
    return low


def _point(k: int) -> float:
    """The k-th grid point (exact: k * _STEP and the sum need no rounding)."""
    return _LOW + k * _STEP


def _shift(values: list[float], target: float) -> list[float]:
    """The terms at ``bisect_shift(values, target)``: at grid point k when k's mass is under
    target (or k is 0) and k + 1's is not (or k is the top)."""
    k = min(max(math.floor((_newton(values, target) - _LOW) / _STEP), 0), _TOP)
    over = _TOP + 1  # the lowest grid point known not to be under target
    for _ in range(_WALK):
        if k < _TOP and k + 1 < over:
            if _mass(values, _point(k + 1)) < target:
                k += 1
                continue
            over = k + 1
        terms = _terms(values, _point(k))
        if k > 0 and not sum(terms) < target:
            over, k = k, k - 1
            continue
        return terms
    return _terms(values, bisect_shift(values, target))  # Newton strayed: the plain steps


def _newton(values: list[float], target: float) -> float:
    """About the root of ``_mass(values, x) = target`` in [-20, 20] (a guess: each term is
    computed as 1 / (1 + exp(-v) * exp(-x)), one exponential a step, not to ``_mass``'s bits)."""
    exp = math.exp
    n = len(values)
    odds = _odds(values)
    low, high, x = _LOW, _HIGH, 0.0
    if 0 < target < n:  # the root were every seat alike: a close start
        x = min(max(math.log(target / (n - target)) - sum(values) / n, _LOW), _HIGH)
    for _ in range(60):
        e = exp(-x)
        mass = squares = 0.0
        for o in odds:  # the mass and its slope (the sum of p - p * p) in one pass
            p = 1 / (1 + o * e)
            mass += p
            squares += p * p
        slope = mass - squares
        gap = mass - target
        if gap < 0:
            low = x
        else:
            high = x
        step = gap / slope if slope > 1e-300 else math.inf
        if abs(step) < _CLOSE:
            return x - step
        if high - low < _NARROW:
            return x
        x = x - step if low < x - step < high else (low + high) / 2  # else: halve the bracket
    return x


def _odds(values: list[float]) -> list[float]:
    """exp(-v) of each value, clamped where it would overflow (a guess needs no more)."""
    exp = math.exp
    try:
        return [exp(-v) for v in values]
    except OverflowError:
        return [exp(-min(max(v, -700.0), 700.0)) for v in values]
