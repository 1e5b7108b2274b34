"""Game state as the fold of the phase events' diffs.

``GameState`` is never mutated and never stored: ``initial_state(start_meta)`` reads the start
event, and ``evolve(state, phase, diff)`` applies one phase event's diff. Consequences that
follow from the rules (causes of death, who may shoot, who gives last words, the winner) are
derived here from the god's-eye state, so a public event never has to carry a secret.
Folding never re-validates: the phase roles decided, the fold only applies.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cast import Identity, Team, team_of
from .config import GameConfig, parse_config
from .errors import GameStateError, UnknownSeatError
from .records import replace
from .registry import event_spec
from .win import Outcome, winner

__all__ = [
    "NIGHT_PHASES",
    "Cause",
    "Check",
    "Death",
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
    LAST_WORDS = "last-words"
    SPEECH = "day-speech"
    BID = "floor-bid"  # bidding discussions: who speaks next
    VOTE = "vote"
    GAME_END = "game-end"


NIGHT_PHASES = frozenset(
    {
        Phase.CUPID,
        Phase.LOVERS,
        Phase.GUARD,
        Phase.DOCTOR,
        Phase.WOLF_NIGHT,
        Phase.WITCH,
        Phase.SEER,
    }
)
"""The phases of a night: the first of them that runs begins the night."""


class Stage(StrEnum):
    SETUP = "setup"  # cards dealt, night 1 not begun
    NIGHT = "night"  # night actions in progress
    MORNING = "morning"  # after dawn: shots and last words, before speeches
    DISCUSSION = "discussion"  # speeches of the day
    PK = "pk"  # the tied players speak, then the re-vote
    EVENING = "evening"  # after the vote: shots and last words, before the next night
    OVER = "over"


class Cause(StrEnum):
    WOLF = "wolf"
    POISON = "poison"
    EXILE = "exile"
    SHOT = "shot"
    LOVE = "heartbreak"  # a lover dies when the other does (殉情)
    DUEL = "duel"  # the knight's duel: the wolf he named, or the knight himself


@dataclass(frozen=True, slots=True)
class Death:
    seat: int
    day: int  # the night or day number the death belongs to
    cause: Cause


@dataclass(frozen=True, slots=True)
class Check:
    night: int
    target: int
    wolf: bool


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
    winner: Outcome | None = None
    ended: bool = False
    # derived from ``identities`` (a game's constant) once; the fold's copies share it
    by_identity: dict[Identity, tuple[int, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        seats: dict[Identity, tuple[int, ...]] = {}
        for seat, held in enumerate(self.identities, start=1):
            seats[held] = (*seats.get(held, ()), seat)
        object.__setattr__(self, "by_identity", seats)

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
        return self.seats_of(Identity.WEREWOLF)

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

    def cause_of_death(self, seat: int) -> Cause | None:
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


def _kill(state: GameState, deaths: list[Death]) -> tuple[GameState, list[Death]]:
    """Apply a batch of deaths (with the lovers who die of heartbreak at once) and the win
    check that follows every batch; returns the state and the whole batch."""
    dying = {d.seat for d in deaths}
    for death in list(deaths):
        partner = state.partner(death.seat)
        if partner is not None and partner in state.alive and partner not in dying:
            deaths.append(Death(partner, death.day, Cause.LOVE))
            dying.add(partner)
    alive = state.alive - dying
    state = replace(state, alive=alive, deaths=state.deaths + tuple(deaths))
    return replace(state, winner=winner(state)), deaths


def _shoots(state: GameState, death: Death) -> bool:
    if state.identity(death.seat) is not Identity.HUNTER or state.hunter_fired:
        return False
    if death.cause is Cause.LOVE:
        return state.config.heartbroken_hunter_shoots
    return death.cause in (Cause.WOLF, Cause.EXILE)


def _after_deaths(
    state: GameState, deaths: list[Death], *, last_words: tuple[int, ...]
) -> GameState:
    """Who shoots and who speaks after a batch of deaths, unless the game is decided."""
    if state.winner is not None:  # the game ends at once: note what the deaths would have led to
        skipped = [(Phase.HUNTER.value, d.seat) for d in deaths if _shoots(state, d)]
        skipped += [(Phase.LAST_WORDS.value, s) for s in (*state.last_words_due, *last_words)]
        return replace(
            state, hunter_due=None, last_words_due=(), skipped=state.skipped + tuple(skipped)
        )
    hunter_due = state.hunter_due
    for death in deaths:
        if _shoots(state, death):
            hunter_due = death.seat
    return replace(
        state, hunter_due=hunter_due, last_words_due=state.last_words_due + tuple(last_words)
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
    """Apply one phase event's diff. Pure and total over well-formed diffs."""
    if phase in NIGHT_PHASES:
        if state.stage is not _NIGHT:  # the first night phase that runs begins it
            state = _begin_night(state)
        state = replace(state, acted=state.acted | {phase})
    apply = _APPLY.get(phase)
    if apply is None:  # -- the identities' own events (registry.EventSpec.fold) --
        spec = event_spec(phase)
        apply = None if spec is None else spec.fold
    # lovers-told only tells; events of other kinds (seat swaps, notes) change no game
    return state if apply is None else apply(state, diff)


# -- night actions: the phase's diff, after it is marked as taken tonight
def _wolves(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, wolf_target=diff.get("target"))


def _guard(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, guarded=diff.get("target"))


