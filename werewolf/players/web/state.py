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

from ...cast import Identity
from ...config import WolfKill
from ...decisions import (
    MAX_SPEECH_CHARS,
    Answer,
    Choice,
    DecisionKind,
    Request,
    Speech,
    problem,
    storable,
)
from ...text import one_line, visible
from ...visibility import Observation, SeatView
from ..menus import decision_menu
from ..observations import observation_text, vote_outcome
from ..prompting import ability_line, task_lines
from ..promptset import (
    PromptSet,
    night_kinds,
    option_order,
    prompt_set,
    seat_label,
    seats_text,
)

__all__ = [
    "UI_KEYS",
    "ask_part",
    "history_items",
    "parse_answer",
    "result_text",
    "ui_words",
    "view_part",
]

UI_KEYS = (
    "learned",
    "first",
    "waiting",
    "words",
    "note",
    "send",
    "sent",
    "lost",
    "alive",
    "dead",
    "empty",
)
"""The page's fixed words (``web.<key>`` in the phrase files), sent with every state."""


def ui_words(lang: str, seat: int) -> dict[str, str]:
    """The page's fixed words in ``lang``, its title naming ``seat``."""
    ps = prompt_set(lang)
    return {"title": ps.say("web.title", seat=seat)} | {k: ps.say(f"web.{k}") for k in UI_KEYS}


def view_part(request: Request, lang: str) -> dict[str, Any]:
    """The seat's own view as the page shows it: who it is, its card, the state of the
    game (the day or night, and every seat, alive or publicly dead) and everything it has
    learned, oldest first."""
    ps = prompt_set(lang)
    view = request.view
    names = view.names
    night = request.kind in night_kinds()
    n = request.context.get("night" if night else "day", view.day)
    who = seat_label(ps, names, view.seat)
    identity = ps.say(f"identity.{view.identity.value}")
    return {
        "you": ps.say("web.you", who=who, identity=identity),
        "ability": ability_line(ps, view),
        "pack": ps.say("pack", seats=seats_text(ps, names, view.wolves)) if view.wolves else "",
        "now": ps.say("web.now.night" if night else "web.now.day", n=n),
        "seats": [
            {"seat": s, "name": _name(names, s), "dead": s in view.dead}
            for s in range(1, len(names) + 1)
        ],
        "history": history_items(view, lang),
        "night": night,
    }


# the events of the night (the rest are told by day): their heading says "Night n"
_NIGHT_PHASES = frozenset(
    {"wolf-night", "witch-action", "seer-check", "guard-protect", "doctor-protect", "doctor-told",
     "cupid-link", "lovers-told"}
)  # fmt: skip
_SPOKEN = frozenset({"day-speech", "last-words"})


def history_items(view: SeatView, lang: str) -> list[dict[str, Any]]:
    """What the seat has learned, oldest first, as the page draws it: for each observation
    a heading (when, what, and who spoke), the words said as ``quotes`` (who, text; the
    wolves' talk holds several) and the moderator's facts as ``lines``. Built from the
    observations themselves, as ``history_lines`` is, never from its quoted text."""
    ps = prompt_set(lang)
    items: list[dict[str, Any]] = []
    for obs in view.observations:
        if obs.phase in _SPOKEN:
            items.append(_spoken(ps, view.names, obs))
        elif obs.phase == "wolf-night":
            items.append(_wolf_night(ps, view, obs))
        elif obs.phase == "vote":
            items.append(_vote(ps, view, obs, lang))
        else:
            told = observation_text(view, obs, lang)
            if told is not None:
                items.append(_item(ps, obs, obs.phase, lines=[told]))
    return items


def _item(
    ps: PromptSet,
    obs: Observation,
    what: str,
    *,
    who: str = "",
    quotes: list[dict[str, str]] | None = None,
    lines: list[str] | None = None,
) -> dict[str, Any]:
    when = ps.say("web.night" if obs.phase in _NIGHT_PHASES else "web.day", n=obs.day)
    key = f"web.what.{what}"
    what_text = ps.say(key) if ps.has(key) else ps.say("web.what.news")
    head = ps.say("web.head.who" if who else "web.head", when=when, what=what_text, who=who)
    return {"kind": what, "head": head, "quotes": quotes or [], "lines": lines or []}


def _spoken(ps: PromptSet, names: tuple[str, ...], obs: Observation) -> dict[str, Any]:
    """A speech or last words: the speaker in the heading, the words as one quote."""
    speaker = int(obs.diff["speaker"])
    what = "pk-speech" if obs.phase == "day-speech" and obs.detail.get("pk") else obs.phase
    words = visible(str(obs.detail.get("text", "")))
    quotes = [{"who": "", "text": words}]
    return _item(ps, obs, what, who=seat_label(ps, names, speaker), quotes=quotes)


def _wolf_night(ps: PromptSet, view: SeatView, obs: Observation) -> dict[str, Any]:
    """The wolves' night (only a wolf observes it): each wolf's words, then their kill
    proposals or ballots, the victim chosen and any draw."""
    names, detail = view.names, obs.detail
    quotes = [
        {"who": seat_label(ps, names, int(line["seat"])), "text": visible(str(line["text"]))}
        for line in detail.get("discussion", [])
    ]
    key = (
        "obs.wolf-night.ballots"
        if view.config.wolf_kill is WolfKill.VOTE
        else ("obs.wolf-night.proposals")
    )
    lines = []
    for number, proposals in enumerate(detail.get("proposals", []), start=1):
        pairs = ps.say("list.sep").join(
            ps.say(
                "obs.ballot",
                voter=seat_label(ps, names, v),
                target=ps.say("obs.abstain") if t is None else seat_label(ps, names, t),
            )
            for v, t in proposals
        )
        lines.append(ps.say(key, round=number, pairs=pairs))
    lines.append(
        ps.say("obs.wolf-night.target", target=seat_label(ps, names, obs.diff.get("target")))
    )
    drawn = detail.get("draw")
    if isinstance(drawn, Mapping):
        lines.append(ps.say("obs.drawn", seats=seats_text(ps, names, drawn.get("among", []))))
    return _item(ps, obs, "wolf-night", quotes=quotes, lines=lines)


