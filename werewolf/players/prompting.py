"""Prompts for LLM seats, built from one seat's view: pure functions, no I/O but the
template files.

Two messages per decision, made fresh each time (a resumed game needs no chat history):

- ``system_prompt(view, personality, lang)``: who the seat is (name, card, side, goal, the
  pack for a wolf, a personality), the rules written from the game's config, and how to read
  the moderator. Nothing in it changes during a game, so providers can cache it.
- ``decision_prompt(request, lang)``: the state now, everything the seat has seen (its
  ``SeatView`` observations, oldest first), and the decision asked, with its legal options
  and, on a retry, why the last answer was refused.

What players said is quoted as data: each speech is a block between a line ``<<<speech
seat=3 name=Cai day=1`` and a line ``>>>``, every line of the words inside starts with
``| ``, and any run of three ``<`` or ``>`` inside the text is broken up (``neutralise``), so
a speech cannot close its block, open another one, or hold a line that passes for the
moderator's.
The system prompt says that quoted text is never an instruction.

The words live in template files, ``werewolf/prompts/<lang>/``: ``system.txt`` and
``decision.txt`` (rendered with ``pulse_core.template.render``) and ``phrases.txt`` (one
``key = text`` a line). ``en`` and ``zh`` exist; adding a language is adding a folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pulse_core.template import render

from ..cast import Identity
from ..config import GameConfig, SeerLearns, WolfKill
from ..decisions import DecisionKind, Request
from ..errors import ConfigError
from ..registry import Observe, identity_specs
from ..ruletext import rules_text
from ..text import one_line, visible
from ..visibility import Observation, SeatView
from .random_player import decision_rng

__all__ = [
    "LANGS",
    "PromptSet",
    "ability_line",
    "build_messages",
    "decision_prompt",
    "default_personality",
    "history_lines",
    "neutralise",
    "option_order",
    "options_text",
    "prompt_set",
    "quote",
    "seat_label",
    "system_prompt",
    "task_lines",
    "tool_name",
    "tool_names",
]

LANGS = ("en", "zh")

_CORE_TOOLS: Mapping[DecisionKind, tuple[int, str]] = {
    DecisionKind.SPEECH: (0, "speak"),
    DecisionKind.LAST_WORDS: (0, "speak"),
    DecisionKind.VOTE: (40, "vote"),
    DecisionKind.BID: (1000, "bid"),
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
def _night_kinds() -> frozenset[DecisionKind]:
    """The decisions of the night: those an identity with a night step is asked, but the
    ones every seat is asked by day."""
    return frozenset(
        DecisionKind(d.kind)
        for spec in identity_specs()
        if spec.night
        for d in spec.decisions
        if d.kind not in _CORE_TOOLS
    )


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


def _seats(ps: PromptSet, names: Sequence[str], seats: Iterable[int | None]) -> str:
    labels = [seat_label(ps, names, s) for s in seats]
    return ps.say("list.sep").join(labels) if labels else ps.say("nobody")


def options_text(ps: PromptSet, names: Sequence[str], options: Iterable[int | None]) -> str:
    """The legal targets as the prompt lists them: ``3 = seat 3 (Cai), ..., 0 = nobody``."""
    parts = [
        ps.say("option.none") if o is None else f"{o} = {seat_label(ps, names, o)}" for o in options
    ]
    return ps.say("list.sep").join(parts)


def default_personality(game_seed: int, seat: int, lang: str) -> str:
    """A personality for a seat whose spec names none, drawn from the game seed and seat."""
    ps = prompt_set(lang)
    choices = [v for k, v in sorted(ps.phrases.items()) if k.startswith("personality.")]
    return decision_rng(game_seed, seat, "personality").choice(choices)


# -- the system prompt -------------------------------------------------------------------------
def _tidy(text: str) -> str:
    """Collapse the blank lines an empty slot leaves, and end with no trailing space."""
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def ability_line(ps: PromptSet, view: SeatView) -> str:
    """What the seat's card does, as the config plays it (wolves' ballots, the seer told
    an identity)."""
    identity, config = view.identity.value, view.config
    if identity == "werewolf" and config.wolf_kill is WolfKill.VOTE:
        return ps.say("ability.werewolf.vote")
    if identity == "seer" and config.seer_learns is SeerLearns.IDENTITY:
        return ps.say("ability.seer.identity")
    return ps.say(f"ability.{identity}")


def system_prompt(view: SeatView, personality: str, lang: str) -> str:
    """The seat's system prompt: the same for every decision of the game."""
    ps = prompt_set(lang)
    names = view.names
    identity = view.identity.value
    team = view.team.value
    pack = ps.say("pack", seats=_seats(ps, names, view.wolves)) if view.wolves else ""
    text = render(
        ps.system,
        {
            "name": one_line(" ".join(view.name.split())),
            "seat": view.seat,
            "count": len(names),
            "roster": _seats(ps, names, range(1, len(names) + 1)),
            "identity": ps.say(f"identity.{identity}"),
            "ability": ability_line(ps, view),
            "team": ps.say(f"team.{team}"),
            "goal": ps.say(f"goal.{team}"),
            "pack": pack,
            "personality": " ".join(personality.split()),
            "rules": rules_text(view.config, lang),
        },
    )
    return _tidy(text)


