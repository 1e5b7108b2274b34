"""A turn's notes: its ordering of suspects is the plain sort by falling probability, ties
in the order the seats came; a seat's probability is its entry of all the reports."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.werewolf.test_mock_lang import _games
from werewolf.decisions import Answer
from werewolf.players.mock import strategy
from werewolf.players.mock.turn import Turn, likeliest_first

# few distinct values, so that ties are common (the probabilities are rounded to 3 places)
PROBS = st.dictionaries(
    st.integers(1, 16), st.sampled_from([0.0, 0.001, 0.25, 0.333, 0.5, 0.999, 1.0])
)


@given(PROBS)
def test_the_likeliest_come_first_as_the_plain_sort_orders_them(probs: dict[int, float]) -> None:
    assert likeliest_first(probs) == sorted(probs, key=lambda s: -probs[s])


def test_equal_probabilities_keep_their_order() -> None:
    assert likeliest_first({4: 0.5, 2: 0.9, 7: 0.5, 1: 0.5}) == [2, 4, 7, 1]


def test_a_seats_reported_probability_is_the_one_of_all_the_reports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Turn.reported`` makes one seat's entry of ``wolf_probabilities`` alone."""
    turns: list[Turn] = []
    for key, handler in list(strategy.handlers().items()):

        def kept(turn: Turn, handler: strategy.Handler = handler) -> Answer:
            turns.append(turn)
            return handler(turn)

        monkeypatch.setitem(strategy.handlers(), key, kept)
    _games("en", range(3), "standard-9")
    assert len(turns) > 100
    for turn in turns:
        every = turn.mind.wolf_probabilities()
        for seat in range(-1, 14):
            assert turn.reported(seat) == every.get(seat, 0.0), (turn.drawn_as, seat)
