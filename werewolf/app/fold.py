"""The state of a game at any event of its log: ``fold_to``.

::

    from werewolf.app import fold_to, play_game

    result = play_game(seed=1)
    dawn = next(e for e in result.chain if e.role == "dawn")
    state = fold_to(result.chain, dawn.version)  # as the game stood right after that dawn
"""

from __future__ import annotations

from collections.abc import Sequence

from pulse_core import Event

from ..errors import GameStateError
from ..game import fold_chain
from ..state import GameState

__all__ = ["fold_to"]


def fold_to(chain: Sequence[Event], version: int) -> GameState:
    """The state after the event numbered ``version`` (``Event.version``, its place in the
    log: 1 is the start); raises ``GameStateError`` for a version the log does not hold."""
    if not chain or not chain[0].version <= version <= chain[-1].version:
        last = chain[-1].version if chain else 0
        raise GameStateError(f"no event {version} in a log of events 1-{last}")
    return fold_chain([event for event in chain if event.version <= version])
