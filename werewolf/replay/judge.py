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

from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from pulse_core import END, START, Event, RoleResult
from pulse_core.workflow import ERROR, MODERATOR_FAILED, RESUME, is_control

from ..errors import GameFileError, GameStateError, UnrecordedDecisionError
from ..lineup import SeatSpec
from ..moderator import next_phase
from ..phases import PhaseContext, phase_roles
from ..state import GameState, Phase, evolve, initial_state
from ..visibility import ViewCache
from .recorded import Recorded, lovers_named_high_first, read_beliefs, recorded_answers
from .verdicts import false_attachment, false_fallback, first_difference, illegal_answer, shown

__all__ = ["rejudge"]

SWAP_PHASE = "seat-swap"  # werewolf.players.swaps.SWAP_PHASE (imported from there lazily)
_COMPARED = ("phase", "day", "visible_to", "diff", "detail")
"""What an event's meta says of the game; ``fallbacks``, ``usage`` and ``attachments``
record how the decisions were reached and are not the rules' to give."""


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
    except UnrecordedDecisionError as exc:
        raise GameFileError(f"{where}: does not follow from the rules: {exc}") from exc
    illegal = illegal_answer(event.meta, result)
    if illegal is not None:
        raise GameFileError(f"{where}: does not follow from the rules: {illegal}")
    for field in _COMPARED:
        recorded, judged = event.meta.get(field), result.meta.get(field)
        if recorded == judged:  # the common case; the types were checked with the meta
            continue
        found = first_difference(f"meta.{field}", recorded, judged)
        if found is not None:
            raise GameFileError(f"{where}: does not follow from the rules: {found}")
    if content is not None and content != result.content:
        raise GameFileError(
            f"{where}: does not follow from the rules: its content is not what the phase "
            f"writes ({shown(result.content)})"
        )
    players = next(iter(ctx.players.values()), None)
    asked = players.asked if isinstance(players, Recorded) else []
    false = false_fallback(event.meta, asked, ctx.state) or false_attachment(
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
            return None if digest is None else read_beliefs(text(digest), at)

        readings: list[Mapping[str, Any]] = [event.meta]
        if event.role == Phase.CUPID:
            readings.append(lovers_named_high_first(event.meta))
        refused: GameFileError | None = None
        for meta in readings:
            players = Recorded(recorded_answers(event.role, meta, beliefs))
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
