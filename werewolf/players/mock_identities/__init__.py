"""Mock strategies of the identities beyond the nine-player board, one module each.

``mock.MockPlayer`` asks ``handler(kind)`` for the decisions it has no handler of its own
for, lets ``idiot.spare_the_idiot`` trim a good voter's options (never the revealed idiot)
and ``lovers.keep_partner`` look over every answer; these modules read the table
and suspicion the mock's own helpers build (``mock.read_table``, ``mock.good_suspicion``),
so a richer mock mind can adopt them unchanged or replace one module at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...decisions import Answer, DecisionKind

if TYPE_CHECKING:
    from ..mock import _Turn

__all__ = ["handler"]


def handler(kind: DecisionKind) -> Callable[[_Turn], Answer]:
    """The strategy of a decision the core mock does not know."""
    from . import cupid, doctor, guard  # they build on the mock's helpers: imported late

    handlers: dict[DecisionKind, Callable[[_Turn], Answer]] = {
        DecisionKind.GUARD: guard.protect,
        DecisionKind.DOCTOR: doctor.protect,
        DecisionKind.CUPID: cupid.link,
    }
    return handlers[kind]
