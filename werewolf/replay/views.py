"""Who sees what: the entries of a game as the god, a spectator or one seat saw them.

``ViewStream`` is fed a game's events in order (all at once for a replay, one by one for a
live game) and returns the ``Entry`` objects its viewer sees:

- ``god``: every event, with the god-only parts (private reasoning and model exchanges from
  the attachments, fallbacks, token usage, failures and resumes);
- ``public``: the public events (``meta.visible_to`` is null), as a spectator saw them,
  numbered 1, 2, 3, ... among themselves (the log's numbers would show, by their gaps, how
  many hidden events came between, and so which seats still act at night);
- ``seat N``: exactly what ``werewolf.visibility`` shows seat N, the function that builds
  the players' views, so the replay cannot show a seat more than it was told.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pulse_core import ATTACHMENTS, ERROR, START, Event
from pulse_core.workflow import is_control

from ..errors import GameStateError
from ..state import GameState, initial_state
from ..visibility import Observation, SeatView, ViewCache

__all__ = ["Entry", "ViewKind", "ViewSpec", "ViewStream"]

AttachmentReader = Callable[[Event, str], str | None]


class ViewKind(StrEnum):
    GOD = "god"
    PUBLIC = "public"
    SEAT = "seat"


@dataclass(frozen=True, slots=True)
class ViewSpec:
    """A viewpoint: the god, a spectator, or one seat."""

    kind: ViewKind = ViewKind.GOD
    seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is ViewKind.SEAT) != (self.seat is not None):
            raise ValueError("a seat view names its seat, and only a seat view does")

    @classmethod
    def of_seat(cls, seat: int) -> ViewSpec:
        return cls(ViewKind.SEAT, seat)

    @property
    def label(self) -> str:
        if self.kind is ViewKind.SEAT:
            return f"seat {self.seat}'s view"
        return "god view" if self.kind is ViewKind.GOD else "public view"


@dataclass(frozen=True, slots=True)
class Entry:
    """One event as its viewer saw it. ``phase`` is the event's role (``__error__`` and
    ``__resume__`` appear in the god view only). The god-only fields stay empty elsewhere.
    ``version`` is the event's place in the log in the god view, and its place among the
    events the viewer saw in the public and seat views (a spectator or a seat never learns
    the log's numbering: its gaps are the hidden events)."""

    version: int
    phase: str
    day: int
    diff: Mapping[str, Any]
    detail: Mapping[str, Any]
    audience: tuple[int, ...] | None = None  # god view: visible_to; None is public
    reasoning: Mapping[str, str] = field(default_factory=dict)  # "reasoning/<seat>/<kind>"
    exchanges: Mapping[str, str] = field(default_factory=dict)  # "exchange/<seat>/<kind>"
    fallbacks: tuple[Mapping[str, Any], ...] = ()
    usage: tuple[Mapping[str, Any], ...] = ()
    note: str = ""  # a failure's error line
    # god view: belief reports with a vote (config beliefs): believer -> target -> P(wolf)
    beliefs: Mapping[int, Mapping[int, float]] = field(default_factory=dict)


def _beliefs(name: str, text: str) -> tuple[int, dict[int, float]] | None:
    """``beliefs/<seat>/vote``: the seat and its reports; None for anything malformed."""
    try:
        seat = int(name.split("/")[1])
        data = json.loads(text)
        return seat, {int(t): float(p) for t, p in data.items()}
    except (ValueError, TypeError, AttributeError, IndexError):
        return None


def _from_observation(obs: Observation) -> Entry:
    return Entry(obs.index, obs.phase, obs.day, obs.diff, obs.detail)


class ViewStream:
    """Feeds events in version order and returns what the viewer sees of each."""

    def __init__(self, spec: ViewSpec, attachment: AttachmentReader | None = None) -> None:
        self.spec = spec
        self._attachment = attachment
        self._chain: list[Event] = []
        self._views = ViewCache()
        self._seen = 0  # observations of the seat view already returned
        self._shown = 0  # public entries returned: the public view's own numbering
        self._day = 0
        self.start_state: GameState | None = None
        self.seat_view: SeatView | None = None

    @property
    def chain(self) -> tuple[Event, ...]:
        """The events fed so far."""
        return tuple(self._chain)

    def feed(self, event: Event) -> list[Entry]:
        if not self._chain:
            if event.role != START:
                raise GameStateError("a game log begins with its start event")
            self.start_state = initial_state(event.meta)
        elif event.version != self._chain[-1].version + 1:
            raise GameStateError(
                f"event version {event.version} after {self._chain[-1].version}: fed out of order"
            )
        self._chain.append(event)
        if self.spec.kind is ViewKind.SEAT:
            return self._seat_entries()
        if event.role == START:
            return []
        if self.spec.kind is ViewKind.PUBLIC:
            if is_control(event) or event.meta.get("visible_to") is not None:
                return []
            self._shown += 1
            return [self._plain(event, self._shown)]
        return [self._god(event)]

    def _seat_entries(self) -> list[Entry]:
        assert self.spec.seat is not None  # ViewSpec guarantees it
        view = self._views.view(self._chain, self.spec.seat)  # UnknownSeatError: no such seat
        self.seat_view = view
        fresh = view.observations[self._seen :]
        self._seen = len(view.observations)
        return [_from_observation(obs) for obs in fresh]

    def _plain(self, event: Event, number: int) -> Entry:
        meta = event.meta
        self._day = int(meta.get("day", self._day))
        return Entry(
            version=number,
            phase=event.role,
            day=self._day,
            diff=dict(meta.get("diff", {})),
            detail=dict(meta.get("detail", {})),
        )

    def _god(self, event: Event) -> Entry:
        meta = event.meta
        if is_control(event):
            note = str(meta.get("error", "")) if event.role == ERROR else ""
            detail = {"role": meta["role"]} if event.role == ERROR and "role" in meta else {}
            return Entry(event.version, event.role, self._day, {}, detail, note=note)
        plain = self._plain(event, event.version)
        audience = meta.get("visible_to")
        reasoning: dict[str, str] = {}
        exchanges: dict[str, str] = {}
        beliefs: dict[int, dict[int, float]] = {}
        if self._attachment is not None:
            for name in sorted(meta.get(ATTACHMENTS, {})):
                text = self._attachment(event, name)
                if text is not None and name.startswith("reasoning/"):
                    reasoning[name] = text
                elif text is not None and name.startswith("exchange/"):
                    exchanges[name] = text
                elif text is not None and name.startswith("beliefs/"):
                    told = _beliefs(name, text)
                    if told is not None:
                        beliefs[told[0]] = told[1]
        return Entry(
            version=plain.version,
            phase=plain.phase,
            day=plain.day,
            diff=plain.diff,
            detail=plain.detail,
            audience=None if audience is None else tuple(audience),
            reasoning=reasoning,
            exchanges=exchanges,
            fallbacks=tuple(meta.get("fallbacks", ())),
            usage=tuple(meta.get("usage", ())),
            beliefs=beliefs,
        )
