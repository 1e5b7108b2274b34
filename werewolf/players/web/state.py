"""What the browser seat's page shows, and the answers it may send: pure functions.

Everything the page holds is built here from one ``Request`` (the seat's ``SeatView``, the
decision asked, its legal options) and the game's language, with the same words the
terminal seat prints: the seat's history, its card's powers, the task and the menu of
``players.menus``. Nothing else of the game reaches the page, so it cannot show the seat
more than it was told. The page draws every string as text, never as HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...decisions import MAX_SPEECH_CHARS, Answer, DecisionKind, Request, Speech, problem, storable
from ..menus import decision_menu
from ..prompting import ability_line, history_lines, task_lines
from ..promptset import night_kinds, prompt_set, seat_label, seats_text

__all__ = ["UI_KEYS", "ask_part", "parse_answer", "result_text", "ui_words", "view_part"]

UI_KEYS = (
    "learned",
    "first",
    "waiting",
    "words",
    "note",
    "send",
    "sent",
    "lost",
)
"""The page's fixed words (``web.<key>`` in the phrase files), sent with every state."""


def ui_words(lang: str, seat: int) -> dict[str, str]:
    """The page's fixed words in ``lang``, its title naming ``seat``."""
    ps = prompt_set(lang)
    return {"title": ps.say("web.title", seat=seat)} | {k: ps.say(f"web.{k}") for k in UI_KEYS}


def view_part(request: Request, lang: str) -> dict[str, Any]:
    """The seat's own view as the page shows it: who it is, its card, the state of the
    game and everything it has learned, oldest first."""
    ps = prompt_set(lang)
    view = request.view
    names = view.names
    night = request.kind in night_kinds()
    n = request.context.get("night" if night else "day", view.day)
    status = ps.say(
        "status.night" if night else "status.day",
        n=n,
        alive=seats_text(ps, names, view.alive),
        dead=seats_text(ps, names, view.dead),
    )
    who = seat_label(ps, names, view.seat)
    identity = ps.say(f"identity.{view.identity.value}")
    history = history_lines(view, lang) or [ps.say("history.empty")]
    return {
        "you": ps.say("web.you", who=who, identity=identity),
        "ability": ability_line(ps, view),
        "pack": ps.say("pack", seats=seats_text(ps, names, view.wolves)) if view.wolves else "",
        "status": status,
        "history": list(history),
        "night": night,
    }


def ask_part(request: Request, lang: str, rid: str) -> dict[str, Any]:
    """The decision as the page's form: the task, why the last answer was refused, and
    either a text box (a speech, with its budget) or exactly the legal options."""
    ps = prompt_set(lang)
    form: dict[str, Any]
    if request.kind.speaks:
        budget = [ps.say("web.budget", max=MAX_SPEECH_CHARS)]
        speeches = request.view.config.speech_budget
        if request.kind is DecisionKind.SPEECH and speeches is not None:
            budget.append(ps.say("web.speeches", n=speeches))
        form = {"speech": True, "max": MAX_SPEECH_CHARS, "budget": " ".join(budget)}
    else:
        menu = decision_menu(request, lang)
        form = {"speech": False, "options": [{"code": i.code, "label": i.label} for i in menu]}
    refused = ps.say("human.refused", reason=request.feedback) if request.feedback else ""
    return {
        "rid": rid,
        "kind": request.kind.value,
        "task": task_lines(request, lang, for_model=False),
        "refused": refused,
        "form": form,
    }


def result_text(winner: str, lang: str) -> str:
    """The page's last line: the game has ended, and who won (public to every seat)."""
    ps = prompt_set(lang)
    key = f"web.result.{winner}"
    result = ps.say(key) if ps.has(key) else winner
    return ps.say("web.ended", result=result)


def parse_answer(request: Request, lang: str, body: Mapping[str, Any]) -> Answer | str:
    """The answer a posted form stands for, or why it cannot be played (in ``lang``): a
    speech's text, or the code of one menu option with an optional private note; then the
    rules' own check, so that nothing illegal is played."""
    ps = prompt_set(lang)
    note = body.get("note", "")
    if not isinstance(note, str):
        return "note: text expected"
    answer: Answer
    if request.kind.speaks:
        text = body.get("text")
        if not isinstance(text, str):
            return "text: a speech expected"
        text = text.strip()
        if not text:
            return ps.say("human.empty")
        if len(text) > MAX_SPEECH_CHARS:
            return ps.say("human.too-long", length=len(text), max=MAX_SPEECH_CHARS)
        answer = Speech(text)
    else:
        code = body.get("code")
        item = next(
            (i for i in decision_menu(request, lang) if type(code) is int and i.code == code),
            None,
        )
        if item is None:
            return ps.say("web.not-an-option")
        answer = item.with_note(storable(note.strip()[:MAX_SPEECH_CHARS]))
    reason = problem(request, answer)
    return answer if reason is None else reason
