"""The wolf kings' targets. The wolf king, dying, shoots the good seat the table trusts most
(the believed seer first: a seat cleared by a real seer is worth less than the seer); the
white wolf king's self-destruct takes the most dangerous good seat: a good seer claimer,
else a claimed god who does not shoot back, else the most trusted seat."""

from __future__ import annotations

from ....decisions import Answer, Choice
from ..beliefs import Mind
from ..turn import Turn

__all__ = ["most_dangerous", "most_trusted", "wolf_king_shot"]

_WHY = {
    "shoot": (
        "shoot seat {a}, the table's most trusted good seat",
        "带走{a}号：场上最被信任的好人",
    ),
    "hold": ("nobody worth the bullet", "没有值得带走的人"),
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


def wolf_king_shot(turn: Turn) -> Answer:
    zh = turn.lang == "zh"
    options = [s for s in turn.request.options if s is not None]
    target = most_trusted(turn, options)
    if target is None:
        return Choice(None, reasoning=_WHY["hold"][zh])
    return Choice(target, reasoning=_WHY["shoot"][zh].format(a=target))
