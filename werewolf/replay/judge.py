"""Re-judging a game log: every event must follow from the rules and the decisions it records.

A log's hash chain shows an edit only to someone who trusts the last hash; a forger who
recomputes the chain is stopped here. The log is walked event by event with the state
folded so far, and each phase event is played again by the engine itself: the moderator
must name the event's phase as the one due next (``moderator.next_phase``), and the
phase's own code (``phases.phase_roles()``), given the decisions the event records
(the speeches, ballots, bids, targets and potions) as the seats' answers, must write the
event's ``phase``, ``day``, ``visible_to``, ``diff``, ``detail`` and content exactly. So a
death, a cause, an exile, a PK, a winner or its reason that the rules do not give, a seat
that acts out of turn or dead, and a decision the rules do not allow (a recorded answer
the rules refuse, which the original game would have replaced by a recorded fallback) are
each refused, naming the first event that does not follow. No second rule engine: what is
checked is what the game would have written.

What an event says of how its decisions were reached is held to the decisions the phase
asked for: a recorded fallback names a decision asked in that event (seat, kind and key),
once, whose recorded answer is the fallback the rules give; a reasoning, exchange, beliefs
or offer attachment names a seat asked for that decision there; an offer is the legal set
the phase offers, and beliefs are what a vote may carry. The bookkeeping events follow the
way they are written: a failure names the phase due and is followed only by its resume, a
resume follows a failure, and a seat swap (made when a game is resumed) is of a living
game, names the night and the seat's player before it, and changes it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from pydantic import ValidationError

from pulse_core import END, START, Event, RoleResult
from pulse_core.limits import clip
from pulse_core.workflow import ERROR, MODERATOR_FAILED, RESUME, is_control

from ..config import NightFallback
from ..decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from ..decisions import fallback as fallback_of
from ..errors import GameFileError, GameStateError
from ..lineup import SeatSpec
from ..moderator import next_phase
from ..phases import PhaseContext, phase_roles
from ..registry import identity_specs
from ..state import GameState, Phase, evolve, initial_state
from ..visibility import ViewCache

__all__ = ["rejudge"]

SWAP_PHASE = "seat-swap"  # werewolf.players.swaps.SWAP_PHASE (imported from there lazily)
_COMPARED = ("phase", "day", "visible_to", "diff", "detail")
"""What an event's meta says of the game; ``fallbacks``, ``usage`` and ``attachments``
record how the decisions were reached and are not the rules' to give."""

_Key = tuple[DecisionKind, int | None]  # a decision kind, and the seat (None: the holder's)


class _Unrecorded(GameFileError):
    """A decision the phase asks for that its event does not record."""


class _Recorded:
    """Every seat of one event, answering with the decisions the event records, in order."""

    kind = "recorded"
    immediate = True  # no I/O: the phase runs without tasks, and no decision is asked ahead
    reads_view = False  # no view is built for it

    def __init__(self, answers: Mapping[_Key, list[Answer]]) -> None:
        self._answers = {key: iter(values) for key, values in answers.items()}
        self.asked: list[tuple[Request, Answer]] = []  # every request, with the answer given

    async def decide(self, request: Request) -> Answer:
        for key in ((request.kind, request.seat), (request.kind, None)):
            queue = self._answers.get(key)
            if queue is not None:
                answer = next(queue, None)
                if answer is not None:
                    self.asked.append((request, answer))
                    return answer
        raise _Unrecorded(
            f"seat {request.seat} is asked for a {request.kind.value} decision the event "
            "does not record"
        )


def _pairs(
    rows: Any, kind: DecisionKind, make: Callable[[Any], Answer]
) -> Iterator[tuple[_Key, Answer]]:
    for seat, value in rows or ():
        yield (kind, seat), make(value)


