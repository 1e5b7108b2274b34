"""Typed decisions: what a seat is asked, what it may answer, and the rules' check.

A phase role builds a ``Request`` (the seat's view, the kind of decision, the legal options)
and a player returns an ``Answer``: a ``Speech``, a ``Choice`` of one target (``None`` for
no target: abstain, no kill, decline), or a ``WitchChoice``; a player that could not come
up with an answer at all (an LLM that never made a valid tool call) returns ``NoAnswer``
with the reason, which the rules always refuse. An answer may carry ``exchange``, the raw
model exchange (JSON) behind it, kept for the god view only. ``problem(request, answer)``
is the rules' verdict: ``None`` for a legal answer, else the reason, which is shown to the
player on a retry. ``fallback(request)`` is the legal answer taken when a player keeps
answering wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, cast

from .records import fill_class
from .rules import WitchOptions
from .visibility import SeatView

__all__ = [
    "DESTRUCT_KINDS",
    "YES_NO",
    "Answer",
    "Choice",
    "DecisionKind",
    "NoAnswer",
    "Request",
    "Speech",
    "Usage",
    "WitchChoice",
    "belief_problem",
    "fallback",
    "make_request",
    "problem",
    "storable",
]

MAX_SPEECH_CHARS = 2000


class DecisionKind(StrEnum):
    WOLF_TALK = "wolf-talk"  # a line in the wolves' night discussion
    WOLF_KILL = "wolf-kill"  # a wolf's proposed victim (None: no kill)
    WITCH = "witch"
    SEER = "seer"
    HUNTER = "hunter"  # the target of the shot (None: decline)
    SPEECH = "speech"  # a day speech (also the PK speech)
    LAST_WORDS = "last-words"
    VOTE = "vote"  # the exile vote (None: abstain)
    GUARD = "guard"  # the guard's protection (None: nobody, 空守)
    DOCTOR = "doctor"  # the doctor's protection
    CUPID = "cupid"  # one of the two lovers (asked twice)
    BID = "bid"  # a bid for the floor in a bidding discussion: one of rules.BIDS
    KNIGHT = "knight"  # the knight's duel, in place of his speech (None: he speaks)
    WOLF_KING = "wolf-king"  # the wolf king's shot as he dies (None: decline)
    # the sheriff's election and badge (config ``sheriff``): see werewolf/election.py
    SHERIFF_RUN = "sheriff-run"  # run for sheriff: 1, or not: 0
    SHERIFF_SPEECH = "sheriff-speech"  # a candidate's election speech (also the PK's)
    SHERIFF_WITHDRAW = "sheriff-withdraw"  # a candidate withdraws (退水): 1, or stays: 0
    SHERIFF_VOTE = "sheriff-vote"  # a ballot for a candidate (None: abstain)
    BADGE = "badge"  # the dead sheriff's heir (None: he tears the badge)
    ORDER = "order"  # the sheriff's choice of who speaks first (the direction)

    speaks: bool  # answered with words (a Speech), not a choice: set on each member below


YES_NO = frozenset({DecisionKind.SHERIFF_RUN, DecisionKind.SHERIFF_WITHDRAW})
"""Decisions answered yes (1) or no (None, the code 0, which is also their fallback)."""

_SPEAKING = frozenset(
    {
        DecisionKind.WOLF_TALK,
        DecisionKind.SPEECH,
        DecisionKind.LAST_WORDS,
        DecisionKind.SHERIFF_SPEECH,
    }
)
DESTRUCT_KINDS = frozenset({DecisionKind.SPEECH, DecisionKind.SHERIFF_SPEECH})
"""The speeches a wolf may answer with a self-destruct (their options; the wolves' talk
lists its targets as options, and takes no self-destruct)."""
_WITCH = DecisionKind.WITCH  # read once: on Python 3.11 an enum member read passes a hook
for _kind in DecisionKind:  # a plain attribute, not a property: every answer reads it
    _kind.speaks = _kind in _SPEAKING


@dataclass(frozen=True, slots=True)
class Request:
    """One decision asked of one seat."""

    kind: DecisionKind
    seat: int
    view: SeatView
    key: str  # unique within the game, e.g. "n2.vote.r1.s5": seeds mock players, names records
    options: tuple[int | None, ...] = ()  # legal targets for choices
    witch: WitchOptions | None = None
    context: dict[str, Any] = field(default_factory=dict)  # e.g. discussion so far, PK flag
    feedback: str | None = None  # why the previous answer was refused

    @property
    def offers_self_destruct(self) -> bool:
        """A wolf's day or election speech on a self-destruct board: its options are the
        self-destruct's (None: alone; a seat: whom the white wolf king takes). The wolves'
        night talk has options too, but they are its targets: it offers no self-destruct."""
        return bool(self.options) and self.kind in DESTRUCT_KINDS


_REQUEST_FILL = fill_class(
    Request, ("kind", "seat", "view", "key", "options", "witch", "context", "feedback")
)


def make_request(
    kind: DecisionKind,
    seat: int,
    view: SeatView,
    key: str,
    options: tuple[int | None, ...],
    witch: WitchOptions | None,
    context: dict[str, Any],
) -> Request:
    """``Request(kind, seat, view, key, options, witch, context)``, filled slot by slot
    (``records.fill_class``): a phase makes one for every decision, and the frozen
    ``__init__`` costs several times as much."""
    request: Any = object.__new__(_REQUEST_FILL)
    request.kind = kind
    request.seat = seat
    request.view = view
    request.key = key
    request.options = options
    request.witch = witch
    request.context = context
    request.feedback = None
    request.__class__ = Request
    return cast(Request, request)


@dataclass(frozen=True, slots=True)
class Usage:
    """What answering cost, for LLM seats."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    calls: int = 0  # answered requests, each billed
    retries: int = 0  # requests sent again after a transient fault (timeout, 5xx, empty, ...)
    mode: str | None = None  # "json" when the seat was asked for JSON, not a tool call
    estimated: bool = False  # the endpoint reported no usage: tokens estimated from the text


