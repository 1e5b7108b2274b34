"""The seer: checks the likeliest wolf she has not checked, claims when she has something to
lead with (a wolf found, a counter-claim, the table turning on her, or simply day 2), then
reports every check, calls counter-claimers liars and leads the vote on her wolf."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..lang import Line, because
from ..speech import case_against, last_reads, next_check, opener, second_round
from ..turn import Turn
from .good import good_speech

__all__ = ["seer_check", "seer_last_words", "seer_speech"]


def seer_check(turn: Turn) -> Answer:
    checked = {seat for seat, _ in turn.table.my_checks.values()}
    # a rival seer claimer is a liar I already know: a check on him is wasted
    checked |= set(turn.table.seer_claims)
    fresh = [s for s in turn.request.options if s is not None and s not in checked]
    mind = turn.mind
    # the most doubtful seat: a likely wolf, but not one already settled by a seer report
    target = max(
        fresh or [s for s in turn.request.options if s is not None],
        key=lambda s: (mind.p(s) * (1.0 if s not in mind.cleared else 0.3), -s),
    )
    return Choice(
        target, reasoning=turn.think("seer.check", a=target, rest=turn.beliefs_note([target]))
    )


def _should_claim(turn: Turn, last_words: bool) -> str | None:
    table = turn.table
    if last_words or table.claims_seer(turn.me):
        return turn.think("seer.speaks")
    if any(wolf and table.is_alive(s) for s, wolf in table.my_checks.values()):
        return turn.think("seer.found")
    if any(s != turn.me for s in table.seer_claims):
        return turn.think("seer.rival")
    if turn.me in turn.pk_candidates:
        return turn.think("seer.pk")
    if len(table.accusations(turn.me, since_day=table.day)) >= 2:
        return turn.think("seer.pressed")
    if table.day >= 2 or turn.temper.seer_claims_early:
        return turn.think("seer.time")
    return None


def seer_speech(turn: Turn, *, last_words: bool = False) -> Answer:
    why = _should_claim(turn, last_words)
    if why is None:
        return good_speech(turn, last_words=last_words)
    table, mind = turn.table, turn.mind
    lines = [Line("lw.farewell")] if last_words else opener(turn)
    lines.append(Line("claim", role="seer"))
    lines += [
        Line("report.wolf" if wolf else "report.good", seat, n=night)
        for night, (seat, wolf) in sorted(table.my_checks.items())
    ]
    said = ("liar", "checked")  # the claim and the reports say these already
    for liar in mind.seer.liars:
        if table.is_alive(liar):
            lines += [Line("liar", liar)]
            more = [because(e.reason) for e in mind.reasons(liar) if e.reason.kind not in said]
            lines += more[:1]
    found = [s for s, wolf in table.my_checks.values() if wolf and table.is_alive(s)]
    liars = [s for s in mind.seer.liars if table.is_alive(s)]
    pool = [s for s in turn.pk_candidates if s != turn.me] if turn.context.get("pk") else None
    if pool is not None:
        found = [s for s in found if s in pool]
        liars = [s for s in liars if s in pool]
    leads = found or liars
    target: int | None = leads[0] if leads else None
    if target is not None:
        lines.append(Line("vote", target))
    else:
        target = mind.likeliest(pool or turn.others_alive(), exclude=mind.cleared)
        if (
            target is not None
            and mind.p(target) >= turn.temper.accuse_at
            and mind.has_reasons(target)
        ):
            lines += case_against(turn, mind, target)
        else:
            target = None
            react = None if last_words else second_round(turn, mind, None)
            lines += react or []
            lines.append(
                Line("no_read" if react is None else "r2.no_name" if react else "r2.still")
            )
    if last_words:
        lines += last_reads(turn, mind, set(mind.cleared) | ({target} if target else set()))
    else:
        lines[-1:-1] = next_check(turn, mind, {s for s, _ in table.my_checks.values()})
    today = table.my_texts_today()
    return turn.say(lines, turn.think("and", a=why, rest=turn.beliefs_note()), avoid=today)


def seer_last_words(turn: Turn) -> Answer:
    return seer_speech(turn, last_words=True)
