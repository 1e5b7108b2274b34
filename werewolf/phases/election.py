"""The sheriff's election (config ``sheriff``), after night 1's phases and before its dawn:
who runs, the candidates' speeches, the withdrawals, the vote and its PK. Every step is a
phase of its own (``election.election_phase`` names the one due), all public."""

from __future__ import annotations

from typing import Any

from pulse_core import RoleResult

from ..decisions import Choice, DecisionKind
from ..election import (
    destruct_loses_badge,
    election_speaker,
    election_tally,
    election_voters,
)
from ..rules import destruct_options
from ..state import Election, GameState, Phase
from .context import PhaseContext, ask_all, choice_of, seat_text, speech_text

__all__ = ["sheriff_run", "sheriff_speech", "sheriff_vote", "sheriff_withdraw"]

YES_NO = (1, None)  # 1: run (withdraw); None (the code 0): not, which is the fallback


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return ", ".join(map(str, seats)) if seats else "none"


def _election(state: GameState) -> Election:
    election = state.election
    if election is None:  # the moderator runs these steps only during an election
        raise ValueError("no election under way")
    return election


async def sheriff_run(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    day = state.night
    requests = [
        ctx.request(
            DecisionKind.SHERIFF_RUN,
            seat,
            f"d{day}.sheriff-run.s{seat}",
            options=YES_NO,
            context={"day": day},
        )
        for seat in state.living
    ]
    answers = await ask_all(ctx, requests)
    candidates = [r.seat for r, a in zip(requests, answers, strict=True) if choice_of(a) == 1]
    sheriff = candidates[0] if len(candidates) == 1 else None
    text = f"Day {day}, the sheriff's election. Running: {_seats(candidates)}."
    if not candidates:
        text += " Nobody runs: no sheriff."
    elif sheriff is not None:
        text += f" {seat_text(state, sheriff).capitalize()} is the only candidate: sheriff."
    return ctx.result(Phase.SHERIFF_RUN, text, diff={"candidates": candidates, "sheriff": sheriff})


async def sheriff_speech(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    election = _election(state)
    speaker = election_speaker(election)
    if speaker is None:
        raise ValueError("no candidate left to speak")
    pk = bool(election.pk)
    request = ctx.request(
        DecisionKind.SHERIFF_SPEECH,
        speaker,
        f"d{state.night}.sheriff-{'pk' if pk else 'speech'}.s{speaker}",
        options=destruct_options(state, speaker),
        context={"day": state.night, "pk": pk, "candidates": list(election.standing)},
    )
    answer = await ctx.ask(request)
    if isinstance(answer, Choice):  # a wolf's self-destruct: the election ends, postponed
        return _destruct(ctx, speaker, answer.target, pk)
    text = speech_text(answer)
    label = "Election PK speech" if pk else "Election speech"
    return ctx.result(
        Phase.SHERIFF_SPEECH,
        f"{label} of {seat_text(state, speaker)}: {text}",
        diff={"speaker": speaker},
        detail={"pk": pk, "text": text},
    )


def _destruct(ctx: PhaseContext, speaker: int, take: int | None, pk: bool) -> RoleResult:
    """The election speech that is a self-destruct: no words; the election stops here and
    is held the next day, or the badge is lost (``second_destruct_loses_badge``)."""
    state = ctx.state
    diff: dict[str, Any] = {"self_destruct": True, "speaker": speaker}
    if take is not None:
        diff["take"] = take
    text = f"{seat_text(state, speaker).capitalize()} interrupts the election: he self-destructs."
    text += " The badge is lost." if destruct_loses_badge(state) else " It is held tomorrow."
    return ctx.result(Phase.SHERIFF_SPEECH, text, diff=diff, detail={"pk": pk, "text": ""})


async def sheriff_withdraw(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    election = _election(state)
    requests = [
        ctx.request(
            DecisionKind.SHERIFF_WITHDRAW,
            seat,
            f"d{state.night}.sheriff-withdraw.s{seat}",
            options=YES_NO,
            context={"day": state.night, "candidates": list(election.candidates)},
        )
        for seat in election.candidates
    ]
    answers = await ask_all(ctx, requests)
    withdrawn = [r.seat for r, a in zip(requests, answers, strict=True) if choice_of(a) == 1]
    standing = [s for s in election.candidates if s not in withdrawn]
    sheriff = standing[0] if len(standing) == 1 else None
    lost = not standing or (sheriff is None and not election_voters(state, election))
    text = f"Day {state.night}: withdrawn from the election: {_seats(withdrawn)}."
    if sheriff is not None:
        text += f" {seat_text(state, sheriff).capitalize()} is left alone: sheriff."
    elif lost:
        text += " " + ("Nobody is left standing" if not standing else "Nobody is left to vote")
        text += ": the badge is lost."
    return ctx.result(
        Phase.SHERIFF_WITHDRAW,
        text,
        diff={"lost": lost, "sheriff": sheriff, "withdrawn": withdrawn},
    )


async def sheriff_vote(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    election = _election(state)
    round_no = 2 if election.pk else 1
    standing = election.standing
    options: tuple[int | None, ...] = (*standing, None) if state.config.allow_abstain else standing
    requests = [
        ctx.request(
            DecisionKind.SHERIFF_VOTE,
            seat,
            f"d{state.night}.sheriff-vote.r{round_no}.s{seat}",
            options=options,
            context={"day": state.night, "round": round_no, "candidates": list(standing)},
        )
        for seat in election_voters(state, election)
    ]
    answers = await ask_all(ctx, requests)
    ballots = {r.seat: choice_of(a) for r, a in zip(requests, answers, strict=True)}
    result = election_tally(state, ballots)
    lost = result.sheriff is None and not result.pk
    shown = ", ".join(f"{v}->{'abstain' if t is None else t}" for v, t in sorted(ballots.items()))
    lines = [f"Day {state.night} sheriff vote{' (PK round)' if round_no == 2 else ''}: {shown}"]
    if result.sheriff is not None:
        lines.append(f"Elected sheriff: {seat_text(state, result.sheriff)}.")
    elif result.pk:
        lines.append(f"Tie between seats {_seats(result.pk)}: they speak again.")
    else:
        lines.append("No sheriff: the badge is lost.")
    return ctx.result(
        Phase.SHERIFF_VOTE,
        "\n".join(lines),
        diff={"lost": lost, "pk": list(result.pk), "sheriff": result.sheriff},
        detail={
            "ballots": [[v, t] for v, t in sorted(ballots.items())],
            "counts": [[s, c] for s, c in result.counts.items()],
            "round": round_no,
        },
    )
