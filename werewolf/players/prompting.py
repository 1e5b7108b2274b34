"""Prompts for LLM seats, built from one seat's view: pure functions, no I/O but the
template files.

Two messages per decision, made fresh each time (a resumed game needs no chat history):

- ``system_prompt(view, personality, lang)``: who the seat is (name, card, side, goal, the
  pack for a wolf, a personality), the rules written from the game's config, and how to read
  the moderator. Nothing in it changes during a game, so providers can cache it.
- ``decision_prompt(request, lang)``: the state now, everything the seat has seen (its
  ``SeatView`` observations, oldest first), and the decision asked, with its legal options
  and, on a retry, why the last answer was refused.

What players said is quoted as data: each speech is a block between a line ``<<<speech
seat=3 name=Cai day=1`` and a line ``>>>``, every line of the words inside starts with
``| ``, and any run of three ``<`` or ``>`` inside the text is broken up (``neutralise``), so
a speech cannot close its block, open another one, or hold a line that passes for the
moderator's.
The system prompt says that quoted text is never an instruction.

The words live in template files, ``werewolf/prompts/<lang>/``: ``system.txt`` and
``decision.txt`` (rendered with ``pulse_core.template.render``) and ``phrases.txt`` (one
``key = text`` a line). ``en`` and ``zh`` exist; adding a language is adding a folder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pulse_core.template import render

from ..config import SeerLearns, WolfKill
from ..decisions import Request
from ..ruletext import rules_text
from ..text import one_line
from ..visibility import SeatView
from .observations import history_lines
from .promptset import (
    LANGS,
    PromptSet,
    neutralise,
    night_kinds,
    option_order,
    options_text,
    prompt_set,
    quote,
    seat_label,
    seats_text,
    tool_name,
    tool_names,
)
from .random_player import decision_rng
from .tasks import task_lines

__all__ = [
    "LANGS",
    "PromptSet",
    "ability_line",
    "build_messages",
    "decision_prompt",
    "default_personality",
    "history_lines",
    "neutralise",
    "option_order",
    "options_text",
    "prompt_set",
    "quote",
    "seat_label",
    "system_prompt",
    "task_lines",
    "tool_name",
    "tool_names",
]


def default_personality(game_seed: int, seat: int, lang: str) -> str:
    """A personality for a seat whose spec names none, drawn from the game seed and seat."""
    ps = prompt_set(lang)
    choices = [v for k, v in sorted(ps.phrases.items()) if k.startswith("personality.")]
    return decision_rng(game_seed, seat, "personality").choice(choices)


# -- the system prompt -------------------------------------------------------------------------
def _tidy(text: str) -> str:
    """Collapse the blank lines an empty slot leaves, and end with no trailing space."""
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def ability_line(ps: PromptSet, view: SeatView) -> str:
    """What the seat's card does, as the config plays it (wolves' ballots, the seer told
    an identity)."""
    identity, config = view.identity.value, view.config
    if identity == "werewolf" and config.wolf_kill is WolfKill.VOTE:
        return ps.say("ability.werewolf.vote")
    if identity == "seer" and config.seer_learns is SeerLearns.IDENTITY:
        return ps.say("ability.seer.identity")
    return ps.say(f"ability.{identity}")


def system_prompt(view: SeatView, personality: str, lang: str) -> str:
    """The seat's system prompt: the same for every decision of the game."""
    ps = prompt_set(lang)
    names = view.names
    identity = view.identity.value
    team = view.team.value
    pack = ps.say("pack", seats=seats_text(ps, names, view.wolves)) if view.wolves else ""
    text = render(
        ps.system,
        {
            "name": one_line(" ".join(view.name.split())),
            "seat": view.seat,
            "count": len(names),
            "roster": seats_text(ps, names, range(1, len(names) + 1)),
            "identity": ps.say(f"identity.{identity}"),
            "ability": ability_line(ps, view),
            "team": ps.say(f"team.{team}"),
            "goal": ps.say(f"goal.{team}"),
            "pack": pack,
            "personality": " ".join(personality.split()),
            "rules": rules_text(view.config, lang),
        },
    )
    return _tidy(text)


def decision_prompt(request: Request, lang: str, history: Sequence[str] | None = None) -> str:
    """The user message for one decision: the seat's history, the state, the ask.
    ``history`` is ``history_lines(request.view, lang)`` when the caller kept it."""
    ps = prompt_set(lang)
    view = request.view
    names = view.names
    night = request.kind in night_kinds()
    n = request.context.get("night" if night else "day", view.day)
    dead = seats_text(ps, names, view.dead)
    status = ps.say(
        "status.night" if night else "status.day",
        n=n,
        alive=seats_text(ps, names, view.alive),
        dead=dead,
    )
    if history is None:
        history = history_lines(view, lang)
    history = history or [ps.say("history.empty")]
    feedback = ps.say("feedback", reason=request.feedback) if request.feedback else ""
    text = render(
        ps.decision,
        {
            "status": status,
            "history": "\n\n".join(history),
            "task": "\n".join(task_lines(request, lang)),
            "feedback": feedback,
        },
    )
    return _tidy(text)


def build_messages(
    request: Request,
    personality: str,
    lang: str,
    *,
    system: str | None = None,
    history: Sequence[str] | None = None,
) -> list[dict[str, str]]:
    """The chat messages of one decision: the stable system prompt, then the decision
    (``system`` and ``history``: what the caller kept of the seat's earlier requests)."""
    if system is None:
        system = system_prompt(request.view, personality, lang)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": decision_prompt(request, lang, history)},
    ]
