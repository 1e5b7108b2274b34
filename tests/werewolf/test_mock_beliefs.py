"""A mock seat's beliefs, updated from scripted views: claims and counter-claims, seer
reports and their consistency, votes, deaths, saves, last words, and the wolves' pack.

The deal of ``scripted.DEAL``: seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers.
Beliefs are taken with no gut feeling (noise 0), so each figure follows from evidence only.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from pulse_core import Event
from tests.werewolf.scripted import kill, play, votes
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, Speech, WitchChoice
from werewolf.players import MockPlayer
from werewolf.players.mock import PERSONALITIES, read_table
from werewolf.players.mock.beliefs import Mind, infer
from werewolf.visibility import view

CALM = replace(PERSONALITIES["steady"], noise=0.0)
SHORT = GameConfig(day_cap=2)  # scripted games need not run on: a view is all a test needs


def mind_at(chain: list[Event], seat: int, *, before: str, day: int = 1) -> Mind:
    """What ``seat`` believes just before the first ``before`` event of ``day``."""
    cut = next(i for i, e in enumerate(chain) if e.role == before and e.meta["day"] == day)
    return infer(read_table(view(chain[:cut], seat)), CALM, Random(0))


def public_at(chain: list[Event], seat: int, *, before: str, day: int = 1) -> Mind:
    cut = next(i for i, e in enumerate(chain) if e.role == before and e.meta["day"] == day)
    return infer(read_table(view(chain[:cut], seat)), CALM, Random(0), public=True)


def kinds(mind: Mind, seat: int) -> set[str]:
    return {e.reason.kind for e in mind.evidence if e.seat == seat}


SEER_FINDS_2: dict[str, Answer] = {
    **kill(1, 7),
    "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 2: a wolf. Vote seat 2."),
}


def test_before_anything_is_said_every_other_seat_is_as_likely_a_wolf() -> None:
    played = play({**kill(1, None)}, config=SHORT)
    mind = mind_at(played.chain, 8, before="day-speech")
    probs = mind.wolf_probabilities()
    assert set(probs) == {1, 2, 3, 4, 5, 6, 7, 9}  # the living others
    assert max(probs.values()) - min(probs.values()) < 1e-6
    assert abs(sum(probs.values()) - 3) < 0.01  # the deck's three wolves


def test_a_seer_report_makes_its_seat_the_likeliest_wolf_and_the_seer_trusted() -> None:
    played = play(SEER_FINDS_2, config=SHORT)
    mind = mind_at(played.chain, 8, before="vote")
    assert mind.likeliest(range(1, 10)) == 2
    assert mind.p(2) > 0.8
    assert mind.p(4) < 0.2  # a lone seer claim is believed
    assert mind.seer.trusted == 4
    assert "seer_found" in kinds(mind, 2)


def test_the_probabilities_still_hold_three_wolves_among_the_others() -> None:
    mind = mind_at(play(SEER_FINDS_2, config=SHORT).chain, 8, before="vote")
    assert abs(sum(mind.probs.values()) - 3) < 0.01


def test_a_counter_claim_that_calls_me_a_wolf_is_a_lie_to_me_only() -> None:
    script = {
        **SEER_FINDS_2,
        "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 8: a wolf. Vote seat 8."),
    }
    played = play(script, config=SHORT)
    framed = mind_at(played.chain, 8, before="vote")
    assert framed.seer.liars == (1,)
    assert framed.seer.caught[1][0] == "framed_me"
    assert framed.p(1) > 0.9
    assert framed.seer.trusted == 4
    # seat 9 was not framed: two claims, both possible, and the evidence is thinner
    other = mind_at(played.chain, 9, before="vote")
    assert other.p(1) < framed.p(1)


def test_a_report_against_the_wolves_own_victim_gives_the_liar_away() -> None:
    script = {
        **kill(1, 9),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 3: good."),
        "d1.speech.s2": Speech("I am the seer. Night 1: I checked seat 9: a wolf."),
    }
    mind = mind_at(play(script, config=SHORT).chain, 7, before="vote")
    assert 2 in mind.seer.liars
    assert mind.seer.caught[2] == ("framed_victim", 9)
    assert mind.seer.trusted == 4
    assert mind.p(2) > mind.p(3)


def test_votes_against_the_seer_and_away_from_her_wolf_count_against_the_voter() -> None:
    script = {
        **SEER_FINDS_2,
        **votes(1, 2, voters=(4, 5, 6, 7, 8, 9)),
        "d1.vote.r1.s3": Choice(4),  # against the seer
        "d1.vote.r1.s1": Choice(9),  # away from the seer's wolf
    }
    played = play(script, config=SHORT)
    before = mind_at(played.chain, 8, before="vote")
    after = mind_at(played.chain, 8, before="wolf-night", day=2)
    assert "voted_seer" in kinds(after, 3)
    assert "shielded" in kinds(after, 1)
    assert "voted_wolf" in kinds(after, 9)
    assert after.p(3) > before.p(3)
    assert after.p(1) > before.p(1)
    assert after.p(9) < after.p(1)  # seat 9 voted with the seer


def test_a_night_victim_is_likely_good_and_its_last_words_weigh_more() -> None:
    script = {
        **kill(1, 7),
        "d1.last-words.s7": Speech("I suspect seat 3. Vote seat 3."),
        "d1.speech.s9": Speech("I suspect seat 5."),
    }
    played = play(script, config=SHORT)
    mind = mind_at(played.chain, 8, before="vote")
    assert mind.p(7) < 0.2
    assert "victim_accused" in kinds(mind, 3)
    assert "accused_by" in kinds(mind, 5)
    assert mind.p(3) > mind.p(5)


def test_the_witch_knows_whom_the_wolves_chose_and_that_seat_is_likely_good() -> None:
    script = {**kill(1, 6), "n1.witch.s5": WitchChoice(save=True)}
    played = play(script, config=SHORT)
    witch = mind_at(played.chain, 5, before="day-speech")
    villager = mind_at(played.chain, 8, before="day-speech")
    assert "wolves_target" in kinds(witch, 6)
    assert witch.p(6) < villager.p(6)
    assert not any(e.public for e in witch.evidence if e.reason.kind == "wolves_target")


def test_a_seat_is_never_held_quiet_before_it_has_spoken() -> None:
    script = {**kill(1, None), **kill(2, None)}
    played = play(script, config=SHORT)
    chain = played.chain
    first = next(e for e in chain if e.role == "day-speech" and e.meta["day"] == 2)
    speaker = first.meta["diff"]["speaker"]
    cut = chain.index(first) + 1  # day 2, after its first speech only
    mind = infer(read_table(view(chain[:cut], 9)), CALM, Random(0))
    quiet = {e.seat for e in mind.evidence if e.reason.kind == "quiet"}
    assert quiet <= {speaker}


def test_a_wolf_knows_the_pack_and_sees_how_exposed_a_mate_is() -> None:
    played = play(SEER_FINDS_2, config=SHORT)
    wolf = mind_at(played.chain, 1, before="vote")
    assert (wolf.p(2), wolf.p(3), wolf.p(8)) == (1.0, 1.0, 0.0)
    public = public_at(played.chain, 1, before="vote")
    assert public.likeliest([2, 3, 4, 5, 6, 7, 8, 9]) == 2  # the table has found seat 2


def test_a_claim_in_chinese_moves_beliefs_as_the_same_claim_in_english() -> None:
    zh = {**kill(1, 7), "d1.speech.s4": Speech("我是预言家。第1晚我验了2号：狼人。投2号。")}
    en_mind = mind_at(play(SEER_FINDS_2, config=SHORT).chain, 8, before="vote")
    zh_mind = mind_at(play(zh, config=SHORT).chain, 8, before="vote")
    assert zh_mind.probs == en_mind.probs


def test_the_player_reports_its_beliefs_for_the_living_other_seats() -> None:
    played = play(SEER_FINDS_2, config=SHORT)
    cut = next(i for i, e in enumerate(played.chain) if e.role == "vote")
    probs = MockPlayer(1, 8).mind(view(played.chain[:cut], 8)).wolf_probabilities()
    assert set(probs) == {1, 2, 3, 4, 5, 6, 9}  # seat 7 died at night
    assert max(probs, key=lambda s: probs[s]) == 2
    assert all(0.0 <= p <= 1.0 for p in probs.values())
