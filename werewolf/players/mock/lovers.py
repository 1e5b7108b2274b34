"""Lovers in the mock: a lover never harms the partner (no vote, kill, poison or shot at
him) while another choice is legal; the partner comes from the lovers' night-1 event."""

from __future__ import annotations

from dataclasses import replace

from ...decisions import Answer, Choice, DecisionKind, WitchChoice
from .lang.thoughts import think

__all__ = ["keep_partner"]

_HARMFUL = frozenset({DecisionKind.VOTE, DecisionKind.WOLF_KILL, DecisionKind.HUNTER})


def keep_partner(
    kind: DecisionKind,
    mate: int | None,
    options: tuple[int | None, ...],
    answer: Answer,
    lang: str = "en",
) -> Answer:
    """``answer``, unless it harms ``mate`` (the seat's lover, ``Table.partner``)."""
    if mate is None:
        return answer
    if isinstance(answer, WitchChoice) and answer.poison == mate:
        return replace(
            answer, poison=None, reasoning=think(lang, "lover.spare", rest=answer.reasoning)
        )
    if kind in _HARMFUL and isinstance(answer, Choice) and answer.target == mate:
        others = [o for o in options if o != mate]
        if not others:
            return answer
        pick = None if None in others else others[0]
        why = think(lang, "lover.never", a=mate, rest=answer.reasoning)
        return Choice(pick, reasoning=why)
    return answer
