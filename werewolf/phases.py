"""The phase roles: each asks the acting seats for decisions and returns one RoleResult.

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
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from pulse_core import Event, RoleResult

from .cast import Identity, Team
from .config import GameConfig, NightFallback, Reveal, SeerLearns, WinRule, WolfKill, WolfSplit
from .decisions import (
    Answer,
    Choice,
    DecisionKind,
    Request,
    Speech,
    Usage,
    WitchChoice,
    fallback,
    make_request,
    problem,
    storable,
)
from .errors import SeatError
from .identities import idiot
from .players.base import Player
from .records import slot_setters
from .rules import (
    BIDS,
    WitchOptions,
    each_vote_options,
    floor_bidders,
    floor_winner,
    heartbroken,
    hunter_targets,
    next_speaker,
    resolve_night,
    seer_targets,
    speeches_left,
    tally,
    voters,
    witch_options,
    wolf_ballot_options,
    wolf_ballot_target,
    wolf_targets,
)
from .state import GameState, Outcome, Phase
from .visibility import ViewCache

# the members the commonest phases name, read once: on Python 3.11 every read of an enum
# member (``Phase.SPEECH``) passes the enum metaclass, and a game runs a phase per event
_SPEECH_ASK, _VOTE_ASK, _BID_ASK, _KILL_ASK = (
    DecisionKind.SPEECH,
    DecisionKind.VOTE,
    DecisionKind.BID,
    DecisionKind.WOLF_KILL,
)
_SPEECH, _VOTE, _BID = Phase.SPEECH, Phase.VOTE, Phase.BID

__all__ = ["PHASES", "PhaseContext", "ask_seer_ahead", "outcome_reason", "seat_text"]


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
        if self.state.config.referee_record and not request.kind.speaks:
            self._slot(index).offered = _offer(request)
        player = self.players[request.seat]
        reason: str | None = None
        # retry_illegal = false: the first illegal answer takes its fallback (as on Kaggle)
        retries = self.retries if self.state.config.retry_illegal else 0
        for _ in range(1 + retries):
            asked = request if reason == request.feedback else replace(request, feedback=reason)
            try:
                answer = await player.decide(asked)
            except SeatError as exc:
                if exc.usage is not None:  # billed before it failed: recorded with the error
                    self._account_usage(index, request, exc.usage)
                raise
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
        phase: Phase,
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


_RESULT_SET = slot_setters(RoleResult, ("content", "meta", "attachments", "canonical"))
_NO_ATTACHMENTS: Mapping[str, str] = MappingProxyType({})


def _plain_result(content: str, meta: dict[str, Any]) -> RoleResult:
    """``RoleResult(content, meta, canonical=True)``, filled slot by slot (its frozen
    ``__init__`` costs about twice as much, and a phase makes one for every event)."""
    result = object.__new__(RoleResult)
    set_content, set_meta, set_attachments, set_canonical = _RESULT_SET
    set_content(result, content)
    set_meta(result, meta)
    set_attachments(result, _NO_ATTACHMENTS)  # read-only: one empty mapping for all
    set_canonical(result, True)
    return result


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


async def _ask_all(ctx: PhaseContext, requests: Sequence[Request]) -> list[Answer]:
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


_seat = seat_text


def _in_key_order(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its keys in sorted order, as its JSON round trip has them (see
    ``PhaseContext.result``): for a diff or detail that gained a key after it was written."""
    return dict(sorted(record.items()))


def _choice(answer: Answer) -> int | None:
    return answer.target if isinstance(answer, Choice) else None


def _text(answer: Answer) -> str:
    """The words of a speech, as a plain ``str`` (the rules take a subclass of str too, but
    an event's meta holds exact JSON types: ``PhaseContext.result``)."""
    if not isinstance(answer, Speech):
        return ""
    text = answer.text
    return text if type(text) is str else str.__str__(text)


