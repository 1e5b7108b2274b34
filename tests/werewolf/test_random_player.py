"""The random player's draws: one reseeded generator draws what a new one per decision does."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from werewolf.players.random_player import _Draw, decision_rng, decision_seed


@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(1, 70)), min_size=1))
def test_a_reseeded_draw_is_a_new_generators_choice(draws: list[tuple[int, int]]) -> None:
    draw = _Draw()  # one generator for every draw, as a player keeps it
    for seed, n in draws:
        options = list(range(100, 100 + n))
        assert draw.choice(seed, options) == random.Random(seed).choice(options)


def test_a_decision_seed_is_the_seed_of_its_generator() -> None:
    for key in ("n1.seer.s3", "d2.vote.r1.s5", "d2.vote.r2.s5"):
        seed = decision_seed(7, 5, key, "random")
        options = list(range(9))
        expected = decision_rng(7, 5, key, "random").choice(options)
        assert _Draw().choice(seed, options) == expected
