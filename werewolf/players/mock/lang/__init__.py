"""Language: one mind, two renderings. A speech is planned as ``Line`` objects (what to say,
about which seats) and rendered here in English or Chinese, each line in one of several
phrasings drawn from the seat's generator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random

from ...draw import pick
from ..reasons import Reason
from . import en, zh

__all__ = ["LANGS", "Line", "because", "phrasings", "render", "render_line"]

Seats = tuple[int, ...]

LANGS = {"en": en, "zh": zh}


# made by the thousand: not frozen (a frozen init sets each field through
# object.__setattr__, several times the cost); never written to once made
@dataclass(slots=True, unsafe_hash=True)
class Line:
    """One thing to say: a phrase key and its seats, number, role or seat list."""

    key: str
    a: int | None = None
    b: int | None = None
    n: int | None = None
    role: str = ""
    seats: Seats = ()


def because(reason: Reason) -> Line:
    """The line that states a piece of evidence."""
    kind = f"liar.{reason.role}" if reason.kind == "liar" else reason.kind
    return Line(f"why.{kind}", reason.seat, reason.other, reason.day, reason.role)


def _seat_list(seats: Sequence[int], lang: str) -> str:
    if lang == "zh":
        return "、".join(f"{s}号" for s in seats)
    named = [f"seat {s}" for s in seats]
    if len(named) <= 1:
        return "".join(named)
    return ", ".join(named[:-1]) + " and " + named[-1]


def render_line(line: Line, lang: str, rng: Random | None = None) -> str:
    """One line in ``lang``: a drawn phrasing, or the first one without a generator."""
    options = phrasings(lang, line.key, line.a, line.b, line.n, line.role, line.seats)
    return options[0] if rng is None else pick(rng, options)


# the same lines come back game after game (a seat, a day, a key): each is formatted once
@lru_cache(maxsize=16384)
def phrasings(
    lang: str, key: str, a: int | None, b: int | None, n: int | None, role: str, seats: Seats
) -> tuple[str, ...]:
    """Every phrasing of the line (``key``, ``a``, ``b``, ``n``, ``role``, ``seats``) in
    ``lang``, in the order of its phrase table (a draw picks one by position)."""
    module = LANGS.get(lang, en)
    listed = _seat_list(seats, lang) if seats else ""  # most lines list none
    fields = {
        "a": a,
        "b": b,
        "n": n,
        "role": module.ROLES.get(role, role),
        "seats": listed,
        "Seats": listed[:1].upper() + listed[1:],
    }
    options = module.PHRASES.get(key) or en.PHRASES[key]
    return tuple(template.format(**fields) for template in options)


def render(lines: Sequence[Line], lang: str, rng: Random | None = None) -> str:
    """The whole speech: the lines in order, each once."""
    texts: dict[str, None] = {}
    for line in lines:  # render_line, without a call per line
        options = phrasings(lang, line.key, line.a, line.b, line.n, line.role, line.seats)
        texts[options[0] if rng is None else pick(rng, options)] = None
    return ("" if lang == "zh" else " ").join(texts)
