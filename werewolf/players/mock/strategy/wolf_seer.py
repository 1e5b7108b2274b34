"""A wolf playing the seer: one invented check per night, kept as first told (read back
from its own speeches): the rival seer as a wolf, else the table's suspect or another good
seat as a wolf, sometimes a fellow wolf as good; the rival is called a liar, and the vote
goes to the seat it framed."""

from __future__ import annotations

from ....decisions import Answer
from ..beliefs import Mind
from ..lang import Line, because
from ..speech import last_reads, next_check, opener
from ..turn import Turn

__all__ = ["fake_checks", "fake_seer_speech"]


def fake_checks(turn: Turn, public: Mind) -> list[tuple[int, int, bool]]:
    table, rng, me = turn.table, turn.rng, turn.me
    first_told: dict[int, tuple[int, bool]] = {}
    for u in table.said(me):
        for night, seat, wolf in u.said.reports:
            if night is not None:
                first_told.setdefault(night, (seat, wolf))
    named = {seat for seat, _ in first_told.values()}
    # never an impossible check: a seat alive now was alive on every night so far; not a
    # seat a fellow wolf already reported (a copied check), not a seat that backs me
    named |= {
        s for c, found in table.reports.items() if c in table.wolves and c != me for s in found
    }
    backers = {u.speaker for u in table.utterances if me in u.said.trusts}
    checks: list[tuple[int, int, bool]] = []
    for night in range(1, max(table.day, 1) + 1):
        if night in first_told:
            checks.append((night, *first_told[night]))
            continue
        rivals = [
            s
            for s in table.seer_claims
            if s not in table.wolves and s not in named and table.is_alive(s)
        ]
        goods = [
            s
            for s in table.alive
            if s not in table.wolves
            and s not in named
            and s not in table.vouched
            and s not in backers
        ]
        mates = [s for s in table.wolves if s != me and table.is_alive(s) and s not in named]
        if rivals:
            pick, wolf = rivals[0], True
        elif goods and rng.random() < 0.6:
            pick, wolf = max(goods, key=lambda s: (public.p(s), -s)), True  # the table's suspect
        elif goods and (not mates or rng.random() < 0.7):
            pick, wolf = rng.choice(goods), True
        elif mates:
            pick, wolf = rng.choice(mates), False
        else:
            continue
        named.add(pick)
        checks.append((night, pick, wolf))
    return checks


def fake_seer_speech(turn: Turn, public: Mind, *, last_words: bool = False) -> Answer:
    table = turn.table
    checks = fake_checks(turn, public)
    lines = [Line("lw.farewell")] if last_words else opener(turn)
    lines.append(Line("claim", role="seer"))
    lines += [Line("report.wolf" if w else "report.good", s, n=n) for n, s, w in checks]
    rivals = [s for s in table.seer_claims if s not in table.wolves and table.is_alive(s)]
    for rival in rivals:  # as the real seer does: the liar, and one fact against her
        lines.append(Line("liar", rival))
        said = ("liar", "checked", "trusted_seer")
        facts = public.reasons(rival)
        lines += [
            because(e.reason)
            for e in facts
            if e.reason.kind not in said and e.reason.other != turn.me
        ][:1]
    framed = [s for _, s, w in checks if w and table.is_alive(s)]
    pool = [s for s in turn.pk_candidates if s != turn.me] if turn.context.get("pk") else None
    if pool is not None:
        framed = [s for s in framed if s in pool] or [s for s in pool if s not in table.wolves]
    target = framed[-1] if framed else None
    if target is not None:
        lines.append(Line("vote", target))
    if last_words:
        lines += last_reads(turn, public, set(table.wolves) | {target or 0})[:1]
    else:  # the next check, among the good seats not yet named (a mate is no plan to tell)
        named = {s for _, s, _ in checks} | set(table.wolves)
        lines[-1:-1] = next_check(turn, public, named)
    today = table.my_texts_today()
    why = turn.think("wolf.frame", a=target) if target else turn.think("wolf.fake")
    return turn.say(lines, why, avoid=today)
