"""The claim grammar: what a speech claims, read back from its words, in English and Chinese.

Mock speeches vary their wording, but every claim is carried by one of a few plain sentence
forms that ``parse_speech`` reads back, so a reader of the log sees the same thing the mocks
see. Matching is case-insensitive, anywhere in the text, seats as digits::

    I am the seer. / 我是预言家。                         a role claim (seer, witch, hunter)
    Night 2: I checked seat 4: a wolf. / 第2晚我验了4号：狼人。   a check report
    Seat 4 is a wolf. / 4号是狼人。                       an opinion ("a wolf" also accuses)
    I suspect seat 4. / I lean towards seat 4. / 我怀疑4号。   an accusation
    Vote seat 4. / My vote goes to seat 4. / 投4号。       the vote announced (an accusation)
    I trust seat 4. / I believe seat 4. / 我相信4号。/ 我站边4号。   support, e.g. for a seer claimer
    I saved seat 4. / I used the antidote on seat 4. / 我救了4号。/ 解药用在了4号。  a save
    I poisoned seat 4. / 我毒了4号。                      a witch's poison
    Unless the seer names a wolf. / 除非预言家报出查杀。      the vote follows a seer's report
    (night) Kill seat 4. / Take seat 4. / 刀4号。 / Kill nobody. / 空刀。   the proposed victim
    (night) Seat 4 will claim seer. / Nobody claims seer. / 4号起跳预言家。 / 没人起跳预言家。

Speeches that use none of these forms (LLM or human ones, usually) add no claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ...records import slot_setters

__all__ = ["Said", "parse_speech"]

_SEAT = r"seat\s*#?\s*(\d+)"
_ZSEAT = r"(\d+)\s*号"
_WOLF_OR_GOOD = r"(a\s+wolf|a\s+werewolf|wolf|werewolf|good|狼人|狼|查杀|好人|金水)"
_ZH_ROLES = {"预言家": "seer", "女巫": "witch", "猎人": "hunter"}


class _Text:
    """A speech as the forms search it: ``low`` is the text in lower case, to skip forms by
    (None: every form is searched whole, see ``parse_speech``); ``ascii``: the English
    patterns alone are searched, in ``low``; ``latin``: it holds an ASCII letter. Without
    one (and without a letter that folds to one, see ``_FOLDS_TO_ASCII``) no English
    sentence can match, so the Chinese patterns alone find what the whole ones find."""

    __slots__ = ("ascii", "latin", "low", "text")

    def __init__(self, text: str, low: str | None) -> None:
        self.text, self.low = text, low
        self.ascii = text.isascii()
        self.latin = self.ascii or _LATIN.search(text) is not None


_LATIN = re.compile("[A-Za-z]")


class _Form:
    """One sentence form, English or Chinese, with words any match of it contains: a text
    is searched only if it holds one of ``zh``, or a word of each group of ``en`` (most
    speeches use a few of the forms). Words are in lower case. An ASCII text is searched
    with the English pattern alone (the Chinese one needs a Chinese character to match),
    in lower case and without ``re.I``: for ASCII that finds the same matches, and a
    search that need not fold case skips ahead to the pattern's first letters. So the
    English pattern is written in lower case. A text without a Latin letter is searched
    with the Chinese pattern alone, without ``re.I``: its only letters with a case are the
    ASCII ones of ``_WOLF_OR_GOOD``, which such a text lacks; and only if it holds one of
    ``zh``, as every form has a group of English words that each hold an ASCII letter
    (checked when the form is made)."""

    __slots__ = ("en", "en_pattern", "pattern", "zh", "zh_pattern")

    def __init__(self, en: str, zh: str, en_words: Words, zh_words: tuple[str, ...]) -> None:
        self.pattern = re.compile(f"(?:{en})|(?:{zh})", re.I)
        self.en_pattern = re.compile(en)  # for ASCII text in lower case
        self.zh_pattern = re.compile(zh)  # for text without a Latin letter
        self.en, self.zh = en_words, zh_words
        if not any(all(_LATIN.search(w) for w in group) for group in en_words):
            raise ValueError(f"no group of English words for {en!r} (see finditer)")

    def finditer(self, text: _Text) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text.text)``, or the same matches found the cheaper way the
        text allows (see ``_Text``)."""
        low = text.low
        if low is None:
            return self.pattern.finditer(text.text)
        if text.ascii:  # no Chinese word to look for, no Chinese sentence to match
            for group in self.en:
                for word in group:
                    if word in low:
                        break
                else:
                    return iter(())
            return self.en_pattern.finditer(low)
        if not text.latin:  # no word of ``en``'s English group can be there: a Chinese one?
            for word in self.zh:
                if word in low:
                    return self.zh_pattern.finditer(text.text)
            return iter(())
        if any(w in low for w in self.zh) or all(any(w in low for w in g) for g in self.en):
            return self.pattern.finditer(text.text)
        return iter(())


Words = tuple[tuple[str, ...], ...]  # groups of words: one of each group is in every match


