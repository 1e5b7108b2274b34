"""The wolves' day. A wolf reasons with the public record, as the table does (``turn.public``:
what an ordinary villager believes): it plays the seer when that is the plan or when a seer
exposed it, else blends in: it backs its fake seer, or accepts or doubts a real one, and
argues against the good seat the table already suspects, with the table's own evidence. It
sells out ("buses") a fellow wolf the table has all but convicted, when that buys trust."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..beliefs import Mind
from ..lang import Line, because
from ..reasons import Reason
from ..speech import (
    case_against,
    farewell_good,
    last_reads,
    my_speech_today,
    opener,
    second_round,
    trusted_today,
    unechoed,
    unheard_claim,
    without_trust_in,
)
from ..turn import Turn
from .good import hesitation
from .wolf_night import active_fake_seer
from .wolf_seer import fake_seer_speech

__all__ = ["carried", "wolf_last_words", "wolf_speech", "wolf_vote"]

_SPLIT = 0.6  # chance a wolf votes apart from the pack when the exile is carried without it
_HOOK = 0.4  # chance a blending wolf also voices a doubt about a fellow wolf (倒钩)
_HOOK_PAIR = 0.08  # ... when the pack is a pair: a doubt on the only mate costs more


def _picture(turn: Turn) -> Mind:
    """What the table believes, as this wolf pictures it (weighed when first read: read it
    only where it is used)."""
    return turn.public if turn.public is not None else turn.mind


def _exposers(turn: Turn) -> list[int]:
    table = turn.table
    return [
        c
        for c, found in table.reports.items()
        if c not in table.wolves and found.get(turn.me) is True and table.is_alive(c)
    ]


def _doomed_mate(turn: Turn, public: Mind) -> int | None:
    """A fellow wolf the table has all but convicted (I may gain trust by voting him out)."""
    mates = [s for s in turn.table.wolves if s != turn.me and turn.table.is_alive(s)]
    doomed = [s for s in mates if public.p(s) >= 0.85 and public.has_reasons(s)]
    return doomed[0] if doomed else None


def pack_target(turn: Turn, pool: list[int] | None = None) -> int | None:
    """The good seat a fellow wolf already pushed today (the pack votes as one: split wolf
    votes exile nobody), if it is still an option."""
    table = turn.table
    for u in table.utterances:
        if u.day != table.day or u.last_words or u.speaker == turn.me:
            continue
        seat = u.said.vote
        if u.speaker not in table.wolves or seat is None or seat in table.wolves:
            continue
        if table.is_alive(seat) and (pool is None or seat in pool):
            return seat
    return None


def carried(turn: Turn, seat: int) -> bool:
    """True when the round's speeches already give ``seat`` half the living votes: the
    exile needs no wolf vote, and a wolf may vote elsewhere (a pack that always votes as
    one is a pack the table can find)."""
    table = turn.table
    voters = {
        u.speaker
        for u in table.utterances
        if u.day == table.day and not u.last_words and u.speaker != turn.me and u.said.vote == seat
    }
    return table.wolf_count >= 3 and 2 * len(voters) >= len(table.alive)


def _push(turn: Turn, public: Mind, pool: list[int]) -> int | None:
    """The good seat to argue against: the one a fellow wolf pushed today (unless the table
    carries it without us: then, now and then, another), else the one the table suspects
    most, if it has a case."""
    shown = turn.table.idiot  # a shown idiot is proven good: pushing him marks the pusher
    goods = [s for s in pool if s not in turn.table.wolves and s not in (turn.me, shown)]
    backed = pack_target(turn, goods)
    if backed is not None and not (carried(turn, backed) and turn.rng.random() < _SPLIT):
        return backed
    barred = public.cleared | {public.seer.trusted or 0}
    if backed is not None:
        barred |= {backed}
    target = public.likeliest(goods, exclude=barred)
    bar = turn.temper.accuse_at * 0.8
    if target is None or public.p(target) < bar or not public.has_reasons(target):
        return None
    return target


def wolf_speech(turn: Turn, *, last_words: bool = False) -> Answer:
    table, temper, rng = turn.table, turn.temper, turn.rng
    fake = active_fake_seer(turn)
    exposers = _exposers(turn)
    jump = fake is None and bool(exposers) and rng.random() < temper.jump_when_exposed
    real = [s for s in table.seer_claims if s not in table.wolves and table.is_alive(s)]
    # a lone seer unanswered leads the table: one of us counter-claims rather than doubt
    # her bare-handed (a wolf who attacks a believed seer only marks himself)
    # (not where death shows the card: the first claimer to die would unmask ours)
    bluff = fake is None and bool(real) and not table.death_shows
    jump = jump or (bluff and rng.random() < temper.attack_seer)
    if fake == turn.me or jump:
        return fake_seer_speech(turn, _picture(turn), last_words=last_words)
    lines = [Line("lw.farewell"), farewell_good(turn)] if last_words else opener(turn)
    if turn.me in turn.pk_candidates and not last_words:
        lines.append(Line("pk.defend"))
    for exposer in exposers:
        lines += [Line("framed", exposer), Line("liar", exposer)]
    target: int | None = exposers[0] if exposers else None
    why = turn.think("wolf.counter") if exposers else ""
    if fake is not None and table.claims_seer(fake):
        # as a good seat would: a claim not yet heard out is backed only once it is
        lines.append(Line("trust.wait" if unheard_claim(turn, fake) else "trust", fake))
        lines += _rival_doubts(turn, fake, exposers)
        why = why or turn.think("wolf.back", a=fake)
        framed = [s for s, w in table.reports.get(fake, {}).items() if w and table.is_alive(s)]
        target = target or (framed[-1] if framed else None)
    elif real and not exposers:
        lines.append(Line("trust", real[0]))
        why = turn.think("wolf.behind", a=real[0])
    pool = [s for s in turn.pk_candidates if s != turn.me] if turn.context.get("pk") else None
    if target is None:  # the table's picture is weighed only here (or for last words)
        public = _picture(turn)
        mate = _doomed_mate(turn, public)
        if mate is not None and rng.random() < temper.bus and not last_words:
            target, why = mate, turn.think("wolf.bus", a=mate)
            lines += case_against(turn, public, mate)
        else:
            target = _push(turn, public, pool or turn.others_alive())
            react = None if last_words else second_round(turn, public, target)
            lines += react or []
            if target is not None:
                lines += case_against(turn, public, target)
                lines = _also(turn, public, lines, target)
                why = why or turn.think("wolf.push", a=target)
            elif react is not None:  # round two: as short as a villager's
                lines += hesitation(turn, public, Line("r2.no_name" if react else "r2.still"))
            else:
                lines += _leaning(turn, public, hesitation(turn, public))
            hook = _hook(turn, public, target) if not last_words else None
            if hook is not None:
                lines.insert(-1 if target is not None else len(lines), Line("hook", hook))
    else:
        lines += _named_case(turn, target, fake, exposers)
    if last_words:
        # reads that spare the pack, but no word for a mate: a dying wolf's praise marks him
        lines += last_reads(turn, _picture(turn), set(table.wolves))[:1]
    today = table.my_texts_today()
    lines = without_trust_in(unechoed(lines), target)
    return turn.say(lines, why or turn.think("wolf.blend"), avoid=today)


def _rival_doubts(turn: Turn, fake: int, exposers: list[int]) -> list[Line]:
    """Why I believe our seer over the others, and that they lie (the duel as a believer
    of hers tells it): an exposer is answered apart."""
    table = turn.table
    rivals = [
        s
        for s in table.seer_claims
        if s not in table.wolves and s not in exposers and table.is_alive(s)
    ]
    lines: list[Line] = []
    for rival in rivals:
        lines += [
            because(Reason("liar", rival, fake, table.day, "counter_claim")),
            Line("liar", rival),
        ]
    return lines


def _named_case(turn: Turn, target: int, fake: int | None, exposers: list[int]) -> list[Line]:
    """The case for the seat my side already named: the exposer who framed me, or our
    seer's wolf, with the fact behind it (a believer says it too), then the vote."""
    table = turn.table
    if target in exposers:
        lines = [because(Reason("liar", target, turn.me, table.day, "framed_me"))]
    elif fake is not None:
        lines = [because(Reason("seer_found", target, fake, table.day))]
    else:
        lines = []
    # and what else the table holds against that seat, as many facts as the seat gives
    # (none that cites a rival seer as the seer, nor me)
    barred = {turn.me, *table.seer_claims} - {fake}
    kinds = {"liar", "trusted_seer", "seer_found", "seer_cleared", "checked"}
    for ev in _picture(turn).reasons(target):
        if len(lines) >= turn.temper.sentences:
            break
        if ev.reason.kind not in kinds and ev.reason.other not in barred:
            kinds.add(ev.reason.kind)
            lines.append(because(ev.reason))
    if turn.rng.random() < 0.4:
        lines.append(Line("suspect", target))
    return [*lines, Line("vote", target)]


