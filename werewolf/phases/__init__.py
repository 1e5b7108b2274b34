"""The phase roles: each asks the acting seats for decisions and returns one RoleResult.

``context`` holds the ``PhaseContext`` (one run of one phase) and the helpers every role
shares; ``day``, ``vote`` and ``end`` hold the roles every game runs. The night's roles,
the hunter's shot and any day decision taken in place of a speech belong to their
identities (``werewolf/identities/<name>.py``, ``IdentitySpec.phases``): ``phase_roles()``
joins the two into the workflow's roles.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from ..registry import PhaseRole, identity_specs
from ..state import Phase
from .badge import sheriff_badge, sheriff_order
from .context import PhaseContext, seat_text
from .day import dawn, day_speech, floor_bid, last_words
from .destruct import self_destruct
from .election import sheriff_run, sheriff_speech, sheriff_vote, sheriff_withdraw
from .end import game_end, outcome_reason
from .vote import vote

__all__ = ["CORE_PHASES", "PhaseContext", "outcome_reason", "phase_roles", "seat_text"]

CORE_PHASES: Mapping[str, PhaseRole] = MappingProxyType(
    {
        Phase.DAWN: dawn,
        Phase.LAST_WORDS: last_words,
        Phase.SPEECH: day_speech,
        Phase.SELF_DESTRUCT: self_destruct,
        Phase.BID: floor_bid,
        Phase.VOTE: vote,
        Phase.GAME_END: game_end,
        Phase.SHERIFF_RUN: sheriff_run,
        Phase.SHERIFF_SPEECH: sheriff_speech,
        Phase.SHERIFF_WITHDRAW: sheriff_withdraw,
        Phase.SHERIFF_VOTE: sheriff_vote,
        Phase.BADGE: sheriff_badge,
        Phase.ORDER: sheriff_order,
    }
)
"""The roles of every game, whatever its deck."""


@cache
def phase_roles() -> Mapping[str, PhaseRole]:
    """Every phase role by phase name: the core ones and every identity's (made once)."""
    roles: dict[str, PhaseRole] = {str(p): r for p, r in CORE_PHASES.items()}
    for spec in identity_specs():
        roles.update(spec.phases)
    return MappingProxyType(roles)
