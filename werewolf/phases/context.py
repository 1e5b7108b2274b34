"""The phase context: one run of one phase role, and the helpers every phase role shares.

A phase reads the folded state, builds each seat's ``Request`` from that seat's view and
the legal options the rules give, checks every answer (an illegal one is asked again with
the reason, then replaced by a legal fallback that is recorded), and returns the event:
``meta = {phase, day, visible_to, diff, detail[, fallbacks, usage]}``. Private reasoning
goes to attachments (``reasoning/<seat>/<decision>``), and so do model exchanges
(``exchange/<seat>/<decision>``, one JSON line per attempt), which only the god view reads.
Fallbacks and usage are listed in the order the decisions were asked, not the order
concurrent answers happened to arrive, so a game's log does not depend on timing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import CoroutineType, MappingProxyType
from typing import Any, cast

from pulse_core import Event, RoleResult

from ..config import NightFallback, Reveal
from ..decisions import (
    Answer,
    Choice,
    DecisionKind,
    Request,
    Speech,
    Usage,
    fallback,
    make_request,
    problem,
    storable,
)
from ..errors import PlayerProtocolError, SeatError
from ..players.base import Player
from ..players.protocol import ANSWER_TYPES, check_awaitable, not_an_answer
from ..records import fill_class
from ..rules import WitchOptions
from ..state import GameState
from ..visibility import ViewCache

__all__ = [
    "PhaseContext",
    "ask_all",
    "choice_of",
    "heartbreak_text",
    "in_key_order",
    "phase_context",
    "reveal_dead",
    "seat_text",
    "speech_text",
]


@dataclass(slots=True)
class _AskRecord:
    """What one ask produced besides its answer."""

    fallbacks: list[dict[str, Any]] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)
    offered: tuple[str, str] | None = None  # (attachment name, JSON line): the legal options


@dataclass(slots=True)
class PhaseContext:
    """One run of one phase: the chain, its state, the seated players, and what the
    decisions produced besides their answers (fallbacks, reasoning, usage)."""

    chain: Sequence[Event]
    state: GameState
    players: Mapping[int, Player]
    views: ViewCache = field(default_factory=ViewCache)
    retries: int = 2
    # per game, across phases: decisions asked ahead of their phase (the seer's check)
    ahead: dict[str, Any] = field(default_factory=dict)
    reasoning: dict[str, str] = field(default_factory=dict)
    beliefs: dict[str, str] = field(default_factory=dict)  # "beliefs/<seat>/vote" -> JSON
    exchanges: dict[str, list[str]] = field(default_factory=dict)
    # one slot per ask, taken before its first await: concurrent asks keep request order;
    # None until the ask has something to record (most never do)
    _slots: list[_AskRecord | None] = field(default_factory=list)
    _noted: bool = False  # a slot holds a fallback, usage or an offer
    immediate: bool = False  # every seated player answers at once (Player.immediate)

    @property
    def fallbacks(self) -> list[dict[str, Any]]:
        return [f for slot in self._slots if slot is not None for f in slot.fallbacks]

    @property
    def usage(self) -> list[dict[str, Any]]:
        return [u for slot in self._slots if slot is not None for u in slot.usage]

    def _slot(self, index: int) -> _AskRecord:
        """The record of the ``index``-th ask, made when it first records something."""
        slot = self._slots[index]
        if slot is None:
            slot = self._slots[index] = _AskRecord()
        self._noted = True
        return slot

    def request(
        self,
        kind: DecisionKind,
        seat: int,
        key: str,
        *,
        options: tuple[int | None, ...] = (),
        witch: WitchOptions | None = None,
        context: dict[str, Any] | None = None,
    ) -> Request:
        if getattr(self.players.get(seat), "reads_view", True):
            view = self.views.view(self.chain, seat)
        else:  # built only if the player reads it after all
            view = self.views.lazy(self.chain, seat)
        return make_request(
            kind, seat, view, key, options, witch, {} if context is None else context
        )

    async def ask(self, request: Request) -> Answer:
        """The seat's legal answer: asked up to ``1 + retries`` times (once without
        ``retry_illegal``), then a fallback."""
        index = len(self._slots)
        self._slots.append(None)
        if self.state.config.referee_record and (
            not request.kind.speaks or request.offers_self_destruct
        ):
            self._slot(index).offered = _offer(request)
        player = self.players.get(request.seat)
        if player is None:
            raise PlayerProtocolError(
                f"the seating gave no player for seat {request.seat}, asked its "
                f"{request.kind.value} decision {request.key!r}"
            )
        reason: str | None = None
        # retry_illegal = false: the first illegal answer takes its fallback (as on Kaggle)
        retries = self.retries if self.state.config.retry_illegal else 0
        for _ in range(1 + retries):
            asked = request if reason == request.feedback else replace(request, feedback=reason)
            try:
                pending = player.decide(asked)
                if type(pending) is not CoroutineType:  # a sync decide: raised, not retried
                    check_awaitable(asked, pending)
                given: object = await pending  # typed by the protocol, not checked by Python
            except SeatError as exc:
                if exc.usage is not None:  # billed before it failed: recorded with the error
                    self._account_usage(index, request, exc.usage)
                raise
            if not isinstance(given, ANSWER_TYPES):  # code, not an illegal answer: raised
                raise not_an_answer(request, given)
            answer = given
            if answer.exchange is not None or answer.usage is not None:
                self._account(index, request, answer)
            reason = problem(request, answer)
            if answer.reasoning:
                self._think(request, answer.reasoning, refused=reason)
            if reason is None:
                return answer
        self._slot(index).fallbacks.append(
            {
                "seat": request.seat,
                "decision": request.kind.value,
                "key": request.key,
                "reason": reason,
            }
        )
        idle = self.state.config.night_fallback is NightFallback.NOTHING
        return fallback(request, idle=idle)

    def _think(self, request: Request, reasoning: str, *, refused: str | None) -> None:
        """Keep a seat's reasoning for the god view: every round of a decision (the wolves'
        second kill round adds to the first) and refused answers too, marked as such."""
        reasoning = storable(reasoning)
        if refused is not None:
            reasoning = f"[refused: {refused}] {reasoning}"
        name = f"reasoning/{request.seat}/{request.kind}"
        earlier = self.reasoning.get(name)
        self.reasoning[name] = reasoning if earlier is None else f"{earlier}\n{reasoning}"

    def _account(self, index: int, request: Request, answer: Answer) -> None:
        if answer.exchange is not None:
            name = f"exchange/{request.seat}/{request.kind}"
            self.exchanges.setdefault(name, []).append(answer.exchange)
        if answer.usage is not None:
            self._account_usage(index, request, answer.usage)

    def _account_usage(self, index: int, request: Request, u: Usage) -> None:
        record: dict[str, Any] = {
            "seat": request.seat,
            "decision": request.kind.value,
            "key": request.key,  # matched against the bill ledger when the game is taken up
            "prompt_tokens": u.prompt_tokens,
            "completion_tokens": u.completion_tokens,
            "latency_ms": round(u.latency_ms, 1),
            "calls": u.calls,
        }
        if u.retries:
            record["retries"] = u.retries
        if u.mode == "json":
            record["mode"] = "json"
        if u.estimated:
            record["estimated"] = True
        self._slot(index).usage.append(record)

    def carry(self, records: Sequence[dict[str, Any]]) -> None:
        """Record ``records`` (usage billed to an earlier process that stopped before
        recording it, ``players.ledger``) with this phase's own, ahead of them."""
        self._slots.append(None)
        self._slot(len(self._slots) - 1).usage.extend(dict(r) for r in records)

    def result(
        self,
        phase: str,
        content: str,
        *,
        diff: dict[str, Any],
        detail: dict[str, Any] | None = None,
        visible_to: Sequence[int] | None = None,
        day: int | None = None,
    ) -> RoleResult:
        # keys in sorted order, and ``diff`` and ``detail`` written so too (``_in_key_order``
        # where a key is added later): the meta is then its own JSON round trip, which the
        # event may hold without a copy (RoleResult.canonical; tests/werewolf/test_fast_paths)
        meta: dict[str, Any] = {
            "day": self.state.night if day is None else day,
            "detail": detail or {},
            "diff": diff,
            "phase": str(phase),  # a StrEnum's str is its value, read without enum frames
            "visible_to": None if visible_to is None else sorted(visible_to),
        }
        if not (self._noted or self.reasoning or self.beliefs or self.exchanges):
            return _plain_result(content, meta)  # nothing but the answers: most events
        if fallbacks := self.fallbacks:
            meta["fallbacks"] = fallbacks
        if usage := self.usage:
            meta["usage"] = usage
        # fallbacks and usage hold what players gave (reasons, token counts): copied as JSON
        canonical = not (fallbacks or usage)
        return RoleResult(content, meta, self._attachments(), canonical=canonical)

    def _attachments(self) -> dict[str, str]:
        """Reasoning, beliefs, model exchanges and offers, by attachment name."""
        attachments = dict(self.reasoning) | self.beliefs
        attachments.update({name: "\n".join(lines) for name, lines in self.exchanges.items()})
        offers: dict[str, list[str]] = {}
        for slot in self._slots:
            if slot is not None and slot.offered is not None:
                offers.setdefault(slot.offered[0], []).append(slot.offered[1])
        attachments.update({name: "\n".join(lines) for name, lines in offers.items()})
        return attachments


