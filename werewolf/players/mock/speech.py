"""Pieces of speech every strategy builds from: openers, the stance on seer claims, the case
against a seat (its evidence, then the vote), last words' reads. Pure: lines, not text."""

from __future__ import annotations

from ...cast import Identity
from ...decisions import DecisionKind
from .beliefs import Mind
from .lang import Line, because
from .nights import peaceful_key
from .turn import Turn

__all__ = [
    "case_against",
    "defence",
    "farewell_good",
    "last_reads",
    "my_speech_today",
    "next_check",
    "opener",
    "second_round",
    "seer_stance",
    "spared",
    "trusted_today",
    "unechoed",
    "unheard_claim",
    "without_trust_in",
]


def opener(turn: Turn) -> list[Line]:
    """How the speech begins: the night's news, or the day's first words."""
    table, rng = turn.table, turn.rng
    died = table.night_deaths.get(table.day)
    if table.spoken(turn.me, table.day):  # a second round: ``second_round`` answers it
        return []
    if rng.random() < 0.35:
        return []
    if died:
        return [Line("open.victims", seats=tuple(died))]
    if table.day in table.night_deaths and table.day > 1 and rng.random() < 0.5:
        return [Line(peaceful_key(table), n=table.day)]
    if table.day <= 1:
        return [Line("open.first", n=table.day)]
    return [Line("open.later", n=table.day)]


def second_round(turn: Turn, mind: Mind, target: int | None) -> list[Line] | None:
    """A second speech the same day answers the first round: a defence against whoever
    named me, my word on the case the table made (agreed when it is the seat I name, doubted
    when I think that seat good), or, when nobody named anyone, where to start. None when
    this is my first speech today; an empty list when I have nothing to react to."""
    table = turn.table
    if not table.spoken(turn.me, table.day) or turn.context.get("pk"):
        return None
    heard = [
        u
        for u in table.utterances
        if u.day == table.day and not u.last_words and u.speaker != turn.me
    ]
    lines: list[Line] = []
    mine = next((u.speaker for u in heard if turn.me in u.said.accuses), None)
    if mine is not None:  # a seat I trust is mistaken; another one I question
        trusted = mine == mind.seer.trusted or mind.p(mine) < 0.3
        lines.append(Line("r2.mistaken" if trusted else "r2.accused", mine))
    cases = [(u.speaker, u.said.vote) for u in heard if u.said.vote not in (None, turn.me)]
    if not cases:
        spoke = [u.speaker for u in heard]
        twice = [seat for seat in dict.fromkeys(spoke) if spoke.count(seat) > 1]
        if mine is None and twice:  # the start was put to the table already: keep it short
            return []
        if mine is None:
            died = table.night_deaths.get(table.day)
            start = Line("r2.start.victim", seats=tuple(died)) if died else Line("r2.start.votes")
            lines += [Line("r2.nobody"), start] if died or table.day > 1 else [Line("r2.nobody")]
        return lines
    named = [seat for _, seat in cases]
    agreed = [(who, seat) for who, seat in cases if seat == target]
    who, seat = agreed[0] if agreed else max(cases, key=lambda c: (named.count(c[1]), -c[0]))
    assert seat is not None
    before, _, _ = my_speech_today(turn)
    if seat == target:
        lines.append(Line("r2.agree", who, seat))
    elif seat == before:  # my own case of round one, which I no longer press
        lines.append(Line("r2.less_sure", seat))
    elif seat in table.wolves or mind.p(seat) >= 0.3 or not table.is_alive(seat):
        lines.append(Line("r2.noted", who, seat))  # a wolf does not stand up for a mate
    else:
        lines.append(Line("r2.doubt", who, seat))
    return lines


def unechoed(lines: list[Line]) -> list[Line]:
    """Without the evidence line that repeats a case I just agreed with ("I agree with seat 9
    on seat 8. Seat 9 also pointed at seat 8.")."""
    agreed = {(x.a, x.b) for x in lines if x.key == "r2.agree"}
    return [x for x in lines if x.key != "why.accused_by" or (x.b, x.a) not in agreed]


def seer_stance(turn: Turn, mind: Mind) -> list[Line]:
    """Whom I believe among seer claimers, and why the others lie (a good seat's view)."""
    belief, table = mind.seer, turn.table
    lines: list[Line] = []
    framed_by = [c for c in belief.liars if table.reports.get(c, {}).get(turn.me) is True]
    for liar in framed_by:
        lines += [Line("framed", liar), Line("liar", liar)]
    trusted = belief.trusted
    said = [u for u in table.said(turn.me) if u.day == table.day]
    again = any(trusted in u.said.trusts for u in said if not u.last_words)  # said today
    if trusted is not None and trusted != turn.me and table.is_alive(trusted) and not again:
        lines.append(Line("trust.wait" if unheard_claim(turn) else "trust", trusted))
    for liar in belief.liars:
        if liar in framed_by or not table.is_alive(liar):
            continue
        why = mind.reasons(liar)
        lines += [because(why[0].reason)] if why else []
        lines.append(Line("liar", liar))
    return lines


