"""Mock wolves reasoning from scripted views: they go around a protection that can repeat,
keep their fake seer's story straight at night, vote as one pack, and a table with two seer
claims and nothing to tell them apart splits between them.

The standard deal of ``scripted.DEAL``: seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9
villagers. The seer-doctor deal below: seats 1-2 wolves, 3 seer, 4 doctor, 5-8 villagers.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from tests.werewolf.scripted import kill, play, votes
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig, Reveal
from werewolf.decisions import Choice, Speech, WitchChoice
from werewolf.players import MockPlayer
from werewolf.players.mock import PERSONALITIES, parse_speech, read_table
from werewolf.players.mock.beliefs import infer

W, V = Identity.WEREWOLF, Identity.VILLAGER
DOCTOR_DEAL = (W, W, Identity.SEER, Identity.DOCTOR, V, V, V, V)
DOCTOR_BOARD = board_config("seer-doctor-8").model_copy(update={"day_cap": 2})
SHORT = GameConfig(day_cap=2)


def test_a_knife_the_doctor_stopped_is_not_tried_again() -> None:
    script = {
        "n1.doctor.s4": Choice(5),
        **kill(1, 5, wolves=(1, 2)),  # the doctor is on seat 5: nobody dies
        "n2.doctor.s4": Choice(5),
    }
    played = play(script, config=DOCTOR_BOARD, deal=DOCTOR_DEAL)
    [request] = played.asked_for("n2.wolf-kill.r1.s1")
    table = read_table(request.view)
    assert table.shield_repeats
    assert table.blocked == {5: 1}
    for seed in range(8):  # whatever the draw, the pack knifes elsewhere
        answer = MockPlayer(seed, 1).answer(request)
        assert isinstance(answer, Choice)
        assert answer.target not in (5, None), seed


def test_with_a_witch_only_a_saved_seat_is_fair_game_again() -> None:
    played = play({**kill(1, 7), "n1.witch.s5": WitchChoice(save=True)}, config=SHORT)
    [request] = played.asked_for("n2.wolf-kill.r1.s1")
    table = read_table(request.view)
    assert table.blocked == {7: 1}
    assert not table.shield_repeats  # one antidote, and it is spent


def test_while_our_seer_duels_hers_the_pack_spares_her_and_our_framed_seat() -> None:
    script = {
        **kill(1, 9),
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 7: a wolf. Vote seat 7."),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 8: good. Vote seat 1."),
    }
    played = play(script, config=SHORT)
    [request] = played.asked_for("n2.wolf-kill.r1.s2")
    for seed in range(8):  # her death at night would prove her; seat 7's, disprove ours
        answer = MockPlayer(seed, 2).answer(request)
        assert isinstance(answer, Choice)
        assert answer.target not in (4, 7), seed


def test_a_wolf_votes_with_the_seat_a_fellow_wolf_pushed() -> None:
    script = {**kill(1, 9), "d1.speech.s1": Speech("Seat 8 dodged every question. Vote seat 8.")}
    played = play(script, config=SHORT)
    [request] = played.asked_for("d1.vote.r1.s3")
    for seed in range(8):
        answer = MockPlayer(seed, 3).answer(request)
        assert isinstance(answer, Choice)
        assert answer.target == 8, seed


def test_two_seer_claims_with_nothing_between_them_split_the_table() -> None:
    script = {
        **kill(1, 9),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 8: good."),
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 7: good."),
    }
    played = play(script, config=SHORT)
    [request] = played.asked_for("d1.vote.r1.s6")  # a seat neither report names
    table = read_table(request.view)
    steady = PERSONALITIES["steady"]
    calm = replace(steady, noise=0.0)
    assert infer(table, calm, Random(0)).seer.trusted == 1  # the earlier claim (seat 1 spoke first)
    trusted = {infer(table, steady, Random(s)).seer.trusted for s in range(40)}
    assert trusted == {1, 4}  # seats weigh the two claimers by their own impression


SHOWN = GameConfig(day_cap=2, reveal_on_death=Reveal.IDENTITY)


def test_where_death_shows_the_card_a_revealed_seer_unmasks_her_rival() -> None:
    script = {
        **kill(1, 9),
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 4: a wolf. Vote seat 4."),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 1: a wolf. Vote seat 1."),
        **votes(1, 4),
    }
    played = play(script, config=SHOWN)
    [request] = played.asked_for("d2.vote.r1.s8")
    table = read_table(request.view)
    assert table.revealed == {4: False, 9: False}  # the exiled seer and the night victim
    mind = infer(table, replace(PERSONALITIES["steady"], noise=0.0), Random(0))
    assert mind.seer.caught[1] == ("rival_shown", 4)
    assert mind.p(1) > 0.95


def test_where_death_shows_the_card_the_pack_plans_no_fake_seer() -> None:
    played = play(kill(1, 9), config=SHOWN)
    [request] = played.asked_for("n1.wolf-talk.s1")
    for seed in range(30):
        answer = MockPlayer(seed, 1, "bold").answer(request)
        assert isinstance(answer, Speech)
        said = parse_speech(answer.text)
        assert said.fake_seer is None, answer.text


def test_the_witch_never_poisons_a_seer_claimer_only_out_argued() -> None:
    script = {
        **kill(1, 9),
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 7: a wolf. Vote seat 7."),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 1: a wolf. Vote seat 1."),
        **kill(2, 8),
    }
    played = play(script, config=SHORT)
    [request] = played.asked_for("n2.witch.s5")
    poisoned = set()
    for seed in range(30):
        answer = MockPlayer(seed, 5, "bold").answer(request)
        assert isinstance(answer, WitchChoice)
        poisoned.add(answer.poison)
    assert not poisoned & {1, 4}, poisoned  # one of them lies, but which is an impression


def test_where_death_showed_the_seer_nobody_waits_for_her_report() -> None:
    def follows_seer(victim: int) -> list[bool]:
        played = play(kill(1, victim), config=SHOWN)
        [request] = played.asked_for("d1.speech.s7")
        assert read_table(request.view).seer_dead is (victim == 4)
        answers = [MockPlayer(seed, 7, "steady").answer(request) for seed in range(30)]
        return [isinstance(a, Speech) and parse_speech(a.text).follow_seer for a in answers]

    assert any(follows_seer(9))  # a villager died: the seer may still report today
    assert not any(follows_seer(4))  # the seer's card was shown at dawn