def _vote(ps: PromptSet, view: SeatView, obs: Observation, lang: str) -> dict[str, Any]:
    """A vote: what it decided first, then one line per seat voted for (the most votes
    first, abstentions last) naming its voters by number."""
    names = view.names
    voters: dict[int | None, list[int]] = {}
    for voter, target in obs.detail.get("ballots", []):
        voters.setdefault(target, []).append(int(voter))
    lines = [vote_outcome(view, obs, lang)]
    for target, seats in sorted(voters.items(), key=lambda tv: (tv[0] is None, -len(tv[1]))):
        whom = ps.say("obs.abstain") if target is None else seat_label(ps, names, target)
        numbers = ps.say("list.sep").join(str(s) for s in seats)
        lines.append(ps.say("web.votes", target=whom, voters=numbers, n=len(seats)))
    what = "pk-vote" if obs.detail.get("round") == 2 else "vote"
    return _item(ps, obs, what, lines=lines)


def _name(names: tuple[str, ...], seat: int) -> str:
    return one_line(" ".join(names[seat - 1].split()))


def ask_part(request: Request, lang: str, rid: str) -> dict[str, Any]:
    """The decision as the page's form: the task, the wolves' words so far (as quotes),
    why the last answer was refused, and either a text box (a speech, with its budget) or exactly the legal options."""
    ps = prompt_set(lang)
    form: dict[str, Any]
    if request.kind.speaks:
        budget = [ps.say("web.budget", max=MAX_SPEECH_CHARS)]
        speeches = request.view.config.speech_budget
        if request.kind is DecisionKind.SPEECH and speeches is not None:
            budget.append(ps.say("web.speeches", n=speeches))
        form = {"speech": True, "max": MAX_SPEECH_CHARS, "budget": " ".join(budget)}
        if request.offers_self_destruct:  # a wolf's speech: the other answer
            form["destruct"] = _destruct_form(ps, request)
    else:
        menu = decision_menu(request, lang)
        form = {"speech": False, "options": [{"code": i.code, "label": i.label} for i in menu]}
    refused = ps.say("human.refused", reason=request.feedback) if request.feedback else ""
    names = request.view.names
    said = request.context.get("discussion") or []
    if request.kind not in (DecisionKind.WOLF_TALK, DecisionKind.WOLF_KILL):
        said = []
    return {
        "rid": rid,
        "kind": request.kind.value,
        "task": task_lines(request, lang, for_model=False, discussion=False),
        "said": ps.say("task.discussion") if said else "",
        "quotes": [
            {"who": seat_label(ps, names, int(d["seat"])), "text": visible(str(d["text"]))}
            for d in said
        ],
        "refused": refused,
        "form": form,
    }


def _destruct_form(ps: PromptSet, request: Request) -> dict[str, Any]:
    """The self-destruct a wolf's speech offers, apart from the words: what it does, the
    seats the white wolf king may take (code 0: nobody; a plain wolf has only that) and
    the question that confirms it, since it cannot be undone."""
    names = request.view.names
    options = option_order(request.options)
    takes = len(options) > 1
    hint = [ps.say("web.destruct.take.hint" if takes else "web.destruct.hint")]
    if request.kind is DecisionKind.SHERIFF_SPEECH:  # the election is postponed, not the vote
        hint.append(ps.say("web.destruct.election"))
    if request.view.identity is Identity.WOLF_KING:  # his death allows his shot
        hint.append(ps.say("web.destruct.king"))
    return {
        "label": ps.say("web.destruct"),
        "hint": " ".join(hint),
        "take": ps.say("web.destruct.take") if takes else "",
        "options": [
            {"code": 0 if o is None else o, "label": seat_label(ps, names, o)} for o in options
        ],
        "confirm": ps.say("web.destruct.confirm"),
        "yes": ps.say("web.destruct.yes"),
        "no": ps.say("web.destruct.no"),
    }


def result_text(winner: str, lang: str) -> str:
    """The page's last line: the game has ended, and who won (public to every seat)."""
    ps = prompt_set(lang)
    key = f"web.result.{winner}"
    result = ps.say(key) if ps.has(key) else winner
    return ps.say("web.ended", result=result)


def parse_answer(request: Request, lang: str, body: Mapping[str, Any]) -> Answer | str:
    """The answer a posted form stands for, or why it cannot be played (in ``lang``): a
    speech's text, a wolf's self-destruct (``destruct``: the seat taken, 0 for nobody,
    one of the speech's options), or the code of one menu option with an optional private note; then the
    rules' own check, so that nothing illegal is played."""
    ps = prompt_set(lang)
    note = body.get("note", "")
    if not isinstance(note, str):
        return "note: text expected"
    answer: Answer
    if request.kind.speaks and "destruct" in body:
        code = body["destruct"]
        options = {0 if o is None else o: o for o in request.options}
        if type(code) is not int or code not in options:
            return ps.say("web.not-an-option")
        answer = Choice(options[code])
    elif request.kind.speaks:
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