def _leaning(turn: Turn, public: Mind, lines: list[Line]) -> list[Line]:
    """A wolf with nobody to name still says where it looks first, with the table's fact
    behind it (a good seat unsure of its vote does; a wolf who only says "no read" is the
    short speech the table remembers): the good seat the table suspects most."""
    if any(x.key == "lean" for x in lines):
        return lines
    table = turn.table
    barred = public.cleared | {public.seer.trusted or 0, table.idiot or 0, table.partner or 0}
    goods = [s for s in turn.others_alive() if s not in table.wolves]
    seat = public.likeliest(goods, exclude=barred)
    if seat is None or not public.has_reasons(seat):
        return lines
    return [*lines, because(public.reasons(seat)[0].reason), Line("lean", seat)]


def _also(turn: Turn, public: Mind, lines: list[Line], target: int) -> list[Line]:
    """A second good seat to watch, as a seat that gives several reasons names one."""
    if turn.temper.sentences < 2 or turn.rng.random() >= 0.5:
        return lines
    table = turn.table
    goods = [s for s in turn.others_alive() if s not in table.wolves and s != target]
    barred = public.cleared | {public.seer.trusted or 0, table.idiot or 0, table.partner or 0}
    second = public.likeliest(goods, exclude=barred)
    if second is None or public.p(second) < turn.temper.accuse_at or not public.has_reasons(second):
        return lines
    return [*lines[:-1], Line("also", second), lines[-1]]


