"""The mock and the revealed idiot: a good seat never votes out an idiot who has shown his
card (he is proven good); wolves may (a second exile kills him)."""

from __future__ import annotations

from dataclasses import replace

from ...cast import Team
from ...decisions import DecisionKind, Request
from ...visibility import SeatView

__all__ = ["revealed", "spare_the_idiot"]


def revealed(view: SeatView) -> int | None:
    """The seat that showed the idiot card, as the seat saw it."""
    for obs in view.observations:
        if obs.phase == "vote" and obs.diff.get("revealed") is not None:
            return int(obs.diff["revealed"])
    return None


def spare_the_idiot(request: Request) -> Request:
    """The request a good voter answers: the revealed idiot taken out of the options."""
    if request.kind is not DecisionKind.VOTE or request.view.team is not Team.GOOD:
        return request
    idiot = revealed(request.view)
    options = tuple(o for o in request.options if o != idiot)
    if idiot is None or len(options) == len(request.options) or not options:
        return request
    return replace(request, options=options)
