"""The interactive HTML replay: a game as one viewer saw it, as data and as a page.

``page_data`` turns the entries of one view (``views.ViewStream``, the same entries the
terminal draws) into plain JSON data: the cast as the viewer knows it at the start, every
entry grouped into nights and days, and in the god view each decision's reasoning, model
exchanges, fallback and cost. A seat or public page is made from that seat's or the
public's entries only, so what the view may not know is absent from the file, not hidden by
script. Every string from a game passes through ``werewolf.text.visible`` (``render.harmless``;
``one_line`` for names) before it is stored.

The god view's prompts are stored once (``prompts.PromptStore``): a message of an exchange
holds ``prompt``, its node, and the page data the nodes (``prompts``); ``viewer_page``
embeds them compressed, ``werewolf serve`` answers them one by one.

``viewer_page`` puts the data into ``viewer/page.html`` with its stylesheet and script
inlined (package data files, no network, opens from ``file://``); the script builds the
page with ``textContent`` only, never from HTML strings, and the JSON is embedded with
``<``, ``>`` and ``&`` escaped, so no text can end the script element.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from ..cast import team_of
from ..events import is_night, meaning_of
from ..state import Cause, GameState
from ..text import one_line
from .labels import page_labels
from .load import GameLog
from .page_notes import NightSaves, player_label, reason_words, rules_words
from .prompts import PromptStore, pack_nodes
from .render import SEEN_DIED, harmless, seen_deaths
from .views import Entry, ViewKind, ViewSpec, ViewStream

__all__ = ["PAGE_DATA_VERSION", "entry_data", "page_data", "viewer_page"]

PAGE_DATA_VERSION = 2  # 2: an exchange's messages hold their place in ``prompts``
_MARK = re.compile(r"\{\{(title|style|data|script)\}\}")


def _parts(name: str) -> tuple[int, str]:
    """``reasoning/<seat>/<decision>`` -> (seat, decision)."""
    _, seat, decision = [*name.split("/", 2), "", ""][:3]
    return (int(seat) if seat.isdigit() else 0), decision


def _exchanges(text: str) -> list[Any]:
    """The attempts of one decision (JSON Lines); a line that is not JSON stays text."""
    attempts: list[Any] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            attempts.append(json.loads(line))
        except json.JSONDecodeError:
            attempts.append(line)
    return attempts


def _decisions(entry: Entry) -> list[dict[str, Any]]:
    """The god view's decisions behind an entry, one per (seat, decision), in seat order."""
    found: dict[tuple[int, str], dict[str, Any]] = {}

    def slot(seat: int, decision: str) -> dict[str, Any]:
        return found.setdefault((seat, decision), {"seat": seat, "decision": decision})

    for name, text in entry.reasoning.items():
        slot(*_parts(name))["reasoning"] = text
    for name, text in entry.exchanges.items():
        slot(*_parts(name))["exchanges"] = _exchanges(text)
    for record in entry.usage:
        d = slot(int(record["seat"]), str(record["decision"]))
        usage = d.setdefault(
            "usage", {"prompt_tokens": 0, "completion_tokens": 0, "latency_ms": 0.0, "calls": 0}
        )
        for key in usage:
            usage[key] += record.get(key, 0)
    for record in entry.fallbacks:
        d = slot(int(record["seat"]), str(record["decision"]))
        d["fallback"] = {"reason": record.get("reason"), "key": record.get("key")}
    return [found[k] for k in sorted(found)]


class _Sections:
    """Night N before day N, never going back (as the terminal's headings)."""

    def __init__(self) -> None:
        self.current: tuple[int, int] = (1, 0)

    def of(self, entry: Entry) -> str:
        if not (entry.phase.startswith("__") or entry.phase == "seat-swap"):
            section = (entry.day, 0 if is_night(entry.phase) else 1)
            self.current = max(self.current, section)
        day, half = self.current
        return f"{'nd'[half]}{day}"