def unheard_claim(turn: Turn, seer: int | None = None) -> int | None:
    """The lone seer claimer I believe (or ``seer``), when the claim was made on the first
    day and seats are yet to speak after it (a rival may still answer): I wait before I
    back it."""
    table = turn.table
    seer = turn.mind.seer.trusted if seer is None else seer
    if table.day > 1 or seer is None or len(table.seer_claims) != 1 or turn.context.get("pk"):
        return None
    if any(u.day < table.day for u in table.said(seer)):
        return None
    spoke = {u.speaker for u in table.utterances if u.day == table.day and not u.last_words}
    return seer if any(s not in spoke and s != turn.me for s in table.alive) else None


def case_against(
    turn: Turn, mind: Mind, target: int, *, said: set[str] | None = None
) -> list[Line]:
    """The evidence against ``target`` (as many reasons as the personality gives, of
    different kinds), then the vote."""
    lines: list[Line] = []
    kinds = set() if said is None else said
    for ev in mind.reasons(target):
        if len(lines) >= turn.temper.sentences:
            break
        key = ev.reason.kind + ev.reason.role
        if key in kinds or ev.reason.kind in ("liar", "trusted_seer"):
            continue
        kinds.add(key)
        lines.append(because(ev.reason))
    if turn.rng.random() < 0.4:
        lines.append(Line("suspect", target))
    lines.append(Line("vote", target))
    return lines


def my_speech_today(turn: Turn) -> tuple[int | None, bool, int]:
    """(the seat my latest speech today voted for, whether it said it follows the seer,
    when it was said)."""
    for u in reversed(turn.table.said(turn.me)):
        if u.day == turn.table.day and not u.last_words:
            return u.said.vote, u.said.follow_seer, u.order
    return None, False, -1


def trusted_today(turn: Turn) -> frozenset[int]:
    """The seats my speeches today said I trust: my vote does not go against them."""
    table = turn.table
    return frozenset(
        seat
        for u in table.said(turn.me)
        if u.day == table.day and not u.last_words
        for seat in u.said.trusts
    )


def without_trust_in(lines: list[Line], target: int | None) -> list[Line]:
    """``lines`` without a word of trust in the seat they end up voting for."""
    if target is None:
        return lines
    return [x for x in lines if not (x.key == "trust" and x.a == target)]


def last_reads(turn: Turn, mind: Mind, exclude: set[int]) -> list[Line]:
    """Last words' additions: my order of suspects, and a seat I would keep."""
    alive = [s for s in turn.others_alive() if s not in exclude]
    ranked = sorted(alive, key=lambda s: (-mind.p(s), s))
    lines = [Line("lw.reads", seats=tuple(ranked[:3]))] if len(ranked) >= 2 else []
    clean = [s for s in ranked[::-1] if mind.p(s) < 0.3]
    if clean and len(ranked) >= 3:
        lines.append(Line("lw.clean", clean[0]))
    return lines


def next_check(turn: Turn, mind: Mind, skip: set[int]) -> list[Line]:
    """The seat a seer claimer checks tonight, said aloud as a seer does (警徽流: should she
    fall, the table knows where she looked): the likeliest wolf not yet checked nor in
    ``skip``. None in a PK round or last words."""
    if turn.context.get("pk") or turn.request.kind is not DecisionKind.SPEECH:
        return []
    fresh = [s for s in turn.others_alive() if s not in skip and s not in mind.cleared]
    if not fresh:
        return []
    return [Line("seer.next", max(fresh, key=lambda s: (mind.p(s), -s)))]


def defence(turn: Turn) -> list[Line]:
    """A good seat up for exile speaks for itself, and a witch or hunter shows the card."""
    lines = [Line("pk.defend")]
    lines += reveal(turn)
    return lines


def farewell_good(turn: Turn) -> Line:
    """ "I was good", as fits how I die: "you exiled a good player" only when exiled."""
    exiled = turn.table.exiled.get(turn.table.day) == turn.me
    return Line("lw.good" if exiled else "lw.good.night")


def spared(turn: Turn) -> set[int]:
    """Seats this seat never names in a speech: the idiot whose card is shown (proven good)
    and my lover."""
    table = turn.table
    return {s for s in (table.idiot, table.partner) if s is not None}


# the cards that are shown to be believed when their holder faces the vote or dies
_SHOWN = {
    Identity.GUARD: "guard",
    Identity.DOCTOR: "doctor",
    Identity.IDIOT: "idiot",
    Identity.CUPID: "cupid",
}


def reveal(turn: Turn) -> list[Line]:
    table = turn.table
    shown = _SHOWN.get(table.identity)
    if shown is not None:  # the card is worth more to the table than hidden in a grave
        return [Line("claim", role=shown)]
    if table.identity is Identity.WITCH:
        lines = [Line("claim", role="witch")]
        lines += [Line("witch.saved", s) for s in table.saved]
        lines += [Line("witch.poisoned", s) for s in table.poisoned]
        if not table.poisoned:
            lines.append(Line("witch.kept"))
        return lines
    if table.identity is Identity.HUNTER:
        if table.shooter == turn.me and table.shot is not None:
            return [Line("claim", role="hunter"), Line("hunter.shot", table.shot)]
        return [Line("claim", role="hunter"), Line("hunter.warn")]
    return []
