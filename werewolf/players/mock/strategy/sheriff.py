"""The sheriff's election and badge, as tables play them: the seer runs, claims with her
check and announces her badge order (警徽流: whom she checks tonight, then next); one
wolf runs against her with a claim of his own (悍跳); other good seats seldom run and
withdraw (退水) before a claimed seer; voters back the seer they believe, or the
candidate they trust most; a sheriff has the suspect speak first, passes the badge to a
seat he trusts (the seer's cleared seat) and tears it when in doubt. Speaking last, the
sheriff sums up the day (归票): the seer he believes, her wolf, and the seat to exile; the
good seats who trust him vote as he calls."""

from __future__ import annotations

from random import Random

from ....cast import Identity, Team, team_of
from ....decisions import Answer, Choice, Speech
from ..lang import Line
from ..turn import Turn
from .wolf_night import active_fake_seer
from .wolf_seer import fake_seer_speech

__all__ = [
    "badge_pass",
    "election_speech",
    "election_vote",
    "run_for_sheriff",
    "seer_takes_badge",
    "sheriff_call",
    "sheriff_lead",
    "sheriff_now",
    "speaking_order",
    "withdraw",
]

_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "order": (
            "My badge order: tonight I check seat {a}, then seat {b}; the badge follows.",
            "Badge order: seat {a} tonight, seat {b} after; whoever I clear gets the badge.",
        ),
        "run": (
            "I run for the badge: I am good, and I will sum up and lead the vote with care.",
            "I am on the good side and I want the badge to keep our votes together.",
            "I run to hold the vote together; I have no card to show, only my reads.",
        ),
        "seer_first": ("A seer is running: I will not split the vote against her.",),
    },
    "zh": {
        "order": (
            "我的警徽流：今晚验{a}号，再验{b}号，验到好人警徽给他。",
            "警徽流{a}号、{b}号，验出金水就把警徽交给他。",
        ),
        "run": (
            "我上警是想拿警徽帮好人归票，我是好人。",
            "我是好人，想拿警徽把好人的票聚在一起。",
            "我没有身份可报，只凭发言上警，拿到警徽会认真归票。",
        ),
        "seer_first": ("有预言家上警，我不分票。",),
    },
}


_WHY: dict[str, str] = {  # the private reasons, in Chinese
    "the seer runs to carry her checks with the badge": "预言家上警，带着验人结果拿警徽",
    "I run against the seer": "悍跳：和预言家对跳抢警徽",
    "wolves keep low": "狼人低调，不上警",
    "a wolf runs now and then, as anyone might": "狼人偶尔也上警，和普通人一样",
    "a good seat may run": "好人可以上警",
    "the seer claims for the badge": "预言家起跳拿警徽",
    "a candidate without a card": "没有身份可报的候选人",
    "a claimed seer keeps running": "起跳的预言家不退水",
    "a wolf need not hold it": "狼人不一定要拿警徽",
    "a seer is running: I withdraw": "有预言家上警：我退水",
    "no seer to give way to": "没有预言家可让",
    "nobody to vote for": "无人可投",
    "the badge to the pack": "警徽给狼队",
    "anyone but the seer": "不投预言家",
    "the seer I believe": "投我相信的预言家",
    "I cannot tell": "分不清，弃票",
    "the candidate I trust most": "投最可信的候选人",
    "nobody to take the badge": "无人可接警徽",
    "the badge stays with the pack": "警徽留给狼队",
    "tear it: the good side must not have it": "撕警徽，不留给好人",
    "forced": "只能移交",
    "the badge to a seat I cleared": "警徽给我验过的金水",
    "the badge to the seer I believe": "警徽给我相信的预言家",
    "the badge to the seat I trust most": "警徽给最可信的人",
    "in doubt: I tear the badge": "拿不准，撕警徽",
    "either way": "哪边都行",
    "the one I doubt speaks first": "让我怀疑的人先发言",
}


def _why(turn: Turn, reason: str) -> str:
    return _WHY.get(reason, reason) if turn.lang == "zh" else reason


def _words(turn: Turn, key: str, **seats: int) -> str:
    table = _WORDS.get(turn.lang, _WORDS["en"])[key]
    return turn.rng.choice(table).format(**seats)


def _wolf(turn: Turn) -> bool:
    """Any wolf card (the kings too) plays the pack's election."""
    return team_of(turn.identity) is Team.WOLVES


def _is_seer_side(turn: Turn) -> bool:
    return turn.identity is Identity.SEER


def _jumper(turn: Turn) -> bool:
    """Whether this wolf runs against the seer (悍跳): the pack's planned fake seer, else
    the lowest living wolf, often."""
    table = turn.table
    fake = active_fake_seer(turn)
    if fake is not None:
        return fake == turn.me
    mates = [s for s in table.wolves if table.is_alive(s)]
    return bool(mates) and min(mates) == turn.me and turn.rng.random() < 0.6