@dataclass(frozen=True, slots=True)
class Speech:
    text: str
    reasoning: str = ""
    usage: Usage | None = None
    exchange: str | None = None  # the model exchange behind the answer (JSON), god view only


@dataclass(frozen=True, slots=True)
class Choice:
    target: int | None
    reasoning: str = ""
    usage: Usage | None = None
    exchange: str | None = None  # the model exchange behind the answer (JSON), god view only
    # with a vote when the game asks for them (config beliefs): P(wolf) of other living seats
    beliefs: dict[int, float] | None = None


@dataclass(frozen=True, slots=True)
class WitchChoice:
    save: bool = False
    poison: int | None = None
    reasoning: str = ""
    usage: Usage | None = None
    exchange: str | None = None  # the model exchange behind the answer (JSON), god view only


@dataclass(frozen=True, slots=True)
class NoAnswer:
    """No usable answer (e.g. a model that never called its tool validly): ``reason`` says
    why; the rules refuse it, so the seat is asked again or given the fallback."""

    reason: str
    reasoning: str = ""
    usage: Usage | None = None
    exchange: str | None = None


Answer = Speech | Choice | WitchChoice | NoAnswer


def _is_text(text: str) -> bool:
    """False for strings that cannot be stored (lone surrogates, e.g. from a model's JSON)."""
    if text.isascii():  # a flag of the string: no copy to encode
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storable(text: str) -> str:
    """``text`` with anything UTF-8 cannot hold replaced, for free text kept as is."""
    return text if _is_text(text) else text.encode("utf-8", "replace").decode("utf-8")


def _not_a_seat(value: object) -> str | None:
    """Why ``value`` is no seat number (``None`` stands for nobody): the Python API gets
    ``True`` or ``1.0`` or ``"3"`` refused like any illegal answer, never written as a seat."""
    if value is None or type(value) is int:
        return None
    return f"a target is a seat number (int) or none, not {type(value).__name__} {value!r}"


