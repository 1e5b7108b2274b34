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
from . import en, more_en, more_zh, table_en, table_zh, voices_en, voices_zh, zh

__all__ = ["LANGS", "Line", "because", "filled", "phrasings", "render", "render_line"]

Seats = tuple[int, ...]

LANGS = {"en": en, "zh": zh}

# a language's phrasings: its module's, with the further ones of its ``more`` module
_BANKS: dict[str, dict[str, tuple[str, ...]]] = {
    lang: {key: module.PHRASES.get(key, ()) + more.get(key, ()) for key in (*module.PHRASES, *more)}
    for lang, module, more in (("en", en, more_en.MORE), ("zh", zh, more_zh.MORE))
}
Voices = dict[str, dict[str, tuple[str, ...]]]


def _joined(*parts: Voices) -> Voices:
    """Each voice's phrasings of a line from every part, in the parts' order."""
    out: Voices = {}
    for part in parts:
        for voice, lines in part.items():
            mine = out.setdefault(voice, {})
            for key, options in lines.items():
                mine[key] = mine.get(key, ()) + options
    return out


# each personality's own phrasings of some lines (drawn with the shared ones)
_VOICES = {
    "en": _joined(voices_en.VOICES, table_en.VOICES),
    "zh": _joined(voices_zh.VOICES, table_zh.VOICES),
}


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


_FILLERS = ("fill.wait", "fill.ask", "fill.more")
_LINE_CHARS = {"en": 40, "zh": 14}  # a line's usual length, in characters


def filled(lines: Sequence[Line], rng: Random, lang: str, voice: str, floor: float) -> list[Line]:
    """``lines`` grown by fillers (no claim in them) after the opener until the speech is
    about as long as ``floor`` lines (a drawn length around it): a seat with little to say
    (a wolf hiding, most often) still speaks at an ordinary length, so the shortest speech
    gives nobody away."""
    lines = list(lines)
    target = floor * _LINE_CHARS.get(lang, 40) * (0.7 + 0.6 * rng.random())
    first = rng.randrange(len(_FILLERS))
    size = sum(len(_first(lang, line, voice)) for line in lines)
    fillers: list[Line] = []
    for i in range(len(_FILLERS)):
        if size >= target:
            break
        fillers.append(Line(_FILLERS[(first + i) % len(_FILLERS)]))
        size += len(_first(lang, fillers[-1], voice))
    if not fillers:
        return lines
    at = next((i for i, line in enumerate(lines) if not line.key.startswith("open.")), 0)
    return [*lines[:at], *fillers, *lines[at:]]


def _first(lang: str, line: Line, voice: str) -> str:
    return phrasings(lang, line.key, line.a, line.b, line.n, line.role, line.seats, voice)[0]


def _seat_list(seats: Sequence[int], lang: str) -> str:
    if lang == "zh":
        return "、".join(f"{s}号" for s in seats)
    named = [f"seat {s}" for s in seats]
    if len(named) <= 1:
        return "".join(named)
    return ", ".join(named[:-1]) + " and " + named[-1]


def render_line(line: Line, lang: str, rng: Random | None = None, voice: str = "") -> str:
    """One line in ``lang``: a drawn phrasing, or the first one without a generator."""
    options = phrasings(lang, line.key, line.a, line.b, line.n, line.role, line.seats, voice)
    return options[0] if rng is None else pick(rng, options)


# the same lines come back game after game (a seat, a day, a key): each is formatted once
@lru_cache(maxsize=16384)
def phrasings(
    lang: str,
    key: str,
    a: int | None,
    b: int | None,
    n: int | None,
    role: str,
    seats: Seats,
    voice: str = "",
) -> tuple[str, ...]:
    """Every phrasing of the line (``key``, ``a``, ``b``, ``n``, ``role``, ``seats``) in
    ``lang``: the personality ``voice``'s own, then the shared ones, in the order of its phrase
    table (a draw picks one by position)."""
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
    bank = _BANKS.get(lang, _BANKS["en"])
    voiced = _VOICES.get(lang, _VOICES["en"]).get(voice, {})
    # the voice's own first, twice over (a seat's voice is heard in most of its lines), then
    # the shared ones (a voice is a leaning, not a script)
    own = voiced.get(key, ())
    options = own + own + (bank.get(key) or _BANKS["en"][key])
    return tuple(template.format(**fields) for template in options)


def render(lines: Sequence[Line], lang: str, rng: Random | None = None, voice: str = "") -> str:
    """The whole speech: the lines in order, each once, in ``voice`` (see ``phrasings``)."""
    texts: dict[str, None] = {}
    for line in lines:  # render_line, without a call per line
        options = phrasings(lang, line.key, line.a, line.b, line.n, line.role, line.seats, voice)
        texts[options[0] if rng is None else pick(rng, options)] = None
    return ("" if lang == "zh" else " ").join(texts)
