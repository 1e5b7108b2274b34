"""The words of the prompts: one language's templates and phrases (``werewolf/prompts/<lang>/``),
the tools each decision kind calls, and the small pieces every prompt is made of (a seat's
label, a list of seats, the legal options, a quoted speech)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pulse_core.template import render

from ..decisions import DecisionKind
from ..errors import ConfigError
from ..registry import identity_specs
from ..text import one_line, visible

__all__ = [
    "LANGS",
    "SHERIFF_TOOLS",
    "PromptSet",
    "ballot_pairs",
    "neutralise",
    "night_kinds",
    "option_order",
    "options_text",
    "prompt_set",
    "quote",
    "seat_label",
    "seats_text",
    "tool_name",
    "tool_names",
]

LANGS = ("en", "zh")

_CORE_TOOLS: Mapping[DecisionKind, tuple[int, str]] = {
    DecisionKind.SPEECH: (0, "speak"),
    DecisionKind.LAST_WORDS: (0, "speak"),
    DecisionKind.VOTE: (40, "vote"),
    DecisionKind.BID: (1000, "bid"),
    DecisionKind.SHERIFF_SPEECH: (0, "speak"),
    DecisionKind.SHERIFF_RUN: (900, "run_for_sheriff"),  # after every identity's
    DecisionKind.SHERIFF_WITHDRAW: (901, "withdraw"),
    DecisionKind.SHERIFF_VOTE: (902, "sheriff_vote"),
    DecisionKind.BADGE: (903, "pass_badge"),
    DecisionKind.ORDER: (904, "speaking_order"),
}
"""The tools of the decisions every seat may be asked (with their places in the array,
``DecisionSpec.tool_rank``); each identity adds its own."""


@cache
def tool_names() -> Mapping[DecisionKind, str]:
    """Every decision kind's tool: the core ones and each identity's (its ``decisions``),
    in the order ``schema.stable_tools`` offers them in (``DecisionSpec.tool_rank``)."""
    ranked: dict[DecisionKind, tuple[int, str]] = dict(_CORE_TOOLS)
    for spec in identity_specs():
        for decision in spec.decisions:
            if decision.kind not in _CORE_TOOLS:
                kind = DecisionKind(decision.kind)
                ranked.setdefault(kind, (decision.tool_rank, decision.tool))
    return {kind: tool for kind, (_, tool) in sorted(ranked.items(), key=lambda k: k[1][0])}


@cache
def night_kinds() -> frozenset[DecisionKind]:
    """The decisions of the night: those an identity with a night step is asked, but the
    ones every seat is asked by day."""
    return frozenset(
        DecisionKind(d.kind)
        for spec in identity_specs()
        if spec.night
        for d in spec.decisions
        if d.kind not in _CORE_TOOLS
    )


SHERIFF_TOOLS = frozenset(
    {"run_for_sheriff", "withdraw", "sheriff_vote", "pass_badge", "speaking_order"}
)
"""The tools only a game with a sheriff (config ``sheriff``) offers."""

_CORE_FILES = frozenset({"system.txt", "decision.txt", "phrases.txt"})
_DELIMITER_RUN = re.compile(r"<{3,}|>{3,}")


def tool_name(kind: DecisionKind) -> str:
    """The function an LLM seat is asked to call for a decision of ``kind``."""
    return tool_names()[kind]


# -- the template files ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PromptSet:
    """One language's templates and phrases."""

    lang: str
    system: str
    decision: str
    phrases: Mapping[str, str]

    def say(self, key: str, **values: Any) -> str:
        """The phrase ``key`` with ``values`` filled in."""
        try:
            text = self.phrases[key]
        except KeyError:
            raise ConfigError([("prompts", f"{self.lang}/phrases.txt has no {key!r}")]) from None
        return render(text, values) if values else text

    def has(self, key: str) -> bool:
        return key in self.phrases


def _parse_phrases(text: str, where: str) -> dict[str, str]:
    phrases: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(" = ")
        if not sep or not key.strip():
            raise ConfigError([(f"{where}:{number}", "write one `key = text` a line")])
        phrases[key.strip()] = value.strip().replace("\\n", "\n").replace("\\s", " ")
    return phrases


@cache
def prompt_set(lang: str) -> PromptSet:
    """The templates and phrases of ``lang`` (``en`` or ``zh``), read once."""
    if lang not in LANGS:
        raise ConfigError([("--lang", f"unknown language {lang!r}: use {' or '.join(LANGS)}")])
    folder = resources.files("werewolf") / "prompts" / lang

    def read(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8")

    phrases = _parse_phrases(read("phrases.txt"), f"prompts/{lang}/phrases.txt")
    # one more file per identity beyond the nine-player board (guard.txt, cupid.txt, ...)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".txt") and entry.name not in _CORE_FILES:
            phrases |= _parse_phrases(read(entry.name), f"prompts/{lang}/{entry.name}")
    return PromptSet(
        lang=lang, system=read("system.txt"), decision=read("decision.txt"), phrases=phrases
    )


# -- small pieces ----------------------------------------------------------------------------
def neutralise(text: str) -> str:
    """``text`` with every run of three or more ``<`` or ``>`` broken up by spaces, so it
    cannot open or close a quote block."""
    return _DELIMITER_RUN.sub(lambda m: " ".join(m.group(0)), text)


def quote(label: str, seat: int, name: str, text: str, **attrs: Any) -> str:
    """Words a player said, as a delimited block of data: every line of the words starts
    with ``| `` (so a line inside cannot pass for the moderator's), controls and bidi
    overrides are shown as visible escapes (``werewolf.text.visible``)."""
    name = neutralise(one_line(" ".join(name.split())))
    extra = "".join(f" {k}={v}" for k, v in attrs.items())
    body = "\n".join(f"| {line}" for line in neutralise(visible(text)).split("\n"))
    return f"<<<{label} seat={seat} name={name}{extra}\n{body}\n>>>"


def seat_label(ps: PromptSet, names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return ps.say("nobody")
    return ps.say("seat", seat=seat, name=one_line(" ".join(names[seat - 1].split())))


def seats_text(ps: PromptSet, names: Sequence[str], seats: Iterable[int | None]) -> str:
    labels = [seat_label(ps, names, s) for s in seats]
    return ps.say("list.sep").join(labels) if labels else ps.say("nobody")


def options_text(ps: PromptSet, names: Sequence[str], options: Iterable[int | None]) -> str:
    """The legal targets as the prompt lists them: ``3 = seat 3 (Cai), ..., 0 = nobody``."""
    parts = [
        ps.say("option.none") if o is None else f"{o} = {seat_label(ps, names, o)}" for o in options
    ]
    return ps.say("list.sep").join(parts)


def ballot_pairs(
    ps: PromptSet, names: Sequence[str], ballots: Sequence[Sequence[Any]], *, abstain: bool = False
) -> str:
    """Wolves' proposals or ballots, ``[[seat, target], ...]``, as one list (``abstain``: a
    ballot for nobody reads as an abstention)."""

    def target(t: int | None) -> str:
        return ps.say("obs.abstain") if t is None and abstain else seat_label(ps, names, t)

    return ps.say("list.sep").join(
        ps.say("obs.ballot", voter=seat_label(ps, names, w), target=target(t)) for w, t in ballots
    )


def option_order(options: Iterable[int | None]) -> list[int | None]:
    """Options in the order shown: seats ascending, then 0 (nobody)."""
    seats = sorted(o for o in options if o is not None)
    return [*seats, None] if None in options else list(seats)