def phase_context(
    chain: Sequence[Event],
    state: GameState,
    players: Mapping[int, Player],
    views: ViewCache,
    *,
    retries: int,
    ahead: dict[str, Any],
    immediate: bool,
) -> PhaseContext:
    """``PhaseContext(chain, state, players, views, retries=..., ahead=..., immediate=...)``,
    filled field by field: a game makes one for every event, and the dataclass ``__init__``
    with its default factories costs about twice as much. The class is not frozen, so each
    field is a plain slot store (``tests/werewolf/test_fast_paths.py`` checks every field)."""
    ctx = object.__new__(PhaseContext)
    ctx.chain = chain
    ctx.state = state
    ctx.players = players
    ctx.views = views
    ctx.retries = retries
    ctx.ahead = ahead
    ctx.reasoning = {}
    ctx.beliefs = {}
    ctx.exchanges = {}
    ctx._slots = []
    ctx._noted = False
    ctx.immediate = immediate
    return ctx


_RESULT_FILL = fill_class(RoleResult, ("content", "meta", "attachments", "canonical"))
_NO_ATTACHMENTS: Mapping[str, str] = MappingProxyType({})


def _plain_result(content: str, meta: dict[str, Any]) -> RoleResult:
    """``RoleResult(content, meta, canonical=True)``, filled slot by slot
    (``records.fill_class``: its frozen ``__init__`` costs several times as much, and a
    phase makes one for every event)."""
    result: Any = object.__new__(_RESULT_FILL)
    result.content = content
    result.meta = meta
    result.attachments = _NO_ATTACHMENTS  # read-only: one empty mapping for all
    result.canonical = True
    result.__class__ = RoleResult
    return cast(RoleResult, result)


