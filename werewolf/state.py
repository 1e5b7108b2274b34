"""Game state as the fold of the phase events' diffs.

``GameState`` is never mutated and never stored: ``initial_state(start_meta)`` reads the start
event, and ``evolve(state, phase, diff)`` applies one phase event's diff with its kind's fold
step (``werewolf/events/<kind>.py``, found through the registry). Consequences that
follow from the rules (causes of death, who may shoot, who gives last words, the winner) are
derived here from the god's-eye state, so a public event never has to carry a secret.
Folding never re-validates: the phase roles decided, the fold only applies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cast import Identity, Team, team_of
from .config import GameConfig, parse_config
from .errors import GameStateError, UnknownSeatError
from .records import replace
from .registry import Fold, event_spec, event_specs
from .win import Outcome

__all__ = [
    "Cause",
    "Check",
    "Death",
    "Election",
    "GameState",
    "Outcome",
    "Phase",
    "Stage",
    "evolve",
    "initial_state",
]


class Phase(StrEnum):
    """The phase roles of the workflow, in the order a day may use them."""

    CUPID = "cupid-link"
    LOVERS = "lovers-told"
    GUARD = "guard-protect"
    DOCTOR = "doctor-protect"
    WOLF_NIGHT = "wolf-night"
    WITCH = "witch-action"
    SEER = "seer-check"
    DAWN = "dawn"
    DOCTOR_TOLD = "doctor-told"  # doctor_told_save: her protection saved the wolves' victim
    HUNTER = "hunter-shot"
    SELF_DESTRUCT = "self-destruct"  # a wolf's speech was a self-destruct: carried out
    LAST_WORDS = "last-words"
    SPEECH = "day-speech"
    BID = "floor-bid"  # bidding discussions: who speaks next
    VOTE = "vote"
    GAME_END = "game-end"
    # the sheriff (config ``sheriff``): the election before day 1's dawn, the badge, the order
    SHERIFF_RUN = "sheriff-run"
    SHERIFF_SPEECH = "sheriff-speech"
    SHERIFF_WITHDRAW = "sheriff-withdraw"
    SHERIFF_VOTE = "sheriff-vote"
    BADGE = "sheriff-badge"
    ORDER = "sheriff-order"


# NIGHT_PHASES (module ``__getattr__``): the kinds whose spec says ``night``; the first of
# them that runs begins the night.


class Stage(StrEnum):
    SETUP = "setup"  # cards dealt, night 1 not begun
    NIGHT = "night"  # night actions in progress
    MORNING = "morning"  # after dawn: shots and last words, before speeches
    DISCUSSION = "discussion"  # speeches of the day
    PK = "pk"  # the tied players speak, then the re-vote
    EVENING = "evening"  # after the vote: shots and last words, before the next night
    OVER = "over"


class Cause(StrEnum):
    """The causes of death the built-in events write. A ``Death``'s cause is a string: an
    identity of one's own may write another (the event that writes it declares it in its
    ``EventSpec.causes`` with its wording, which is how every reader words it)."""

    WOLF = "wolf"
    POISON = "poison"
    EXILE = "exile"
    SHOT = "shot"
    SELF_DESTRUCT = "self_destruct"  # a wolf who reveals himself by day (自爆)
    TAKEN = "taken"  # taken along by the white wolf king's self-destruct
    KING_SHOT = "king_shot"  # shot by the wolf king as he dies
    LOVE = "heartbreak"  # a lover dies when the other does (殉情)


@dataclass(frozen=True, slots=True)
class Death:
    seat: int
    day: int  # the night or day number the death belongs to
    cause: str  # a Cause member for the built-in causes


@dataclass(frozen=True, slots=True)
class Check:
    night: int
    target: int
    wolf: bool


@dataclass(frozen=True, slots=True)
class Election:
    """The sheriff's election under way: who runs, who has spoken this round, who withdrew,
    the tied candidates of a PK round, and its step (``speech``, ``withdraw``, ``vote``)."""

    candidates: tuple[int, ...]
    step: str = "speech"
    spoken: tuple[int, ...] = ()
    withdrawn: tuple[int, ...] = ()
    pk: tuple[int, ...] = ()

    @property
    def standing(self) -> tuple[int, ...]:
        """The candidates still in the race (the PK's tied ones in a PK round)."""
        if self.pk:
            return self.pk
        return tuple(s for s in self.candidates if s not in self.withdrawn)


@dataclass(frozen=True)  # no slots: the fold copies it by its field dict (records.replace)
class GameState:
    config: GameConfig
    names: tuple[str, ...]
    identities: tuple[Identity, ...]
    seed: int
    alive: frozenset[int]
    night: int = 0  # the current night, and the day that follows it
    stage: Stage = Stage.SETUP
    acted: frozenset[str] = frozenset()  # night phases taken tonight
    wolf_target: int | None = None
    saved: int | None = None
    poisoned: int | None = None
    antidote: bool = True
    poison: bool = True
    hunter_fired: bool = False
    deaths: tuple[Death, ...] = ()
    hunter_due: int | None = None
    last_words_due: tuple[int, ...] = ()
    spoken: tuple[int, ...] = ()  # today's speakers, in order (a seat once per speech)
    floor: int | None = None  # bidding: the seat that won the floor and speaks next
    pk: tuple[int, ...] = ()
    checks: tuple[Check, ...] = ()
    exiles: tuple[tuple[int, int | None], ...] = ()  # (day, exiled seat or None)
    dawn_died: tuple[int, ...] = ()  # who died at the latest dawn
    guarded: int | None = None  # tonight's guarded seat
    last_guarded: int | None = None  # last night's, which the guard may not repeat
    protected: int | None = None  # tonight's doctor protection
    doctor_told_due: int | None = None  # the seat her protection saved, to tell her of
    last_protected: int | None = None
    lovers: tuple[int, ...] = ()  # the two seats cupid linked, sorted
    idiot_revealed: bool = False
    skipped: tuple[tuple[str, int], ...] = ()  # (phase, seat) not run: the game was decided
    # -- the day steps (registry.DayStep): a decision some identity may take by day in
    # place of its speech. ``spent``: the once-per-game powers used, by phase;
    # ``day_asked``: (day, seat, speeches so far) of the last day step offered, so the
    # seat, once asked, speaks
    spent: frozenset[str] = frozenset()
    day_asked: tuple[int, int, int] | None = None
    # a wolf's speech was a self-destruct (config ``self_destruct``): (wolf, seat he takes
    # or None), carried out by the ``self-destruct`` phase next
    destruct_due: tuple[int, int | None] | None = None
    # the day whose election a self-destruct ended: its dawn leads to the evening, no talk
    destructed: int = 0
    # -- the sheriff (config ``sheriff``): the badge's holder; a dead sheriff who is to pass
    # it (``badge_due``); the election under way; whether it is over; the night after
    # which it is held (a later day when something postpones it); the direction he chose,
    # as (day, from the left)
    sheriff: int | None = None
    badge_due: int | None = None
    election: Election | None = None
    election_over: bool = False
    election_day: int = 1
    ordered: tuple[int, bool] | None = None
    winner: Outcome | None = None
    ended: bool = False
    # derived from ``identities`` (a game's constant) once; the fold's copies share it
    by_identity: dict[Identity, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )
    wolf_seats: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        seats: dict[Identity, tuple[int, ...]] = {}
        for seat, held in enumerate(self.identities, start=1):
            seats[held] = (*seats.get(held, ()), seat)
        object.__setattr__(self, "by_identity", seats)
        wolves = (s for i, held in seats.items() if team_of(i) is _WOLVES for s in held)
        object.__setattr__(self, "wolf_seats", tuple(sorted(wolves)))

    # -- lookups ---------------------------------------------------------------------------
    @property
    def seats(self) -> range:
        return range(1, len(self.identities) + 1)

    def check_seat(self, seat: int) -> int:
        if not 1 <= seat <= len(self.identities):
            raise UnknownSeatError(seat, len(self.identities))
        return seat

    def identity(self, seat: int) -> Identity:
        identities = self.identities
        if not 1 <= seat <= len(identities):
            raise UnknownSeatError(seat, len(identities))
        return identities[seat - 1]

    def team(self, seat: int) -> Team:
        return team_of(self.identity(seat))

    def seat_of(self, identity: Identity) -> int | None:
        """The seat holding a unique identity (seer, witch, hunter), or None."""
        seats = self.by_identity.get(identity)
        return seats[0] if seats else None

    def seats_of(self, identity: Identity) -> tuple[int, ...]:
        return self.by_identity.get(identity, ())

    @property
    def wolves(self) -> tuple[int, ...]:
        """Every wolf seat (the werewolves and the wolf kings), by seat."""
        return self.wolf_seats

    @property
    def living(self) -> tuple[int, ...]:
        return tuple(sorted(self.alive))

    def is_alive(self, seat: int) -> bool:
        return seat in self.alive

    @property
    def tonight(self) -> int:
        """The night being played, or the one about to begin."""
        return self.night if self.stage is Stage.NIGHT else self.night + 1

    @property
    def guarded_before(self) -> int | None:
        """Whom the guard protected the night before tonight (tonight may not have begun)."""
        return self.last_guarded if self.stage is Stage.NIGHT else self.guarded

    @property
    def protected_before(self) -> int | None:
        """Whom the doctor protected the night before tonight."""
        return self.last_protected if self.stage is Stage.NIGHT else self.protected

    @property
    def idiot(self) -> int | None:
        return self.seat_of(Identity.IDIOT)

    def partner(self, seat: int) -> int | None:
        """The other lover of a lover, else None."""
        if seat in self.lovers:
            return next(s for s in self.lovers if s != seat)
        return None

    def cause_of_death(self, seat: int) -> str | None:
        for death in self.deaths:
            if death.seat == seat:
                return death.cause
        return None


def initial_state(meta: dict[str, Any]) -> GameState:
    """The state after the start event, from its meta (``game`` and ``deal``)."""
    key = json.dumps(meta, sort_keys=True)
    state = _STARTS.get(key)
    if state is None:
        state = _STARTS[key] = _parse_start(meta)
        if len(_STARTS) > 4096:  # a bounded memo: configs repeat across a run's games
            _STARTS.pop(next(iter(_STARTS)))
    return state


_STARTS: dict[str, GameState] = {}


def _parse_start(meta: dict[str, Any]) -> GameState:
    try:
        game = meta["game"]
        config = parse_config(game["config"])
        identities = tuple(Identity(x) for x in meta["deal"])
        names = tuple(str(n) for n in game["names"])
        seed = int(game["seed"])
    except (KeyError, TypeError, ValueError) as exc:
        raise GameStateError(f"the start event is not a werewolf game start: {exc}") from exc
    if sorted(identities) != sorted(config.identities):
        raise GameStateError("the deal does not match the config's identities")
    if len(names) != len(identities):
        raise GameStateError(f"{len(names)} names for {len(identities)} seats")
    return GameState(
        config=config,
        names=names,
        identities=identities,
        seed=seed,
        alive=frozenset(range(1, len(identities) + 1)),
    )


def _begin_night(state: GameState) -> GameState:
    return replace(
        state,
        night=state.night + 1,
        stage=Stage.NIGHT,
        acted=frozenset(),
        wolf_target=None,
        saved=None,
        poisoned=None,
        last_guarded=state.guarded,
        guarded=None,
        last_protected=state.protected,
        protected=None,
        spoken=(),
        pk=(),
    )


def evolve(state: GameState, phase: str, diff: dict[str, Any]) -> GameState:
    """Apply one phase event's diff: its kind's fold step (``werewolf.events``). Pure and
    total over well-formed diffs."""
    step = _STEPS.get(phase)
    if step is None:
        step = _step(phase)
    night, fold = step
    if night:
        if state.stage is not _NIGHT:  # the first night phase that runs begins it
            state = _begin_night(state)
        state = replace(state, acted=state.acted | {phase})
    # lovers-told only tells; seat swaps and kinds not registered change no game
    return state if fold is None else fold(state, diff)


_Step = tuple[bool, Fold | None]
# each kind's (night, fold), read from the registry once: one lookup per event, no chain of
# comparisons (each read of an enum member passes the metaclass's __getattr__ on 3.11)
_STEPS: dict[str, _Step] = {}


def _step(phase: str) -> _Step:
    spec = event_spec(phase)
    if spec is None:  # not kept: a kind may be registered later
        return (False, None)
    step = _STEPS[phase] = (spec.night, spec.fold)
    return step


def __getattr__(name: str) -> Any:
    if name == "NIGHT_PHASES":  # read from the registry, which loads the event modules
        return frozenset(spec.kind for spec in event_specs() if spec.night)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NIGHT = Stage.NIGHT
_WOLVES = Team.WOLVES
