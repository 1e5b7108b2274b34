"""Seer duels as the mock seats judge them, and the sheriff's summing-up (归票), from
scripted games.

The deal of ``scripted.DEAL``: seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers.
Beliefs are taken with no gut feeling, so each figure follows from the evidence only.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from pulse_core import Event
from tests.werewolf.scripted import DEAL, Played, kill, play, votes
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, Speech
from werewolf.players import MockPlayer
from werewolf.players.mock import PERSONALITIES, read_table
from werewolf.players.mock.beliefs import Mind, infer
from werewolf.players.mock.claims import seer_belief
from werewolf.players.mock.grammar import parse_speech
from werewolf.players.mock.lang.en import PHRASES
from werewolf.players.mock.table import Table
from werewolf.visibility import view

CALM = replace(PERSONALITIES["steady"], noise=0.0)
SHORT = GameConfig(day_cap=2)


def _cut(chain: list[Event], before: str, day: int) -> list[Event]:
    return chain[
        : next(i for i, e in enumerate(chain) if e.role == before and e.meta["day"] == day)
    ]


def _mind(chain: list[Event], seat: int, *, before: str, day: int) -> Mind:
    return infer(read_table(view(_cut(chain, before, day), seat)), CALM, Random(0))


def _table(chain: list[Event], seat: int, *, before: str, day: int) -> Table:
    return read_table(view(_cut(chain, before, day), seat))


# day 1: seat 1 (a wolf) claims first, the real seer (4) answers; nobody is exiled
DUEL: dict[str, Answer] = {
    **kill(1, 7),
    "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 9: good."),
    "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 2: a wolf."),
    **votes(1, None),
    **kill(2, 8),
}


def test_a_check_on_a_seat_already_dead_gives_the_claimer_away() -> None:
    script = {**DUEL, "d2.speech.s1": Speech("Night 2: I checked seat 7: a wolf.")}
    mind = _mind(play(script, config=SHORT).chain, 6, before="vote", day=2)
    assert mind.seer.trusted == 4
    assert mind.seer.caught[1] == ("dead_check", 7)  # seat 7 died at the first dawn


def test_a_claimer_who_spends_a_check_on_his_rival_is_doubted() -> None:
    script = {**DUEL, "d2.speech.s1": Speech("Night 2: I checked seat 4: a wolf.")}
    mind = _mind(play(script, config=SHORT).chain, 6, before="vote", day=2)
    assert mind.seer.trusted == 4
    assert mind.seer.caught[1] == ("checked_rival", 4)


def test_a_seat_that_backed_a_claimer_and_was_killed_speaks_for_him() -> None:
    # seat 5 stood behind seat 4 after her claim, and the wolves killed it that night
    backed = {**DUEL, **kill(2, 5), "d1.speech.s5": Speech("I trust seat 4 as the seer.")}
    table = _table(play(backed, config=SHORT).chain, 6, before="vote", day=2)
    quiet = _table(play({**DUEL, **kill(2, 5)}, config=SHORT).chain, 6, before="vote", day=2)
    assert [e.meta["diff"]["speaker"] for e in play(DUEL, config=SHORT).events("day-speech")][
        :7
    ] == [8, 9, 1, 2, 3, 4, 5]
    assert seer_belief(table).confidence > seer_belief(quiet).confidence
    assert seer_belief(table).trusted == 4


def test_who_claimed_first_counts_only_on_a_board_that_elects_a_sheriff() -> None:
    # two claims with the same evidence (a good check each), in either order
    both = {
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 9: good."),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 8: good."),
    }
    table = _table(play(both, config=SHORT).chain, 6, before="vote", day=1)
    assert not table.election
    plain = seer_belief(table)
    assert plain.confidence == 0.35  # an even duel: the order of the claims gives nothing
    elected = seer_belief(replace(table, election=True))
    assert elected.trusted == 1  # the first claim keeps its edge in an election
    assert elected.confidence > plain.confidence


# -- the sheriff speaking last sums up the day and calls the vote (归票) --

ELECTION = GameConfig(identities=DEAL, sheriff=True, day_cap=2)
SHERIFF_7: dict[str, Answer] = {  # seat 7 runs alone; the seer vouches for him
    "d1.sheriff-run.s7": Choice(1),
    "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 7: good."),
}


def _play(script: dict[str, Answer]) -> Played:
    return play(script, config=ELECTION, deal=DEAL)


def test_the_sheriff_speaking_last_sums_up_and_calls_the_vote() -> None:
    played = _play(SHERIFF_7)
    [request] = played.asked_for("d1.speech.s7")
    assert request.view.observations[-1].phase == "day-speech"
    spoke = [e.meta["diff"]["speaker"] for e in played.events("day-speech")]
    assert spoke[-1] == 7  # the sheriff speaks last
    for seed in range(4):
        answer = MockPlayer(seed, 7).answer(request)
        assert isinstance(answer, Speech)
        said = parse_speech(answer.text)
        assert said.vote is not None
        assert said.vote not in (4, 7)  # the call falls on a suspect
        assert any(opening in answer.text for opening in PHRASES["sum.open"])


def test_a_good_seat_that_trusts_the_sheriff_votes_as_he_called() -> None:
    silent = _play({**SHERIFF_7, "d1.speech.s7": Speech("I have heard everyone.")})
    [request] = silent.asked_for("d1.vote.r1.s8")
    alone = MockPlayer(3, 8).answer(request)
    assert isinstance(alone, Choice)
    call = next(s for s in (9, 6, 5, 3, 2, 1) if s != alone.target)
    text = f"As sheriff I speak last, so let me sum up the day. My call as sheriff: we all vote seat {call} today."
    called = _play({**SHERIFF_7, "d1.speech.s7": Speech(text)})
    [request] = called.asked_for("d1.vote.r1.s8")
    answer = MockPlayer(3, 8).answer(request)
    assert isinstance(answer, Choice)
    assert answer.target == call  # the seer cleared the sheriff: seat 8 follows his call
    assert answer.reasoning == f"the sheriff I trust called seat {call}"


def test_the_sheriff_calls_the_vote_on_the_wolf_of_the_seer_he_believes() -> None:
    played = _play(
        {
            "d1.sheriff-run.s8": Choice(1),
            "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 2: a wolf."),
        }
    )
    [request] = played.asked_for("d1.speech.s8")
    for seed in range(4):
        answer = MockPlayer(seed, 8).answer(request)
        assert isinstance(answer, Speech)
        assert parse_speech(answer.text).vote == 2