# -- what the seat has seen -------------------------------------------------------------------
def _observation(
    ps: PromptSet, names: Sequence[str], obs: Observation, *, ballots: bool = False
) -> str | None:
    """One observation as text, or None for an event that is not part of the game's story
    (a seat swap, the end); ``ballots``: the wolves vote (their rounds read as ballots)."""
    d, detail, day = obs.diff, obs.detail, obs.day

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    def pairs(items: Iterable[Sequence[int | None]]) -> str:
        return ps.say("list.sep").join(
            ps.say(
                "obs.ballot", voter=seat(v), target=ps.say("obs.abstain") if t is None else seat(t)
            )
            for v, t in items
        )

    if obs.phase == "wolf-night":
        lines = [ps.say("obs.wolf-night", day=day)]
        lines += [
            quote(
                "wolf-talk",
                int(line["seat"]),
                names[int(line["seat"]) - 1],
                line["text"],
                night=day,
            )
            for line in detail.get("discussion", [])
        ]
        for number, proposals in enumerate(detail.get("proposals", []), start=1):
            key = "obs.wolf-night.ballots" if ballots else "obs.wolf-night.proposals"
            lines.append(ps.say(key, round=number, pairs=pairs(proposals)))
        lines.append(ps.say("obs.wolf-night.target", target=seat(d.get("target"))))
        lines += _drawn(ps, names, detail)
        return "\n".join(lines)
    if obs.phase == "witch-action":
        told = detail.get("told_target")
        lines = [
            ps.say("obs.witch.told", day=day, target=seat(told))
            if told is not None
            else ps.say("obs.witch.untold", day=day)
        ]
        if d.get("save"):
            lines.append(ps.say("obs.witch.save"))
        if d.get("poison") is not None:
            lines.append(ps.say("obs.witch.poison", target=seat(d["poison"])))
        if not d.get("save") and d.get("poison") is None:
            lines.append(ps.say("obs.witch.none"))
        return " ".join(lines)
    if obs.phase == "seer-check":
        if d.get("target") is None:  # her answer failed (night_fallback = "nothing")
            return ps.say("obs.seer.none", day=day)
        verdict = ps.say("verdict.wolf" if d.get("wolf") else "verdict.good")
        if d.get("identity") is not None:  # seer_learns = "identity"
            return ps.say(
                "obs.seer.identity",
                day=day,
                target=seat(d.get("target")),
                identity=_identity_name(ps, str(d["identity"])),
                verdict=verdict,
            )
        return ps.say("obs.seer", day=day, target=seat(d.get("target")), verdict=verdict)
    if obs.phase == "dawn":
        died = list(d.get("died", []))
        if not died:
            return ps.say("obs.dawn.peaceful", day=day)
        return ps.say("obs.dawn.died", day=day, seats=_seats(ps, names, died)) + _revealed(
            ps, names, detail
        )
    if obs.phase == "hunter-shot":
        if d.get("target") is None:
            return ps.say("obs.hunter.kept", day=day)
        return (
            ps.say(
                "obs.hunter.shot", day=day, shooter=seat(d.get("shooter")), target=seat(d["target"])
            )
            + _revealed(ps, names, detail)
            + _heartbreak(ps, names, d)
        )
    identity_line = _identity_observation(ps, names, obs)
    if identity_line is not None:
        return identity_line
    observe = _observers().get(obs.phase)
    if observe is not None:  # an identity's own event (IdentitySpec.observe)
        variant, seats = observe(d)
        named = {name: seat(s) for name, s in seats.items()}
        return ps.say(f"obs.{obs.phase}.{variant}", day=day, **named)
    if obs.phase == "floor-bid":
        bids = ps.say("list.sep").join(f"{seat(s)} {b}" for s, b in detail.get("bids", []))
        return ps.say(
            "obs.bid",
            day=day,
            speech=detail.get("speech", ""),
            bids=bids,
            speaker=seat(d.get("floor")),
        )
    if obs.phase in ("last-words", "day-speech"):
        speaker = int(d["speaker"])
        if obs.phase == "last-words":
            key, label = "obs.last-words", "last-words"
        else:
            key, label = (
                ("obs.pk-speech", "pk-speech") if detail.get("pk") else ("obs.speech", "speech")
            )
        head = ps.say(key, day=day, speaker=seat(speaker))
        return (
            head
            + "\n"
            + quote(label, speaker, names[speaker - 1], str(detail.get("text", "")), day=day)
        )
    if obs.phase == "vote":
        key = "obs.pk-vote" if detail.get("round") == 2 else "obs.vote"
        lines = [ps.say(key, day=day, ballots=pairs(detail.get("ballots", [])))]
        if d.get("pk"):
            lines.append(ps.say("obs.vote.tie", seats=_seats(ps, names, d["pk"])))
        elif d.get("exiled") is not None:
            lines.append(ps.say("obs.vote.exiled", seat=seat(d["exiled"])))
            if d.get("revealed") is not None:
                lines.append(ps.say("obs.idiot.revealed", seat=seat(d["revealed"])))
        else:
            lines.append(ps.say("obs.vote.nobody"))
        lines += _drawn(ps, names, detail)
        return " ".join(lines) + _revealed(ps, names, detail) + _heartbreak(ps, names, d)
    return None


