"""What the replay page shows beside the entries, worded here so its script derives none:
the rules in both languages, the end's reason in both, who plays each seat, and in the god
view whose protection saved the wolves' victim at each dawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..config import GameConfig
from ..ruletext import rules_text
from ..text import one_line
from .drawbase import board_line
from .views import Entry
from .words import outcome_text

__all__ = ["NightSaves", "player_label", "reason_words", "rules_words"]

LANGS = ("en", "zh")


def rules_words(config: GameConfig) -> dict[str, dict[str, Any]]:
    """``{lang: {"line", "text"}}``: the board in one line, and the whole rules text in
    paragraphs (every variant said in words, as the players are told it)."""
    return {
        lang: {
            "line": board_line(config, lang),
            "text": [p for p in rules_text(config, lang).splitlines() if p.strip()],
        }
        for lang in LANGS
    }


def reason_words(reason: str) -> dict[str, str]:
    """Why the game ended, in each language."""
    return {lang: outcome_text(reason, lang) for lang in LANGS}


def player_label(player: Any) -> str:
    """Who played a seat, in a few words (``llm:gpt-4o``, ``mock:bold``, ``py:pkg:make``),
    from its seat spec."""
    if not isinstance(player, Mapping):
        return "?"
    kind = str(player.get("kind", "?"))
    extra = player.get("model") or player.get("personality") or player.get("factory")
    return one_line(f"{kind}:{extra}" if extra else kind)


# the night actions that may keep the wolves' victim alive: kind -> (who, the seat it saves)
_PROTECTS = {"guard-protect": "guard", "doctor-protect": "doctor"}


class NightSaves:
    """Fed the god view's entries in order: at each dawn, the wolves' victim who lives and
    the identities whose action protected him (the witch's antidote, the guard, the
    doctor), from the night's own events."""

    def __init__(self) -> None:
        self._target: int | None = None
        self._by: dict[str, int | None] = {}

    def feed(self, entry: Entry) -> dict[str, Any] | None:
        """The save this entry tells (a dawn's), else None."""
        if entry.phase == "wolf-night":
            self._target = entry.diff.get("target")
        elif entry.phase in _PROTECTS:
            self._by[_PROTECTS[entry.phase]] = entry.diff.get("target")
        elif entry.phase == "witch-action" and entry.diff.get("save"):
            self._by["witch"] = entry.detail.get("told_target")
        elif entry.phase == "dawn":
            target, by = self._target, self._by
            self._target, self._by = None, {}
            if target is not None and target not in entry.diff.get("died", ()):
                savers = [who for who, seat in by.items() if seat == target]
                if savers:
                    return {"seat": target, "by": sorted(savers)}
        return None