_ONE_TARGET: dict[str, DecisionKind] = {
    Phase.SEER: DecisionKind.SEER,
    Phase.GUARD: DecisionKind.GUARD,
    Phase.DOCTOR: DecisionKind.DOCTOR,
    Phase.HUNTER: DecisionKind.HUNTER,
}
"""The phases whose one decision is a target, written as the diff's ``target``."""


@cache
def _day_steps() -> dict[str, DecisionKind]:
    """The day steps' phases (registry.DayStep): each records its one decision, a target
    (None: declined), as the diff's ``target``; the kind is its identity's own decision."""
    return {
        step.phase: DecisionKind(spec.decisions[0].kind)
        for spec in identity_specs()
        for step in spec.day
    }


def _beliefs(text: str | None, where: str) -> dict[int, float] | None:
    """A vote's recorded beliefs (``beliefs/<seat>/vote``: seat -> P(wolf) as JSON)."""
    if text is None:
        return None
    try:
        told = json.loads(text)
        if not isinstance(told, dict):
            raise TypeError("not an object")
        return {int(seat): float(p) for seat, p in told.items()}
    except (ValueError, TypeError) as exc:
        raise GameFileError(f"{where}: a vote's beliefs are not seats and numbers") from exc


def _lovers_named_high_first(meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """Cupid's event with its lovers the other way round: the diff sorts them, and he may
    have named the higher seat first (what his second ask offered, or a fallback, shows)."""
    diff: Mapping[str, Any] = meta.get("diff") or {}
    return {**meta, "diff": {**diff, "lovers": list(diff.get("lovers") or ())[::-1]}}


def _answers(
    phase: str,
    meta: Mapping[str, Any],
    beliefs: Callable[[int], dict[int, float] | None] = lambda seat: None,
) -> dict[_Key, list[Answer]]:
    """The decisions an event of ``phase`` records, as the answers its seats gave (a vote
    with the beliefs ``beliefs(seat)`` recorded with it)."""
    diff: Mapping[str, Any] = meta.get("diff") or {}
    detail: Mapping[str, Any] = meta.get("detail") or {}
    found: list[tuple[_Key, Answer]] = []
    if phase == Phase.WOLF_NIGHT:
        for line in detail.get("discussion") or ():
            found.append(((DecisionKind.WOLF_TALK, line["seat"]), Speech(line["text"])))
        for proposals in detail.get("proposals") or ():
            found += _pairs(proposals, DecisionKind.WOLF_KILL, Choice)
    elif phase == Phase.WITCH:
        found.append(
            ((DecisionKind.WITCH, None), WitchChoice(diff.get("save") is True, diff.get("poison")))
        )
    elif phase in _ONE_TARGET or phase in _day_steps():
        kind = _ONE_TARGET.get(phase) or _day_steps()[phase]
        found.append(((kind, None), Choice(diff.get("target"))))
    elif phase == Phase.CUPID:
        found += (((DecisionKind.CUPID, None), Choice(s)) for s in diff.get("lovers") or ())
    elif phase in (Phase.SPEECH, Phase.LAST_WORDS):
        kind = DecisionKind.SPEECH if phase == Phase.SPEECH else DecisionKind.LAST_WORDS
        found.append(((kind, None), Speech(detail.get("text", ""))))  # the speaker: the rules'
    elif phase == Phase.BID:
        found += _pairs(detail.get("bids"), DecisionKind.BID, Choice)
    elif phase == Phase.VOTE:
        for seat, target in detail.get("ballots") or ():
            found.append(((DecisionKind.VOTE, seat), Choice(target, beliefs=beliefs(seat))))
    answers: dict[_Key, list[Answer]] = {}
    for key, answer in found:
        answers.setdefault(key, []).append(answer)
    return answers


def _finish(coroutine: Awaitable[RoleResult]) -> RoleResult:
    """Run a phase whose players all answer at once: it never waits, so no event loop."""
    if not isinstance(coroutine, Coroutine):
        raise GameStateError("a phase is not a coroutine")
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: RoleResult = done.value
        return result
    coroutine.close()
    raise GameStateError("a phase waited on something while re-judged")


def _first_difference(path: str, recorded: Any, judged: Any) -> str | None:
    """The first place where ``recorded`` and ``judged`` differ, as ``path: ...``."""
    if isinstance(recorded, dict) and isinstance(judged, dict):
        for key in sorted(set(recorded) | set(judged), key=str):
            if key not in judged:
                return f"{path}.{key} is not something the rules write here"
            if key not in recorded:
                return f"{path}.{key} is missing: the rules give {_shown(judged[key])}"
            found = _first_difference(f"{path}.{key}", recorded[key], judged[key])
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(judged, list):
        if len(recorded) != len(judged) or not any(
            isinstance(item, (dict, list)) for item in (*recorded, *judged)
        ):  # a list of seats is shown whole
            if recorded == judged:
                return None
            return f"{path} is {_shown(recorded)}, the rules give {_shown(judged)}"
        for index, (a, b) in enumerate(zip(recorded, judged, strict=True)):
            found = _first_difference(f"{path}.{index}", a, b)
            if found is not None:
                return found
        return None
    if recorded != judged or type(recorded) is not type(judged):
        return f"{path} is {_shown(recorded)}, the rules give {_shown(judged)}"
    return None


def _shown(value: Any) -> str:
    return clip(repr(value), 80)


def _illegal(meta: Mapping[str, Any], result: RoleResult) -> str | None:
    """A decision the rules refused in the re-run that the event does not record as a
    fallback: the recorded answer was not legal."""
    recorded = {(f.get("seat"), f.get("decision")) for f in meta.get("fallbacks") or ()}
    for fallback in result.meta.get("fallbacks") or ():
        if (fallback["seat"], fallback["decision"]) not in recorded:
            return (
                f"seat {fallback['seat']}'s {fallback['decision']} decision is not legal: "
                f"{fallback['reason']}"
            )
    return None


def _same(a: Answer, b: Answer) -> bool:
    """The same decision (reasoning, usage and the like apart)."""
    if isinstance(a, Speech) and isinstance(b, Speech):
        return a.text == b.text
    if isinstance(a, Choice) and isinstance(b, Choice):
        return a.target == b.target
    if isinstance(a, WitchChoice) and isinstance(b, WitchChoice):
        return (a.save, a.poison) == (b.save, b.poison)
    return False


def _false_fallback(
    meta: Mapping[str, Any], asked: Sequence[tuple[Request, Answer]], state: GameState
) -> str | None:
    """A recorded fallback (or usage) the event's decisions do not bear out: of a decision
    not asked here, recorded twice, or whose recorded answer is not the fallback the rules
    give."""
    idle = state.config.night_fallback is NightFallback.NOTHING
    by_key = {(r.seat, r.kind.value, r.key): (r, a) for r, a in asked}
    decisions = {(r.seat, r.kind.value) for r, _ in asked}
    for usage in meta.get("usage") or ():
        name = (usage.get("seat"), usage.get("decision"), usage.get("key"))
        # recovered usage was billed to an earlier process (the decision it answered may
        # be another phase's); a record without a key predates keys
        if usage.get("recovered"):
            continue
        if name[:2] not in decisions or (name[2] is not None and name not in by_key):
            return f"seat {name[0]}'s {name[1]} usage is of a decision not asked here"
    seen: set[tuple[Any, Any, Any]] = set()
    for record in meta.get("fallbacks") or ():
        name = (record.get("seat"), record.get("decision"), record.get("key"))
        seat, decision, key = name
        if name in seen:
            return f"seat {seat}'s {decision} fallback ({key}) is recorded twice"
        seen.add(name)
        found = by_key.get(name)
        if found is None:
            return f"seat {seat}'s {decision} fallback names a decision ({key}) not asked here"
        request, answer = found
        if not _same(answer, fallback_of(request, idle=idle)):
            return (
                f"seat {seat}'s {decision} decision is recorded as a fallback, but the "
                "answer recorded is not the fallback the rules give"
            )
    return None


_PER_DECISION = frozenset({"reasoning", "exchange", "beliefs", "offered"})
"""Attachments named ``<what>/<seat>/<decision>``: each of a decision asked in the event."""
_RULES_GIVE = ("offered/", "beliefs/")
"""Attachments the re-run writes as the game did: the legal offers, the beliefs read."""


def _false_attachment(
    meta: Mapping[str, Any],
    asked: Sequence[tuple[Request, Answer]],
    result: RoleResult,
    text: Callable[[str], str | None],
) -> str | None:
    """An attachment of a decision not asked in the event, or an offer or beliefs that are
    not what the phase writes from the event's decisions."""
    recorded: Mapping[str, str] = meta.get("attachments") or {}
    decisions = {f"{r.seat}/{r.kind.value}" for r, _ in asked}
    for name in recorded:
        what, _, rest = name.partition("/")
        if what not in _PER_DECISION:
            return f"attachment {name} is not something the game attaches"
        if rest not in decisions:
            return f"attachment {name} is of a decision not asked in this event"
    judged = {n: t for n, t in result.attachments.items() if n.startswith(_RULES_GIVE)}
    for name in sorted(set(judged) | {n for n in recorded if n.startswith(_RULES_GIVE)}):
        if name not in recorded:
            return f"attachment {name} is missing: the rules give {_shown(judged[name])}"
        found = text(recorded[name])
        if found is not None and found != judged.get(name):
            return (
                f"attachment {name} is {_shown(found)}, the rules give {_shown(judged.get(name))}"
            )
    return None


def _judge(
    ctx: PhaseContext,
    event: Event,
    content: str | None,
    where: str,
    text: Callable[[str], str | None],
) -> None:
    phase = event.role
    expected = next_phase(ctx.state)
    if phase != expected:
        due = "the game is over" if expected == END else f"the rules call for {expected} next"
        raise GameFileError(f"{where}: a {phase} event does not follow: {due}")
    run = phase_roles()[phase]
    try:
        result = _finish(run(ctx))
    except _Unrecorded as exc:
        raise GameFileError(f"{where}: does not follow from the rules: {exc}") from exc
    illegal = _illegal(event.meta, result)
    if illegal is not None:
        raise GameFileError(f"{where}: does not follow from the rules: {illegal}")
    for field in _COMPARED:
        recorded, judged = event.meta.get(field), result.meta.get(field)
        if recorded == judged:  # the common case; the types were checked with the meta
            continue
        found = _first_difference(f"meta.{field}", recorded, judged)
        if found is not None:
            raise GameFileError(f"{where}: does not follow from the rules: {found}")
    if content is not None and content != result.content:
        raise GameFileError(
            f"{where}: does not follow from the rules: its content is not what the phase "
            f"writes ({_shown(result.content)})"
        )
    players = next(iter(ctx.players.values()), None)
    asked = players.asked if isinstance(players, _Recorded) else []
    false = _false_fallback(event.meta, asked, ctx.state) or _false_attachment(
        event.meta, asked, result, text
    )
    if false is not None:
        raise GameFileError(f"{where}: does not follow from the rules: {false}")


def _bookkeeping(
    chain: Sequence[Event], index: int, state: GameState, content: str | None, where: str
) -> None:
    """A failure, a resume or a seat swap at ``chain[index]``, as the game writes them: a
    failure of the phase due, only its resume after it, a resume only after a failure, a
    swap of a living game that changes the seat's recorded player."""
    event, before = chain[index], chain[index - 1]
    if event.role == ERROR:
        failed, due = event.meta.get("role"), next_phase(state)
        if due == END:
            raise GameFileError(f"{where}: a failure recorded after the game is over")
        if failed not in (due, MODERATOR_FAILED):
            raise GameFileError(f"{where}: a failure of {failed}, but {due} was due")
    elif event.role == RESUME:
        if before.role != ERROR:
            raise GameFileError(f"{where}: a resume that follows no failure")
    elif before.role == ERROR:
        raise GameFileError(f"{where}: a {event.role} event after a failure, not its resume")
    if event.role == SWAP_PHASE:
        _check_swap(chain, index, state, content, where)


def _check_swap(
    chain: Sequence[Event], index: int, state: GameState, content: str | None, where: str
) -> None:
    from ..players.swaps import recorded_specs

    event = chain[index]
    if state.ended:
        raise GameFileError(f"{where}: a seat swap after the game is over")
    detail: Mapping[str, Any] = event.meta.get("detail") or {}
    seat = int(detail.get("seat", 0))  # a seat of the game: checked with the meta
    if event.meta.get("day") != state.night:
        raise GameFileError(
            f"{where}: a seat swap on night {event.meta.get('day')}, made on night {state.night}"
        )
    try:
        old = recorded_specs(chain[:index])[seat]
        new = SeatSpec.model_validate(detail.get("player"))
    except (GameStateError, ValidationError, KeyError) as exc:
        raise GameFileError(f"{where}: a seat swap to no player the game can seat") from exc
    said = (detail.get("from"), detail.get("to"), detail.get("player"))
    if said != (old.label(), new.label(), new.public()) or old.public() == new.public():
        raise GameFileError(
            f"{where}: the seat swap does not follow the seating recorded before it "
            f"(seat {seat} was played by {old.label()})"
        )
    told = f"Seat {seat} is now played by {new.label()} (was {old.label()})."
    if content is not None and content != told:
        raise GameFileError(f"{where}: the seat swap's content is not what a swap writes")


def rejudge(
    chain: Sequence[Event],
    where: Callable[[Event], str],
    content: Callable[[Event], str | None] = lambda event: None,
    text: Callable[[str], str | None] = lambda digest: None,
) -> None:
    """Raise GameFileError at the first event of ``chain`` (a checked werewolf log, see
    ``load.check_game``) that does not follow from the rules and its recorded decisions;
    ``content`` gives an event's content text and ``text`` an attachment's by its digest,
    when they are at hand (they are checked too)."""
    if not chain or chain[0].role != START:
        raise GameFileError("an empty log is not a game")
    state: GameState = initial_state(chain[0].meta)
    views = ViewCache()
    for index in range(1, len(chain)):
        event = chain[index]
        if is_control(event) or event.role not in phase_roles() or chain[index - 1].role == ERROR:
            # failures, resumes and seat swaps change no game, but follow their own order
            _bookkeeping(chain, index, state, content(event), where(event))
            continue
        attachments: Mapping[str, str] = event.meta.get("attachments") or {}

        def beliefs(
            seat: int, found: Mapping[str, str] = attachments, at: str = where(event)
        ) -> dict[int, float] | None:
            digest = found.get(f"beliefs/{seat}/vote")
            return None if digest is None else _beliefs(text(digest), at)

        readings: list[Mapping[str, Any]] = [event.meta]
        if event.role == Phase.CUPID:
            readings.append(_lovers_named_high_first(event.meta))
        refused: GameFileError | None = None
        for meta in readings:
            players = _Recorded(_answers(event.role, meta, beliefs))
            ctx = PhaseContext(
                chain[:index],
                state,
                dict.fromkeys(state.seats, players),
                views,
                retries=0,  # a recorded answer is given once: refused, it is not legal
                immediate=True,
            )
            try:
                _judge(ctx, event, content(event), where(event), text)
            except GameFileError as exc:
                refused = refused or exc
                continue
            refused = None
            break
        if refused is not None:
            raise refused
        state = evolve(state, event.role, event.meta.get("diff", {}))
