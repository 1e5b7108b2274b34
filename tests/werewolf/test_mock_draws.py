"""What the mock keeps drawn or weighed once gives what drawing or weighing anew gives: the
impressions of seer claimers read by many beliefs of a day, and a day's gut feelings."""

from __future__ import annotations

from random import Random

from werewolf.players.mock.gut import Gut
from werewolf.players.mock.reasons import Weigher


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
