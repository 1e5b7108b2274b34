"""The event kinds of a game, one module per identity or step: the typed shape of each
event's diff and detail, its fold step and its public meaning (``registry.EventSpec``).
Importing the package registers them all.

The readers (the seat views, the replay's drawings and pages, the mock's reading) ask
here what an event means (``meaning_of``) and how a death or a kind is worded
(``cause_label``, ``kind_label``), so a new kind or cause needs no edit of any reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..registry import NO_MEANING, Meaning, Names, event_spec, event_specs
from . import (
    cupid,
    dawn,
    doctor,
    game_end,
    guard,
    hunter,
    seat_swap,
    seer,
    self_destruct,
    sheriff_badge,
    sheriff_order,
    sheriff_run,
    sheriff_speech,
    sheriff_vote,
    sheriff_withdraw,
    speech,
    vote,
    witch,
    wolves,
)

__all__ = [
    "UNTOLD",
    "UNTOLD_KEY",
    "cause_label",
    "cause_labels",
    "is_night",
    "kind_label",
    "meaning_of",
]
_MODULES = (cupid, dawn, doctor, game_end, guard, hunter, seat_swap, seer, self_destruct,
            sheriff_badge, sheriff_order, sheriff_run, sheriff_speech, sheriff_vote,
            sheriff_withdraw, speech, vote, witch, wolves)  # fmt: skip

UNTOLD = Names("died, night {n}", "第{n}夜死亡")
"""A death whose cause the table was not told (the dawn tells none)."""
UNTOLD_KEY = "died"
"""The key of an untold cause where causes are keys (page data)."""

_Reads = Callable[[dict[str, Any], dict[str, Any]], Meaning]
_MEANINGS: dict[str, _Reads] = {}


def meaning_of(kind: str, diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    """What an event of ``kind`` tells whoever sees it; nothing for a kind not registered
    (control events). The kind's reader is looked up once."""
    reads = _MEANINGS.get(kind)
    if reads is None:
        spec = event_spec(kind)
        if spec is None:
            return NO_MEANING
        reads = _MEANINGS[kind] = spec.meaning
    return reads(diff, detail)


def _causes() -> dict[str, Names]:
    causes: dict[str, Names] = {}
    for spec in event_specs():
        causes.update(spec.causes)
    return causes


def cause_label(cause: str | None, lang: str = "en") -> str:
    """How a death of ``cause`` is worded (``{n}``: its night or day); None: untold. A
    cause no event declares is still worded, never refused."""
    if cause is None or cause == UNTOLD_KEY:
        return UNTOLD(lang)
    names = _causes().get(cause)
    if names is None:
        return f"died ({cause}), day {{n}}" if lang != "zh" else f"第{{n}}天死亡（{cause}）"
    return names(lang)


def cause_labels(lang: str) -> dict[str, str]:
    """Every declared cause's wording, and the untold one under ``died``."""
    return {UNTOLD_KEY: UNTOLD(lang), **{c: n(lang) for c, n in _causes().items()}}


def kind_label(kind: str, lang: str = "en") -> str:
    """An event kind's name for people; the kind itself when none is registered."""
    spec = event_spec(kind)
    return kind if spec is None else spec.label(lang)


def is_night(kind: str) -> bool:
    """Whether events of ``kind`` belong to the night (its spec's ``night``)."""
    spec = event_spec(kind)
    return spec is not None and spec.night
