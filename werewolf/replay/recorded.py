"""The decisions an event records, as the answers its seats gave: a phase re-run with
``Recorded`` in every seat asks for exactly what the event holds (``replay.judge``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

from ..decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from ..errors import GameFileError, UnrecordedDecisionError
from ..registry import identity_specs, shots
from ..state import Phase

__all__ = ["AnswerKey", "Recorded", "lovers_named_high_first", "read_beliefs", "recorded_answers"]


AnswerKey = tuple[DecisionKind, int | None]  # a decision kind, and the seat (None: the holder's)


class Recorded:
    """Every seat of one event, answering with the decisions the event records, in order."""

    kind = "recorded"
    immediate = True  # no I/O: the phase runs without tasks, and no decision is asked ahead
    reads_view = False  # no view is built for it

    def __init__(self, answers: Mapping[AnswerKey, list[Answer]]) -> None:
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
        raise UnrecordedDecisionError(
            f"seat {request.seat} is asked for a {request.kind.value} decision the event "
            "does not record"
        )


def _pairs(
    rows: Any, kind: DecisionKind, make: Callable[[Any], Answer]
) -> Iterator[tuple[AnswerKey, Answer]]:
    for seat, value in rows or ():
        yield (kind, seat), make(value)


_ONE_TARGET: dict[str, DecisionKind] = {
    Phase.SEER: DecisionKind.SEER,
    Phase.GUARD: DecisionKind.GUARD,
    Phase.DOCTOR: DecisionKind.DOCTOR,
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


@cache
def _shooters() -> tuple[DecisionKind, ...]:
    """The decision kinds a ``hunter-shot`` may have asked: each shooter's (registry.Shot)."""
    return tuple(DecisionKind(shot.decision) for shot in shots().values())


def read_beliefs(text: str | None, where: str) -> dict[int, float] | None:
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


def lovers_named_high_first(meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """Cupid's event with its lovers the other way round: the diff sorts them, and he may
    have named the higher seat first (what his second ask offered, or a fallback, shows)."""
    diff: Mapping[str, Any] = meta.get("diff") or {}
    return {**meta, "diff": {**diff, "lovers": list(diff.get("lovers") or ())[::-1]}}


_YES, _NO = Choice(1), Choice(None)
_SEATS = 20  # the most seats a game has: every seat not named answered "no"


def _sheriff_answers(
    phase: str, diff: Mapping[str, Any], detail: Mapping[str, Any]
) -> list[tuple[AnswerKey, Answer]]:
    """The election's and the badge's decisions: who ran or withdrew (1; every other seat
    asked said 0), the election's speeches and ballots, the heir and the first speaker."""
    if phase in (Phase.SHERIFF_RUN, Phase.SHERIFF_WITHDRAW):
        kind = (
            DecisionKind.SHERIFF_RUN
            if phase == Phase.SHERIFF_RUN
            else DecisionKind.SHERIFF_WITHDRAW
        )
        named = diff.get("candidates" if phase == Phase.SHERIFF_RUN else "withdrawn") or ()
        return [*(((kind, s), _YES) for s in named), *(((kind, None), _NO) for _ in range(_SEATS))]
    if phase == Phase.SHERIFF_SPEECH and diff.get("self_destruct"):  # a wolf blew up
        return [((DecisionKind.SHERIFF_SPEECH, None), Choice(diff.get("take")))]
    if phase == Phase.SHERIFF_SPEECH:
        return [((DecisionKind.SHERIFF_SPEECH, None), Speech(detail.get("text", "")))]
    if phase == Phase.SHERIFF_VOTE:
        return list(_pairs(detail.get("ballots"), DecisionKind.SHERIFF_VOTE, Choice))
    if phase == Phase.BADGE:
        return [((DecisionKind.BADGE, None), Choice(diff.get("to")))]
    if phase == Phase.ORDER:
        return [((DecisionKind.ORDER, None), Choice(diff.get("first")))]
    return []


def recorded_answers(
    phase: str,
    meta: Mapping[str, Any],
    beliefs: Callable[[int], dict[int, float] | None] = lambda seat: None,
) -> dict[AnswerKey, list[Answer]]:
    """The decisions an event of ``phase`` records, as the answers its seats gave (a vote
    with the beliefs ``beliefs(seat)`` recorded with it)."""
    diff: Mapping[str, Any] = meta.get("diff") or {}
    detail: Mapping[str, Any] = meta.get("detail") or {}
    found: list[tuple[AnswerKey, Answer]] = []
    if phase == Phase.WOLF_NIGHT:
        for line in detail.get("discussion") or ():
            found.append(((DecisionKind.WOLF_TALK, line["seat"]), Speech(line["text"])))
        for proposals in detail.get("proposals") or ():
            found += _pairs(proposals, DecisionKind.WOLF_KILL, Choice)
    elif phase == Phase.WITCH:
        found.append(
            ((DecisionKind.WITCH, None), WitchChoice(diff.get("save") is True, diff.get("poison")))
        )
    elif phase == Phase.HUNTER:  # the shot of the hunter or another shooter (the wolf king)
        found += (((kind, None), Choice(diff.get("target"))) for kind in _shooters())
    elif phase in _ONE_TARGET or phase in _day_steps():
        kind = _ONE_TARGET.get(phase) or _day_steps()[phase]
        found.append(((kind, None), Choice(diff.get("target"))))
    elif phase == Phase.CUPID:
        found += (((DecisionKind.CUPID, None), Choice(s)) for s in diff.get("lovers") or ())
    elif phase == Phase.SPEECH and diff.get("self_destruct"):  # a wolf's speech: he blew up
        found.append(((DecisionKind.SPEECH, None), Choice(diff.get("take"))))
    elif phase in (Phase.SPEECH, Phase.LAST_WORDS):
        kind = DecisionKind.SPEECH if phase == Phase.SPEECH else DecisionKind.LAST_WORDS
        found.append(((kind, None), Speech(detail.get("text", ""))))  # the speaker: the rules'
    elif phase == Phase.BID:
        found += _pairs(detail.get("bids"), DecisionKind.BID, Choice)
    elif phase == Phase.VOTE:
        for seat, target in detail.get("ballots") or ():
            found.append(((DecisionKind.VOTE, seat), Choice(target, beliefs=beliefs(seat))))
    else:
        found += _sheriff_answers(phase, diff, detail)
    answers: dict[AnswerKey, list[Answer]] = {}
    for key, answer in found:
        answers.setdefault(key, []).append(answer)
    return answers
