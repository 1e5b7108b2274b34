"""A turn's ordering of suspects for its private notes is the plain sort by falling
probability, ties in the order the seats came."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from werewolf.players.mock.turn import likeliest_first

# few distinct values, so that ties are common (the probabilities are rounded to 3 places)
PROBS = st.dictionaries(
    st.integers(1, 16), st.sampled_from([0.0, 0.001, 0.25, 0.333, 0.5, 0.999, 1.0])
)


@given(PROBS)
def test_the_likeliest_come_first_as_the_plain_sort_orders_them(probs: dict[int, float]) -> None:
    assert likeliest_first(probs) == sorted(probs, key=lambda s: -probs[s])


def test_equal_probabilities_keep_their_order() -> None:
    assert likeliest_first({4: 0.5, 2: 0.9, 7: 0.5, 1: 0.5}) == [2, 4, 7, 1]
