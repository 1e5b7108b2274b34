"""The lines that ask a seat for one decision: what, with what context (the wolves' talk so
far, the previous proposals, the witch's potions), and for a model the options and the tool
to call. An identity's own decision reads its phrase file's ``task.<kind>``."""

from __future__ import annotations

from ..config import GameConfig
from ..decisions import YES_NO, DecisionKind, Request
from .promptset import (
    PromptSet,
    ballot_pairs,
    option_order,
    options_text,
    prompt_set,
    quote,
    seat_label,
    seats_text,
    tool_name,
)

__all__ = ["task_lines"]


def _wolf_split(config: GameConfig) -> str:
    """Which rule settles wolves still split after the second round (see split_target)."""
    if not config.allow_empty_kill:
        return "forced"
    return config.wolf_split.value


_SHERIFF_TASKS = frozenset(
    {
        DecisionKind.SHERIFF_RUN,
        DecisionKind.SHERIFF_SPEECH,
        DecisionKind.SHERIFF_WITHDRAW,
        DecisionKind.SHERIFF_VOTE,
    }
)


def task_lines(
    request: Request, lang: str, *, for_model: bool = True, discussion: bool = True
) -> list[str]:
    """The lines that ask for the decision: what, with what context (the wolves' talk so
    far unless ``discussion`` is False, the previous proposals, the witch's potions), and
    for a model the options and the function to call."""
    ps = prompt_set(lang)
    kind, ctx, names = request.kind, request.context, request.view.names
    night = ctx.get("night", request.view.day)
    day = ctx.get("day", request.view.day)

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    lines: list[str] = []
    if kind is DecisionKind.WOLF_TALK:
        lines.append(ps.say("task.wolf-talk", night=night))
    elif kind is DecisionKind.WOLF_KILL and ctx.get("ballot"):  # wolf_kill = "vote"
        lines.append(ps.say("task.wolf-ballot", night=night))
        config = request.view.config
        abstain = config.wolf_abstain and not config.allow_empty_kill and None in request.options
        if abstain:
            lines.append(ps.say("task.wolf-ballot.abstain"))
        earlier = ctx.get("proposals") or []
        if earlier:
            pairs = ballot_pairs(ps, names, earlier, abstain=abstain)
            lines.append(ps.say("task.ballots", pairs=pairs))
    elif kind is DecisionKind.WOLF_KILL:
        lines.append(ps.say("task.wolf-kill", night=night, round=ctx.get("round", 1)))
        lines.append(ps.say(f"task.wolf-split.{_wolf_split(request.view.config)}"))
        previous = ctx.get("proposals") or []
        if previous:
            lines.append(ps.say("task.proposals", pairs=ballot_pairs(ps, names, previous)))
    elif kind is DecisionKind.WITCH:
        lines += _witch_task(ps, request, night, for_model=for_model)
    elif kind is DecisionKind.SEER:
        lines.append(ps.say("task.seer", night=night))
    elif kind in (DecisionKind.GUARD, DecisionKind.DOCTOR):
        lines.append(ps.say(f"task.{kind.value}", night=night))
        if ctx.get("last") is not None:
            lines.append(ps.say(f"task.{kind.value}.last", seat=seat(ctx["last"])))
    elif kind is DecisionKind.CUPID:
        first = ctx.get("first")
        if first is None:
            lines.append(ps.say("task.cupid.a", night=night))
        else:
            lines.append(ps.say("task.cupid.b", night=night, first=seat(first)))
    elif kind is DecisionKind.HUNTER:
        lines.append(ps.say("task.hunter"))
    elif kind is DecisionKind.SPEECH:
        if ctx.get("pk"):
            candidates = seats_text(ps, names, ctx.get("candidates", []))
            lines.append(ps.say("task.pk-speech", day=day, candidates=candidates))
        elif ctx.get("round", 1) > 1:  # speech_rounds: a later round of the day's talk
            lines.append(ps.say("task.speech.round", day=day, round=ctx["round"]))
        else:
            lines.append(ps.say("task.speech", day=day))
        if request.offers_self_destruct and for_model:  # config self_destruct: a wolf may
            lines.append(_destruct_task(ps, request))
    elif kind is DecisionKind.LAST_WORDS:
        lines.append(ps.say("task.last-words"))
    elif kind is DecisionKind.BID:
        lines.append(
            ps.say(
                "task.bid",
                day=day,
                speech=ctx.get("speech", 1),
                left=ctx.get("left", 1),
                spoken=ctx.get("spoken", 0),
            )
        )
    elif kind is DecisionKind.VOTE:
        if ctx.get("round") == 2:
            candidates = seats_text(ps, names, ctx.get("candidates", []))
            lines.append(ps.say("task.pk-vote", day=day, candidates=candidates))
        else:
            lines.append(ps.say("task.vote", day=day))
    elif kind in _SHERIFF_TASKS:  # the election, with its candidates (a PK's own words)
        again = ".pk" if ctx.get("pk") or ctx.get("round") == 2 else ""
        candidates = seats_text(ps, names, ctx.get("candidates", []))
        lines.append(ps.say(f"task.{kind.value}{again}", day=day, candidates=candidates))
        if request.offers_self_destruct and for_model:  # a wolf's election speech too
            lines.append(_destruct_task(ps, request))
    else:  # an identity's own decision: its phrase file's ``task.<kind>``
        lines.append(ps.say(f"task.{kind.value}", night=night, day=day))
    said = (ctx.get("discussion") or []) if discussion else []
    if said and kind in (DecisionKind.WOLF_TALK, DecisionKind.WOLF_KILL):
        lines.append(ps.say("task.discussion"))
        lines += [
            quote("wolf-talk", int(d["seat"]), names[int(d["seat"]) - 1], d["text"], night=night)
            for d in said
        ]
    if for_model:
        if request.options and not kind.speaks:
            shown = (
                ps.say("option.yes-no")
                if kind in YES_NO
                else options_text(ps, names, option_order(request.options))
            )
            lines.append(ps.say("task.options", options=shown))
        lines.append(ps.say("task.call", tool=tool_name(kind)))
    return lines


def _destruct_task(ps: PromptSet, request: Request) -> str:
    """The self-destruct a wolf's speech offers: alone, or taking a seat (the white wolf king)."""
    if any(o is not None for o in request.options):
        shown = options_text(ps, request.view.names, option_order(request.options))
        return ps.say("task.self-destruct.take", options=shown)
    return ps.say("task.self-destruct")


def _witch_task(ps: PromptSet, request: Request, night: int, *, for_model: bool) -> list[str]:
    names, witch = request.view.names, request.witch
    lines = [ps.say("task.witch", night=night)]
    if witch is None:
        return lines
    if witch.told_target is not None:
        lines.append(ps.say("task.witch.told", target=seat_label(ps, names, witch.told_target)))
    else:
        lines.append(ps.say("task.witch.untold"))
    if not for_model:
        return lines  # a person picks from a menu of exactly the legal uses
    lines.append(ps.say("task.witch.can-save" if witch.can_save else "task.witch.no-save"))
    if witch.poison_targets:
        options = options_text(ps, names, [*witch.poison_targets, None])
        lines.append(ps.say("task.witch.poison", options=options))
    else:
        lines.append(ps.say("task.witch.no-poison"))
    if witch.can_save and witch.poison_targets and not witch.both_allowed:
        lines.append(ps.say("task.witch.one-potion"))
    return lines