def _not_of(value: object, kind: type, what: str) -> str | None:
    """Why ``value`` is not a ``kind`` (answers made through the Python API are not typed)."""
    if isinstance(value, kind):
        return None
    return f"{what}, not {type(value).__name__} {value!r}"


def problem(request: Request, answer: object) -> str | None:
    """None when ``answer`` is legal for ``request``, else the reason it is not."""
    if isinstance(answer, NoAnswer):
        return answer.reason
    kind = request.kind
    if kind.speaks:
        if request.offers_self_destruct and isinstance(answer, Choice):  # a wolf's self-destruct
            return _destruct_problem(request, answer)
        if not isinstance(answer, Speech):
            return "answer with a speech"
        text = answer.text
        if type(text) is not str and (wrong := _not_of(text, str, "a speech is text")):
            return wrong
        if len(answer.text) > MAX_SPEECH_CHARS:
            return f"a speech is at most {MAX_SPEECH_CHARS} characters"
        if not _is_text(answer.text):
            return "a speech must be plain text (it holds a lone surrogate, not valid Unicode)"
        return None
    if kind is _WITCH:
        if not isinstance(answer, WitchChoice):
            return "answer with a witch choice (save, poison)"
        if request.witch is None:
            return "no witch options were given"
        if (wrong := _not_of(answer.save, bool, "save is true or false")) is not None:
            return wrong
        if (wrong := _not_a_seat(answer.poison)) is not None:
            return wrong
        return request.witch.allows(answer.save, answer.poison)
    if not isinstance(answer, Choice):
        return "answer with a choice of one target"
    if answer.beliefs is not None:
        wrong = belief_problem(request, answer.beliefs)
        if wrong is not None:
            return wrong
    if type(answer.target) is not int and (wrong := _not_a_seat(answer.target)) is not None:
        return wrong
    if answer.target not in request.options:
        legal = ", ".join("none" if o is None else str(o) for o in request.options)
        shown = "none" if answer.target is None else f"seat {answer.target}"
        return f"{shown} is not a legal choice; choose one of: {legal}"
    return None


def _destruct_problem(request: Request, answer: Choice) -> str | None:
    """A wolf's speech offers a self-destruct (config ``self_destruct``): a choice of whom
    he takes with him (None: nobody; only the white wolf king is offered seats)."""
    if type(answer.target) is not int and (wrong := _not_a_seat(answer.target)) is not None:
        return wrong
    if answer.target not in request.options:
        legal = ", ".join("none" if o is None else str(o) for o in request.options)
        return f"a self-destruct takes one of: {legal}"
    return None


def belief_problem(request: Request, beliefs: dict[int, float]) -> str | None:
    """None for beliefs a vote may carry: only when asked, about other living seats, each a
    probability."""
    if request.kind is not DecisionKind.VOTE or not request.context.get("beliefs"):
        return "beliefs go with a vote, when the game asks for them"
    others = set(request.view.alive) - {request.seat}
    strangers = sorted(set(beliefs) - others)
    if strangers:
        return f"beliefs about seats that are not other living players: {strangers}"
    bad = sorted(s for s, p in beliefs.items() if not 0.0 <= p <= 1.0)
    if bad:
        return f"a belief is a probability from 0 to 1 (seats {bad})"
    return None


_IDLE_KINDS = frozenset({DecisionKind.SEER, DecisionKind.DOCTOR})


def fallback(request: Request, *, idle: bool = False) -> Answer:
    """The answer taken for a seat that kept answering wrongly: silence, no potion, no
    target where the rules allow none, else the first legal option; with ``idle``
    (``night_fallback = "nothing"``) a seer or doctor does nothing that night (None)."""
    if idle and request.kind in _IDLE_KINDS:
        return Choice(None, reasoning="fallback")
    if request.kind.speaks:
        return Speech("(no words)", reasoning="fallback")
    if request.kind is DecisionKind.WITCH:
        return WitchChoice(reasoning="fallback")
    if None in request.options:
        return Choice(None, reasoning="fallback")
    return Choice(request.options[0], reasoning="fallback")
