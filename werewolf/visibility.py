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
from dataclasses import dataclass, field
from typing import Any, cast

from pulse_core import START, Event
from pulse_core.workflow import is_control

from .cast import Identity, Team, team_of
from .config import GameConfig
from .errors import GameStateError
from .events import meaning_of
from .records import fill_class, slot_setters
from .state import GameState, initial_state

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
    # the seats not publicly dead: derived once (players read it several times a decision)
    alive: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dead = self.dead
        alive = tuple(s for s in range(1, len(self.names) + 1) if s not in dead)
        object.__setattr__(self, "alive", alive)

    @property
    def team(self) -> Team:
        return team_of(self.identity)

    @property
    def day(self) -> int:
        return self.observations[-1].day if self.observations else 0


def can_see(event: Event, seat: int) -> bool:
    """True when ``seat`` is in the event's audience (public, or named in ``visible_to``)."""
    if is_control(event):
        return False
    audience = event.meta.get("visible_to")
    return audience is None or seat in audience


def _public_deaths(observation: Observation) -> tuple[int, ...]:
    """The seats whose death the event tells its audience (its kind's meaning)."""
    told = meaning_of(observation.phase, observation.diff, observation.detail).deaths
    return tuple(seat for seat, _cause in told) if told else ()


def _observe(event: Event) -> Observation:
    meta = event.meta
    return Observation(
        index=0,  # numbered per seat when a seat receives it
        phase=event.role,
        day=int(meta.get("day", 0)),
        diff=dict(meta.get("diff", {})),
        detail=dict(meta.get("detail", {})),
    )


def _numbered(obs: Observation, index: int) -> Observation:
    """``obs`` as a seat's ``index``-th observation: made field by field, without the
    dataclass ``__init__`` (a view gets one for each event it shows each seat), on a plain
    class of the same slots (``records.fill_class``)."""
    numbered: Any = object.__new__(_OBSERVATION_FILL)
    numbered.index = index
    numbered.phase = obs.phase
    numbered.day = obs.day
    numbered.diff = obs.diff
    numbered.detail = obs.detail
    numbered.__class__ = Observation
    return cast(Observation, numbered)


_OBSERVATION_FILL = fill_class(Observation, ("index", "phase", "day", "diff", "detail"))


_Seen = tuple[Event, Observation | None, frozenset[int] | None, tuple[int, ...]]


def view(chain: Sequence[Event], seat: int) -> SeatView:
    """What ``seat`` may know of the game in ``chain``. Raises UnknownSeatError for a seat the
    game does not have."""
    return ViewCache().view(chain, seat)