def _offer(request: Request) -> tuple[str, str]:
    """What a decision offered, for the referee's record: ``offered/<seat>/<decision>`` and
    one JSON line per ask (the key and the legal options; the witch's potions)."""
    record: dict[str, Any] = {"key": request.key}
    witch = request.witch
    if witch is not None:
        record |= {
            "told": witch.told_target,
            "can_save": witch.can_save,
            "poison": list(witch.poison_targets),
            "both": witch.both_allowed,
        }
    else:
        record["options"] = list(request.options)
    return f"offered/{request.seat}/{request.kind}", json.dumps(record, separators=(",", ":"))


async def ask_all(ctx: PhaseContext, requests: Sequence[Request]) -> list[Answer]:
    """Every request's answer, in request order: concurrently, or one after another (no
    task per answer) when every seat asked answers at once (``Player.immediate``). When one
    fails, the others still finish before the failure is raised, so what each was billed is
    accounted for."""
    if ctx.immediate or all(getattr(ctx.players[r.seat], "immediate", False) for r in requests):
        return [await ctx.ask(r) for r in requests]
    results = await asyncio.gather(*(ctx.ask(r) for r in requests), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return [r for r in results if not isinstance(r, BaseException)]


def seat_text(state: GameState, seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat} ({state.names[seat - 1]})"


def in_key_order(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its keys in sorted order, as its JSON round trip has them (see
    ``PhaseContext.result``): for a diff or detail that gained a key after it was written."""
    return dict(sorted(record.items()))


def choice_of(answer: Answer) -> int | None:
    return answer.target if isinstance(answer, Choice) else None


def speech_text(answer: Answer) -> str:
    """The words of a speech, as a plain ``str`` (the rules take a subclass of str too, but
    an event's meta holds exact JSON types: ``PhaseContext.result``)."""
    if not isinstance(answer, Speech):
        return ""
    text = answer.text
    return text if type(text) is str else str.__str__(text)


def reveal_dead(state: GameState, dead: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """What the config reveals of the dead (``reveal_on_death``): a sentence for the event's
    text and ``{"revealed": [[seat, team or identity], ...]}`` for its detail; nothing by
    default, so the log of a default game is unchanged."""
    reveal = state.config.reveal_on_death
    if reveal is Reveal.NOTHING or not dead:
        return "", {}
    told = [
        [s, state.team(s).value if reveal is Reveal.TEAM else state.identity(s).value] for s in dead
    ]
    return " Revealed: " + ", ".join(f"seat {s} {what}" for s, what in told) + ".", {
        "revealed": told
    }


def heartbreak_text(state: GameState, broken: Sequence[int]) -> str:
    return "".join(f" {seat_text(state, s).capitalize()} dies of heartbreak." for s in broken)
