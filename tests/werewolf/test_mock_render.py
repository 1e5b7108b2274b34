"""Rendering a line from its phrasings formatted once draws and says exactly what
formatting the drawn template each time does (the plain computation, written out here)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import pytest

from werewolf.players.mock.lang import LANGS, Line, en, more_en, more_zh, render, render_line

MORE = {"en": more_en.MORE, "zh": more_zh.MORE}


def _plain_seat_list(seats: Sequence[int], lang: str) -> str:
    if lang == "zh":
        return "、".join(f"{s}号" for s in seats)
    named = [f"seat {s}" for s in seats]
    return "".join(named) if len(named) <= 1 else ", ".join(named[:-1]) + " and " + named[-1]


def plain_render_line(line: Line, lang: str, rng: Random | None = None) -> str:
    """A template drawn from the phrase table, then formatted with the line's fields."""
    module, more = (LANGS[lang], MORE[lang]) if lang in LANGS else (en, MORE["en"])
    options = module.PHRASES.get(line.key, ()) + more.get(line.key, ())
    template = options[0] if rng is None else rng.choice(options)
    seats = _plain_seat_list(line.seats, lang) if line.seats else ""
    return template.format(
        a=line.a,
        b=line.b,
        n=line.n,
        role=module.ROLES.get(line.role, line.role),
        seats=seats,
        Seats=seats[:1].upper() + seats[1:],
    )


def _lines() -> list[Line]:
    """Every phrase key of either language, with seats, days, roles and seat lists."""
    keys = sorted(set(en.PHRASES) | set(LANGS["zh"].PHRASES) | set(more_en.MORE))
    return [
        line
        for key in keys
        for line in (
            Line(key),
            Line(key, 3, 7, 2),
            Line(key, 12, n=1, role="seer"),
            Line(key, seats=(4,)),
            Line(key, seats=(2, 9)),
            Line(key, b=4, role="villager", seats=(1, 5, 8)),
        )
    ]


@pytest.mark.parametrize("lang", ["en", "zh", "fr"])
def test_a_line_renders_as_its_template_formatted_when_drawn(lang: str) -> None:
    lines = _lines()
    fast, plain = Random(7), Random(7)
    for line in lines * 3:  # the second and third times come from the formatted phrasings
        assert render_line(line, lang) == plain_render_line(line, lang), line
        assert render_line(line, lang, fast) == plain_render_line(line, lang, plain), line
    assert fast.getstate() == plain.getstate()  # the same draws, in the same order


def test_a_speech_is_its_lines_rendered_in_order_each_once() -> None:
    lines = [Line("vote", 3), Line("open.victims", seats=(2, 5)), Line("vote", 3)]
    fast, plain = Random(1), Random(1)
    texts = [plain_render_line(line, "en", plain) for line in lines]
    assert render(lines, "en", fast) == " ".join(dict.fromkeys(texts))
    assert fast.getstate() == plain.getstate()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_speech_renders_as_its_lines_one_by_one(lang: str) -> None:
    lines = _lines()
    fast, plain = Random(3), Random(3)
    for start in range(0, len(lines), 5):
        speech = lines[start : start + 5]
        texts = [plain_render_line(line, lang, plain) for line in speech]
        assert render(speech, lang, fast) == ("" if lang == "zh" else " ").join(
            dict.fromkeys(texts)
        )
        assert render(speech, lang) == ("" if lang == "zh" else " ").join(
            dict.fromkeys(plain_render_line(line, lang) for line in speech)
        )
    assert fast.getstate() == plain.getstate()