def _word(word: str) -> str:
    """``\\b`` then ``word`` (whose first letter is a word character), written with the
    word first: the same matches, but a search can skip ahead to the word's first letter,
    where a pattern that opens with ``\\b`` is tried at every position of the text."""
    return rf"{word}(?<!\w{word})"


# non-ASCII letters that match an ASCII one with re.I: a text holding one is searched whole
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")

_ROLE_CLAIM = _Form(
    _word("i") + r"\s*(?:am|'m)\s+(?:the\s+)?(?:real\s+|true\s+)?(seer|witch|hunter)\b",
    r"我(?:才)?是(?:真)?(预言家|女巫|猎人)",
    (("am", "'m"), ("seer", "witch", "hunter")),
    ("是预言家", "是女巫", "是猎人", "是真"),
)
_REPORT = _Form(
    # "(night N: )?I checked", as two ways to begin (the night first, as "?" tries it)
    rf"(?:{_word('night')}"
    + r"\s+(\d+)\s*[:,.-]?\s*i|i)(?<!\wi)\s+checked\s+"
    + _SEAT
    + r"\s*[:,.-]?\s*(?:is\s+)?"
    rf"{_WOLF_OR_GOOD}",
    r"(?:第\s*(\d+)\s*晚\s*[:：,，]?\s*)?我验了?\s*" + _ZSEAT + r"\s*[:：,，]?\s*(?:是)?\s*"
    rf"{_WOLF_OR_GOOD}",
    (("checked",),),
    ("我验",),
)
_OPINION = _Form(
    _SEAT + rf"\s+is\s+{_WOLF_OR_GOOD}\b",
    _ZSEAT + rf"(?:就)?是\s*{_WOLF_OR_GOOD}",
    (("seat",), ("wolf", "good", "狼", "查杀", "好人", "金水")),
    ("号是", "号就是"),
)
_SUSPECT = _Form(
    _word("i") + r"\s+(?:suspect|lean\s+(?:towards?|on))\s+" + _SEAT,
    r"我(?:最)?(?:怀疑|踩)\s*" + _ZSEAT,
    (("suspect", "lean"),),
    ("我怀疑", "我踩", "我最"),
)
_VOTE = _Form(
    _word("vot")
    + r"(?:e|ing)\s+(?:for\s+|out\s+)?"
    + _SEAT
    + "|"
    + _word("my")
    + r"\s+vote(?:\s+goes\s+to|\s+is\s+on|\s+is\s+for|\s*:)\s*"
    + _SEAT,
    r"(?:投|票给|归票)\s*" + _ZSEAT,
    (("vot",),),
    ("投", "票给", "归票"),
)
_TRUST = _Form(
    _word("i") + r"\s+(?:trust|believe)\s+" + _SEAT,
    r"我(?:相信|信|站边)\s*" + _ZSEAT,
    (("trust", "believe"),),
    ("我信", "我相信", "我站边"),
)
_SAVED = _Form(
    _word("i") + r"\s+(?:saved|used\s+(?:the|my)\s+antidote\s+on)\s+" + _SEAT,
    r"我救了?\s*" + _ZSEAT + r"|解药(?:我)?(?:用在了?|给了|救了)\s*" + _ZSEAT,
    (("saved", "antidote"),),
    ("我救", "解药"),
)
_POISONED = _Form(
    _word("i") + r"\s+poisoned\s+" + _SEAT, r"我毒了?\s*" + _ZSEAT, (("poisoned",),), ("我毒",)
)
_KILL = _Form(
    "(?:"
    + "|".join(_word(w) for w in ("kill", "knife", "take", "bite"))
    + f"|{_word('go')}"
    + r"\s+for)\s+(?:"
    + _SEAT
    + r"|(nobody|no\s+one))",
    r"(?:刀|咬)\s*" + _ZSEAT + r"|(空刀)",
    (("kill", "knife", "take", "bite", "go"), ("seat", "no")),
    ("刀", "咬"),
)
_PLAN = _Form(
    r"\b(?:" + _SEAT + r"|(nobody|no\s+one))\s+(?:will\s+claim|claims|jumps\s+as|fakes|plays)\s+"
    r"(?:the\s+)?seer",
    r"(?:"
    + _ZSEAT
    + r"|(没人|都不))\s*(?:明天|白天|继续|接着|还)*\s*(?:来)?(?:起跳|悍跳|跳)\s*预言家",
    (("claim", "jumps", "fakes", "plays"), ("seer",)),
    ("跳",),
)
_FOLLOW_SEER = _Form(
    f"(?:{_word('unless')}|{_word('if')})" + r"\s+(?:a|the)\s+seer\b",
    r"(?:除非|如果有)预言家",
    (("unless", "if"), ("seer",)),
    ("除非预言家", "如果有预言家"),
)