# -- night ------------------------------------------------------------------------------------
def _agree(proposals: Mapping[int, int | None]) -> int | bool | None:
    """The agreed target, or False when the wolves disagree."""
    values = set(proposals.values())
    if len(values) == 1:
        return next(iter(values))
    return False


def split_target(config: GameConfig, proposals: Mapping[int, int | None]) -> int | None:
    """The victim when the wolves are still split after the second round: nobody under
    the 'empty' rule (空刀); the unique most-proposed seat under 'plurality'. When 空刀 is
    not allowed somebody must die: the most-proposed seat, the lowest on a tie."""
    counts = Counter(t for t in proposals.values() if t is not None)
    top = max(counts.values(), default=0)
    leaders = sorted(s for s, c in counts.items() if c == top)
    if not config.allow_empty_kill:
        return leaders[0] if leaders else None
    if config.wolf_split is WolfSplit.PLURALITY and len(leaders) == 1:
        return leaders[0]
    return None


def _copied(discussion: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The wolves' talk so far, for a request: a copy, since the event's meta keeps the
    lines themselves (nothing a player does to its request may change an event)."""
    return [dict(line) for line in discussion]


async def wolf_night(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    night = state.tonight
    if not state.config.seer_before_wolves:  # else she checked with the doctor already
        ask_seer_ahead(ctx, night)
    if state.config.wolf_kill is WolfKill.VOTE:
        return await _wolf_ballots(ctx)
    wolves = [s for s in state.wolves if state.is_alive(s)]
    options = wolf_targets(state)
    discussion: list[dict[str, Any]] = []
    for wolf in wolves:  # each living wolf speaks once, hearing the ones before
        request = ctx.request(
            DecisionKind.WOLF_TALK,
            wolf,
            f"n{night}.wolf-talk.s{wolf}",
            options=options,
            context={"night": night, "discussion": _copied(discussion)},
        )
        discussion.append({"seat": wolf, "text": _text(await ctx.ask(request))})
    rounds: list[list[list[int | None]]] = []
    target: int | None = None
    for round_no in (1, 2):
        previous = rounds[-1] if rounds else []
        requests = [
            ctx.request(
                _KILL_ASK,
                wolf,
                f"n{night}.wolf-kill.r{round_no}.s{wolf}",
                options=options,
                context={
                    "night": night,
                    "discussion": _copied(discussion),
                    "round": round_no,
                    "proposals": [list(p) for p in previous],
                },
            )
            for wolf in wolves
        ]
        answers = await _ask_all(ctx, requests)
        proposals = {r.seat: _choice(a) for r, a in zip(requests, answers, strict=True)}
        rounds.append([[seat, t] for seat, t in sorted(proposals.items())])
        agreed = _agree(proposals)
        if agreed is not False:
            target = agreed if isinstance(agreed, int) else None
            break
    else:
        target = split_target(state.config, proposals)
    lines = [f"Night {night}: the wolves chose {_seat(state, target)}."]
    lines += [f"  seat {d['seat']}: {d['text']}" for d in discussion]
    return ctx.result(
        Phase.WOLF_NIGHT,
        "\n".join(lines),
        diff={"target": target},
        detail={"discussion": discussion, "proposals": rounds},
        visible_to=state.wolves,
        day=night,
    )


async def _wolf_ballots(ctx: PhaseContext) -> RoleResult:
    """``wolf_kill = "vote"``: no talk; the living wolves cast one ballot each, in seat
    order, each seeing the ballots before his; the most-voted seat dies and a tie is drawn
    at random (the draw recorded in the detail)."""
    state = ctx.state
    night = state.tonight
    options = wolf_ballot_options(state)
    ballots: dict[int, int | None] = {}
    for wolf in (s for s in state.wolves if state.is_alive(s)):
        request = ctx.request(
            DecisionKind.WOLF_KILL,
            wolf,
            f"n{night}.wolf-kill.r1.s{wolf}",
            options=options,
            context={
                "night": night,
                "discussion": [],
                "round": 1,
                "proposals": [[s, t] for s, t in ballots.items()],  # the ballots so far
                "ballot": True,
            },
        )
        ballots[wolf] = _choice(await ctx.ask(request))
    target, drawn = wolf_ballot_target(state, ballots)
    none = "abstain" if state.config.wolf_abstain else "nobody"
    shown = ", ".join(f"{w}->{none if t is None else t}" for w, t in sorted(ballots.items()))
    text = f"Night {night}: the wolves voted ({shown}) and chose {_seat(state, target)}"
    if drawn is not None and not any(t is not None for t in ballots.values()):
        text += " (every wolf abstained: drawn at random among seats "
        text += ", ".join(map(str, drawn.among)) + ")"
    elif drawn is not None:
        text += " (a tie between seats " + ", ".join(map(str, drawn.among)) + ", drawn at random)"
    detail: dict[str, Any] = {
        "discussion": [],
        "proposals": [[[seat, t] for seat, t in sorted(ballots.items())]],
    }
    if drawn is not None:
        detail = _in_key_order(detail | {"draw": drawn.record()})
    return ctx.result(
        Phase.WOLF_NIGHT,
        text + ".",
        diff={"target": target},
        detail=detail,
        visible_to=state.wolves,
        day=night,
    )


async def witch_action(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    options = witch_options(state)
    witch = options.witch
    request = ctx.request(
        DecisionKind.WITCH,
        witch,
        f"n{state.night}.witch.s{witch}",
        witch=options,
        context={"night": state.night, "told_target": options.told_target},
    )
    answer = await ctx.ask(request)
    assert isinstance(answer, WitchChoice)  # checked by problem() or made by fallback()
    told = options.told_target
    parts = [
        f"Night {state.night}: the witch was told {_seat(state, told)}"
        if told is not None
        else f"Night {state.night}: the witch was told no victim"
    ]
    parts.append("used the antidote" if answer.save else "kept the antidote")
    if answer.poison is not None:
        parts.append(f"poisoned {_seat(state, answer.poison)}")
    return ctx.result(
        Phase.WITCH,
        "; ".join(parts) + ".",
        diff={"poison": answer.poison, "save": answer.save},
        detail={"can_save": options.can_save, "told_target": told},
        visible_to=[witch],
    )


def _seer_request(ctx: PhaseContext, night: int) -> Request:
    seer = ctx.state.seat_of(Identity.SEER)
    assert seer is not None  # asked only for a living seer
    return ctx.request(
        DecisionKind.SEER,
        seer,
        f"n{night}.seer.s{seer}",
        options=seer_targets(ctx.state),
        context={"night": night},
    )


def ask_seer_ahead(ctx: PhaseContext, night: int) -> None:
    """Start the seer's check as the night begins, so it runs while the wolves and the
    witch decide: her view and options cannot change before her phase (she sees neither
    event, and deaths resolve at dawn). Her own context keeps her reasoning, fallbacks and
    usage out of the wolves' event; if the game stops first, her phase simply asks again.
    A seer who answers at once (``Player.immediate``) has nothing to overlap: her phase
    asks her, with no task."""
    seer = ctx.state.seat_of(Identity.SEER)
    if seer is None or not ctx.state.is_alive(seer):
        return
    if getattr(ctx.players[seer], "immediate", False):
        return
    own = PhaseContext(ctx.chain, ctx.state, ctx.players, ctx.views, retries=ctx.retries)
    task = asyncio.ensure_future(own.ask(_seer_request(own, night)))
    task.add_done_callback(_retrieve)  # a failure surfaces in her phase, or nowhere
    ctx.ahead["seer"] = (night, own, task)


def _retrieve(task: asyncio.Future[Answer]) -> None:
    if not task.cancelled():
        task.exception()


async def seer_check(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    seer = state.seat_of(Identity.SEER)
    assert seer is not None  # the moderator runs this phase only for a living seer
    night = state.tonight  # she may open the night (seer_before_wolves, no living doctor)
    ahead = ctx.ahead.pop("seer", None)
    own: PhaseContext
    answer: Answer
    if ahead is not None and ahead[0] == night:
        _, own, task = ahead
        answer = await task
    else:
        own = ctx
        answer = await ctx.ask(_seer_request(ctx, night))
    target = _choice(answer)
    if target is None:  # her fallback under night_fallback = "nothing": no check tonight
        return own.result(
            Phase.SEER,
            f"Night {night}: the seer checked nobody.",
            diff={"target": None, "wolf": None},
            visible_to=[seer],
            day=night,
        )
    wolf = state.team(target) is Team.WOLVES
    diff: dict[str, Any] = {"target": target, "wolf": wolf}
    told = "a wolf" if wolf else "good"
    if state.config.seer_learns is SeerLearns.IDENTITY:  # the key only when asked for
        diff = _in_key_order(diff | {"identity": state.identity(target).value})
        told = f"the {diff['identity']} ({'wolf' if wolf else 'good'})"
    return own.result(
        Phase.SEER,
        f"Night {night}: the seer checked {_seat(state, target)}: {told}.",
        diff=diff,
        visible_to=[seer],
        day=night,
    )


async def dawn(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    died = resolve_night(state)
    if died:
        text = (
            f"Day {state.night} dawns. Died last night: "
            + ", ".join(_seat(state, s) for s in died)
            + "."
        )
    else:
        text = f"Day {state.night} dawns. A peaceful night: nobody died."
    shown, detail = _reveal(state, died)
    return ctx.result(Phase.DAWN, text + shown, diff={"died": list(died)}, detail=detail)


def _reveal(state: GameState, dead: Sequence[int]) -> tuple[str, dict[str, Any]]:
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


# -- day --------------------------------------------------------------------------------------
async def hunter_shot(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    hunter = state.hunter_due
    assert hunter is not None  # the moderator runs this phase only when a shot is due
    request = ctx.request(
        DecisionKind.HUNTER,
        hunter,
        f"d{state.night}.hunter.s{hunter}",
        options=hunter_targets(state),
        context={"day": state.night},
    )
    target = _choice(await ctx.ask(request))
    if target is None:
        return ctx.result(
            Phase.HUNTER,
            f"Day {state.night}: the hunter, seat {hunter}, kept his bullet.",
            diff={"shooter": hunter, "target": None},
            visible_to=[hunter],
        )
    diff: dict[str, Any] = {"shooter": hunter, "target": target}
    text = (
        f"Day {state.night}: seat {hunter} reveals the hunter card and shoots "
        f"{_seat(state, target)}."
    )
    broken = heartbroken(state, {target})
    if broken:  # written only when a lover dies, so boards without lovers log as before
        diff = _in_key_order(diff | {"heartbroken": list(broken)})
        text += _heartbreak_text(state, broken)
    shown, detail = _reveal(state, sorted([target, *broken]))
    text += shown
    return ctx.result(Phase.HUNTER, text, diff=diff, detail=detail)


def _heartbreak_text(state: GameState, broken: Sequence[int]) -> str:
    return "".join(f" {_seat(state, s).capitalize()} dies of heartbreak." for s in broken)


async def last_words(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    speaker = state.last_words_due[0]
    request = ctx.request(
        DecisionKind.LAST_WORDS,
        speaker,
        f"d{state.night}.last-words.s{speaker}",
        context={"day": state.night},
    )
    text = _text(await ctx.ask(request))
    return ctx.result(
        Phase.LAST_WORDS,
        f"Last words of {_seat(state, speaker)}: {text}",
        diff={"speaker": speaker},
        detail={"text": text},
    )


async def day_speech(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    speaker = next_speaker(state)
    assert speaker is not None  # the moderator runs this phase only while someone is to speak
    pk = bool(state.pk)
    times = state.spoken.count(speaker) + 1  # this seat's speech number today
    request = ctx.request(
        _SPEECH_ASK,
        speaker,
        f"d{state.night}.{'pk' if pk else 'speech'}.s{speaker}"
        + (f".r{times}" if times > 1 else ""),
        context={"day": state.night, "pk": pk, "candidates": list(state.pk)}
        | ({"round": times} if times > 1 and not pk else {}),  # a later round of the talk
    )
    text = _text(await ctx.ask(request))
    label = "PK speech" if pk else "Speech"
    return ctx.result(
        _SPEECH,
        f"{label} of {_seat(state, speaker)}: {text}",
        diff={"speaker": speaker},
        detail={"pk": pk, "text": text},
    )


async def floor_bid(ctx: PhaseContext) -> RoleResult:
    """Bidding discussions: every living player with speeches left bids for the floor at
    once; the highest bid speaks next (``rules.floor_winner``). The bids are public."""
    state = ctx.state
    number = len(state.spoken) + 1  # the speech the floor is bid for
    requests = [
        ctx.request(
            _BID_ASK,
            seat,
            f"d{state.night}.bid{number}.s{seat}",
            options=BIDS,
            context={
                "day": state.night,
                "speech": number,
                "left": speeches_left(state),
                "spoken": state.spoken.count(seat),
            },
        )
        for seat in floor_bidders(state)
    ]
    answers = await _ask_all(ctx, requests)
    bids = {r.seat: _choice(a) or 0 for r, a in zip(requests, answers, strict=True)}
    speaker = floor_winner(state, bids)
    shown = ", ".join(f"{s}:{b}" for s, b in sorted(bids.items()))
    return ctx.result(
        _BID,
        f"Day {state.night}, bids for speech {number}: {shown}. {_seat(state, speaker)} speaks.",
        diff={"floor": speaker},
        detail={"bids": [[s, b] for s, b in sorted(bids.items())], "speech": number},
    )


async def vote(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    round_no = 2 if state.pk else 1
    seats = voters(state)
    requests = [
        ctx.request(
            _VOTE_ASK,
            seat,
            f"d{state.night}.vote.r{round_no}.s{seat}",
            options=options,
            context={"day": state.night, "round": round_no, "candidates": list(state.pk)}
            | ({"beliefs": True} if state.config.beliefs else {}),
        )
        for seat, options in zip(seats, each_vote_options(state, seats), strict=True)
    ]
    answers = await _ask_all(ctx, requests)
    ballots = {r.seat: _choice(a) for r, a in zip(requests, answers, strict=True)}
    for r, a in zip(requests, answers, strict=True):
        if isinstance(a, Choice) and a.beliefs:  # private: an attachment, god view only
            told = {str(s): round(float(p), 4) for s, p in sorted(a.beliefs.items())}
            ctx.beliefs[f"beliefs/{r.seat}/vote"] = json.dumps(told, separators=(",", ":"))
    result = tally(state, ballots)
    lines = [
        f"Day {state.night} vote{' (PK round)' if round_no == 2 else ''}: "
        + ", ".join(f"{v}->{'abstain' if t is None else t}" for v, t in sorted(ballots.items()))
    ]
    if result.pk:
        lines.append("Tie between seats " + ", ".join(map(str, result.pk)) + ": PK round.")
    elif result.drawn is not None:
        why = "Nobody voted" if not result.counts else "A tie"
        among = ", ".join(map(str, result.drawn.among))
        lines.append(
            f"{why}: drawn at random among seats {among}, exiled: {_seat(state, result.exiled)}."
        )
    elif result.exiled is not None:
        lines.append(f"Exiled: {_seat(state, result.exiled)}.")
    else:
        lines.append("Nobody is exiled.")
    diff: dict[str, Any] = {"exiled": result.exiled, "pk": list(result.pk)}
    # the extra keys are written only when they happen, so other boards log as before
    if idiot.reveals(state, result.exiled):
        diff["revealed"] = result.exiled
        lines.append(
            f"{_seat(state, result.exiled).capitalize()} reveals the idiot card and stays "
            "alive, without a vote from now on."
        )
    elif result.exiled is not None and (broken := heartbroken(state, {result.exiled})):
        diff = _in_key_order(diff | {"heartbroken": list(broken)})
        lines.append(_heartbreak_text(state, broken).strip())
    dead = [] if result.exiled is None or "revealed" in diff else [result.exiled]
    shown, revealed = _reveal(state, sorted([*dead, *diff.get("heartbroken", [])]))
    if shown:
        lines.append(shown.strip())
    return ctx.result(
        _VOTE,
        "\n".join(lines),
        diff=diff,
        detail={
            "ballots": [[v, t] for v, t in sorted(ballots.items())],
            "counts": [[s, c] for s, c in result.counts.items()],
            **({"draw": result.drawn.record()} if result.drawn is not None else {}),
            **revealed,
            "round": round_no,
        },
    )


def outcome_reason(state: GameState) -> str:
    """Why the game ended, in words, under the config's win rule."""
    winner = state.winner
    if winner is None or winner is Outcome.DRAW:
        return f"the day cap of {state.config.day_cap} days was reached"
    if winner is Outcome.GOOD:
        return "every wolf is dead"
    if winner is Outcome.LOVERS:
        return "only cupid and the lovers are left"
    rule = state.config.win_rule
    if rule is WinRule.PARITY:
        return "the wolves are as many as everyone else"
    if rule is WinRule.TOWN:
        return "every good player is dead"
    villagers = state.seats_of(Identity.VILLAGER)
    if villagers and not any(state.is_alive(s) for s in villagers):
        return "every villager is dead"
    idiot = state.idiot
    if idiot is not None and state.is_alive(idiot):  # revealed, he no longer counts
        others = ", ".join(
            g.value for g in _GOD_ORDER if g in state.identities and g is not Identity.IDIOT
        )
        return f"every other god ({others}) is dead and the idiot is revealed"
    gods = ", ".join(g.value for g in _GOD_ORDER if g in state.identities)
    return f"every god ({gods}) is dead"


_GOD_ORDER = (
    Identity.SEER,
    Identity.WITCH,
    Identity.HUNTER,
    Identity.GUARD,
    Identity.IDIOT,
    Identity.DOCTOR,
)  # cupid is no god for 屠边


async def game_end(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    winner = state.winner or Outcome.DRAW
    reason = outcome_reason(state)
    cast = [identity.value for identity in state.identities]
    lines = [
        f"Game over: {'a draw' if winner is Outcome.DRAW else winner.value + ' win'} ({reason})."
    ]
    lines += [
        f"  seat {s} {state.names[s - 1]}: {state.identity(s).value}"
        + ("" if state.is_alive(s) else " (dead)")
        for s in state.seats
    ]
    return ctx.result(
        Phase.GAME_END,
        "\n".join(lines),
        diff={"winner": winner.value},
        detail=_end_detail(state, cast, reason),
    )


def _end_detail(state: GameState, cast: list[str], reason: str) -> dict[str, Any]:
    detail: dict[str, Any] = {"alive": list(state.living), "identities": cast, "reason": reason}
    if state.config.referee_record:  # the steps the decided game did not run, in order
        detail["skipped"] = [{"phase": p, "seat": s} for p, s in state.skipped]
    return detail


PHASES: dict[Phase, Callable[[PhaseContext], Awaitable[RoleResult]]] = {
    Phase.WOLF_NIGHT: wolf_night,
    Phase.WITCH: witch_action,
    Phase.SEER: seer_check,
    Phase.DAWN: dawn,
    Phase.HUNTER: hunter_shot,
    Phase.LAST_WORDS: last_words,
    Phase.SPEECH: day_speech,
    Phase.BID: floor_bid,
    Phase.VOTE: vote,
    Phase.GAME_END: game_end,
}
