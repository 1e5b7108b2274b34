"""The werewolves (狼人): each night they agree on a victim (or, under ``wolf_kill =
"vote"``, cast ballots); by day they pass for good players. The team of the wolves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pulse_core import RoleResult

from ..cast import Identity, Team
from ..config import GameConfig, WolfKill, WolfSplit
from ..decisions import DecisionKind
from ..phases.context import (
    PhaseContext,
    ask_all,
    choice_of,
    in_key_order,
    seat_text,
    speech_text,
)
from ..registry import DecisionSpec, IdentitySpec, Names, NightStep, register_identity
from ..rules import wolf_ballot_options, wolf_ballot_target, wolf_targets
from ..state import Phase
from .seer import ask_seer_ahead

__all__ = ["SPEC", "split_target", "wolf_night"]

_MOCK = "werewolf.players.mock.strategy."


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
        discussion.append({"seat": wolf, "text": speech_text(await ctx.ask(request))})
    rounds: list[list[list[int | None]]] = []
    target: int | None = None
    for round_no in (1, 2):
        previous = rounds[-1] if rounds else []
        requests = [
            ctx.request(
                DecisionKind.WOLF_KILL,
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
        answers = await ask_all(ctx, requests)
        proposals = {r.seat: choice_of(a) for r, a in zip(requests, answers, strict=True)}
        rounds.append([[seat, t] for seat, t in sorted(proposals.items())])
        agreed = _agree(proposals)
        if agreed is not False:
            target = agreed if isinstance(agreed, int) else None
            break
    else:
        target = split_target(state.config, proposals)
    lines = [f"Night {night}: the wolves chose {seat_text(state, target)}."]
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
        ballots[wolf] = choice_of(await ctx.ask(request))
    target, drawn = wolf_ballot_target(state, ballots)
    none = "abstain" if state.config.wolf_abstain else "nobody"
    shown = ", ".join(f"{w}->{none if t is None else t}" for w, t in sorted(ballots.items()))
    text = f"Night {night}: the wolves voted ({shown}) and chose {seat_text(state, target)}"
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
        detail = in_key_order(detail | {"draw": drawn.record()})
    return ctx.result(
        Phase.WOLF_NIGHT,
        text + ".",
        diff={"target": target},
        detail=detail,
        visible_to=state.wolves,
        day=night,
    )


def _always(state: object) -> bool:
    return True  # the wolves' night runs while the game goes on, whoever of them lives


SPEC = register_identity(
    IdentitySpec(
        identity=Identity.WEREWOLF,
        names=Names("werewolf", "狼人"),
        team=Team.WOLVES,
        god=False,
        order=0,
        unique=False,
        night=(NightStep(Phase.WOLF_NIGHT, rank=50, runs=_always),),
        decisions=(
            DecisionSpec(DecisionKind.WOLF_TALK, "speak", _MOCK + "wolf_night:wolf_talk"),
            DecisionSpec(
                DecisionKind.WOLF_KILL, "wolf_kill", _MOCK + "wolf_night:wolf_kill", tool_rank=10
            ),
            DecisionSpec(DecisionKind.SPEECH, "speak", _MOCK + "wolf_day:wolf_speech"),
            DecisionSpec(DecisionKind.LAST_WORDS, "speak", _MOCK + "wolf_day:wolf_last_words"),
            DecisionSpec(DecisionKind.VOTE, "vote", _MOCK + "wolf_day:wolf_vote"),
        ),
        phases={Phase.WOLF_NIGHT: wolf_night},
        events=(Phase.WOLF_NIGHT,),
    )
)