@dataclass(frozen=True, slots=True)
class Said:
    """What one speech claims, read with the claim grammar."""

    roles: tuple[str, ...] = ()  # identities claimed ("seer", "witch", "hunter")
    reports: tuple[tuple[int | None, int, bool], ...] = ()  # (night or None, seat, wolf)
    opinions: tuple[tuple[int, bool], ...] = ()  # (seat, wolf) from "Seat N is ..."
    accuses: tuple[int, ...] = ()  # suspicions, votes and "is a wolf" opinions
    votes: tuple[int, ...] = ()  # the seats of vote sentences (the last one counts)
    trusts: tuple[int, ...] = ()
    saved: tuple[int, ...] = ()
    poisoned: tuple[int, ...] = ()
    kill: int | None = None  # "Kill seat N"
    kill_said: bool = False  # a kill sentence was there ("Kill nobody" gives kill=None)
    fake_seer: int | None = None  # "Seat N will claim seer"
    plan_said: bool = False
    follow_seer: bool = False  # "unless the seer names a wolf": the vote may follow a report

    @property
    def vote(self) -> int | None:
        """The seat this speech says its vote goes to, if any."""
        return self.votes[-1] if self.votes else None


# a Said is made for every distinct speech heard: filled slot by slot (the frozen __init__
# sets each field through object.__setattr__, twice the cost); all fields, in their order
_SAID_SET = slot_setters(
    Said,
    (
        "roles",
        "reports",
        "opinions",
        "accuses",
        "votes",
        "trusts",
        "saved",
        "poisoned",
        "kill",
        "kill_said",
        "fake_seer",
        "plan_said",
        "follow_seer",
    ),
)


def _said(*fields: object) -> Said:
    """``Said(*fields)``: every field, in the class's order."""
    said: Said = object.__new__(Said)
    for set_field, value in zip(_SAID_SET, fields, strict=True):
        set_field(said, value)
    return said


def _groups(form: _Form, match: re.Match[str]) -> list[str | None]:
    """The groups of whichever alternative matched (en or zh), in order; both alternatives
    of a pattern read through this have the same groups (one language's pattern alone: its
    own)."""
    found = [g for g in match.groups()]
    if match.re is not form.pattern:  # one language's pattern: its own groups
        return found
    half = len(found) // 2
    en, zh = found[:half], found[half:]
    return en if any(g is not None for g in en) else zh


def _valid(digits: str | None) -> bool:
    return digits is not None and 1 <= int(digits) <= 99


def _is_wolf(word: str) -> bool:
    return "wolf" in word.lower() or word in ("狼人", "狼", "查杀")


def _seats(form: _Form, text: _Text) -> tuple[int, ...]:
    out: list[int] = []
    for m in form.finditer(text):
        for digits in m.groups():  # the first group there (each alternative has one)
            if digits is not None:
                if _valid(digits):
                    out.append(int(digits))
                break
    return tuple(out)


def _seat_or_nobody(form: _Form, text: _Text) -> tuple[bool, int | None]:
    """(said, seat): said is False when no such sentence is there; seat None for nobody."""
    for m in form.finditer(text):
        seat, nobody = _groups(form, m)
        if _valid(seat):
            return True, int(str(seat))
        if nobody is not None:
            return True, None
    return False, None


@lru_cache(maxsize=16384)
def parse_speech(text: str) -> Said:
    """Read the claim grammar out of free text (see the module docstring). Pure; sentences
    that do not match are ignored, and so are seat numbers out of any game's range."""
    folds = not text.isascii() and any(c in text for c in _FOLDS_TO_ASCII)
    return _read(text, None if folds else text.lower())


def _read(text: str, low: str | None) -> Said:
    """``parse_speech``; ``low``: the text in lower case to skip forms by (None: none)."""
    speech = _Text(text, low)
    reports: list[tuple[int | None, int, bool]] = []
    for m in _REPORT.finditer(speech):
        night, seat, word = _groups(_REPORT, m)
        if _valid(seat) and word is not None:
            reports.append((int(night) if night else None, int(str(seat)), _is_wolf(word)))
    opinions: list[tuple[int, bool]] = []
    for m in _OPINION.finditer(speech):
        seat, word = _groups(_OPINION, m)
        if _valid(seat) and word is not None:
            opinions.append((int(str(seat)), _is_wolf(word)))
    roles = []
    for m in _ROLE_CLAIM.finditer(speech):
        word = next(g for g in m.groups() if g is not None)
        roles.append(_ZH_ROLES.get(word, word.lower()))
    votes = _seats(_VOTE, speech)
    wolves = tuple(s for s, w in opinions if w)
    kill_said, kill = _seat_or_nobody(_KILL, speech)
    plan_said, fake = _seat_or_nobody(_PLAN, speech)
    return _said(
        tuple(roles),
        tuple(reports),
        tuple(opinions),
        tuple(dict.fromkeys(_seats(_SUSPECT, speech) + votes + wolves)),  # accuses
        votes,
        _seats(_TRUST, speech),
        _seats(_SAVED, speech),
        _seats(_POISONED, speech),
        kill,
        kill_said,
        fake,
        plan_said,
        next(_FOLLOW_SEER.finditer(speech), None) is not None,  # follow_seer
    )