def _hook(turn: Turn, public: Mind, target: int | None) -> int | None:
    """Now and then a fellow wolf to doubt aloud (倒钩: a wolf who never names a mate is
    one the table can find): the living mate the table suspects most, never a doomed one
    nor the seat I vote for."""
    table = turn.table
    barred = (turn.me, target, table.partner)
    mates = [s for s in table.wolves if s not in barred and table.is_alive(s)]
    chance = _HOOK if table.wolf_count >= 3 else _HOOK_PAIR
    if not mates or turn.rng.random() >= chance:
        return None
    mate = max(mates, key=lambda s: (public.p(s), -s))
    return None if public.p(mate) >= 0.85 else mate


def wolf_vote(turn: Turn) -> Answer:
    """As my speech said; else the good seat the table suspects most (a doomed mate only when
    the table is going that way and the personality sells out)."""
    table, options = turn.table, list(turn.request.options)
    named, _, _ = my_speech_today(turn)
    if named is not None and named in options:
        return Choice(named, reasoning=turn.think("wolf.as_said", a=named))
    public = _picture(turn)
    mate = _doomed_mate(turn, public)
    if mate is not None and mate in options and turn.rng.random() < turn.temper.bus:
        return Choice(mate, reasoning=turn.think("wolf.doomed", a=mate))
    goods = [s for s in options if s is not None and s not in table.wolves]
    kept = trusted_today(turn)  # no vote against a seat I just said I trust
    goods = [s for s in goods if s not in kept] or goods
    if not goods:
        if None in options:
            return Choice(None, reasoning=turn.think("wolf.abstain"))
        return Choice(options[0], reasoning=turn.think("wolf.forced"))
    backed = pack_target(turn, goods)
    split = backed is not None and carried(turn, backed) and turn.rng.random() < _SPLIT
    if backed is not None and not split:
        return Choice(backed, reasoning=turn.think("wolf.pack", a=backed))
    goods = [s for s in goods if s != backed] or goods
    top = max(public.p(s) for s in goods)
    close = [s for s in goods if public.p(s) >= top - 0.03]  # no clear suspect: any of them
    target = close[0] if len(close) == 1 else turn.rng.choice(close)
    return Choice(target, reasoning=turn.think("wolf.suspect", a=target))


def wolf_last_words(turn: Turn) -> Answer:
    return wolf_speech(turn, last_words=True)
