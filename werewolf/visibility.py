"""What one seat may know: ``view(chain, seat)``.

An event is the unit of visibility: ``meta["visible_to"]`` is ``None`` (public) or the list
of seats that may see it, and a seat sees a visible event's ``diff`` and ``detail`` whole.
Two things are never shown to a seat: attachments (private reasoning, raw model exchanges:
the god view only) and control events. The start event is the one projection: it is
god-only (it holds the whole deal), and each seat is shown its own card and, if a wolf,
the wolf seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pulse_core import START, Event
from pulse_core.workflow import is_control

from .cast import Identity, Team, team_of
from .config import GameConfig
from .errors import GameStateError
from .state import GameState, Phase, initial_state

__all__ = ["Observation", "SeatView", "ViewCache", "can_see", "view"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One event as a seat saw it. ``index`` counts this seat's observations (1, 2, ...):
    never the event's place in the whole log, whose gaps would count hidden events."""

    index: int
    phase: str
    day: int
    diff: dict[str, Any]
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat knows."""

    seat: int
    name: str
    identity: Identity
    config: GameConfig
    names: tuple[str, ...]
    wolves: tuple[int, ...]  # fellow wolves (all wolf seats) when this seat is a wolf, else ()
    dead: tuple[int, ...]  # publicly known deaths, by seat
    observations: tuple[Observation, ...]

    @property
    def team(self) -> Team:
        return team_of(self.identity)

    @property
    def alive(self) -> tuple[int, ...]:
        return tuple(s for s in range(1, len(self.names) + 1) if s not in self.dead)

    @property
    def day(self) -> int:
        return self.observations[-1].day if self.observations else 0


def can_see(event: Event, seat: int) -> bool:
    """True when ``seat`` is in the event's audience (public, or named in ``visible_to``)."""
    if is_control(event):
        return False
    audience = event.meta.get("visible_to")
    return audience is None or seat in audience


def _public_deaths(observation: Observation) -> list[int]:
    diff = observation.diff
    if observation.phase == Phase.DAWN:
        return [int(s) for s in diff.get("died", [])]
    # a lover who dies of heartbreak by day is named in the vote or the shot
    broken = [int(s) for s in diff.get("heartbroken", [])]
    if observation.phase == Phase.VOTE and diff.get("exiled") is not None:
        # an idiot who shows his card is exiled but stays alive
        return [] if diff.get("revealed") is not None else [int(diff["exiled"]), *broken]
    if observation.phase == Phase.HUNTER and diff.get("target") is not None:
        return [int(diff["target"]), *broken]
    return []


def _observe(event: Event) -> Observation:
    meta = event.meta
    return Observation(
        index=0,  # numbered per seat when a seat receives it
        phase=event.role,
        day=int(meta.get("day", 0)),
        diff=dict(meta.get("diff", {})),
        detail=dict(meta.get("detail", {})),
    )


def view(chain: Sequence[Event], seat: int) -> SeatView:
    """What ``seat`` may know of the game in ``chain``. Raises UnknownSeatError for a seat the
    game does not have."""
    return ViewCache().view(chain, seat)


class ViewCache:
    """Builds seat views incrementally for one game: each event is observed once and each
    seat's view extends its previous one, so a phase's many requests stay cheap. Gives
    exactly what ``view`` gives."""

    def __init__(self) -> None:
        self._start_id = ""
        self._start: GameState | None = None
        self._seen: list[tuple[Event, Observation | None]] = []  # observation None: control
        self._seats: dict[int, tuple[int, list[Observation], set[int]]] = {}

    def view(self, chain: Sequence[Event], seat: int) -> SeatView:
        if not chain or chain[0].role != START:
            raise GameStateError("a game chain starts with its start event")
        if chain[0].id != self._start_id or not self._extends(chain):
            self._start_id, self._seen, self._seats = chain[0].id, [], {}
            self._start = initial_state(chain[0].meta)
        state = self._start
        if state is None:  # set together with _start_id above
            raise GameStateError("no start event seen")
        identity = state.identity(seat)  # raises UnknownSeatError
        for event in chain[1 + len(self._seen) :]:
            self._seen.append((event, None if is_control(event) else _observe(event)))
        upto, observations, dead = self._seats.get(seat, (0, [], set()))
        for event, obs in self._seen[upto : len(chain) - 1]:
            if obs is not None and can_see(event, seat):
                observations.append(replace(obs, index=len(observations) + 1))
                dead.update(_public_deaths(obs))
        self._seats[seat] = (len(chain) - 1, observations, dead)
        return SeatView(
            seat=seat,
            name=state.names[seat - 1],
            identity=identity,
            config=state.config,
            names=state.names,
            wolves=state.wolves if identity is Identity.WEREWOLF else (),
            dead=tuple(sorted(dead)),
            observations=tuple(observations),
        )

    def _extends(self, chain: Sequence[Event]) -> bool:
        """True when ``chain`` continues what this cache has seen (no shorter, same ids)."""
        seen = len(self._seen)
        if len(chain) - 1 < seen:
            return False
        return seen == 0 or chain[seen].id == self._seen[-1][0].id
