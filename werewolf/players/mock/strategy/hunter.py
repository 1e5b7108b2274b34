"""The hunter: shoots the likeliest wolf, never a seat any seer claimer cleared (the real seer
may be the one he doubts) nor the believed seer; keeps the bullet when nobody is likely enough or nothing but a
hunch points anywhere."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..turn import Turn

__all__ = ["hunter_shot"]


def hunter_shot(turn: Turn) -> Answer:
    mind, table = turn.mind, turn.table
    cleared_by_any = {
        seat for found in table.reports.values() for seat, wolf in found.items() if not wolf
    }
    barred = set(mind.cleared) | cleared_by_any | {mind.seer.trusted or 0} | mind.seer.outargued
    grounded = [s for s in turn.request.options if s is not None and mind.case(s) >= 0.5]
    target = mind.likeliest(grounded, exclude=barred)
    if target is None or mind.p(target) < 0.2:
        return Choice(
            None if None in turn.request.options else target, reasoning=turn.think("hunter.hold")
        )
    why = turn.think("hunter.shoot", a=target, rest=turn.beliefs_note([target]))
    return Choice(target, reasoning=why)