def entry_data(entry: Entry, section: str, *, god: bool) -> dict[str, Any]:
    """One entry as page data (strings not yet cleaned)."""
    data: dict[str, Any] = {
        "v": entry.version,
        "phase": entry.phase,
        "day": entry.day,
        "section": section,
        "diff": dict(entry.diff),
        "detail": dict(entry.detail),
    }
    # what the entry tells its viewer, as the event's kind says (the page re-derives none)
    deaths, revealed = meaning_of(entry.phase, data["diff"], data["detail"])
    if deaths or revealed:
        data["meaning"] = {
            "deaths": [list(d) for d in deaths],
            "revealed": [list(r) for r in revealed],
        }
    if entry.phase == "game-end" and "reason" in entry.detail:
        data["reason"] = reason_words(str(entry.detail["reason"]))  # the page's language
    if god and entry.beliefs:  # believer -> [[target, P(wolf)], ...], as pairs
        data["beliefs"] = [
            [believer, [[t, p] for t, p in sorted(told.items())]]
            for believer, told in sorted(entry.beliefs.items())
        ]
    if god:
        data["audience"] = None if entry.audience is None else list(entry.audience)
        data["decisions"] = _decisions(entry)
        if entry.note:
            data["note"] = entry.note
    return data


def _cast(spec: ViewSpec, start: GameState, stream: ViewStream) -> list[dict[str, Any]]:
    """Each seat with the identity the viewer knows at the start (else null)."""
    known: dict[int, str] = {}
    if spec.kind is ViewKind.GOD:
        known = {s: str(start.identity(s)) for s in start.seats}
    elif spec.kind is ViewKind.SEAT and stream.seat_view is not None:
        view = stream.seat_view
        known.update({wolf: "werewolf" for wolf in view.wolves})  # the pack, as it is told
        known[view.seat] = str(view.identity)  # a wolf king knows his own card
    cast = []
    for s in start.seats:
        identity = known.get(s)
        team = str(team_of(start.identity(s))) if identity is not None else None
        cast.append({"seat": s, "name": one_line(start.names[s - 1]), "identity": identity})
        cast[-1]["team"] = team
    return cast


class PageBuilder:
    """Page data for one view, fed events in order (a replay at once, a live game by parts)."""

    def __init__(self, spec: ViewSpec, stream: ViewStream, game_id: str) -> None:
        self.spec = spec
        self.stream = stream
        self.game_id = game_id
        self.sections = _Sections()
        self.entries: list[Entry] = []
        self.saves = NightSaves()
        self.prompts = PromptStore()  # the god view's prompts, each text once

    def feed(self, events: Iterable[Any]) -> list[dict[str, Any]]:
        """Feed events; returns the new entries as cleaned page data."""
        out = []
        god = self.spec.kind is ViewKind.GOD
        for event in events:
            for entry in self.stream.feed(event):
                self.entries.append(entry)
                data = entry_data(entry, self.sections.of(entry), god=god)
                saved = self.saves.feed(entry) if god else None
                if saved is not None:
                    data["saved"] = saved
                data = harmless(data)
                if god:
                    self.prompts.take(data["decisions"])
                out.append(data)
        return out

    @property
    def last(self) -> int:
        """The view's number of its last entry so far (0: none): where a live stream of the
        same view resumes, counting only what the view saw."""
        return self.entries[-1].version if self.entries else 0

    def head(self) -> dict[str, Any]:
        """Everything but the entries: game, view and cast (after the start event)."""
        start = self.stream.start_state
        if start is None:
            raise ValueError("no start event fed")
        game = self.stream.chain[0].meta.get("game", {})
        return {
            "format": PAGE_DATA_VERSION,
            "game": harmless(
                {
                    "id": self.game_id,
                    # the seed gives the deal: a seat or the public learns it at the end
                    "seed": _exact_in_js(start.seed) if self._shows_seed() else None,
                    "rules": rules_words(start.config),
                    "lang": str(game.get("lang", "en")),
                    "players": _players(game),
                    "arena": _arena_run(game),
                }
            ),
            "view": {"kind": str(self.spec.kind), "seat": self.spec.seat},
            "cast": _cast(self.spec, start, self.stream),
            "labels": page_labels(),
        }

    def _shows_seed(self) -> bool:
        chain = self.stream.chain
        return self.spec.kind is ViewKind.GOD or (bool(chain) and chain[-1].role == "game-end")

    def fates(self, state: GameState | None) -> dict[str, dict[str, Any]]:
        """Each dead seat's death, ``{"how", "day"}`` (the page words it in its language):
        with its cause for the god (from ``state``), as the table learned it else."""
        if self.spec.kind is ViewKind.GOD and state is not None:
            deaths = {d.seat: (str(d.cause), d.day) for d in state.deaths}
        else:
            deaths = seen_deaths(self.entries)
            deaths.update(_night_causes(self.entries, deaths))
        return {str(s): {"how": how, "day": day} for s, (how, day) in sorted(deaths.items())}


