"""The wolves' self-destruct (自爆, offered as the options of a wolf's day speech). A wolf
blows up when the day has turned against him and the vote would only cost the pack more:
a good seer claimer named him a wolf and the table believes it, or he stands in a PK the
table will exile him from. Never the last wolf (it would hand the game over). The white
wolf king takes the most dangerous good seat with him (``wolf_kings.most_dangerous``)."""

from __future__ import annotations

from ....decisions import Choice, DecisionKind
from ..beliefs import Mind
from ..turn import Turn
from .wolf_kings import most_dangerous

__all__ = ["destruct", "self_destruct"]

DOOMED = 0.7  # how sure the table must seem that I am a wolf before I blow up

_WHY = {
    "pk": (
        "I cannot win this PK: I self-destruct to stop the vote",
        "这轮PK我必出局：自爆，不让他们投票",
    ),
    "exposed": (
        "seat {a} checked me and the table believes it: I self-destruct, night comes sooner",
        "{a}号验了我，大家都信：自爆，直接进入黑夜",
    ),
    "take": ("and take seat {a} with me", "并带走{a}号"),
}


def _picture(turn: Turn) -> Mind:
    return turn.public if turn.public is not None else turn.mind


def _doomed(turn: Turn, public: Mind) -> str | None:
    """Why this wolf should blow up now, or None."""
    table, me = turn.table, turn.me
    if table.day < 1 or public.p(me) < DOOMED:
        return None
    pk = turn.pk_candidates
    if turn.context.get("pk") and me in pk:
        rivals = [s for s in pk if s != me]
        if all(public.p(me) > public.p(s) for s in rivals):
            return "pk"
    exposers = [
        c
        for c, found in table.reports.items()
        if c not in table.wolves and found.get(me) is True and table.is_alive(c)
    ]
    if exposers and public.seer.trusted in exposers:
        return "exposed"
    return None


def destruct(kind: DecisionKind, turn: Turn) -> Choice | None:
    """The hook of a speech that offers a self-destruct (its options): blow up, or None."""
    return self_destruct(turn) if kind is DecisionKind.SPEECH else None


def self_destruct(turn: Turn) -> Choice | None:
    """The self-destruct to answer instead of a speech, or None: speak."""
    options = turn.request.options
    table = turn.table
    mates = [s for s in table.wolves if s != turn.me and table.is_alive(s)]
    if not options or not mates:
        return None
    public = _picture(turn)
    why = _doomed(turn, public)
    if why is None:
        return None
    zh = turn.lang == "zh"
    exposers = [c for c, found in table.reports.items() if found.get(turn.me) is True]
    reasoning = _WHY[why][zh].format(a=exposers[0] if exposers else "")
    seats = [s for s in options if s is not None]
    take = most_dangerous(turn, seats) if seats else None
    if take is not None:
        reasoning += ("，" if zh else ", ") + _WHY["take"][zh].format(a=take)
    return Choice(take, reasoning=reasoning)