def run_for_sheriff(turn: Turn) -> Answer:
    if _is_seer_side(turn):
        return Choice(1, reasoning=_why(turn, "the seer runs to carry her checks with the badge"))
    if _wolf(turn):
        if _jumper(turn):
            return Choice(1, reasoning=_why(turn, "I run against the seer"))
        if turn.rng.random() < 0.1:
            return Choice(1, reasoning=_why(turn, "a wolf runs now and then, as anyone might"))
        return Choice(None, reasoning=_why(turn, "wolves keep low"))
    return Choice(
        1 if turn.rng.random() < 0.2 else None, reasoning=_why(turn, "a good seat may run")
    )


def _order_seats(turn: Turn, rng: Random, exclude: set[int]) -> tuple[int, int] | None:
    pool = [s for s in turn.others_alive() if s not in exclude]
    if len(pool) < 2:
        return None
    mind = turn.mind
    ranked = sorted(pool, key=lambda s: (-mind.p(s), s))
    first = ranked[0]
    second = rng.choice([s for s in pool if s != first])
    return first, second


def seer_takes_badge(turn: Turn) -> int | None:
    """For a wolf candidate: the real seer (a good claimer whose wolf check fell on the
    pack) standing for the badge with the table behind her, or None. A wolf can tell her
    from a liar: she named one of his own."""
    table = turn.table
    public = turn.public
    seer = public.seer.trusted if public is not None else None
    if seer is None or seer in table.wolves or seer not in turn.context.get("candidates", ()):
        return None
    found = table.reports.get(seer, {})
    return seer if any(found.get(w) is True for w in table.wolves) else None


def election_speech(turn: Turn) -> Answer:
    table = turn.table
    if _is_seer_side(turn):
        lines = [Line("claim", role="seer")]
        lines += [
            Line("report.wolf" if wolf else "report.good", seat, n=night)
            for night, (seat, wolf) in sorted(table.my_checks.items())
        ]
        speech = turn.say(lines, _why(turn, "the seer claims for the badge"))
        checked = {seat for seat, _ in table.my_checks.values()}
    elif _wolf(turn) and (
        active_fake_seer(turn) == turn.me or table.claims_seer(turn.me) or _jumper(turn)
    ):
        public = turn.public or turn.mind
        made = fake_seer_speech(turn, public)
        speech = made if isinstance(made, Speech) else Speech("")
        checked = set(table.wolves)
    else:
        text = _words(turn, "run")
        if any(s != turn.me for s in table.seer_claims):
            text += " " + _words(turn, "seer_first")
        return Speech(text, reasoning=_why(turn, "a candidate without a card"))
    order = _order_seats(turn, turn.rng, checked)
    if order is None:
        return speech
    text = (
        speech.text
        + (" " if turn.lang != "zh" else "")
        + _words(turn, "order", a=order[0], b=order[1])
    )
    return Speech(text, reasoning=speech.reasoning)


def withdraw(turn: Turn) -> Answer:
    table = turn.table
    if _is_seer_side(turn) or table.claims_seer(turn.me):
        return Choice(None, reasoning=_why(turn, "a claimed seer keeps running"))
    rivals = [s for s in turn.pk_candidates if s != turn.me and table.claims_seer(s)]
    if _wolf(turn):
        return Choice(
            1 if turn.rng.random() < 0.5 else None, reasoning=_why(turn, "a wolf need not hold it")
        )
    if rivals:
        return Choice(1, reasoning=_why(turn, "a seer is running: I withdraw"))
    return Choice(
        1 if turn.rng.random() < 0.3 else None, reasoning=_why(turn, "no seer to give way to")
    )


def election_vote(turn: Turn) -> Answer:
    options = [s for s in turn.request.options if s is not None]
    if not options:
        return Choice(None, reasoning=_why(turn, "nobody to vote for"))
    table, mind = turn.table, turn.mind
    if _wolf(turn):
        mates = [s for s in options if s in table.wolves]
        if mates:
            return Choice(mates[0], reasoning=_why(turn, "the badge to the pack"))
        real = [s for s in options if s not in table.seer_claims]
        pick = turn.rng.choice(real or options)
        return Choice(pick, reasoning=_why(turn, "anyone but the seer"))
    trusted = mind.seer.trusted
    if trusted in options:
        return Choice(trusted, reasoning=_why(turn, "the seer I believe"))
    claimers = [s for s in options if s in table.seer_claims]
    pool = claimers or options
    pick = min(pool, key=lambda s: (mind.p(s), s))
    if claimers and len(claimers) > 1 and turn.rng.random() < 0.5:
        return Choice(
            None if None in turn.request.options else pick, reasoning=_why(turn, "I cannot tell")
        )
    return Choice(pick, reasoning=_why(turn, "the candidate I trust most"))


