"""The registry: what is particular to each identity and to each event kind, declared once.

An identity module (``werewolf/identities/<name>.py``) declares an ``IdentitySpec``: its
names in en and zh, its team, whether it is a god, its steps (its place in the night, or
the day's decision it may take instead of a speech), its decision kinds with their tools,
its line of the rules text, its prompt file, its mock strategy and the event kinds it
writes. An event module declares an ``EventSpec``: the typed shape of the event's ``diff``
and ``detail``, its fold step and its *public meaning* (who died, of what, what was
revealed and to whom). Every list that was once written by hand (the gods, the night
order, tool names, rule-text tables, viewer labels, test tuples) is read from here.

This module imports only the vocabulary (``cast``, ``config``): the specs refer to the
state, the phase context and the players by type only, and to mock strategies by dotted
path, so importing the rules or the state loads no player module. The built-in specs are
loaded on first use (``_load``), and a package of one's own adds an identity with
``register_identity`` and its events with ``register_event``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .cast import Identity, Team

if TYPE_CHECKING:
    from pulse_core import RoleResult

    from .config import GameConfig
    from .phases import PhaseContext
    from .state import GameState

__all__ = [
    "NO_MEANING",
    "DayStep",
    "DecisionSpec",
    "EventSpec",
    "IdentitySpec",
    "Meaning",
    "Names",
    "NightStep",
    "Observe",
    "PhaseRole",
    "Shot",
    "event_spec",
    "event_specs",
    "god_order",
    "gods",
    "identity_spec",
    "identity_specs",
    "register_event",
    "register_identity",
    "shots",
    "unique_identities",
]

PhaseRole = Callable[["PhaseContext"], Awaitable["RoleResult"]]
"""A phase role: asks the seats the phase needs and returns the phase's event."""

Fold = Callable[["GameState", dict[str, Any]], "GameState"]
"""An event's fold step: the state after the event, from the state before and its diff."""


Observe = Callable[[Mapping[str, Any]], tuple[str, Mapping[str, int | None]]]
"""How a prompt tells of an identity's event: its phrase's variant and the seats it names."""


@dataclass(frozen=True, slots=True)
class Names:
    """A word in the two languages of the game."""

    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class NightStep:
    """One phase of the night. ``rank`` places it (lower runs first); ``early_rank``, when
    set, is its place under ``seer_before_wolves``; ``first_night_only`` for cupid's;
    ``runs``, when set, decides whether it runs tonight in place of "its holder is alive"
    (the wolves': always; the lovers told: once linked)."""

    phase: str
    rank: int
    first_night_only: bool = False
    early_rank: int | None = None
    runs: Callable[[GameState], bool] | None = None


@dataclass(frozen=True, slots=True)
class DayStep:
    """A decision an identity may take by day in place of its speech (the knight's duel):
    ``offered(state, seat)`` says whether the seat may take it now; ``phase`` is the phase
    role that carries it out."""

    phase: str
    offered: Callable[[GameState, int], bool]


@dataclass(frozen=True, slots=True)
class Shot:
    """A shot an identity may fire as it dies (the hunter's, the wolf king's), carried out by
    the one ``hunter-shot`` phase: ``allowed(state, cause)`` says whether a death of that
    cause gives it (the state is the one the death happened in); ``decision`` is the kind
    its holder is asked; ``cause`` the cause of death the shot writes."""

    allowed: Callable[[GameState, str], bool]
    decision: str
    cause: str


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    """A decision kind an identity is asked: the LLM tool's name, and the mock strategy's
    handler as ``"module:function"`` (imported only by the mock players)."""

    kind: str
    tool: str
    mock: str | None = None
    tool_rank: int = 500  # its tool's place in the array offered to a model (lower first)


