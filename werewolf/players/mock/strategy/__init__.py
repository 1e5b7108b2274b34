"""Per-identity strategy: which function answers which decision for which identity.

``handler_for(identity, kind)`` looks up ``(identity, kind)`` first, then ``(None, kind)``,
the default every identity shares (the good side's day). A new identity plugs in with
``register(kind, handler, identity)`` from its own module (its night action, or its own day
speech), and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ....cast import Identity
from ....decisions import Answer, DecisionKind
from ..turn import Turn
from .bid import floor_bid
from .cupid import cupid_link
from .doctor import doctor_protect
from .good import good_last_words, good_speech, good_vote
from .guard import guard_protect
from .hunter import hunter_shot
from .seer import seer_check, seer_speech
from .witch import witch_night
from .wolf_day import wolf_speech, wolf_vote
from .wolf_night import wolf_kill, wolf_talk

__all__ = ["Handler", "handler_for", "register"]

Handler = Callable[[Turn], Answer]

_HANDLERS: dict[tuple[Identity | None, DecisionKind], Handler] = {
    (None, DecisionKind.SPEECH): good_speech,
    (None, DecisionKind.LAST_WORDS): good_last_words,
    (None, DecisionKind.VOTE): good_vote,
    (None, DecisionKind.WOLF_TALK): wolf_talk,
    (None, DecisionKind.WOLF_KILL): wolf_kill,
    (None, DecisionKind.WITCH): witch_night,
    (None, DecisionKind.SEER): seer_check,
    (None, DecisionKind.HUNTER): hunter_shot,
    (None, DecisionKind.BID): floor_bid,
    (Identity.SEER, DecisionKind.SPEECH): seer_speech,
    (Identity.SEER, DecisionKind.LAST_WORDS): partial(seer_speech, last_words=True),
    (Identity.WEREWOLF, DecisionKind.SPEECH): wolf_speech,
    (Identity.WEREWOLF, DecisionKind.LAST_WORDS): partial(wolf_speech, last_words=True),
    (Identity.WEREWOLF, DecisionKind.VOTE): wolf_vote,
    (None, DecisionKind.GUARD): guard_protect,
    (None, DecisionKind.DOCTOR): doctor_protect,
    (None, DecisionKind.CUPID): cupid_link,
}


def register(kind: DecisionKind, handler: Handler, identity: Identity | None = None) -> None:
    """Answer ``kind`` with ``handler`` for ``identity`` (None: for every identity)."""
    _HANDLERS[(identity, kind)] = handler


def handler_for(identity: Identity, kind: DecisionKind) -> Handler:
    handler = _HANDLERS.get((identity, kind)) or _HANDLERS.get((None, kind))
    if handler is None:
        raise KeyError(f"no mock strategy for {kind} of the {identity}")
    return handler