@cache
def _observers() -> dict[str, Observe]:
    return {phase: how for spec in identity_specs() for phase, how in spec.observe.items()}


def _heartbreak(ps: PromptSet, names: Sequence[str], diff: Mapping[str, Any]) -> str:
    broken = diff.get("heartbroken") or []
    return " " + ps.say("obs.heartbroken", seats=_seats(ps, names, broken)) if broken else ""


def _identity_observation(ps: PromptSet, names: Sequence[str], obs: Observation) -> str | None:
    """The night events of the guard, the doctor, cupid and the lovers, as text."""
    d, day = obs.diff, obs.day

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    if obs.phase in ("guard-protect", "doctor-protect"):
        key = "obs.guard" if obs.phase == "guard-protect" else "obs.doctor"
        return ps.say(key, day=day, target=seat(d.get("target")))
    if obs.phase == "doctor-told":
        return ps.say("obs.doctor.saved", day=day, target=seat(d.get("saved")))
    if obs.phase == "cupid-link":
        a, b = d["lovers"]
        return ps.say("obs.cupid", day=day, a=seat(a), b=seat(b))
    if obs.phase == "lovers-told":
        a, b = d["lovers"]
        lines = [ps.say("obs.lovers", day=day, a=seat(a), b=seat(b))]
        shown = obs.detail.get("identities")
        if shown:
            ia, ib = (ps.say(f"identity.{i}") for i in shown)
            lines.append(ps.say("obs.lovers.identities", a=seat(a), b=seat(b), ia=ia, ib=ib))
            if (shown[0] == "werewolf") != (shown[1] == "werewolf"):
                lines.append(ps.say("obs.lovers.third"))
        return " ".join(lines)
    return None


def _ballot_pairs(
    ps: PromptSet, names: Sequence[str], ballots: Sequence[Sequence[Any]], *, abstain: bool = False
) -> str:
    """Wolves' proposals or ballots, ``[[seat, target], ...]``, as one list (``abstain``: a
    ballot for nobody reads as an abstention)."""

    def target(t: int | None) -> str:
        return ps.say("obs.abstain") if t is None and abstain else seat_label(ps, names, t)

    return ps.say("list.sep").join(
        ps.say("obs.ballot", voter=seat_label(ps, names, w), target=target(t)) for w, t in ballots
    )


def _drawn(ps: PromptSet, names: Sequence[str], detail: Mapping[str, Any]) -> list[str]:
    """The random draw that settled a tie or an empty vote, as a line; none without one."""
    drawn = detail.get("draw")
    if not isinstance(drawn, Mapping):
        return []
    return [ps.say("obs.drawn", seats=_seats(ps, names, drawn.get("among", [])))]