def badge_pass(turn: Turn) -> Answer:
    options = [s for s in turn.request.options if s is not None]
    tear = None in turn.request.options
    table, mind = turn.table, turn.mind
    if not options:
        return Choice(None, reasoning=_why(turn, "nobody to take the badge"))
    if _wolf(turn):
        mates = [s for s in options if s in table.wolves]
        if mates and turn.rng.random() < 0.5:
            return Choice(mates[0], reasoning=_why(turn, "the badge stays with the pack"))
        if tear:
            return Choice(None, reasoning=_why(turn, "tear it: the good side must not have it"))
        return Choice(max(options, key=lambda s: (mind.p(s), -s)), reasoning=_why(turn, "forced"))
    if _is_seer_side(turn):
        goods = [s for s, wolf in table.my_checks_by_seat.items() if not wolf and s in options]
        if goods:
            return Choice(goods[-1], reasoning=_why(turn, "the badge to a seat I cleared"))
    trusted = mind.seer.trusted
    if trusted in options:
        return Choice(trusted, reasoning=_why(turn, "the badge to the seer I believe"))
    safest = min(options, key=lambda s: (mind.p(s), s))
    if mind.p(safest) < 0.2 or not tear:
        return Choice(safest, reasoning=_why(turn, "the badge to the seat I trust most"))
    return Choice(None, reasoning=_why(turn, "in doubt: I tear the badge"))


def speaking_order(turn: Turn) -> Answer:
    options = [s for s in turn.request.options if s is not None]
    if _wolf(turn) or len(options) < 2:
        return Choice(turn.rng.choice(options), reasoning=_why(turn, "either way"))
    mind = turn.mind
    first = max(options, key=lambda s: (mind.p(s), -s))
    return Choice(first, reasoning=_why(turn, "the one I doubt speaks first"))


def sheriff_now(turn: Turn) -> int | None:
    """The living sheriff, from the election's and the badge's public events (None on a
    board without one, or once the badge is torn)."""
    view = turn.request.view
    if not view.config.sheriff:
        return None
    holder: int | None = None
    for obs in view.observations:
        if obs.phase in ("sheriff-run", "sheriff-withdraw", "sheriff-vote"):
            elected = obs.diff.get("sheriff")
            holder = int(elected) if elected is not None else holder
        elif obs.phase == "sheriff-badge":
            heir = obs.diff.get("to")
            holder = int(heir) if heir is not None else None
    return holder if holder is not None and turn.table.is_alive(holder) else None


def sheriff_lead(turn: Turn, target: int | None) -> tuple[list[Line], int | None]:
    """For the sheriff speaking last today (the rest have spoken): the summing-up (the
    seer he believes and her wolf) and the seat he calls the vote on (her wolf, else his
    own read, else the likeliest wolf he can name), or nothing when he is not."""
    table, mind = turn.table, turn.mind
    if sheriff_now(turn) != turn.me or turn.context.get("pk") or table.spoken(turn.me, table.day):
        return [], target
    spoke = {u.speaker for u in table.utterances if u.day == table.day and not u.last_words}
    if any(s not in spoke for s in turn.others_alive()):
        return [], target
    lines = [Line("sum.open")]
    seer = mind.seer.trusted
    reports = table.reports.get(seer, {}) if seer is not None else {}
    found = [s for s, w in reports.items() if w and table.is_alive(s)]
    if seer is not None and seer != turn.me and found:
        lines.append(Line("sum.found", found[-1], seer))
        target = found[-1]  # the check he stands by is the table's wolf: the call goes there
    if target is None:
        barred = set(mind.cleared) | {seer or 0, turn.me}
        target = mind.likeliest(turn.others_alive(), exclude=barred)
    if target is not None:
        lines.append(Line("sum.vote", target))
    return lines, target


def sheriff_call(turn: Turn) -> int | None:
    """The seat the sheriff called the vote on after my speech today, when I trust him
    (he is the seer I believe, a seat I count cleared, or one I hardly doubt)."""
    table, mind = turn.table, turn.mind
    sheriff = sheriff_now(turn)
    if sheriff is None or sheriff == turn.me:
        return None
    trusted = sheriff == mind.seer.trusted or sheriff in mind.cleared or mind.p(sheriff) < 0.2
    if not trusted:
        return None
    mine = max((u.order for u in table.said(turn.me) if u.day == table.day), default=-1)
    for u in reversed(table.said(sheriff)):
        if u.day == table.day and not u.last_words and u.order > mine:
            return u.said.vote
    return None
