"""The beliefs' scaling finds the plain bisection's shift straight away, bit for bit, on
log-odds from real games and on odd ones (roots off the interval, flat sums, a Newton guess
far off)."""

from __future__ import annotations

import math
from random import Random

import pytest

from tests.werewolf.test_mock_memory import logs
from werewolf.players.mock import scaling
from werewolf.players.mock.scaling import bisect_shift


def plain(values: list[float], target: float) -> float:
    """The bisection as every mock game defines it: 40 halvings of [-20, 20]."""
    low, high = -20.0, 20.0
    for _ in range(40):
        mid = (low + high) / 2
        if sum([1 / (1 + math.exp(-(v + mid))) for v in values]) < target:
            low = mid
        else:
            high = mid
    return low


def cases() -> list[tuple[list[float], float]]:
    rng = Random(15)
    found: list[tuple[list[float], float]] = []
    for _ in range(400):
        n = rng.randint(1, 14)
        values = [rng.gauss(0.0, rng.choice([0.3, 2.0, 8.0])) for _ in range(n)]
        found.append((values, min(max(rng.uniform(0.0, n), 0.05), n - 0.05)))
    found += [([0.0] * 8, 3.0), ([30.0, -30.0, 25.0], 1.5), ([-40.0] * 5, 2.0)]
    found += [([40.0] * 5, 0.5), ([0.25, -0.25], 1.0), ([5.0], 0.95), ([-5.0], 0.05)]
    return found


def test_the_shortcut_gives_the_plain_bisection_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for values, target in cases():
        want = plain(values, target)
        assert bisect_shift(values, target) == want
        terms = scaling._shift(values, target)  # the terms of the mass at the shift
        assert terms == [1 / (1 + math.exp(-(v + want))) for v in values]
    for wrong in (-25.0, -3.0, 0.0, 7.5, 25.0):  # a poor guess costs time, never bits
        monkeypatch.setattr(scaling, "_newton", lambda values, target, at=wrong: at)
        for values, target in cases():
            want = plain(values, target)
            assert scaling._shift(values, target) == [
                1 / (1 + math.exp(-(v + want))) for v in values
            ]


def test_the_walk_from_a_near_guess_evaluates_two_grid_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evaluated: list[float] = []
    terms = scaling._terms

    def spy(values: list[float], shift: float) -> list[float]:
        evaluated.append(shift)
        return terms(values, shift)

    monkeypatch.setattr(scaling, "_terms", spy)
    values, target = [0.3, -1.2, 2.5, 0.0, -0.4, 1.1, -2.0, 0.7], 3.0
    want = plain(values, target)
    scaling._shift(values, target)
    assert evaluated == [want + scaling._STEP, want]  # the grid points either side of the root
    for off in (-4, -1, 1, 4):  # a guess a few grid points off walks there
        monkeypatch.setattr(scaling, "_newton", lambda v, t, at=want + off * scaling._STEP: at)
        assert scaling._shift(values, target) == terms(values, want)


def test_the_games_scaling_matches_the_plain_bisection(monkeypatch: pytest.MonkeyPatch) -> None:
    scaling._SCALED.clear()
    seen: list[tuple[dict[int, float], dict[int, float], float]] = []
    original = scaling._probabilities

    def spy(logit: dict[int, float], fixed: dict[int, float], wolves: float) -> dict[int, float]:
        seen.append((dict(logit), dict(fixed), wolves))
        return original(logit, fixed, wolves)

    monkeypatch.setattr(scaling, "_probabilities", spy)
    logs([31, 32], None)
    monkeypatch.undo()
    assert len(seen) > 50
    for logit, fixed, wolves in seen:
        free = [s for s in logit if s not in fixed]
        target = min(max(wolves - sum(fixed.values()), 0.05), len(free) - 0.05) if free else 0.0
        values = [logit[s] for s in free]
        shift = plain(values, target)
        want = {s: 1 / (1 + math.exp(-(logit[s] + shift))) for s in free} | fixed
        assert scaling.scaled(logit, fixed, wolves) == want


def test_newtons_odds_never_overflow() -> None:
    assert scaling._odds([1.0, -2.0]) == [math.exp(-1.0), math.exp(2.0)]
    assert scaling._odds([800.0, -800.0]) == [math.exp(-700.0), math.exp(700.0)]  # clamped
