"""The wolf kings' targets. The wolf king, dying, shoots the seat that led the table against
him (who argued and voted for his exile most: 带走踩他最狠的人; a seer claimer aside, her
word is said), else the good seat the table trusts most (the believed seer first). The
white wolf king's self-destruct takes the most dangerous good seat: a good seer claimer,
else a claimed god who does not shoot back, else the most trusted seat."""

from __future__ import annotations

from collections import Counter

from ....decisions import Answer, Choice
from ..beliefs import Mind
from ..turn import Turn

__all__ = ["accuser", "most_dangerous", "most_trusted", "wolf_king_shot"]

_WHY = {
    "shoot": (
        "shoot seat {a}, the table's most trusted good seat",
        "带走{a}号：场上最被信任的好人",
    ),
    "hold": ("nobody worth the bullet", "没有值得带走的人"),
    "revenge": ("shoot seat {a}, who led the table against me", "带走{a}号：带头踩我的人"),
}


def _picture(turn: Turn) -> Mind:
    return turn.public if turn.public is not None else turn.mind


def most_trusted(turn: Turn, options: list[int]) -> int | None:
    """The good seat among ``options`` the table trusts most: a good seer claimer the table
    believes, else the one it least suspects (lowest seat on a tie)."""
    table, public = turn.table, _picture(turn)
    goods = [s for s in options if s not in table.wolves]
    if not goods:
        return None
    seers = [s for s in goods if s in table.seer_claims]
    trusted = public.seer.trusted
    if trusted in goods:
        return trusted
    if seers:
        return seers[0]
    return min(goods, key=lambda s: (public.p(s), s))


def most_dangerous(turn: Turn, options: list[int]) -> int | None:
    """The good seat the white wolf king takes: a good seer claimer (the believed one
    first), else a claimed god who would not shoot back (not the hunter), else the most
    trusted seat."""
    table = turn.table
    goods = [s for s in options if s not in table.wolves]
    seers = [s for s in goods if s in table.seer_claims]
    if seers:
        return most_trusted(turn, seers)
    hunters = set(table.role_claims.get("hunter", ()))
    gods = [
        s
        for role, claimers in sorted(table.role_claims.items())
        if role != "hunter"
        for s in claimers
        if s in goods
    ]
    if gods:
        return gods[0]
    return most_trusted(turn, [s for s in goods if s not in hunters] or goods)


def accuser(turn: Turn, options: list[int]) -> int | None:
    """The good seat that led the table against me today, a seer claimer aside (her word
    is said and stays): who argued or voted for my exile most (lowest seat on a tie)."""
    table, me = turn.table, turn.me
    goods = {s for s in options if s not in table.wolves and s not in table.seer_claims}
    against: Counter[int] = Counter()
    for ballot in table.ballots:
        if ballot.day == table.day and ballot.target == me and ballot.voter in goods:
            against[ballot.voter] += 1
    for u in table.utterances:
        if u.day == table.day and u.said.vote == me and u.speaker in goods:
            against[u.speaker] += 2  # who argued for the exile led it
    if not against:
        return None
    return min(against, key=lambda s: (-against[s], s))


def wolf_king_shot(turn: Turn) -> Answer:
    """He takes the seat that led the table against him (the seer who checked him, the
    loudest accuser), else the seat the table trusts most (the believed seer first)."""
    zh = turn.lang == "zh"
    options = [s for s in turn.request.options if s is not None]
    target = accuser(turn, options)
    if target is not None:
        return Choice(target, reasoning=_WHY["revenge"][zh].format(a=target))
    target = most_trusted(turn, options)
    if target is None:
        return Choice(None, reasoning=_WHY["hold"][zh])
    return Choice(target, reasoning=_WHY["shoot"][zh].format(a=target))