def _night_causes(
    entries: Iterable[Entry], deaths: Mapping[int, tuple[str, int]]
) -> dict[int, tuple[str, int]]:
    """The causes a seat knows of night deaths from its own night: the witch whom she
    poisoned, the wolves (and a witch told the victim she left) whom the wolves killed."""
    poisoned: dict[int, int] = {}
    knifed: dict[int, int] = {}
    for e in entries:
        if e.phase == "witch-action":
            if e.diff.get("poison") is not None:
                poisoned[int(e.diff["poison"])] = e.day
            if not e.diff.get("save") and e.detail.get("told_target") is not None:
                knifed[int(e.detail["told_target"])] = e.day
        elif e.phase == "wolf-night" and e.diff.get("target") is not None:
            knifed[int(e.diff["target"])] = e.day
    known: dict[int, tuple[str, int]] = {}
    for seat, (how, day) in deaths.items():
        if how != SEEN_DIED:
            continue
        if poisoned.get(seat) == day:
            known[seat] = (str(Cause.POISON), day)
        elif knifed.get(seat) == day:
            known[seat] = (str(Cause.WOLF), day)
    return known


def _players(game: Mapping[str, Any]) -> list[str]:
    """Who plays each seat; in an arena game the roster's name first (``alice (llm:x)``)."""
    labels = [player_label(p) for p in game.get("players", [])]
    arena = game.get("arena")
    names = arena.get("assignment") if isinstance(arena, Mapping) else None
    if not isinstance(names, list) or len(names) != len(labels):
        return labels
    return [
        label if one_line(str(n)) == label else f"{one_line(str(n))} ({label})"
        for n, label in zip(names, labels, strict=True)
    ]


def _arena_run(game: Mapping[str, Any]) -> str | None:
    """The arena run a game was played in (its report's name), if any."""
    arena = game.get("arena")
    run = arena.get("run") if isinstance(arena, Mapping) else None
    return one_line(str(run)) if run else None


def page_data(log: GameLog, spec: ViewSpec | None = None) -> dict[str, Any]:
    """The whole game as ``spec`` saw it (default: the god view), as page data."""
    spec = spec or ViewSpec()
    god = spec.kind is ViewKind.GOD
    builder = PageBuilder(spec, ViewStream(spec, log.attachment if god else None), log.game_id)
    entries = builder.feed(log.chain)
    state = log.state
    data = {
        **builder.head(),
        "entries": entries,
        "fates": builder.fates(state),
        "ended": state.ended,
    }
    if builder.prompts.nodes:
        data["prompts"] = builder.prompts.nodes
    return data


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("viewer", name).read_text(encoding="utf-8")


def embed_json(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` in it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escape)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_SCRIPT_PARTS = ("labels.js", "core.js", "prompts.js", "entries.js", "election.js", "viewer.js")


def _script() -> str:
    """The viewer's script: its parts, in order, in one function whose scope they share."""
    parts = "\n".join(_asset(name) for name in _SCRIPT_PARTS)
    return f'"use strict";\n(function () {{\n{parts}}})();\n'


def viewer_page(data: Mapping[str, Any], *, title: str) -> str:
    """The standalone page: the viewer's HTML with its CSS, the data and its script inline
    (the prompts' nodes, when the data holds them, compressed)."""
    if isinstance(data.get("prompts"), list):
        data = {**data, "prompts": {"packed": pack_nodes(data["prompts"])}}
    parts = {
        "title": html.escape(one_line(title)),
        "style": _asset("viewer.css"),
        "data": embed_json(data),
        "script": _script(),
    }
    # one pass over the template: an inserted text is never scanned for marks again
    return _MARK.sub(lambda m: parts[m.group(1)], _asset("page.html"))


def _exact_in_js(seed: int) -> int | str:
    """A seed as the page's data carries it: past 2**53 as text, since JavaScript reads a
    JSON number as a double and would show a neighbouring seed, which deals another game."""
    return seed if abs(seed) <= 2**53 else str(seed)
