"""The moderator: a pure function of the folded state that names the next phase.

Order of concerns: a finished game ends; a decided game goes to ``game-end``; a due hunter
shoots before anything else; last words are heard; then the night or day goes on.
"""

from __future__ import annotations

from pulse_core import END

from .cast import Identity
from .config import Discussion
from .rules import floor_bidders, next_speaker
from .state import GameState, Phase, Stage

__all__ = ["next_phase"]


def _alive(state: GameState, identity: Identity) -> bool:
    seat = state.seat_of(identity)
    return seat is not None and state.is_alive(seat)


def next_phase(state: GameState | None) -> str:
    """The phase role to run next, or ``END``."""
    if state is None:
        return END
    if state.ended:
        return END
    if state.winner is not None:
        return Phase.GAME_END
    if state.hunter_due is not None:
        return Phase.HUNTER
    if state.last_words_due:
        return Phase.LAST_WORDS
    stage = state.stage
    if stage is Stage.SETUP:
        return Phase.WOLF_NIGHT
    if stage is Stage.NIGHT:
        # the living at night are those alive at its start: deaths resolve at dawn
        if Phase.WITCH not in state.acted and _alive(state, Identity.WITCH):
            return Phase.WITCH
        if Phase.SEER not in state.acted and _alive(state, Identity.SEER):
            return Phase.SEER
        return Phase.DAWN
    if stage in (Stage.MORNING, Stage.DISCUSSION, Stage.PK):
        if next_speaker(state) is not None:
            return Phase.SPEECH
        if stage is not Stage.PK and state.config.discussion is Discussion.BIDDING:
            return Phase.BID if floor_bidders(state) else Phase.VOTE
        return Phase.VOTE
    if stage is Stage.EVENING:
        return Phase.GAME_END if state.night >= state.config.day_cap else Phase.WOLF_NIGHT
    return END
