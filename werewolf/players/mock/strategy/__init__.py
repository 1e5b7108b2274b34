"""Per-identity strategy: which function answers which decision for which identity.

``handler_for(identity, kind)`` looks up ``(identity, kind)`` first, then ``(None, kind)``,
the default every identity shares (the good side's day). An identity names its handlers in
its spec (``DecisionSpec.mock``, ``"module:function"``), imported here on first use, so
the identity modules (and the rules that the phases read) never import a player module.
``register(kind, handler, identity)`` plugs in one more by hand.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ....cast import Identity, Team, team_of
from ....decisions import Answer, DecisionKind
from ....registry import identity_specs
from ..turn import Turn
from .bid import floor_bid
from .good import good_last_words, good_speech, good_vote
from .sheriff import (
    badge_pass,
    election_speech,
    election_vote,
    run_for_sheriff,
    speaking_order,
    withdraw,
)

__all__ = ["Handler", "handler_for", "handlers", "register"]

Handler = Callable[[Turn], Answer]

_HANDLERS: dict[tuple[Identity | None, DecisionKind], Handler] = {
    (None, DecisionKind.SPEECH): good_speech,
    (None, DecisionKind.LAST_WORDS): good_last_words,
    (None, DecisionKind.VOTE): good_vote,
    (None, DecisionKind.BID): floor_bid,
    (None, DecisionKind.SHERIFF_RUN): run_for_sheriff,
    (None, DecisionKind.SHERIFF_SPEECH): election_speech,
    (None, DecisionKind.SHERIFF_WITHDRAW): withdraw,
    (None, DecisionKind.SHERIFF_VOTE): election_vote,
    (None, DecisionKind.BADGE): badge_pass,
    (None, DecisionKind.ORDER): speaking_order,
}
_READ = False  # the identities' handlers are in _HANDLERS


def _handler(path: str) -> Handler:
    module, _, name = path.partition(":")
    handler: Handler = getattr(importlib.import_module(module), name)
    return handler


def handlers() -> dict[tuple[Identity | None, DecisionKind], Handler]:
    """Every handler by ``(identity, kind)``: the defaults and each identity's own, read
    from the registry once (one set by hand first is kept)."""
    global _READ
    if not _READ:
        _READ = True
        for spec in identity_specs():
            for decision in spec.decisions:
                if decision.mock is not None:
                    key = (spec.identity, DecisionKind(decision.kind))
                    _HANDLERS.setdefault(key, _handler(decision.mock))
    return _HANDLERS


def register(kind: DecisionKind, handler: Handler, identity: Identity | None = None) -> None:
    """Answer ``kind`` with ``handler`` for ``identity`` (None: for every identity)."""
    handlers()[(identity, kind)] = handler


def handler_for(identity: Identity, kind: DecisionKind) -> Handler:
    """The identity's own handler, else (a wolf king) the wolves', else the default."""
    table = _HANDLERS if _READ else handlers()
    handler = table.get((identity, kind))
    if handler is None and team_of(identity) is Team.WOLVES:
        handler = table.get((Identity.WEREWOLF, kind))
    handler = handler or table.get((None, kind))
    if handler is None:
        raise KeyError(f"no mock strategy for {kind} of the {identity}")
    return handler