class ViewCache:
    """Builds seat views incrementally for one game: each event is observed once and each
    seat's view extends its previous one (and is the same object while the seat saw nothing
    new), so a phase's many requests stay cheap. Gives exactly what ``view`` gives."""

    def __init__(self) -> None:
        self._start_id = ""
        self._start: GameState | None = None
        # each event after the start: its observation (None for control), its audience (None:
        # public) and the deaths it makes known, worked out once for every seat
        self._seen: list[_Seen] = []
        self._seats: dict[int, _SeatRecord] = {}

    def lazy(self, chain: Sequence[Event], seat: int) -> SeatView:
        """``view(chain, seat)``, built only when a field of it is first read: a player
        that never looks at its view (random, scripted) costs no view at all."""
        start = self._start
        if start is None or not chain or chain[0].id != self._start_id:
            start = self._start_state(chain)  # a new game: the full check
        if not 0 < seat <= len(start.identities):
            start.identity(seat)  # raises UnknownSeatError now, not later
        # made without a call of __init__ (its one slot set directly): one per request
        lazy = object.__new__(_LazySeatView)
        _SET_SOURCE(lazy, (self, chain, seat))
        return lazy

    def view(self, chain: Sequence[Event], seat: int) -> SeatView:
        state = self._start_state(chain)
        identity = state.identity(seat)  # raises UnknownSeatError
        if len(chain) - 1 < len(self._seen):  # an earlier chain (a lazy view read late)
            return ViewCache().view(chain, seat)
        for event in chain[1 + len(self._seen) :]:
            if is_control(event):
                self._seen.append((event, None, None, ()))
            else:
                audience = event.meta.get("visible_to")
                seen_by = None if audience is None else frozenset(audience)
                observed = _observe(event)
                deaths = _public_deaths(observed)
                self._seen.append((event, observed, seen_by, deaths))
        record = self._seats.get(seat)
        if record is None:
            record = self._seats[seat] = _SeatRecord()
        observations, dead = record.observations, record.dead
        for _event, obs, seen_by, deaths in self._seen[record.upto : len(chain) - 1]:
            if obs is not None and (seen_by is None or seat in seen_by):
                observations.append(_numbered(obs, len(observations) + 1))
                if deaths:
                    dead.update(deaths)
        record.upto = len(chain) - 1
        if record.built is not None and len(record.built.observations) == len(observations):
            return record.built
        if record.alive is None or len(dead) != len(record.dead_seen):  # (deaths only add)
            record.dead_seen = tuple(sorted(dead))
            record.alive = tuple(s for s in range(1, len(state.names) + 1) if s not in dead)
        # made slot by slot, as SeatView(...) would make it (the frozen __init__ is slow, and
        # the living seats are kept from the last view until someone dies)
        built: Any = object.__new__(_VIEW_FILL)  # filled as a plain object, then made a view
        names = state.names
        built.seat = seat
        built.name = names[seat - 1]
        built.identity = identity
        built.config = state.config
        built.names = names
        built.wolves = state.wolves if seat in state.wolf_seats else ()
        built.dead = record.dead_seen
        built.observations = tuple(observations)
        built.alive = record.alive
        built.__class__ = SeatView
        record.built = made = cast(SeatView, built)
        return made

    def _start_state(self, chain: Sequence[Event]) -> GameState:
        """The game's state at its start; forgets what it saw when ``chain`` is another
        game's or does not agree with what was seen."""
        if not chain or chain[0].role != START:
            raise GameStateError("a game chain starts with its start event")
        if chain[0].id != self._start_id or not self._agrees(chain):
            self._start_id, self._seen, self._seats = chain[0].id, [], {}
            self._start = initial_state(chain[0].meta)
        state = self._start
        if state is None:  # set together with _start_id above
            raise GameStateError("no start event seen")
        return state

    def _agrees(self, chain: Sequence[Event]) -> bool:
        """True when ``chain`` and what this cache has seen agree where both reach."""
        both = min(len(chain) - 1, len(self._seen))
        return both == 0 or chain[both].id == self._seen[both - 1][0].id


class _SeatRecord:
    """One seat's view so far: events looked at, observations, public deaths, last view."""

    __slots__ = ("alive", "built", "dead", "dead_seen", "observations", "upto")

    def __init__(self) -> None:
        self.upto = 0
        self.observations: list[Observation] = []
        self.dead: set[int] = set()
        self.built: SeatView | None = None
        # the last view's ``dead`` and ``alive``, kept while nobody else dies
        self.dead_seen: tuple[int, ...] = ()
        self.alive: tuple[int, ...] | None = None


_VIEW_FIELDS = ("seat", "name", "identity", "config", "names", "wolves", "dead", "observations",
                "alive")  # fmt: skip
# each field's slot setter, in _VIEW_FIELDS order: how a view is filled without __init__
_VIEW_SET = slot_setters(SeatView, _VIEW_FIELDS)
_VIEW_FILL = fill_class(SeatView, _VIEW_FIELDS)


class _LazySeatView(SeatView):
    """A ``SeatView`` whose fields are filled from its cache when one is first read (an
    unset slot raises AttributeError, which sends the read to ``__getattr__``)."""

    __slots__ = ("_source",)  # (cache, chain, seat), set by ViewCache.lazy

    def __getattr__(self, name: str) -> Any:
        if name not in _VIEW_FIELDS:
            raise AttributeError(name)
        cache, chain, seat = object.__getattribute__(self, "_source")
        built = cache.view(chain, seat)
        for field_name, put in zip(_VIEW_FIELDS, _VIEW_SET, strict=True):
            put(self, getattr(built, field_name))
        return getattr(built, name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _VIEW_FIELDS)

    __hash__ = SeatView.__hash__


_SET_SOURCE = _LazySeatView._source.__set__  # type: ignore[attr-defined]  # the slot's own
