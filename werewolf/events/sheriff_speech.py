"""``sheriff-speech``: a candidate's election speech (and a tied candidate's PK speech),
public. After the last, the candidates may withdraw (a PK round goes to its vote). A
wolf's speech may be a self-destruct (``self_destruct``): the election ends, postponed to
the next day or its badge lost, and the ``self-destruct`` phase carries it out."""

from __future__ import annotations

from typing import Any

from ..election import election_speaker, postpone
from ..records import replace
from ..registry import EventSpec, Names, register_event
from ..state import GameState
from .speech import SpeechDetail, SpeechDiff
from .types import no_meaning

__all__: list[str] = []


def _fold(state: GameState, diff: dict[str, Any]) -> GameState:
    election = state.election
    if election is None:  # a speech outside an election changes nothing
        return state
    if "self_destruct" in diff:
        due = (int(diff["speaker"]), diff.get("take"))
        return replace(postpone(state), destruct_due=due)
    election = replace(election, spoken=(*election.spoken, int(diff["speaker"])))
    if election_speaker(election) is None:
        election = replace(election, step="vote" if election.pk else "withdraw")
    return replace(state, election=election)


SPEC = register_event(
    EventSpec(
        kind="sheriff-speech",
        label=Names("Election speech", "竞选发言"),
        diff=SpeechDiff,
        detail=SpeechDetail,
        fold=_fold,
        meaning=no_meaning,
    )
)
