"""Game state as the fold of the phase events' diffs.

``GameState`` is never mutated and never stored: ``initial_state(start_meta)`` reads the start
event, and ``evolve(state, phase, diff)`` applies one phase event's diff. Consequences that
follow from the rules (causes of death, who may shoot, who gives last words, the winner) are
derived here from the god's-eye state, so a public event never has to carry a secret.
Folding never re-validates: the phase roles decided, the fold only applies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cast import Identity, Team, team_of
from .config import GameConfig, parse_config
from .errors import GameStateError, UnknownSeatError
from .records import replace

__all__ = [
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

    WOLF_NIGHT = "wolf-night"
    WITCH = "witch-action"
    SEER = "seer-check"
    DAWN = "dawn"
    HUNTER = "hunter-shot"
    LAST_WORDS = "last-words"
    SPEECH = "day-speech"
    BID = "floor-bid"  # bidding discussions: who speaks next
    VOTE = "vote"
    GAME_END = "game-end"


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


class Outcome(StrEnum):
    WOLVES = "wolves"
    GOOD = "good"
    DRAW = "draw"


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
    winner: Outcome | None = None
    ended: bool = False

    # -- lookups ---------------------------------------------------------------------------
    @property
    def seats(self) -> range:
        return range(1, len(self.identities) + 1)

    def check_seat(self, seat: int) -> int:
        if not 1 <= seat <= len(self.identities):
            raise UnknownSeatError(seat, len(self.identities))
        return seat

    def identity(self, seat: int) -> Identity:
        return self.identities[self.check_seat(seat) - 1]

    def team(self, seat: int) -> Team:
        return team_of(self.identity(seat))

    def seat_of(self, identity: Identity) -> int | None:
        """The seat holding a unique identity (seer, witch, hunter), or None."""
        for seat, held in enumerate(self.identities, start=1):
            if held is identity:
                return seat
        return None

    def seats_of(self, identity: Identity) -> tuple[int, ...]:
        return tuple(s for s, held in enumerate(self.identities, start=1) if held is identity)

    @property
    def wolves(self) -> tuple[int, ...]:
        return self.seats_of(Identity.WEREWOLF)

    @property
    def living(self) -> tuple[int, ...]:
        return tuple(sorted(self.alive))

    def is_alive(self, seat: int) -> bool:
        return seat in self.alive

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


def _kill(state: GameState, deaths: list[Death]) -> GameState:
    """Apply a batch of deaths and the win check that follows every batch."""
    from .rules import winner  # rules reads GameState; imported here to avoid a cycle

    alive = state.alive - {d.seat for d in deaths}
    state = replace(state, alive=alive, deaths=state.deaths + tuple(deaths))
    return replace(state, winner=winner(state))


def _after_deaths(state: GameState, deaths: list[Death], *, last_words: bool) -> GameState:
    """Who shoots and who speaks after a batch of deaths, unless the game is decided."""
    if state.winner is not None:
        return replace(state, hunter_due=None, last_words_due=())
    hunter_due = state.hunter_due
    for death in deaths:
        if (
            state.identity(death.seat) is Identity.HUNTER
            and death.cause in (Cause.WOLF, Cause.EXILE)
            and not state.hunter_fired
        ):
            hunter_due = death.seat
    speakers = tuple(sorted(d.seat for d in deaths)) if last_words else ()
    return replace(state, hunter_due=hunter_due, last_words_due=state.last_words_due + speakers)


def evolve(state: GameState, phase: str, diff: dict[str, Any]) -> GameState:
    """Apply one phase event's diff. Pure and total over well-formed diffs."""
    if phase == Phase.WOLF_NIGHT:
        return replace(
            state,
            night=state.night + 1,
            stage=Stage.NIGHT,
            acted=frozenset({Phase.WOLF_NIGHT.value}),
            wolf_target=diff.get("target"),
            saved=None,
            poisoned=None,
            spoken=(),
            pk=(),
        )
    if phase == Phase.WITCH:
        save = bool(diff.get("save"))
        poisoned = diff.get("poison")
        return replace(
            state,
            acted=state.acted | {Phase.WITCH.value},
            saved=state.wolf_target if save else None,
            poisoned=poisoned,
            antidote=state.antidote and not save,
            poison=state.poison and poisoned is None,
        )
    if phase == Phase.SEER:
        check = Check(state.night, int(diff["target"]), bool(diff["wolf"]))
        return replace(state, acted=state.acted | {Phase.SEER.value}, checks=(*state.checks, check))
    if phase == Phase.DAWN:
        deaths = [
            Death(s, state.night, Cause.POISON if s == state.poisoned else Cause.WOLF)
            for s in diff.get("died", [])
        ]
        state = replace(state, stage=Stage.MORNING, spoken=(), pk=())
        state = _kill(state, deaths)
        return _after_deaths(state, deaths, last_words=state.night == 1)
    if phase == Phase.HUNTER:
        state = replace(state, hunter_due=None, hunter_fired=True)
        target = diff.get("target")
        if target is None:
            return state
        state = _kill(state, [Death(int(target), state.night, Cause.SHOT)])
        return _after_deaths(state, [], last_words=False)
    if phase == Phase.LAST_WORDS:
        speaker = int(diff["speaker"])
        return replace(state, last_words_due=tuple(s for s in state.last_words_due if s != speaker))
    if phase == Phase.SPEECH:
        stage = Stage.DISCUSSION if state.stage is Stage.MORNING else state.stage
        spoken = (*state.spoken, int(diff["speaker"]))
        return replace(state, stage=stage, spoken=spoken, floor=None)
    if phase == Phase.BID:
        stage = Stage.DISCUSSION if state.stage is Stage.MORNING else state.stage
        return replace(state, stage=stage, floor=int(diff["floor"]))
    if phase == Phase.VOTE:
        pk = tuple(int(s) for s in diff.get("pk", []))
        if pk:
            return replace(state, stage=Stage.PK, pk=pk, spoken=())
        exiled = diff.get("exiled")
        state = replace(state, stage=Stage.EVENING, exiles=(*state.exiles, (state.night, exiled)))
        if exiled is None:
            return state
        deaths = [Death(int(exiled), state.night, Cause.EXILE)]
        state = _kill(state, deaths)
        return _after_deaths(state, deaths, last_words=True)
    if phase == Phase.GAME_END:
        return replace(state, winner=Outcome(diff["winner"]), ended=True, stage=Stage.OVER)
    return state  # events of other kinds (seat swaps, notes) do not change the game
