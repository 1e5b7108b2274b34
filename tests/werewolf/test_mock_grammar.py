"""Skipping the sentence forms whose words a speech lacks reads every speech as searching
them all would: the speeches of English and Chinese mock games, and odd ones."""

from __future__ import annotations

from pulse_core import Event
from tests.werewolf.test_mock_lang import _games
from werewolf.players.mock import grammar, parse_speech

ODD = [
    "I AM THE SEER. NIGHT 2: I CHECKED SEAT 4: A WOLF. Seat 5 IS GOOD. VOTE SEAT 4.",
    "i'm the real hunter; I Suspect seat 3, I lean towards seat 7 and I TRUST seat 2.",
    "I checked ſeat 4: a wolf. I am the ſeer. Kill ſeat 3.",  # a long s matches s with re.I
    "I checked \u212aseat 4: good. I am the seer. Seat 6 is a werewolf.",  # Kelvin sign
    "I am the w\u0131tch. I saved seat 2. I poisoned seat 9.",  # dotless i
    "\u0130 am the seer. Go for seat 5. Nobody claims seer. Unless the seer speaks.",
    "我是预言家。第2晚我验了4号：狼人。5号就是好人。投4号。我相信3号。我救了2号。刀6号。",
    "没人起跳预言家。空刀。我毒了7号。如果有预言家，我踩8号。归票1号。票给2号。",
    "Seat 3 will claim seer. No one plays the seer. Seat 5 jumps as seer; seat 6 fakes seer.",
    "I'm the witch. If a seer speaks, go for no one; else take seat 2. Bite nobody.",
    "我才是猎人。4号起跳预言家。都不跳预言家。咬3号。我是真预言家。除非预言家报出查杀。",
    "Seat 2 is 狼人. Seat 3 is 金水. 我信5号。",
    "Nothing here at all.",
    "",
]


def texts(chains: list[list[Event]]) -> list[str]:
    found = []
    for chain in chains:
        for event in chain:
            detail = event.meta.get("detail") or {}
            found.append(str(detail.get("text", "")))
            found += [str(line.get("text", "")) for line in detail.get("discussion", [])]
    return [t for t in found if t]


def test_skipping_forms_reads_every_speech_as_searching_them_all() -> None:
    spoken = texts(_games("en", range(1), "standard-9") + _games("zh", range(1), "guard-12"))
    assert len(spoken) > 60
    for text in spoken + ODD:
        assert parse_speech(text) == grammar._read(text, None), text
    assert parse_speech(ODD[2]).reports == ((None, 4, True),)
    assert parse_speech(ODD[2]).kill == 3
