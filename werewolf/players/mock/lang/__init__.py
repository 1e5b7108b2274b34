"""Language: one mind, two renderings. A speech is planned as ``Line`` objects (what to say,
about which seats) and rendered here in English or Chinese, each line in one of several
phrasings drawn from the seat's generator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from ..reasons import Reason
from . import en, zh

__all__ = ["LANGS", "Line", "because", "render", "render_line"]

LANGS = {"en": en, "zh": zh}


@dataclass(frozen=True, slots=True)
class Line:
    """One thing to say: a phrase key and its seats, number, role or seat list."""

    key: str
    a: int | None = None
    b: int | None = None
    n: int | None = None
    role: str = ""
    seats: tuple[int, ...] = ()


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
    module = LANGS.get(lang, en)
    options = module.PHRASES.get(line.key) or en.PHRASES[line.key]
    template = options[0] if rng is None else rng.choice(options)
    seats = _seat_list(line.seats, lang) if line.seats else ""  # most lines list none
    return template.format(
        a=line.a,
        b=line.b,
        n=line.n,
        role=module.ROLES.get(line.role, line.role),
        seats=seats,
        Seats=seats[:1].upper() + seats[1:],
    )


def render(lines: Sequence[Line], lang: str, rng: Random | None = None) -> str:
    """The whole speech: the lines in order, each once."""
    texts = list(dict.fromkeys(render_line(line, lang, rng) for line in lines))
    return ("" if lang == "zh" else " ").join(texts)
