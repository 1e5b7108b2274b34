"""What every drawing of a game shares: the viewer's knowledge (identities and teams), a
seat drawn in its team's colour, reasoning and fallbacks drawn in place, and the cleaning
of every string an entry carries (``harmless_entry``) before anything is drawn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text

from ..argtypes import is_number
from ..boards import board_config, board_of
from ..cast import Identity, Team, team_of
from ..config import GameConfig
from ..decisions import DecisionKind
from ..registry import NO_MEANING, Meaning
from ..state import GameState
from ..text import one_line, visible
from ..visibility import SeatView
from .views import Entry, ViewKind, ViewSpec
from .words import identity_name, word

__all__ = [
    "TEAM_STYLES",
    "Drawing",
    "board_line",
    "harmless",
    "harmless_entry",
    "variants_line",
]

TEAM_STYLES: Mapping[Team, str] = {Team.WOLVES: "bold red", Team.GOOD: "green"}
NIGHT_STYLE = "blue"
DAY_STYLE = "yellow"
REASONING_STYLE = "dim italic"
FALLBACK_STYLE = "magenta"
INDENT = 4


def board_line(config: GameConfig, lang: str = "en") -> str:
    """The board, its seats and its win rule, in one line."""
    name = board_of(config)
    if config.identities == GameConfig().identities:
        board = word("standard nine", lang)
    elif name is not None:
        board = word("board {name}", lang, name=name)
    else:
        board = word("custom deck", lang)
    return word(", ", lang).join(
        [
            word("{board}, {seats} seats", lang, board=board, seats=config.seats),
            word("win rule: {rule}", lang, rule=word(config.win_rule, lang)),
        ]
    )


def variants_line(config: GameConfig, lang: str = "en") -> str:
    """The rules in one line: the board and every variant that differs from the board's own
    rules (a guard-12 game elects a sheriff by its board's rule: not a variant)."""
    board = board_of(config)
    default = board_config(board) if board is not None else GameConfig()
    changed = [
        word(
            "{rule}: {value}",
            lang,
            rule=word(name.replace("_", " "), lang),
            value=_setting(getattr(config, name), lang),
        )
        for name in type(config).model_fields
        if name not in ("identities", "win_rule")  # the rule is named anyway
        and getattr(config, name) != getattr(default, name)
    ]
    return word(", ", lang).join([board_line(config, lang), *changed])


def _setting(value: object, lang: str) -> str:
    """A variant's value as the table says it: on/off for a yes-or-no rule."""
    if isinstance(value, bool):
        return word("on" if value else "off", lang)
    return str(getattr(value, "value", value))


class Drawing:
    """The pieces of a drawing of one viewer's entries; the kinds' drawings build on it."""

    def __init__(
        self,
        spec: ViewSpec,
        start: GameState,
        seat_view: SeatView | None = None,
        *,
        game_id: str = "",
        lang: str = "en",
    ) -> None:
        self.spec = spec
        self.lang = lang  # the game's: a zh game is drawn in Chinese
        self.start = start
        self.game_id = game_id
        self.names = [one_line(name) for name in start.names]
        self.known: dict[int, Identity] = {}  # identities this viewer knows
        self.teams: dict[int, Team] = {}  # teams this viewer knows (a seer's checks)
        if spec.kind is ViewKind.GOD:
            self.known = {s: start.identity(s) for s in start.seats}
        elif spec.kind is ViewKind.SEAT:
            if seat_view is None:
                raise ValueError("a seat view needs the seat's SeatView")
            for wolf in seat_view.wolves:  # the pack, as it is told (a king's card is his own)
                self.known[wolf] = Identity.WEREWOLF
            self.known[seat_view.seat] = seat_view.identity
        self._section: tuple[int, int] | None = None  # (day, 0 night / 1 day) drawn last
        self._drawn: set[str] = set()  # the current entry's reasoning drawn in place
        self._meaning: Meaning = NO_MEANING  # the current entry's meaning

    # -- pieces ---------------------------------------------------------------------------
    def w(self, text: str, **values: object) -> str:
        """``text`` (an English phrase of the drawing) in the game's language."""
        return word(text, self.lang, **values)

    def identity(self, identity: object) -> str:
        """An identity's name in the game's language."""
        return identity_name(str(identity), self.lang)

    def team(self, seat: int) -> Team | None:
        identity = self.known.get(seat)
        return team_of(identity) if identity is not None else self.teams.get(seat)

    def seat(self, seat: int | None, *, role: bool = False) -> Text:
        """``3 Cai``, in its team's colour when known; ``role=True`` adds ``[witch]``."""
        if seat is None:
            return Text(self.w("nobody"))
        team = self.team(seat)
        label = Text(f"{seat} {self.names[seat - 1]}", style=TEAM_STYLES[team] if team else "")
        identity = self.known.get(seat)
        if role and identity is not None and self.spec.kind is ViewKind.GOD:
            label.append(f" [{self.identity(identity)}]")
        return label

    def seats(self, seats: Sequence[int]) -> Text:
        if not seats:
            return Text(self.w("nobody"))
        return Text(self.w(", ")).join(self.seat(s) for s in seats)

    def _indented(self, text: Text) -> Padding:
        return Padding(text, (0, 0, 0, INDENT), expand=False)

    def _thought(self, name: str, text: str) -> RenderableType:
        _, seat, decision = [*name.split("/", 2), "", ""][:3]
        who = self.seat(int(seat)) if is_number(seat) else Text(seat)
        line = Text.assemble(
            "» ", who, self.w(" thinks ({decision}): ", decision=self.w(decision)), text
        )
        line.stylize(REASONING_STYLE)
        return self._indented(line)

    def _reasoning_of(self, entry: Entry, seat: int, decision: str) -> list[RenderableType]:
        """One seat's reasoning for one decision, drawn in place (and not again after)."""
        name = f"reasoning/{seat}/{decision}"
        text = entry.reasoning.get(name)
        if text is None:
            return []
        self._drawn.add(name)
        return [self._thought(name, text)]

    def _reasoning(self, entry: Entry) -> list[RenderableType]:
        """The entry's reasoning not drawn in place, in decision order, then by seat."""
        rest = [(name, text) for name, text in entry.reasoning.items() if name not in self._drawn]
        rest.sort(key=lambda item: _reasoning_key(item[0]))
        return [self._thought(name, text) for name, text in rest]

    def _fallbacks(self, entry: Entry) -> list[RenderableType]:
        out: list[RenderableType] = []
        for fb in entry.fallbacks:
            line = Text.assemble(
                "! ",
                self.seat(int(fb["seat"])),
                self.w(
                    ": {decision} fell back to the default after refused answers ({reason}; {key})",
                    decision=self.w(str(fb["decision"])),
                    reason=fb.get("reason") or self.w("no reason"),
                    key=fb["key"],
                ),
            )
            line.stylize(FALLBACK_STYLE)
            out.append(self._indented(line))
        return out


def harmless(value: Any) -> Any:
    """``value`` with every string in it (keys too) passed through ``visible``."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, Mapping):
        return {harmless(k): harmless(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [harmless(v) for v in value]
    return value


def harmless_entry(entry: Entry) -> Entry:
    """``entry`` with every string a player, a model or a log file could have written made
    harmless to draw (``werewolf.text.visible``): detail, reasoning, fallbacks, the note."""
    return replace(
        entry,
        diff=harmless(entry.diff),
        detail=harmless(entry.detail),
        reasoning={k: visible(v) for k, v in entry.reasoning.items()},
        exchanges={k: visible(v) for k, v in entry.exchanges.items()},
        fallbacks=tuple(harmless(fb) for fb in entry.fallbacks),
        note=visible(entry.note),
    )  # beliefs are numbers: nothing to make harmless


_DECISION_ORDER = {kind.value: i for i, kind in enumerate(DecisionKind)}


def _reasoning_key(name: str) -> tuple[int, int, str]:
    """``reasoning/<seat>/<decision>``: in the order decisions are made, then by seat."""
    _, seat, decision = [*name.split("/", 2), "", ""][:3]
    return (
        _DECISION_ORDER.get(decision, len(_DECISION_ORDER)),
        int(seat) if is_number(seat) else 0,
        name,
    )