def _doctor(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, protected=diff.get("target"))


def _cupid(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, lovers=tuple(sorted(int(s) for s in diff["lovers"])))


def _witch(state: GameState, diff: dict[str, Any]) -> GameState:
    save = bool(diff.get("save"))
    poisoned = diff.get("poison")
    return replace(
        state,
        saved=state.wolf_target if save else None,
        poisoned=poisoned,
        antidote=state.antidote and not save,
        poison=state.poison and poisoned is None,
    )


def _seer(state: GameState, diff: dict[str, Any]) -> GameState:
    if diff.get("target") is None:  # no check (a failed answer, night_fallback)
        return state
    check = Check(state.night, int(diff["target"]), bool(diff["wolf"]))
    return replace(state, checks=(*state.checks, check))


def _night_cause(state: GameState, seat: int) -> Cause:
    if seat == state.poisoned:
        return Cause.POISON
    return Cause.WOLF if seat == state.wolf_target else Cause.LOVE


# -- the day's events
def _dawn(state: GameState, diff: dict[str, Any]) -> GameState:
    died = tuple(int(s) for s in diff.get("died", []))
    deaths = [Death(s, state.night, _night_cause(state, s)) for s in died]
    state = replace(state, stage=Stage.MORNING, spoken=(), pk=(), dawn_died=died)
    state, deaths = _kill(state, deaths)
    if state.winner is None:
        state = replace(state, doctor_told_due=_doctor_saved(state, died))
    first = state.night == 1 and state.config.last_words
    words = tuple(sorted(d.seat for d in deaths)) if first else ()
    return _after_deaths(state, deaths, last_words=words)


def _doctor_saved(state: GameState, died: tuple[int, ...]) -> int | None:
    """The wolves' victim the living doctor protected and who lives, when the config tells
    her of it (``doctor_told_save``), else None."""
    target = state.wolf_target
    doctor = state.seat_of(Identity.DOCTOR)
    if not state.config.doctor_told_save or target is None or target in died:
        return None
    if doctor is None or doctor not in state.alive or state.protected != target:
        return None
    return target


def _doctor_told(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, doctor_told_due=None)


def _shot(state: GameState, diff: dict[str, Any]) -> GameState:
    state = replace(state, hunter_due=None, hunter_fired=True)
    target = diff.get("target")
    if target is None:
        return state
    state, deaths = _kill(state, [Death(int(target), state.night, Cause.SHOT)])
    return _after_deaths(state, deaths[1:], last_words=())


def _last_words(state: GameState, diff: dict[str, Any]) -> GameState:
    speaker = int(diff["speaker"])
    return replace(state, last_words_due=tuple(s for s in state.last_words_due if s != speaker))


def _speech(state: GameState, diff: dict[str, Any]) -> GameState:
    stage = _DISCUSSION if state.stage is _MORNING else state.stage
    spoken = (*state.spoken, int(diff["speaker"]))
    return replace(state, stage=stage, spoken=spoken, floor=None)


def _bid(state: GameState, diff: dict[str, Any]) -> GameState:
    stage = _DISCUSSION if state.stage is _MORNING else state.stage
    return replace(state, stage=stage, floor=int(diff["floor"]))


def _vote(state: GameState, diff: dict[str, Any]) -> GameState:
    pk = tuple(int(s) for s in diff.get("pk", []))
    if pk:
        return replace(state, stage=Stage.PK, pk=pk, spoken=())
    exiled = diff.get("exiled")
    state = replace(state, stage=Stage.EVENING, exiles=(*state.exiles, (state.night, exiled)))
    if exiled is None:
        return state
    if exiled == state.idiot and not state.idiot_revealed:
        # he shows his card and lives on; the win is checked as after deaths, since a
        # revealed idiot may no longer keep the gods alive (idiot_counts_as_god = false)
        state = replace(state, idiot_revealed=True)
        return replace(state, winner=winner(state))
    state, deaths = _kill(state, [Death(int(exiled), state.night, Cause.EXILE)])
    # the exiled speaks, then a lover who dies of heartbreak with him (殉情时可以有遗言)
    words = tuple(d.seat for d in deaths) if state.config.last_words else ()
    return _after_deaths(state, deaths, last_words=words)


def _game_end(state: GameState, diff: dict[str, Any]) -> GameState:
    return replace(state, winner=Outcome(diff["winner"]), ended=True, stage=Stage.OVER)


# one entry per phase that changes the state: a lookup, not a chain of comparisons with
# enum members (each read of one passes the enum metaclass's __getattr__ hook on 3.11)
_APPLY: dict[str, Callable[[GameState, dict[str, Any]], GameState]] = {
    Phase.WOLF_NIGHT: _wolves,
    Phase.GUARD: _guard,
    Phase.DOCTOR: _doctor,
    Phase.CUPID: _cupid,
    Phase.WITCH: _witch,
    Phase.SEER: _seer,
    Phase.DAWN: _dawn,
    Phase.DOCTOR_TOLD: _doctor_told,
    Phase.HUNTER: _shot,
    Phase.LAST_WORDS: _last_words,
    Phase.SPEECH: _speech,
    Phase.BID: _bid,
    Phase.VOTE: _vote,
    Phase.GAME_END: _game_end,
}
_NIGHT, _MORNING, _DISCUSSION = Stage.NIGHT, Stage.MORNING, Stage.DISCUSSION
