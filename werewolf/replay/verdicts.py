"""What makes an event not follow from the rules: the first difference between what it records and
what the re-run of its phase writes, a decision the rules refuse, a fallback or an attachment the
decisions do not bear out (``replay.judge`` names the event)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pulse_core import RoleResult
from pulse_core.limits import clip

from ..config import NightFallback
from ..decisions import Answer, Choice, Request, Speech, WitchChoice
from ..decisions import fallback as fallback_of
from ..state import GameState

__all__ = [
    "false_attachment",
    "false_fallback",
    "first_difference",
    "illegal_answer",
    "shown",
]


def first_difference(path: str, recorded: Any, judged: Any) -> str | None:
    """The first place where ``recorded`` and ``judged`` differ, as ``path: ...``."""
    if isinstance(recorded, dict) and isinstance(judged, dict):
        for key in sorted(set(recorded) | set(judged), key=str):
            if key not in judged:
                return f"{path}.{key} is not something the rules write here"
            if key not in recorded:
                return f"{path}.{key} is missing: the rules give {shown(judged[key])}"
            found = first_difference(f"{path}.{key}", recorded[key], judged[key])
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(judged, list):
        if len(recorded) != len(judged) or not any(
            isinstance(item, (dict, list)) for item in (*recorded, *judged)
        ):  # a list of seats is shown whole
            if recorded == judged:
                return None
            return f"{path} is {shown(recorded)}, the rules give {shown(judged)}"
        for index, (a, b) in enumerate(zip(recorded, judged, strict=True)):
            found = first_difference(f"{path}.{index}", a, b)
            if found is not None:
                return found
        return None
    if recorded != judged or type(recorded) is not type(judged):
        return f"{path} is {shown(recorded)}, the rules give {shown(judged)}"
    return None


def shown(value: Any) -> str:
    return clip(repr(value), 80)


def illegal_answer(meta: Mapping[str, Any], result: RoleResult) -> str | None:
    """A decision the rules refused in the re-run that the event does not record as a
    fallback: the recorded answer was not legal."""
    recorded = {(f.get("seat"), f.get("decision")) for f in meta.get("fallbacks") or ()}
    for fallback in result.meta.get("fallbacks") or ():
        if (fallback["seat"], fallback["decision"]) not in recorded:
            return (
                f"seat {fallback['seat']}'s {fallback['decision']} decision is not legal: "
                f"{fallback['reason']}"
            )
    return None


def _same(a: Answer, b: Answer) -> bool:
    """The same decision (reasoning, usage and the like apart)."""
    if isinstance(a, Speech) and isinstance(b, Speech):
        return a.text == b.text
    if isinstance(a, Choice) and isinstance(b, Choice):
        return a.target == b.target
    if isinstance(a, WitchChoice) and isinstance(b, WitchChoice):
        return (a.save, a.poison) == (b.save, b.poison)
    return False


def false_fallback(
    meta: Mapping[str, Any], asked: Sequence[tuple[Request, Answer]], state: GameState
) -> str | None:
    """A recorded fallback (or usage) the event's decisions do not bear out: of a decision
    not asked here, recorded twice, or whose recorded answer is not the fallback the rules
    give."""
    idle = state.config.night_fallback is NightFallback.NOTHING
    by_key = {(r.seat, r.kind.value, r.key): (r, a) for r, a in asked}
    decisions = {(r.seat, r.kind.value) for r, _ in asked}
    for usage in meta.get("usage") or ():
        name = (usage.get("seat"), usage.get("decision"), usage.get("key"))
        # recovered usage was billed to an earlier process (the decision it answered may
        # be another phase's); a record without a key predates keys
        if usage.get("recovered"):
            continue
        if name[:2] not in decisions or (name[2] is not None and name not in by_key):
            return f"seat {name[0]}'s {name[1]} usage is of a decision not asked here"
    seen: set[tuple[Any, Any, Any]] = set()
    for record in meta.get("fallbacks") or ():
        name = (record.get("seat"), record.get("decision"), record.get("key"))
        seat, decision, key = name
        if name in seen:
            return f"seat {seat}'s {decision} fallback ({key}) is recorded twice"
        seen.add(name)
        found = by_key.get(name)
        if found is None:
            return f"seat {seat}'s {decision} fallback names a decision ({key}) not asked here"
        request, answer = found
        if not _same(answer, fallback_of(request, idle=idle)):
            return (
                f"seat {seat}'s {decision} decision is recorded as a fallback, but the "
                "answer recorded is not the fallback the rules give"
            )
    return None


_PER_DECISION = frozenset({"reasoning", "exchange", "beliefs", "offered"})
"""Attachments named ``<what>/<seat>/<decision>``: each of a decision asked in the event."""


_RULES_GIVE = ("offered/", "beliefs/")
"""Attachments the re-run writes as the game did: the legal offers, the beliefs read."""


def false_attachment(
    meta: Mapping[str, Any],
    asked: Sequence[tuple[Request, Answer]],
    result: RoleResult,
    text: Callable[[str], str | None],
) -> str | None:
    """An attachment of a decision not asked in the event, or an offer or beliefs that are
    not what the phase writes from the event's decisions."""
    recorded: Mapping[str, str] = meta.get("attachments") or {}
    decisions = {f"{r.seat}/{r.kind.value}" for r, _ in asked}
    for name in recorded:
        what, _, rest = name.partition("/")
        if what not in _PER_DECISION:
            return f"attachment {name} is not something the game attaches"
        if rest not in decisions:
            return f"attachment {name} is of a decision not asked in this event"
    judged = {n: t for n, t in result.attachments.items() if n.startswith(_RULES_GIVE)}
    for name in sorted(set(judged) | {n for n in recorded if n.startswith(_RULES_GIVE)}):
        if name not in recorded:
            return f"attachment {name} is missing: the rules give {shown(judged[name])}"
        found = text(recorded[name])
        if found is not None and found != judged.get(name):
            return f"attachment {name} is {shown(found)}, the rules give {shown(judged.get(name))}"
    return None
