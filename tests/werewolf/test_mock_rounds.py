"""A second speech the same day answers the first round (boards with two speech rounds):
it defends against whoever named the seat, takes a side on a named seat's case, or says
where to start when nobody named anyone, and it never repeats a first-round "no read"."""

from __future__ import annotations

import pytest

from tests.werewolf.scripted import kill, play
from werewolf.config import parse_config
from werewolf.decisions import Answer, Request, Speech
from werewolf.players.mock import MockPlayer, parse_speech

TWO_ROUNDS = parse_config({"speech_rounds": 2, "day_cap": 2})
NO_READ = ("no solid read yet", "enough to accuse", "real reason to suspect", "listening before")


def second_speech(script: dict[str, Answer], seat: int, lang: str = "en") -> str:
    """What mock ``seat`` says in round two of day 1, after the scripted round one."""
    played = play({**kill(1, 7), **script}, config=TWO_ROUNDS)
    (request,) = played.asked_for(f"d1.speech.s{seat}.r2")
    assert isinstance(request, Request)
    answer = MockPlayer(1, seat, "steady", lang).answer(request)
    assert isinstance(answer, Speech)
    return answer.text


ACCUSED_8 = {
    "d1.speech.s9": Speech("Seat 8 dodged everything. I suspect seat 8. Vote seat 8."),
    "d1.speech.s1": Speech("I agree about seat 8. Vote seat 8."),
}


@pytest.mark.parametrize(("lang", "accuser"), [("en", "Seat 9"), ("zh", "9号")])
def test_a_seat_named_in_round_one_answers_its_accuser_in_round_two(
    lang: str, accuser: str
) -> None:
    text = second_speech(ACCUSED_8, 8, lang)
    assert accuser in text  # the defence names who accused
    assert 8 not in parse_speech(text).accuses  # and never accuses itself


def test_a_seat_reacts_to_the_case_the_table_made_in_round_one() -> None:
    text = second_speech(ACCUSED_8, 6)
    assert "seat 9" in text.lower() or "seat 1" in text.lower()  # the case's author, named
    assert "seat 8" in text.lower()
    assert not any(phrase in text for phrase in NO_READ)


@pytest.mark.parametrize("seat", [8, 9, 5, 6])
def test_when_nobody_named_anyone_round_two_says_where_to_start_or_is_short(seat: int) -> None:
    text = second_speech({}, seat)
    start = "seat 7" in text.lower() or "first round" in text or "not one" in text
    short = any(words in text for words in ("no read", "nothing solid", "nothing to add"))
    assert start or short  # the victim or the silence noted, else "still no read", briefly
    assert not any(phrase in text for phrase in NO_READ)


def test_a_seat_that_no_longer_presses_its_own_first_round_case_says_so() -> None:
    text = second_speech(ACCUSED_8, 9)  # seat 9 named seat 8 in round one (scripted)
    assert 8 not in parse_speech(text).accuses  # its mind does not hold seat 8 a wolf
    assert "seat 8 earlier" in text or "seat 8 before" in text  # and it says it turned
