"""The mock and the revealed idiot: a good seat never votes out an idiot who has shown his
card (he is proven good); wolves may (a second exile kills him)."""

from __future__ import annotations

from dataclasses import replace

from ...cast import Team
from ...decisions import DecisionKind, Request

__all__ = ["spare_the_idiot"]


def spare_the_idiot(request: Request, idiot: int | None) -> Request:
    """The request a good voter answers: the revealed idiot (``Table.idiot``) taken out of
    the options."""
    if idiot is None or request.kind is not DecisionKind.VOTE or request.view.team is not Team.GOOD:
        return request
    options = tuple(o for o in request.options if o != idiot)
    if len(options) == len(request.options) or not options:
        return request
    return replace(request, options=options)
