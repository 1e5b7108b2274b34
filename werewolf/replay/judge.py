"""Re-judging a game log: every event must follow from the rules and the decisions it records.

A log's hash chain shows an edit only to someone who trusts the last hash; a forger who
recomputes the chain is stopped here. The log is walked event by event with the state
folded so far, and each phase event is played again by the engine itself: the moderator
must name the event's phase as the one due next (``moderator.next_phase``), and the
phase's own code (``PHASES``, ``IDENTITY_PHASES``), given the decisions the event records
(the speeches, ballots, bids, targets and potions) as the seats' answers, must write the
event's ``phase``, ``day``, ``visible_to``, ``diff``, ``detail`` and content exactly. So a
death, a cause, an exile, a PK, a winner or its reason that the rules do not give, a seat
that acts out of turn or dead, and a decision the rules do not allow (a recorded answer
the rules refuse, which the original game would have replaced by a recorded fallback) are
each refused, naming the first event that does not follow. No second rule engine: what is
checked is what the game would have written.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from typing import Any

from pulse_core import END, START, Event, RoleResult
from pulse_core.limits import clip
from pulse_core.workflow import is_control

from ..acts import IDENTITY_PHASES
from ..decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from ..errors import GameFileError, GameStateError
from ..moderator import next_phase
from ..phases import PHASES, PhaseContext
from ..state import GameState, Phase, evolve, initial_state
from ..visibility import ViewCache

__all__ = ["rejudge"]

_RUN = {**PHASES, **IDENTITY_PHASES}
_PHASE_NAMES = frozenset(p.value for p in Phase)
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

    async def decide(self, request: Request) -> Answer:
        for key in ((request.kind, request.seat), (request.kind, None)):
            queue = self._answers.get(key)
            if queue is not None:
                answer = next(queue, None)
                if answer is not None:
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


def _answers(phase: str, meta: Mapping[str, Any]) -> dict[_Key, list[Answer]]:
    """The decisions an event of ``phase`` records, as the answers its seats gave."""
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
    elif phase in _ONE_TARGET:
        found.append(((_ONE_TARGET[phase], None), Choice(diff.get("target"))))
    elif phase == Phase.CUPID:
        found += (((DecisionKind.CUPID, None), Choice(s)) for s in diff.get("lovers") or ())
    elif phase in (Phase.SPEECH, Phase.LAST_WORDS):
        kind = DecisionKind.SPEECH if phase == Phase.SPEECH else DecisionKind.LAST_WORDS
        found.append(((kind, None), Speech(detail.get("text", ""))))  # the speaker: the rules'
    elif phase == Phase.BID:
        found += _pairs(detail.get("bids"), DecisionKind.BID, Choice)
    elif phase == Phase.VOTE:
        found += _pairs(detail.get("ballots"), DecisionKind.VOTE, Choice)
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


def _judge(ctx: PhaseContext, event: Event, content: str | None, where: str) -> None:
    phase = event.role
    expected = next_phase(ctx.state)
    if phase != expected:
        due = "the game is over" if expected == END else f"the rules call for {expected} next"
        raise GameFileError(f"{where}: a {phase} event does not follow: {due}")
    run = _RUN[Phase(phase)]
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


def rejudge(
    chain: Sequence[Event],
    where: Callable[[Event], str],
    content: Callable[[Event], str | None] = lambda event: None,
) -> None:
    """Raise GameFileError at the first event of ``chain`` (a checked werewolf log, see
    ``load.check_game``) that does not follow from the rules and its recorded decisions;
    ``content`` gives an event's content text when it is at hand (it is checked too)."""
    if not chain or chain[0].role != START:
        raise GameFileError("an empty log is not a game")
    state: GameState = initial_state(chain[0].meta)
    views = ViewCache()
    for index in range(1, len(chain)):
        event = chain[index]
        if is_control(event) or event.role not in _PHASE_NAMES:
            continue  # failures, resumes and seat swaps change no game
        players = _Recorded(_answers(event.role, event.meta))
        ctx = PhaseContext(
            chain[:index],
            state,
            dict.fromkeys(state.seats, players),
            views,
            retries=0,  # a recorded answer is given once: refused, it is not legal
            immediate=True,
        )
        _judge(ctx, event, content(event), where(event))
        state = evolve(state, event.role, event.meta.get("diff", {}))
