"""A mock wolf says as much as a good seat in its place would: no short speech gives it away.
The wolf backing the pack's seer argues the duel and the check like a believer of hers, a
seer claimer (real or fake) tells her next check, and every personality has a voice of its
own for the duel's lines, in both languages.

The standard deal of ``scripted.DEAL``: seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9
villagers.
"""

from __future__ import annotations

from random import Random

from tests.werewolf.scripted import kill, play
from werewolf.config import GameConfig
from werewolf.decisions import Speech
from werewolf.players import MockPlayer
from werewolf.players.mock import PERSONALITIES, parse_speech, pick_personality
from werewolf.players.mock.lang import Line, phrasings, render

SHORT = GameConfig(day_cap=2)
# seat 1 (a wolf) plays the seer and frames seat 7; the real seer, seat 4, clears seat 8
DUEL = {
    **kill(1, 9),
    "d1.speech.s1": Speech("I am the seer. Night 1: I checked seat 7: a wolf. Vote seat 7."),
    "d1.speech.s4": Speech("I am the seer. Night 1: I checked seat 8: good. Vote seat 1."),
}


def _said_any(text: str, key: str, a: int, b: int | None, seed: int, seat: int) -> bool:
    voice = pick_personality(seed, seat)
    return any(p in text for p in phrasings("en", key, a, b, 1, "", (), voice))


def test_a_wolf_backing_the_packs_seer_argues_the_duel_and_the_check() -> None:
    played = play(DUEL, config=SHORT)
    [request] = played.asked_for("d2.speech.s2")  # both claims heard
    for seed in range(6):
        speech = MockPlayer(seed, 2).answer(request)
        assert isinstance(speech, Speech)
        said = parse_speech(speech.text)
        assert 1 in said.trusts, (seed, speech.text)
        assert said.vote == 7, (seed, speech.text)
        assert 4 in said.accuses, (seed, speech.text)  # the rival seer called a liar
        duel = _said_any(speech.text, "why.liar.counter_claim", 4, 1, seed, 2)
        check = _said_any(speech.text, "why.seer_found", 7, 1, seed, 2)
        assert duel, (seed, speech.text)  # and the facts behind both
        assert check, (seed, speech.text)


def test_seer_claimers_real_and_fake_tell_their_next_check() -> None:
    played = play(DUEL, config=SHORT)
    for seat in (1, 4):
        [request] = played.asked_for(f"d2.speech.s{seat}")
        for seed in range(4):
            speech = MockPlayer(seed, seat).answer(request)
            assert isinstance(speech, Speech)
            told = [
                a for a in range(1, 10) if _said_any(speech.text, "seer.next", a, None, seed, seat)
            ]
            assert len(told) == 1, (seat, seed, speech.text)
            assert told[0] != seat, (seat, seed, speech.text)
            if seat == 1:  # the fake seer never plans to look at a fellow wolf
                assert told[0] not in (2, 3), (seed, speech.text)


def test_each_personality_says_the_duel_in_a_voice_of_its_own() -> None:
    lines = [Line("trust", 4), Line("liar", 6), Line("vote", 6)]
    for lang in ("en", "zh"):
        heard = {
            voice: {render(lines, lang, Random(seed), voice) for seed in range(60)}
            for voice in PERSONALITIES
        }
        for voice, texts in heard.items():
            others = set().union(*(t for v, t in heard.items() if v != voice))
            own = texts - others
            assert len(own) >= len(texts) * 0.7, (lang, voice)  # mostly its own words
