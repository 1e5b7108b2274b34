"""The moderator: a pure function of the folded state that names the next phase.

Order of concerns: a finished game ends; a decided game goes to ``game-end``; a doctor due
to be told of her save is told (``doctor_told_save``); a dead sheriff passes his badge, then
a due hunter shoots; last words are heard; then the night or day goes on. The sheriff's
election (config ``sheriff``) runs after its night's phases, before that night's dawn, and
the sheriff chooses the direction before a day's first speech. Before a
seat's day speech, a day step its identity offers (the knight's duel) runs in its place. The
night's phases come from ``NIGHT_ORDER`` (``SEER_FIRST_ORDER`` when the seer checks before
the wolves), read once from the identities' night steps (``IdentitySpec.night``), filtered
by the deck: a phase runs when its
identity was dealt and its holder is alive (the wolves: while the game goes on).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pulse_core import END

from .cast import Identity
from .config import Discussion
from .election import election_due, election_phase, order_due
from .registry import DayStep, identity_specs
from .rules import floor_bidders, next_speaker
from .state import GameState, Phase, Stage

__all__ = ["NightStep", "next_phase", "night_order", "night_phase"]


@dataclass(frozen=True, slots=True)
class NightStep:
    """One phase of the night: whose it is, whether it runs on night 1 only, and what
    decides it runs (None: its holder is alive)."""

    phase: str
    identity: Identity
    first_night_only: bool = False
    runs: Callable[[GameState], bool] | None = None


def _night_order(*, seer_first: bool) -> tuple[NightStep, ...]:
    """Every identity's night steps by rank (``early_rank`` under ``seer_before_wolves``)."""
    ranked = [
        (
            step.early_rank if seer_first and step.early_rank is not None else step.rank,
            NightStep(step.phase, spec.identity, step.first_night_only, step.runs),
        )
        for spec in identity_specs()
        for step in spec.night
    ]
    return tuple(step for _, step in sorted(ranked, key=lambda r: r[0]))


def night_order(*, seer_first: bool = False) -> tuple[NightStep, ...]:
    """Every night phase in the order they run (the deck decides which of them do); under
    ``seer_before_wolves`` (``seer_first``) the seer right after the doctor (the two are
    asked together), before the wolves. Read from the registry once."""
    order = _ORDERS.get(seer_first)
    if order is None:
        order = _ORDERS[seer_first] = _night_order(seer_first=seer_first)
    return order


_ORDERS: dict[bool, tuple[NightStep, ...]] = {}


def __getattr__(name: str) -> tuple[NightStep, ...]:
    """``NIGHT_ORDER`` and ``SEER_FIRST_ORDER``, read when first asked for (the identities'
    modules, which declare the steps, import the modules this one imports)."""
    if name == "NIGHT_ORDER":
        return night_order()
    if name == "SEER_FIRST_ORDER":
        return night_order(seer_first=True)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NIGHT, _PK, _EVENING = Stage.NIGHT, Stage.PK, Stage.EVENING
_DAWN, _SPEECH, _VOTE, _BID = Phase.DAWN, Phase.SPEECH, Phase.VOTE, Phase.BID


def _runs(state: GameState, step: NightStep, night: int) -> bool:
    if step.first_night_only and night != 1:
        return False
    if step.runs is not None:
        return step.runs(state)
    seat = state.seat_of(step.identity)
    return seat is not None and state.is_alive(seat)


def night_phase(state: GameState) -> str:
    """The next night phase, or dawn: at a night's start (setup or evening) its first phase;
    during the night the first that has not acted. The living at night are those alive at
    its start: deaths resolve at dawn."""
    at_night = state.stage is _NIGHT
    night = state.night if at_night else state.night + 1
    acted = state.acted if at_night else frozenset()
    order = _ORDERS.get(state.config.seer_before_wolves) or night_order(
        seer_first=state.config.seer_before_wolves
    )
    for step in order:
        if step.phase not in acted and _runs(state, step, night):
            return step.phase
    return _DAWN


# the stages as sets made once: on Python 3.11 every read of an enum member (``Stage.PK``)
# passes the enum metaclass's __getattr__ hook, and the moderator runs for every event
_NIGHTLY = frozenset({Stage.SETUP, Stage.NIGHT})
_DAYTIME = frozenset({Stage.MORNING, Stage.DISCUSSION, Stage.PK})


def _day_step(state: GameState, speaker: int) -> str | None:
    """The phase of the first day step the speaker's identity offers him before this
    speech (``IdentitySpec.day``), once per speech; None for most seats."""
    steps = (_DAY_STEPS or _read_day_steps()).get(state.identities[speaker - 1])
    if not steps or state.day_asked == (state.night, speaker, len(state.spoken)):
        return None
    return next((step.phase for step in steps if step.offered(state, speaker)), None)


_DAY_STEPS: dict[Identity, tuple[DayStep, ...]] = {}


def _read_day_steps() -> dict[Identity, tuple[DayStep, ...]]:
    _DAY_STEPS.update({spec.identity: spec.day for spec in identity_specs()})
    return _DAY_STEPS


def next_phase(state: GameState | None) -> str:
    """The phase role to run next, or ``END``."""
    if state is None:
        return END
    if state.ended:
        return END
    if state.winner is not None:
        return Phase.GAME_END
    if state.destruct_due is not None:  # a wolf's speech was a self-destruct: at once
        return Phase.SELF_DESTRUCT
    if state.doctor_told_due is not None:  # right after the dawn, before anything else
        return Phase.DOCTOR_TOLD
    if state.badge_due is not None:  # a dead sheriff's badge, before his shot or words
        return Phase.BADGE
    if state.hunter_due is not None:
        return Phase.HUNTER
    if state.last_words_due:
        return Phase.LAST_WORDS
    stage = state.stage
    if stage in _NIGHTLY:
        phase = night_phase(state)
        if phase is _DAWN and stage is _NIGHT and election_due(state):
            return election_phase(state)  # the election comes before the night's dead are told
        return phase
    if stage in _DAYTIME:
        if state.sheriff is not None and order_due(state):
            return Phase.ORDER
        speaker = next_speaker(state)
        if speaker is not None:
            return _day_step(state, speaker) or _SPEECH
        if stage is not _PK and state.config.discussion is Discussion.BIDDING:
            return _BID if floor_bidders(state) else _VOTE
        return _VOTE
    if stage is _EVENING:
        return Phase.GAME_END if state.night >= state.config.day_cap else night_phase(state)
    return END
