"""The good side's day: speak from the mind (the evidence against the likeliest wolf, then
the vote), vote as the speech said, and leave last words that add the seat's reads. The
villager plays exactly this; the seer, witch and hunter add their own parts to it."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..beliefs import Mind
from ..lang import Line, because
from ..speech import (
    case_against,
    defence,
    farewell_good,
    last_reads,
    my_speech_today,
    opener,
    reveal,
    second_round,
    seer_stance,
    spared,
    trusted_today,
    unechoed,
    unheard_claim,
    without_trust_in,
)
from ..turn import Turn
from .sheriff import sheriff_call, sheriff_lead

__all__ = [
    "good_last_words",
    "good_speech",
    "good_target",
    "good_vote",
    "hesitation",
    "seer_wolves_since",
    "stand_by_partner",
]


def good_target(turn: Turn, options: list[int] | None = None) -> int | None:
    """The seat to name: the likeliest wolf (never a cleared seat nor the believed seer),
    if the seat is sure enough and has evidence it can say aloud."""
    mind = turn.mind
    barred = set(mind.cleared) | {mind.seer.trusted or 0, turn.me} | spared(turn)
    pool = options if options is not None else turn.others_alive()
    target = mind.likeliest(pool, exclude=barred)
    if target is None or mind.p(target) < turn.temper.accuse_at or not mind.has_reasons(target):
        return None
    return target


def good_speech(turn: Turn, *, last_words: bool = False) -> Answer:
    mind, table = turn.mind, turn.table
    pk = turn.me in turn.pk_candidates and not last_words
    lines = [Line("lw.farewell")] if last_words else opener(turn)
    if last_words:
        lines += reveal(turn) or [farewell_good(turn)]
    elif pk:
        lines += defence(turn)
    lines += seer_stance(turn, mind)
    pool = [s for s in turn.pk_candidates if s != turn.me] if turn.context.get("pk") else None
    target = good_target(turn, pool)
    if table.shot is not None and table.shooter == turn.me:
        target = table.shot if table.is_alive(table.shot) else target
    react = None if last_words else second_round(turn, mind, target)
    lines += react or []
    lines += stand_by_partner(turn)
    summary, target = sheriff_lead(turn, target) if not last_words else ([], target)
    if summary:  # the sheriff speaking last sums up the day and calls the vote (归票)
        case = case_against(turn, mind, target)[:-1] if target else []
        lines += [*summary[:-1], *case, summary[-1]]  # opened, argued, then the call
    elif target is not None and _unheard_check(turn, target) and not last_words:
        # a lone seer's word, claimed this very day: a rival may yet answer it
        lines += [because(mind.reasons(target)[0].reason), Line("lean", target)]
        lines.append(Line("follow_seer"))
    elif target is not None:
        lines += case_against(turn, mind, target)
        if turn.temper.sentences >= 2:  # a terse seat names one seat only
            second = good_target(turn, [s for s in turn.others_alive() if s != target])
            if second is not None and turn.rng.random() < 0.5:
                lines.insert(-1, Line("also", second))
    elif react is not None:  # round two: no new read is said in a few words, not again
        lines += hesitation(turn, mind, Line("r2.no_name" if react else "r2.still"))
    else:
        lines += hesitation(turn, mind)
    waiting = mind.seer.trusted is None and not table.seer_dead  # a seer may still report
    if not last_words and waiting and turn.rng.random() < 0.8:
        lines.append(Line("follow_seer"))
    if last_words:
        lines += last_reads(turn, mind, {target} if target else set())
    why = turn.think("good.vote", a=target) if target else turn.think("good.no_read")
    lines = without_trust_in(unechoed(lines), target)
    return turn.say(lines, turn.think("and", a=turn.beliefs_note(), rest=why), avoid=_today(turn))


def _unheard_check(turn: Turn, seat: int) -> bool:
    """True when the case against ``seat`` is the check of a seer claim not yet heard out
    (``unheard_claim``): a wolf claiming first wants the table committed before the real
    seer answers."""
    seer = unheard_claim(turn)
    return seer is not None and turn.table.reports.get(seer, {}).get(seat) is True


NO_READ = Line("no_read")


def hesitation(turn: Turn, mind: Mind, first: Line = NO_READ) -> list[Line]:
    """No vote named: say so (``first``), and what little there is (a lean with its reason,
    a seat that sounded honest), only about seats that have spoken or acted."""
    lines = [first]
    barred = set(mind.cleared) | {mind.seer.trusted or 0, turn.me} | spared(turn)
    lean = mind.likeliest(turn.others_alive(), exclude=barred)
    if lean is not None and mind.has_reasons(lean) and turn.rng.random() < 0.7:
        lines += [because(mind.reasons(lean)[0].reason), Line("lean", lean)]
    table = turn.table  # a wolf vouches for no fellow wolf: the link would mark them both
    skip = {lean, *table.wolves}
    spoken = [s for s in turn.others_alive() if s not in skip and table.spoken(s)]
    if spoken and turn.rng.random() < 0.5:
        lines.append(Line("safe", min(spoken, key=lambda s: (mind.p(s), s))))
    return lines


def stand_by_partner(turn: Turn) -> list[Line]:
    """A lover speaks up for the partner the table has named today."""
    table, mate = turn.table, turn.table.partner
    if mate is None or not table.is_alive(mate):
        return []
    named = any(mate in u.said.accuses for u in table.utterances if u.day == table.day)
    return [Line("safe", mate)] if named else []


def _today(turn: Turn) -> list[str]:
    """My speech today: last words must not repeat it."""
    return turn.table.my_texts_today()


def good_last_words(turn: Turn) -> Answer:
    return good_speech(turn, last_words=True)


def seer_wolves_since(turn: Turn, order: int) -> list[int]:
    """Wolves the believed seer reported after ``order`` (my speech), still alive."""
    seer = turn.mind.seer.trusted
    found = [
        seat
        for u in turn.table.said(seer)
        if u.order > order
        for _, seat, wolf in u.said.reports
        if wolf and turn.table.is_alive(seat)
    ]
    return list(dict.fromkeys(found))


def _still_suspect(turn: Turn, seat: int) -> bool:
    """False when what came after my speech clears the seat I named (then I say so), or
    when its case was a seer claimer's word that a counter-claim has since outweighed."""
    mind = turn.mind
    if seat in mind.cleared or mind.p(seat) < 0.15:
        return False
    return not any(turn.table.reports.get(liar, {}).get(seat) for liar in mind.seer.liars)