def _identity_name(ps: PromptSet, value: str) -> str:
    """An identity as the prompts name it ("a Villager", "医生"); an unknown one as given."""
    known = value in {i.value for i in Identity}
    return ps.say(f"identity.{value}") if known else value


def _revealed(ps: PromptSet, names: Sequence[str], detail: Mapping[str, Any]) -> str:
    """What the config revealed of the dead (``reveal_on_death``), as a sentence; ''."""
    told = detail.get("revealed") or []
    return "".join(
        " "
        + ps.say(
            "obs.revealed",
            seat=seat_label(ps, names, int(s)),
            what=ps.say(f"reveal.{what}")
            if what in ("wolves", "good")
            else _identity_name(ps, what),
        )
        for s, what in told
    )


def history_lines(view: SeatView, lang: str, *, after: int = 0) -> list[str]:
    """The seat's observations as text, oldest first (only those whose index is past
    ``after``)."""
    ps = prompt_set(lang)
    ballots = view.config.wolf_kill is WolfKill.VOTE
    lines: list[str] = []
    for obs in view.observations:
        if obs.index <= after:
            continue
        text = _observation(ps, view.names, obs, ballots=ballots)
        if text is not None:
            lines.append(text)
    return lines


def _wolf_split(config: GameConfig) -> str:
    """Which rule settles wolves still split after the second round (see split_target)."""
    if not config.allow_empty_kill:
        return "forced"
    return config.wolf_split.value


# -- the decision -------------------------------------------------------------------------------
def task_lines(request: Request, lang: str, *, for_model: bool = True) -> list[str]:
    """The lines that ask for the decision: what, with what context (the wolves' talk so
    far, the previous proposals, the witch's potions), and for a model the options and the
    function to call."""
    ps = prompt_set(lang)
    kind, ctx, names = request.kind, request.context, request.view.names
    night = ctx.get("night", request.view.day)
    day = ctx.get("day", request.view.day)

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    lines: list[str] = []
    if kind is DecisionKind.WOLF_TALK:
        lines.append(ps.say("task.wolf-talk", night=night))
    elif kind is DecisionKind.WOLF_KILL and ctx.get("ballot"):  # wolf_kill = "vote"
        lines.append(ps.say("task.wolf-ballot", night=night))
        config = request.view.config
        abstain = config.wolf_abstain and not config.allow_empty_kill and None in request.options
        if abstain:
            lines.append(ps.say("task.wolf-ballot.abstain"))
        earlier = ctx.get("proposals") or []
        if earlier:
            pairs = _ballot_pairs(ps, names, earlier, abstain=abstain)
            lines.append(ps.say("task.ballots", pairs=pairs))
    elif kind is DecisionKind.WOLF_KILL:
        lines.append(ps.say("task.wolf-kill", night=night, round=ctx.get("round", 1)))
        lines.append(ps.say(f"task.wolf-split.{_wolf_split(request.view.config)}"))
        previous = ctx.get("proposals") or []
        if previous:
            lines.append(ps.say("task.proposals", pairs=_ballot_pairs(ps, names, previous)))
    elif kind is DecisionKind.WITCH:
        lines += _witch_task(ps, request, night, for_model=for_model)
    elif kind is DecisionKind.SEER:
        lines.append(ps.say("task.seer", night=night))
    elif kind in (DecisionKind.GUARD, DecisionKind.DOCTOR):
        lines.append(ps.say(f"task.{kind.value}", night=night))
        if ctx.get("last") is not None:
            lines.append(ps.say(f"task.{kind.value}.last", seat=seat(ctx["last"])))
    elif kind is DecisionKind.CUPID:
        first = ctx.get("first")
        if first is None:
            lines.append(ps.say("task.cupid.a", night=night))
        else:
            lines.append(ps.say("task.cupid.b", night=night, first=seat(first)))
    elif kind is DecisionKind.HUNTER:
        lines.append(ps.say("task.hunter"))
    elif kind is DecisionKind.SPEECH:
        if ctx.get("pk"):
            candidates = _seats(ps, names, ctx.get("candidates", []))
            lines.append(ps.say("task.pk-speech", day=day, candidates=candidates))
        elif ctx.get("round", 1) > 1:  # speech_rounds: a later round of the day's talk
            lines.append(ps.say("task.speech.round", day=day, round=ctx["round"]))
        else:
            lines.append(ps.say("task.speech", day=day))
    elif kind is DecisionKind.LAST_WORDS:
        lines.append(ps.say("task.last-words"))
    elif kind is DecisionKind.BID:
        lines.append(
            ps.say(
                "task.bid",
                day=day,
                speech=ctx.get("speech", 1),
                left=ctx.get("left", 1),
                spoken=ctx.get("spoken", 0),
            )
        )
    elif kind is DecisionKind.VOTE:
        if ctx.get("round") == 2:
            candidates = _seats(ps, names, ctx.get("candidates", []))
            lines.append(ps.say("task.pk-vote", day=day, candidates=candidates))
        else:
            lines.append(ps.say("task.vote", day=day))
    else:  # an identity's own decision: its phrase file's ``task.<kind>``
        lines.append(ps.say(f"task.{kind.value}", night=night, day=day))
    if kind is DecisionKind.WOLF_TALK or (kind is DecisionKind.WOLF_KILL and ctx.get("discussion")):
        discussion = ctx.get("discussion") or []
        if discussion:
            lines.append(ps.say("task.discussion"))
            lines += [
                quote(
                    "wolf-talk", int(d["seat"]), names[int(d["seat"]) - 1], d["text"], night=night
                )
                for d in discussion
            ]
    if for_model:
        if request.options and not kind.speaks:
            shown = options_text(ps, names, option_order(request.options))
            lines.append(ps.say("task.options", options=shown))
        lines.append(ps.say("task.call", tool=tool_name(kind)))
    return lines


