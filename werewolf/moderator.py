"""The moderator: a pure function of the folded state that names the next phase.

Order of concerns: a finished game ends; a decided game goes to ``game-end``; a doctor due
to be told of her save is told (``doctor_told_save``); a due hunter shoots before anything else; last words are heard; then the night or day goes on. The
night's phases come from ``NIGHT_ORDER`` (``SEER_FIRST_ORDER`` when the seer checks before
the wolves), filtered by the deck: a phase runs when its
identity was dealt and its holder is alive (the wolves: while the game goes on).
"""

from __future__ import annotations

from dataclasses import dataclass

from pulse_core import END

from .cast import Identity
from .config import Discussion
from .rules import floor_bidders, next_speaker
from .state import GameState, Phase, Stage

__all__ = ["NIGHT_ORDER", "SEER_FIRST_ORDER", "NightStep", "next_phase", "night_phase"]


@dataclass(frozen=True, slots=True)
class NightStep:
    """One phase of the night: whose it is, and whether it runs on night 1 only."""

    phase: Phase
    identity: Identity
    first_night_only: bool = False


NIGHT_ORDER: tuple[NightStep, ...] = (
    NightStep(Phase.CUPID, Identity.CUPID, first_night_only=True),
    NightStep(Phase.LOVERS, Identity.CUPID, first_night_only=True),
    NightStep(Phase.GUARD, Identity.GUARD),
    NightStep(Phase.DOCTOR, Identity.DOCTOR),
    NightStep(Phase.WOLF_NIGHT, Identity.WEREWOLF),
    NightStep(Phase.WITCH, Identity.WITCH),
    NightStep(Phase.SEER, Identity.SEER),
)
"""Every night phase in the order they run; the deck decides which of them do."""

SEER_FIRST_ORDER: tuple[NightStep, ...] = (
    *NIGHT_ORDER[:4],  # cupid, the lovers told, the guard, the doctor
    NightStep(Phase.SEER, Identity.SEER),
    *(step for step in NIGHT_ORDER[4:] if step.phase is not Phase.SEER),
)
"""The night under ``seer_before_wolves``: the seer right after the doctor (the two are
asked together), before the wolves."""


_WEREWOLF, _LOVERS = Identity.WEREWOLF, Phase.LOVERS  # read once (see _NIGHTLY)
_NIGHT, _PK, _EVENING = Stage.NIGHT, Stage.PK, Stage.EVENING
_DAWN, _SPEECH, _VOTE, _BID = Phase.DAWN, Phase.SPEECH, Phase.VOTE, Phase.BID


def _runs(state: GameState, step: NightStep, night: int) -> bool:
    if step.first_night_only and night != 1:
        return False
    if step.identity is _WEREWOLF:
        return True
    if step.phase is _LOVERS:
        return len(state.lovers) == 2
    seat = state.seat_of(step.identity)
    return seat is not None and state.is_alive(seat)


def night_phase(state: GameState) -> Phase:
    """The next night phase, or dawn: at a night's start (setup or evening) its first phase;
    during the night the first that has not acted. The living at night are those alive at
    its start: deaths resolve at dawn."""
    at_night = state.stage is _NIGHT
    night = state.night if at_night else state.night + 1
    acted = state.acted if at_night else frozenset()
    order = SEER_FIRST_ORDER if state.config.seer_before_wolves else NIGHT_ORDER
    for step in order:
        if step.phase not in acted and _runs(state, step, night):
            return step.phase
    return _DAWN


# the stages as sets made once: on Python 3.11 every read of an enum member (``Stage.PK``)
# passes the enum metaclass's __getattr__ hook, and the moderator runs for every event
_NIGHTLY = frozenset({Stage.SETUP, Stage.NIGHT})
_DAYTIME = frozenset({Stage.MORNING, Stage.DISCUSSION, Stage.PK})


def next_phase(state: GameState | None) -> str:
    """The phase role to run next, or ``END``."""
    if state is None:
        return END
    if state.ended:
        return END
    if state.winner is not None:
        return Phase.GAME_END
    if state.doctor_told_due is not None:  # right after the dawn, before anything else
        return Phase.DOCTOR_TOLD
    if state.hunter_due is not None:
        return Phase.HUNTER
    if state.last_words_due:
        return Phase.LAST_WORDS
    stage = state.stage
    if stage in _NIGHTLY:
        return night_phase(state)
    if stage in _DAYTIME:
        if next_speaker(state) is not None:
            return _SPEECH
        if stage is not _PK and state.config.discussion is Discussion.BIDDING:
            return _BID if floor_bidders(state) else _VOTE
        return _VOTE
    if stage is _EVENING:
        return Phase.GAME_END if state.night >= state.config.day_cap else night_phase(state)
    return END
