"""The mock reads the record from its own view: what each seat may say of the night's dead
(the wolves' knife, the witch's poison, a protected night), and speech that keeps to the
speaker's own words and to the public facts. Scripted games up to a decision, then the
mock's answer to it, over many seeds (the wording is drawn)."""

from __future__ import annotations

import re

from tests.werewolf.scripted import DEAL, HUNTER, SEER, WITCH, V, W, kill, play
from werewolf.cast import Identity
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, Request, Speech, WitchChoice
from werewolf.players import MockPlayer
from werewolf.players.mock import parse_speech
from werewolf.players.mock.strategy.wolf_seer import fake_checks
from werewolf.players.mock.turn import Turn

SHORT = GameConfig(day_cap=2)
GUARD_DEAL = (W, W, W, SEER, WITCH, HUNTER, Identity.GUARD, V, V)
SEEDS = range(40)

# a sentence that puts a seat's death on the wolves ("The wolves took seat 9 in the night.")
_WOLVES_KILLED = re.compile(r"[^.!?]*\bwolves\b[^.!?]*\b(?:took|killed|chose)\b[^.!?]*")


def _request(script: dict[str, Answer], key: str, **config: object) -> Request:
    deal = config.pop("deal", DEAL)
    settings = GameConfig(identities=deal, day_cap=2, **config)  # type: ignore[arg-type]
    played = play(script, config=settings, deal=deal)  # type: ignore[arg-type]
    return played.asked_for(key)[0]


def _speeches(request: Request) -> list[str]:
    texts = []
    for seed in SEEDS:
        answer = MockPlayer(seed, request.seat).answer(request)
        assert isinstance(answer, Speech)
        texts.append(answer.text)
    return texts


def _blamed_on_wolves(text: str) -> set[int]:
    return {int(s) for m in _WOLVES_KILLED.findall(text) for s in re.findall(r"seat (\d+)", m)}


# seat 7 knifed, seat 9 poisoned by the witch (seat 5) on night 1: two dead at dawn
TWO_DEAD = {**kill(1, 7), "n1.witch.s5": WitchChoice(poison=9)}


def test_the_witch_never_says_the_wolves_killed_her_own_poison_victim() -> None:
    texts = _speeches(_request(TWO_DEAD, "d1.speech.s5"))
    assert not any(9 in _blamed_on_wolves(t) for t in texts)
    assert any("seat 9" in t for t in texts)  # the deaths are told
    assert not any("the witch" in t for t in texts)  # not of herself, as of another


def test_two_deaths_in_a_night_mean_one_was_poisoned() -> None:
    texts = _speeches(_request(TWO_DEAD, "d1.speech.s8"))
    assert not any(_blamed_on_wolves(t) for t in texts)  # either may be the poison
    assert any("poison" in t for t in texts)  # and some say so


def test_a_lone_death_is_the_knife_only_when_no_poison_could_explain_it() -> None:
    # night 1: the witch had no case to poison on, the death is the wolves'
    first = _speeches(_request(kill(1, 7), "d1.speech.s8"))
    assert any(7 in _blamed_on_wolves(t) for t in first)
    # night 2, the knife guarded, the poison on seat 9: a lone death, and not the wolves'
    script: dict[str, Answer] = {
        **kill(1, None),
        **kill(2, 8),
        "n2.guard.s7": Choice(8),
        "n2.witch.s5": WitchChoice(poison=9),
    }
    later = _speeches(_request(script, "d2.speech.s6", deal=GUARD_DEAL))
    assert not any(9 in _blamed_on_wolves(t) for t in later)


def test_a_peaceful_night_with_a_guard_is_not_read_as_the_antidote_alone() -> None:
    script: dict[str, Answer] = {**kill(1, None), **kill(2, 8), "n2.guard.s7": Choice(8)}
    texts = _speeches(_request(script, "d2.speech.s9", deal=GUARD_DEAL))
    antidote_only = ("probably used her antidote", "tells us the antidote is gone")
    assert not any(said in t for t in texts for said in antidote_only)
    assert any("guard" in t or "protect" in t for t in texts)


def test_a_vote_never_goes_against_the_seer_the_voter_just_trusted() -> None:
    # seat 8 said it trusts seat 4; then seat 4 called seat 8 a wolf: a liar to seat 8,
    # yet seat 8 does not turn on the seat it vouched for without a word
    script: dict[str, Answer] = {
        **kill(1, None),
        "d1.speech.s8": Speech("I trust seat 4."),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 8: a wolf. Vote seat 8."),
    }
    request = _request(script, "d1.vote.r1.s8")
    for seed in SEEDS:
        answer = MockPlayer(seed, 8).answer(request)
        assert isinstance(answer, Choice)
        assert answer.target != 4


def test_last_words_after_a_night_death_do_not_say_the_table_exiled_me() -> None:
    texts = _speeches(_request(kill(1, 7), "d1.last-words.s7"))
    assert not any("exiled" in t for t in texts)
    assert any("good" in t for t in texts)


def test_the_guard_shows_his_card_in_last_words() -> None:
    texts = _speeches(_request(kill(1, 7), "d1.last-words.s7", deal=GUARD_DEAL))
    assert all("I am the guard" in t or "I'm the guard" in t for t in texts)


def _turn(request: Request, seed: int) -> Turn:
    """The turn ``MockPlayer(seed, seat)`` decides ``request`` from."""
    player = MockPlayer(seed, request.seat)
    table = player._reader.read(request.view)
    mind, public = player._minds(table)
    drawn_as = (seed, request.seat, request.key)
    return Turn(request, table, mind, public, player.temper, drawn_as, "en")


def test_a_fake_seer_never_checks_a_dead_seat_nor_the_seat_that_backs_it() -> None:
    # seat 4 claimed the seer and was killed on night 2; seat 9 said it trusts seat 1
    script: dict[str, Answer] = {
        **kill(1, None),
        **kill(2, 4),
        "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 7: good."),
        "d1.speech.s9": Speech("I trust seat 1."),
    }
    request = _request(script, "d2.speech.s1")
    for seed in SEEDS:
        turn = _turn(request, seed)
        public = turn.public
        assert public is not None
        checks = fake_checks(turn, public)
        assert len(checks) == 2  # nights 1 and 2
        assert all(seat not in (4, 9) for _, seat, wolf in checks if wolf)
        assert all(turn.table.is_alive(seat) for _, seat, _ in checks)


def test_a_blending_wolf_now_and_then_doubts_a_fellow_wolf_without_voting_for_him() -> None:
    script: dict[str, Answer] = {
        **kill(1, None),
        **kill(2, None),
        "d1.speech.s7": Speech("I suspect seat 8. Vote seat 8."),
        "d1.speech.s9": Speech("I suspect seat 8 and seat 3."),
    }
    request = _request(script, "d2.speech.s2")
    hooked = 0
    for text in _speeches(request):
        said = parse_speech(text)
        assert said.vote not in (1, 3)  # the pack's vote stays on a good seat
        hooked += bool({1, 3} & set(said.accuses))
    assert 0 < hooked < len(SEEDS) // 2
