"""Drawing a game with rich: the cast, each night and day, votes and the result.

``StoryRenderer`` turns ``Entry`` objects (``views.ViewStream``) into rich renderables, in
order, adding a heading when a night or a day begins. It knows what its viewer knows: the
god every identity, a seat its own card (and a wolf its pack; a seer what she checked), a
spectator nothing until the end reveals the cards. Seats are coloured by team when the
viewer knows it. Every text from a player goes into ``rich.text.Text`` (never markup), so a
speech cannot change the drawing, and exports escape it; before that, every string of an
entry and every name passes through ``werewolf.text`` (controls, escape sequences and bidi
overrides shown as visible escapes), so no text can drive the terminal or reorder a line.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..cast import Identity, Team
from ..events import cause_label, is_night, kind_label, meaning_of
from ..registry import Meaning
from ..text import one_line
from .draw_day import DayDrawing
from .draw_night import NightDrawing
from .draw_sheriff import SheriffDrawing
from .drawbase import (
    DAY_STYLE,
    NIGHT_STYLE,
    TEAM_STYLES,
    Drawing,
    harmless,
    harmless_entry,
    variants_line,
)
from .fates import SEEN_DIED, god_fates, seen_deaths, seen_fates
from .views import Entry, ViewKind

__all__ = [
    "SEEN_DIED",
    "TEAM_STYLES",
    "Drawing",
    "StoryRenderer",
    "god_fates",
    "harmless",
    "harmless_entry",
    "seen_deaths",
    "seen_fates",
    "variants_line",
]


class StoryRenderer(NightDrawing, DayDrawing, SheriffDrawing):
    """Renders one viewer's entries of one game, in order."""

    def header(self, *, ended: bool) -> RenderableType:
        """The game, its rules and the view; the seed only to the god or once the game has
        ended: the seed gives the deal, so a seat or the public would know every card."""
        game = self.w("game {id}", id=self.game_id) if self.game_id else self.w("a game")
        shows_seed = ended or self.spec.kind is ViewKind.GOD
        seed = self.w(" (seed {seed})", seed=self.start.seed) if shows_seed else ""
        view = self.spec.label
        if self.spec.seat is not None:
            view = self.w("seat {n}'s view", n=self.spec.seat)
        lines = [
            Text(self.w("Werewolf, {game}{seed}", game=game, seed=seed), style="bold"),
            Text(variants_line(self.start.config, self.lang)),
            Text(
                self.w("Shown: {view}{whoami}", view=self.w(view), whoami=self._whoami()),
                style="dim",
            ),
        ]
        return Panel(Group(*lines), box=box.ROUNDED, expand=False)

    def _whoami(self) -> str:
        seat = self.spec.seat
        if seat is None:
            return ""
        name, identity = self.names[seat - 1], self.identity(self.known[seat])
        return self.w(" ({name}, the {identity})", name=name, identity=identity)

    def cast(self, fates: Mapping[int, str], *, title: str = "Cast") -> Table:
        """Seat, name, role, team and fate, as far as the viewer knows them."""
        table = Table(
            title=self.w(title), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False
        )
        for column in ("Seat", "Name", "Role", "Team", "Fate"):
            table.add_column(self.w(column), overflow="fold")
        for s in self.start.seats:
            team = self.team(s)
            style = TEAM_STYLES[team] if team else ""
            identity = self.known.get(s)
            table.add_row(
                Text(str(s)),
                Text(self.names[s - 1], style=style),
                Text(self.identity(identity) if identity else "?"),
                Text(self.w(str(team)) if team else "?", style=style),
                Text(fates.get(s, self.w("alive"))),
            )
        return table

    def _heading(self, entry: Entry) -> list[RenderableType]:
        if entry.phase.startswith("__") or entry.phase == "seat-swap":
            return []
        night = is_night(entry.phase)
        section = (entry.day, 0 if night else 1)  # night N comes before day N
        if self._section is not None and section <= self._section:
            return []
        self._section = section
        title = self.w("Night {n}" if night else "Day {n}", n=entry.day)
        style = NIGHT_STYLE if night else DAY_STYLE
        return [Text(""), Rule(Text(title, style=f"bold {style}"))]

    def entry(self, entry: Entry) -> list[RenderableType]:
        """The renderables of one entry, with a heading when a night or day begins."""
        entry = harmless_entry(entry)
        meaning = meaning_of(entry.phase, dict(entry.diff), dict(entry.detail))
        self._learn(meaning)  # what the entry shows, before it is drawn in those colours
        draw = getattr(self, "_" + entry.phase.strip("_").replace("-", "_"), None)
        self._drawn = set()
        self._meaning = meaning
        body: list[RenderableType] = draw(entry) if draw is not None else self._unknown(entry)
        return [*self._heading(entry), *body, *self._fallbacks(entry), *self._reasoning(entry)]

    def _learn(self, meaning: Meaning) -> None:
        """The cards and sides an entry shows its viewer (a shot, an idiot's reveal, what
        death reveals, a check, the end): known from here on."""
        for seat, what in meaning.revealed:
            if what in _TEAMS:
                self.teams.setdefault(seat, Team(what))
            elif what in _IDENTITIES:  # the true card: it outranks "werewolf", all a pack knows
                self.known[seat] = Identity(what)

    def _unknown(self, entry: Entry) -> list[RenderableType]:
        """A kind without a drawing of its own (an identity's own event, the knight's
        duel): its label, then the cards it shows and the deaths it tells, in one line."""
        phase = one_line(entry.phase)
        if kind_label(entry.phase) == entry.phase:  # not registered
            drawn = self.w("({phase}: an event this version does not draw)", phase=phase)
            return [Text(drawn, style="dim")]
        label = kind_label(entry.phase, self.lang)
        parts = [
            Text.assemble(
                self.seat(seat),
                self.w(" shows the {what} card", what=one_line(self.identity(what))),
            )
            for seat, what in self._meaning.revealed
        ]
        parts += [
            Text.assemble(
                self.seat(seat),
                f": {one_line(cause_label(cause, self.lang).format(n=entry.day))}",
            )
            for seat, cause in self._meaning.deaths
        ]
        line = Text(f"{one_line(label)[:1].upper()}{one_line(label)[1:]}", style="bold")
        if not parts:
            return [line + Text(self.w(": no effect."))]
        for number, part in enumerate(parts):
            line.append_text(Text(": " if number == 0 else "; ") + part)
        return [line + Text(".")]


_TEAMS = frozenset(team.value for team in Team)
_IDENTITIES = frozenset(identity.value for identity in Identity)