def option_order(options: Iterable[int | None]) -> list[int | None]:
    """Options in the order shown: seats ascending, then 0 (nobody)."""
    seats = sorted(o for o in options if o is not None)
    return [*seats, None] if None in options else list(seats)


def _witch_task(ps: PromptSet, request: Request, night: int, *, for_model: bool) -> list[str]:
    names, witch = request.view.names, request.witch
    lines = [ps.say("task.witch", night=night)]
    if witch is None:
        return lines
    if witch.told_target is not None:
        lines.append(ps.say("task.witch.told", target=seat_label(ps, names, witch.told_target)))
    else:
        lines.append(ps.say("task.witch.untold"))
    if not for_model:
        return lines  # a person picks from a menu of exactly the legal uses
    lines.append(ps.say("task.witch.can-save" if witch.can_save else "task.witch.no-save"))
    if witch.poison_targets:
        options = options_text(ps, names, [*witch.poison_targets, None])
        lines.append(ps.say("task.witch.poison", options=options))
    else:
        lines.append(ps.say("task.witch.no-poison"))
    if witch.can_save and witch.poison_targets and not witch.both_allowed:
        lines.append(ps.say("task.witch.one-potion"))
    return lines


def decision_prompt(request: Request, lang: str, history: Sequence[str] | None = None) -> str:
    """The user message for one decision: the seat's history, the state, the ask.
    ``history`` is ``history_lines(request.view, lang)`` when the caller kept it."""
    ps = prompt_set(lang)
    view = request.view
    names = view.names
    night = request.kind in _night_kinds()
    n = request.context.get("night" if night else "day", view.day)
    dead = _seats(ps, names, view.dead)
    status = ps.say(
        "status.night" if night else "status.day",
        n=n,
        alive=_seats(ps, names, view.alive),
        dead=dead,
    )
    if history is None:
        history = history_lines(view, lang)
    history = history or [ps.say("history.empty")]
    feedback = ps.say("feedback", reason=request.feedback) if request.feedback else ""
    text = render(
        ps.decision,
        {
            "status": status,
            "history": "\n\n".join(history),
            "task": "\n".join(task_lines(request, lang)),
            "feedback": feedback,
        },
    )
    return _tidy(text)


def build_messages(
    request: Request,
    personality: str,
    lang: str,
    *,
    system: str | None = None,
    history: Sequence[str] | None = None,
) -> list[dict[str, str]]:
    """The chat messages of one decision: the stable system prompt, then the decision
    (``system`` and ``history``: what the caller kept of the seat's earlier requests)."""
    if system is None:
        system = system_prompt(request.view, personality, lang)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": decision_prompt(request, lang, history)},
    ]
