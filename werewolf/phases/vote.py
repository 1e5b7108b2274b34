"""The exile vote (and the PK re-vote): every voter at once, the tally, the idiot's reveal,
heartbreak and what the config reveals of the dead."""

from __future__ import annotations

import json
from typing import Any

from pulse_core import RoleResult

from ..decisions import Choice, DecisionKind
from ..rules import each_vote_options, heartbroken, idiot_reveals, tally, voters
from ..state import Phase
from .context import (
    PhaseContext,
    ask_all,
    choice_of,
    heartbreak_text,
    in_key_order,
    reveal_dead,
    seat_text,
)

__all__ = ["vote"]

_VOTE_ASK, _VOTE = DecisionKind.VOTE, Phase.VOTE


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
    answers = await ask_all(ctx, requests)
    ballots = {r.seat: choice_of(a) for r, a in zip(requests, answers, strict=True)}
    for r, a in zip(requests, answers, strict=True):
        if isinstance(a, Choice) and a.beliefs:  # private: an attachment, god view only
            told = {str(s): round(float(p), 4) for s, p in sorted(a.beliefs.items())}
            ctx.beliefs[f"beliefs/{r.seat}/vote"] = json.dumps(told, separators=(",", ":"))
    result = tally(state, ballots)
    lines = [
        f"Day {state.night} vote{' (PK round)' if round_no == 2 else ''}: "
        + ", ".join(f"{v}->{'abstain' if t is None else t}" for v, t in sorted(ballots.items()))
    ]
    if state.sheriff in ballots:
        lines[0] += f" (seat {state.sheriff}, the sheriff, counts {state.config.sheriff_weight:g})"
    if result.pk:
        lines.append("Tie between seats " + ", ".join(map(str, result.pk)) + ": PK round.")
    elif result.drawn is not None:
        why = "Nobody voted" if not result.counts else "A tie"
        among = ", ".join(map(str, result.drawn.among))
        lines.append(
            f"{why}: drawn at random among seats {among}, exiled: {seat_text(state, result.exiled)}."
        )
    elif result.exiled is not None:
        lines.append(f"Exiled: {seat_text(state, result.exiled)}.")
    else:
        lines.append("Nobody is exiled.")
    diff: dict[str, Any] = {"exiled": result.exiled, "pk": list(result.pk)}
    # the extra keys are written only when they happen, so other boards log as before
    if idiot_reveals(state, result.exiled):
        diff["revealed"] = result.exiled
        lines.append(
            f"{seat_text(state, result.exiled).capitalize()} reveals the idiot card and stays "
            "alive, without a vote from now on."
        )
    elif result.exiled is not None and (broken := heartbroken(state, {result.exiled})):
        diff = in_key_order(diff | {"heartbroken": list(broken)})
        lines.append(heartbreak_text(state, broken).strip())
    dead = [] if result.exiled is None or "revealed" in diff else [result.exiled]
    shown, revealed = reveal_dead(state, sorted([*dead, *diff.get("heartbroken", [])]))
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
            # the sheriff's ballot weighs config.sheriff_weight: written when he voted
            **({"sheriff": state.sheriff} if state.sheriff in ballots else {}),
        },
    )
