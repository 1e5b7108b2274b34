"""The random player's draws: its one reseeded generator draws what a new generator per
decision (``decision_rng``) does, for choices and the witch's potions alike."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from werewolf.decisions import Choice, DecisionKind, WitchChoice, make_request
from werewolf.players.random_player import RandomPlayer, decision_rng, decision_seed
from werewolf.rules import WitchOptions

_CHOOSING = [k for k in DecisionKind if not k.speaks and k is not DecisionKind.WITCH]


def _decide(player: RandomPlayer, kind: DecisionKind, seat: int, key: str, **more: Any) -> Any:
    options = more.get("options", ())
    request = make_request(kind, seat, None, key, options, more.get("witch"), {})  # type: ignore[arg-type]
    return asyncio.run(player.decide(request))


@settings(max_examples=30)
@given(
    st.integers(0, 2**32),
    st.lists(
        st.tuples(
            st.sampled_from(_CHOOSING),
            st.integers(1, 20),
            st.text("abcdnrsv.0123456789", min_size=1, max_size=12),
            st.lists(st.one_of(st.none(), st.integers(1, 20)), min_size=1, max_size=21),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_a_choice_is_a_new_generators_choice(game_seed: int, asked: list[Any]) -> None:
    player = RandomPlayer(game_seed)  # one player answering in turn, as in a game
    for kind, seat, key, options in asked:
        answer = _decide(player, kind, seat, key, options=tuple(options))
        expected = decision_rng(game_seed, seat, key, "random").choice(options)
        assert answer == Choice(expected)


def test_a_witch_choice_is_a_new_generators_choice_of_her_answers() -> None:
    witch = WitchOptions(
        witch=6, told_target=3, can_save=True, poison_targets=(2, 4, 5), both_allowed=True
    )
    answers = [WitchChoice(), WitchChoice(save=True)]
    answers += [WitchChoice(poison=t) for t in (2, 4, 5)]
    answers += [WitchChoice(save=True, poison=t) for t in (2, 4, 5)]
    player = RandomPlayer(7)
    for night in range(1, 30):
        key = f"n{night}.witch.s6"
        drawn = _decide(player, DecisionKind.WITCH, 6, key, witch=witch)
        assert drawn == decision_rng(7, 6, key, "random").choice(answers)


def test_a_decision_seed_is_the_seed_of_its_generator() -> None:
    for key in ("n1.seer.s3", "d2.vote.r1.s5", "d2.vote.r2.s5"):
        seed = decision_seed(7, 5, key, "random")
        assert decision_rng(7, 5, key, "random").random() == random.Random(seed).random()


def test_a_wolf_offered_the_self_destruct_takes_it_now_and_then_and_only_then() -> None:
    """A speech that offers the self-destruct is one now and then, taking a seat offered
    (a choice the same seed repeats); a speech without the offer is always words."""
    player, again = RandomPlayer(3), RandomPlayer(3)
    takes = (None, 2, 5)
    blasts: list[Any] = []
    for day in range(1, 41):
        key = f"d{day}.speech.s4"
        answer = _decide(player, DecisionKind.SPEECH, 4, key, options=takes)
        assert answer == _decide(again, DecisionKind.SPEECH, 4, key, options=takes)
        if isinstance(answer, Choice):
            blasts.append(answer.target)
        plain = _decide(player, DecisionKind.SPEECH, 4, key)
        assert not isinstance(plain, Choice)
    assert 0 < len(blasts) < 40
    assert set(blasts) <= set(takes)
    assert len(set(blasts)) > 1