@dataclass(frozen=True, slots=True)
class IdentitySpec:
    identity: Identity
    names: Names
    team: Team
    god: bool  # a god (神职) for the win rule 屠边 and the rules text's list of gods
    order: int  # its place in the rules text's and the viewer's lists (lower first)
    night: tuple[NightStep, ...] = ()
    day: tuple[DayStep, ...] = ()
    decisions: tuple[DecisionSpec, ...] = ()
    rules: Callable[[GameConfig, str], str] | None = None  # its line of the rules text
    # where that line goes: below 100 right after the night's line (the nine-player board's
    # gods), else among the later identities' lines before the win line; lower first
    rules_rank: int = 100
    night_text: Names | None = None  # how the rules text's night line names it
    unique: bool = True  # at most one in a deck (every identity but the wolf and the villager)
    prompt: str | None = None  # werewolf/prompts/{en,zh}/<prompt>.txt
    phases: Mapping[str, PhaseRole] = field(default_factory=dict)
    events: tuple[str, ...] = ()  # the event kinds its phases write
    # how a seat's prompt tells of its events, by phase: (variant, seats) from the diff,
    # said as the phrase ``obs.<phase>.<variant>`` with those seats
    observe: Mapping[str, Observe] = field(default_factory=dict)
    shot: Shot | None = None  # a shot it may fire as it dies
    # a self-destruct (config ``self_destruct``, a wolf's) may take one living player along
    destruct_takes: bool = False


class Meaning(NamedTuple):
    """What an event tells whoever sees it (its audience): the deaths it announces (seat,
    cause, or None when the table is not told the cause) and the cards it shows (seat,
    identity or team). A tuple, not a dataclass: made for every event that tells anything,
    and a tuple is the cheapest immutable record to make."""

    deaths: tuple[tuple[int, str | None], ...] = ()
    revealed: tuple[tuple[int, str], ...] = ()


NO_MEANING = Meaning()


@dataclass(frozen=True, slots=True)
class EventSpec:
    """One event kind: ``diff`` and ``detail`` are its typed shapes (TypedDicts: the event
    keeps plain dicts, cheap to build and fold); ``fold`` applies it to the state (None:
    it changes nothing); ``meaning`` reads its public meaning from its diff and detail;
    ``night``: the first night event that runs begins the night."""

    kind: str
    label: Names
    diff: type
    detail: type
    fold: Fold | None
    meaning: Callable[[dict[str, Any], dict[str, Any]], Meaning]
    night: bool = False
    causes: Mapping[str, Names] = field(default_factory=dict)  # death causes it may write


_IDENTITIES: dict[Identity, IdentitySpec] = {}
_EVENTS: dict[str, EventSpec] = {}
_LOADED = False


def _load() -> None:
    """Import the built-in identity and event modules once; each registers itself."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        importlib.import_module("werewolf.identities")
        importlib.import_module("werewolf.events")


def register_identity(spec: IdentitySpec) -> IdentitySpec:
    _IDENTITIES[spec.identity] = spec
    _DERIVED.clear()
    return spec


def register_event(spec: EventSpec) -> EventSpec:
    _EVENTS[spec.kind] = spec
    return spec


def identity_spec(identity: Identity) -> IdentitySpec:
    _load()
    return _IDENTITIES[identity]


def identity_specs() -> Iterator[IdentitySpec]:
    """Every identity, in its ``order``."""
    _load()
    return iter(sorted(_IDENTITIES.values(), key=lambda s: s.order))


def event_spec(kind: str) -> EventSpec | None:
    _load()
    return _EVENTS.get(kind)


def event_specs() -> Iterator[EventSpec]:
    _load()
    return iter(tuple(_EVENTS.values()))


_DERIVED: dict[str, Any] = {}  # what is read from the specs, once (cleared on a new one)


def god_order() -> tuple[Identity, ...]:
    """The gods (神职), in their ``order``."""
    gods = _DERIVED.get("god_order")
    if gods is None:
        gods = _DERIVED["god_order"] = tuple(s.identity for s in identity_specs() if s.god)
    return gods


def unique_identities() -> frozenset[Identity]:
    """The identities a deck holds at most once (every one but the wolf and the villager)."""
    unique = _DERIVED.get("unique")
    if unique is None:
        unique = _DERIVED["unique"] = frozenset(s.identity for s in identity_specs() if s.unique)
    return unique


def shots() -> Mapping[Identity, Shot]:
    """The identities that may shoot as they die, with their shot."""
    found = _DERIVED.get("shots")
    if found is None:
        found = _DERIVED["shots"] = {s.identity: s.shot for s in identity_specs() if s.shot}
    return found


def gods() -> frozenset[Identity]:
    gods = _DERIVED.get("gods")
    if gods is None:
        gods = _DERIVED["gods"] = frozenset(god_order())
    return gods
