"""Skipping the sentence forms whose words a speech lacks reads every speech as searching
them all would: the speeches of English and Chinese mock games, and odd ones."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulse_core import Event
from tests.werewolf.test_mock_lang import _games
from werewolf.players.mock import Said, grammar, parse_speech

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


# The English forms as first written (``\b`` first, matched with re.I on the text as it is):
# the plain computation the faster patterns (a word before its ``\b`` check, searched without
# re.I in the lower-cased text) must match exactly.
_SEAT = r"seat\s*#?\s*(\d+)"
_WOLF_OR_GOOD = r"(a\s+wolf|a\s+werewolf|wolf|werewolf|good|狼人|狼|查杀|好人|金水)"
PLAIN_EN = {
    "_ROLE_CLAIM": r"\bI\s*(?:am|'m)\s+(?:the\s+)?(?:real\s+|true\s+)?(seer|witch|hunter)\b",
    "_REPORT": r"(?:\bnight\s+(\d+)\s*[:,.-]?\s*)?\bI\s+checked\s+"
    + _SEAT
    + r"\s*[:,.-]?\s*(?:is\s+)?"
    + _WOLF_OR_GOOD,
    "_OPINION": _SEAT + rf"\s+is\s+{_WOLF_OR_GOOD}\b",
    "_SUSPECT": r"\bI\s+(?:suspect|lean\s+(?:towards?|on))\s+" + _SEAT,
    "_VOTE": r"\bvot(?:e|ing)\s+(?:for\s+|out\s+)?"
    + _SEAT
    + r"|\bmy\s+vote(?:\s+goes\s+to|\s+is\s+on|\s+is\s+for|\s*:)\s*"
    + _SEAT,
    "_TRUST": r"\bI\s+(?:trust|believe)\s+" + _SEAT,
    "_SAVED": r"\bI\s+(?:saved|used\s+(?:the|my)\s+antidote\s+on)\s+" + _SEAT,
    "_POISONED": r"\bI\s+poisoned\s+" + _SEAT,
    "_KILL": r"\b(?:kill|knife|take|bite|go\s+for)\s+(?:" + _SEAT + r"|(nobody|no\s+one))",
    "_PLAN": r"\b(?:" + _SEAT + r"|(nobody|no\s+one))\s+(?:will\s+claim|claims|jumps\s+as"
    r"|fakes|plays)\s+(?:the\s+)?seer",
    "_FOLLOW_SEER": r"\b(?:unless|if)\s+(?:a|the)\s+seer\b",
}
SENTENCES = [
    "I am the seer",
    "I'm the real witch",
    "i am hunter",
    "night 2: I checked seat 4: a wolf",
    "I checked seat 12 is good",
    "Seat 3 is a werewolf",
    "I suspect seat 5",
    "I lean on seat 6",
    "vote seat 7",
    "voting for seat #8",
    "My vote goes to seat 9",
    "my vote: seat 1",
    "I trust seat 2",
    "I believe seat 3",
    "I saved seat 4",
    "I used the antidote on seat 5",
    "my vote:seat 3",
    "I poisoned seat 0",
    "Kill seat 6",
    "go for no one",
    "take nobody",
    "bite seat 100",
    "knife seat 2",
    "seat 4 will claim seer",
    "nobody claims the seer",
    "unless the seer",
    "if a seer",
    "我是预言家",
    "第2晚我验了4号：狼人",
    "投5号",
    "刀6号",
    "空刀",
    "没人起跳预言家",
    "除非预言家",
]
# what comes before a sentence: a word character (no word may start there), or not
GLUES = [
    "",
    " ",
    "  ",
    "\t",
    "\n",
    ". ",
    "x",
    "_",
    "4",
    "é",
    "\u017f",
    "\u212a",
    "\u0130",
    "\u0131",
    "号",
    "我",
    "٣",
]
CASES = [str, str.upper, str.title, str.swapcase]
TEXTS = st.lists(
    st.tuples(st.sampled_from(GLUES), st.sampled_from(SENTENCES), st.sampled_from(CASES)),
    max_size=6,
).map(lambda parts: "".join(glue + case(sentence) for glue, sentence, case in parts))


FOLDS = "\u0130\u0131\u017f\u212a"  # letters that match an ASCII one with re.I


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], list[str]]]:
    """Each match's span and groups (in lower case: the grammar reads them so)."""
    return [
        (m.span(), [g.lower() if g is not None else "-" for g in m.groups()])
        for m in pattern.finditer(text)
    ]


@given(TEXTS)
def test_the_faster_patterns_find_what_the_plain_ones_do(text: str) -> None:
    low = text.lower()
    for name, plain in PLAIN_EN.items():
        form = getattr(grammar, name)
        whole = re.compile(plain, re.I)
        if text.isascii():  # the way an ASCII text is searched
            assert _found(form.en_pattern, low) == _found(whole, text), (name, text)
        zh = form.pattern.pattern[len(f"(?:{form.en_pattern.pattern})|(?:") : -1]
        assert zh == form.zh_pattern.pattern
        both = re.compile(f"(?:{plain})|(?:{zh})", re.I)  # the way any other text is searched
        assert _found(form.pattern, text) == _found(both, text), (name, text)
        if not re.search("[A-Za-z]", text) and not any(c in text for c in FOLDS):
            # the way a text without a Latin letter is searched: the Chinese groups alone
            zh_only = [(span, groups[whole.groups :]) for span, groups in _found(both, text)]
            assert _found(form.zh_pattern, text) == zh_only, (name, text)
    assert parse_speech.__wrapped__(text) == grammar._read(text, None)


def test_the_english_patterns_are_in_lower_case() -> None:
    for name in PLAIN_EN:
        pattern = getattr(grammar, name).en_pattern
        assert pattern.pattern == pattern.pattern.lower(), name
        assert not pattern.flags & re.I, name


def test_a_form_without_a_group_of_english_words_is_refused() -> None:
    """A text without a Latin letter is searched only for a form's Chinese words: sound
    only while every form needs an English word (one holding an ASCII letter) otherwise."""
    with pytest.raises(ValueError, match="no group of English words"):
        grammar._Form("x", "y", (("seat", "号"),), ("号",))
    grammar._Form("x", "y", (("seat", "号"), ("vote",)), ("号",))  # one such group is enough


def test_a_said_filled_slot_by_slot_is_the_one_its_init_makes() -> None:
    fields = (("seer",), ((2, 4, True),), ((5, False),), (4, 6), (6,), (3,), (1,), (7,))
    fields += (8, True, 9, True, True)
    assert grammar._said(*fields) == Said(*fields)
    assert grammar._said(*fields).vote == 6
    with pytest.raises(ValueError, match="shorter"):  # every field, no fewer
        grammar._said(*fields[:-1])