def good_vote(turn: Turn) -> Answer:
    """As the speech said; a seer's later wolf if the speech said it would follow her; else
    the likeliest wolf among the options (abstain when there is none to vote for)."""
    options = list(turn.request.options)
    named, follows, order = my_speech_today(turn)
    if follows:
        for seat in seer_wolves_since(turn, order):
            if seat in options and seat not in trusted_today(turn):
                return Choice(seat, reasoning=turn.think("vote.follow_seer", a=seat))
    call = sheriff_call(turn)
    barred = set(turn.mind.cleared) | {turn.mind.seer.trusted or 0} | trusted_today(turn)
    # the call is followed by a seat that named nobody or named the same (a seat that
    # named another keeps its word: its reasons were said aloud, the call's were not)
    if call is not None and call in options and call not in barred and named in (None, call):
        return Choice(call, reasoning=turn.think("vote.sheriff", a=call))
    if named is not None and named in options and _still_suspect(turn, named):
        note = turn.beliefs_note([named])
        return Choice(named, reasoning=turn.think("vote.as_said", a=named, rest=note))
    trusted, kept = turn.mind.seer.trusted, trusted_today(turn)
    reports = turn.table.reports.get(trusted, {}) if trusted is not None else {}
    found = [s for s, w in reports.items() if w and s in options and s not in kept]
    if named is not None and found:  # the seer I now believe named a wolf: hers, not his
        return Choice(found[-1], reasoning=turn.think("vote.follow_seer", a=found[-1]))
    barred = set(turn.mind.cleared) | {turn.mind.seer.trusted or 0} | trusted_today(turn)
    target = turn.mind.likeliest(options, exclude=barred)
    if target is None:
        target = None if None in options else options[0]
    return Choice(target, reasoning=turn.beliefs_note())
