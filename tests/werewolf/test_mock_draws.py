"""What the mock keeps drawn or weighed once gives what drawing or weighing anew gives: the
impressions of seer claimers read by many beliefs of a day, a day's gut feelings, and a turn's
generator."""

from __future__ import annotations

from random import Random

import pytest

from werewolf.players.draw import pick, seeded
from werewolf.players.mock.gut import Gut
from werewolf.players.mock.reasons import Weigher
from werewolf.players.mock.temper import PERSONALITIES, pick_personality
from werewolf.players.random_player import decision_rng, decision_seed


def test_impressions_read_again_give_a_fresh_generators_draws() -> None:
    gut = Gut.draw(Random(7), 8, 1.5)
    readers = [gut.impressions() for _ in range(4)]
    fresh = [Random(gut.duel) for _ in readers]
    for step in range(12):  # the beliefs read interleaved, each at its own pace
        for i, (reader, rng) in enumerate(zip(readers, fresh, strict=True)):
            if (step + i) % 3:
                assert reader.gauss(0.0, 1.5) == rng.gauss(0.0, 1.5)
    other = gut.impressions()  # another spread: the draws of its own fresh generator
    rng = Random(gut.duel)
    assert [other.gauss(0.0, 0.4) for _ in range(5)] == [rng.gauss(0.0, 0.4) for _ in range(5)]
    assert gut == Gut(gut.duel, gut.feelings)  # what was drawn is no part of the gut


def test_feelings_added_at_once_weigh_as_one_piece_each() -> None:
    rng = Random(3)
    for _ in range(50):
        seats = rng.sample(range(1, 13), rng.randint(1, 11))
        feelings = [rng.choice([0.0, rng.gauss(0.0, 1.0)]) for _ in seats]
        start = [(rng.choice(seats), rng.gauss(0.0, 2.0)) for _ in range(3)]
        one, each = Weigher(seats), Weigher(seats)
        for w in (one, each):
            for seat, weight in start:
                w.add(seat, weight, "seed")
        one.add_feelings(feelings)
        for seat, feeling in zip(sorted(seats), feelings, strict=True):
            each.add(seat, feeling, "gut", public=False)
        assert one.logit == each.logit
        assert list(one.logit) == list(each.logit)
        assert one.found == each.found


def test_a_calm_gut_shared_is_what_a_fresh_one_would_be() -> None:
    for seats in (0, 8, 11, 8):
        calm = Gut.calm(seats)
        assert calm is Gut.calm(seats)
        assert calm == Gut(0.0, (0.0,) * seats)
        for reader in (calm.impressions(), calm.impressions()):  # read again from the first
            rng = Random(0.0)
            assert [reader.gauss(0.0, 0.7) for _ in range(3)] == [
                rng.gauss(0.0, 0.7) for _ in range(3)
            ]


def test_a_seeded_generator_is_the_one_random_makes_from_the_seed() -> None:
    seeds = [0, 1, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1, *range(3, 40, 7)]
    seeds += [decision_seed(7, seat, key, "mock") for seat in (1, 9) for key in ("a", "d2.vote")]
    for seed in seeds:
        fast, plain = seeded(seed), Random(seed)
        assert fast.getstate() == plain.getstate(), seed
        draws = [
            (r.random(), r.gauss(0, 1), r.gauss(0, 1), r.choice("abcdefg")) for r in (fast, plain)
        ]
        assert draws[0] == draws[1], seed
        assert fast.getstate() == plain.getstate(), seed


def test_a_pick_draws_what_choice_draws() -> None:
    fast, plain = Random(5), Random(5)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 1000] * 20:
        options = list(range(n))
        assert pick(fast, options) == plain.choice(options)
    assert fast.getstate() == plain.getstate()
    with pytest.raises(IndexError):
        pick(fast, [])


def test_a_uniform_draw_on_zero_to_one_is_the_generators_random() -> None:
    """The wolves' night agenda draws ``random()`` where it drew ``uniform(0.0, 1.0)``."""
    fast, plain = Random(11), Random(11)
    assert [fast.random() for _ in range(2000)] == [plain.uniform(0.0, 1.0) for _ in range(2000)]


def test_a_seats_personality_is_the_one_its_generator_chooses() -> None:
    for game_seed in range(30):
        for seat in range(1, 13):
            plain = decision_rng(game_seed, seat, "personality", "mock")
            assert pick_personality(game_seed, seat) == plain.choice(sorted(PERSONALITIES))
