"""The wolves' self-destruct (自爆, offered as the options of a wolf's day speech). A wolf
blows up when the day has turned against him and the vote would only cost the pack more:
a good seer claimer named him a wolf and the table believes it, or he stands in a PK the
table will exile him from. Never the last wolf (it would hand the game over). The white
wolf king takes the most dangerous good seat with him (``wolf_kings.most_dangerous``).

In the election a wolf candidate may blow up to swallow the badge (自爆吞警徽): the real
seer, with a wolf check on the pack, is about to win it. Only sometimes (``SWALLOW``), and
never the last wolf."""

from __future__ import annotations

from ....decisions import Choice, DecisionKind
from ...draw import seeded
from ...random_player import decision_seed
from ..beliefs import Mind
from ..turn import Turn
from .sheriff import seer_takes_badge
from .wolf_kings import most_dangerous

__all__ = ["destruct", "self_destruct"]

DOOMED = 0.7  # how sure the table must seem that I am a wolf before I blow up
SWALLOW = 0.35  # how often a wolf candidate blows up the seer's election (its own draw)

_WHY = {
    "pk": (
        "I cannot win this PK: I self-destruct to stop the vote",
        "这轮PK我必出局：自爆，不让他们投票",
    ),
    "exposed": (
        "seat {a} checked me and the table believes it: I self-destruct, night comes sooner",
        "{a}号验了我，大家都信：自爆，直接进入黑夜",
    ),
    "badge": (
        "seat {a} is the real seer and is about to take the badge: I self-destruct to stop it",
        "{a}号是真预言家，警徽要被他拿走：自爆吞警徽",
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
    if kind is DecisionKind.SHERIFF_SPEECH:
        return election_destruct(turn)
    return self_destruct(turn) if kind is DecisionKind.SPEECH else None


def election_destruct(turn: Turn) -> Choice | None:
    """Blow up the election before the real seer wins the badge, sometimes, or None. The
    chance is drawn apart from the speech's generator, so a speech stays as it was."""
    options = turn.request.options
    table = turn.table
    mates = [s for s in table.wolves if s != turn.me and table.is_alive(s)]
    if not options or not mates:
        return None
    seer = seer_takes_badge(turn)
    if seer is None or seeded(decision_seed(*turn.drawn_as, "swallow")).random() >= SWALLOW:
        return None
    zh = turn.lang == "zh"
    reasoning = _WHY["badge"][zh].format(a=seer)
    seats = [s for s in options if s is not None]
    take = most_dangerous(turn, seats) if seats else None
    if take is not None:
        reasoning += ("，" if zh else ", ") + _WHY["take"][zh].format(a=take)
    return Choice(take, reasoning=reasoning)


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
