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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..argtypes import is_number
from ..boards import board_of
from ..cast import Identity, Team, team_of
from ..config import GameConfig
from ..decisions import DecisionKind
from ..registry import EventSpec, event_spec, event_specs
from ..state import Cause, GameState
from ..text import one_line, visible
from ..visibility import SeatView
from .views import Entry, ViewKind, ViewSpec

__all__ = [
    "TEAM_STYLES",
    "StoryRenderer",
    "god_fates",
    "harmless",
    "harmless_entry",
    "seen_deaths",
    "seen_fates",
    "variants_line",
]

TEAM_STYLES: Mapping[Team, str] = {Team.WOLVES: "bold red", Team.GOOD: "green"}
NIGHT_STYLE = "blue"
DAY_STYLE = "yellow"
REASONING_STYLE = "dim italic"
FALLBACK_STYLE = "magenta"
INDENT = 4

_WINNER_TEXT = {
    "wolves": "The wolves win",
    "good": "The good side wins",
    "draw": "A draw",
    "lovers": "Cupid and the lovers win",
}
_NIGHT_PHASES = frozenset(
    {
        "cupid-link",
        "lovers-told",
        "guard-protect",
        "doctor-protect",
        "wolf-night",
        "witch-action",
        "seer-check",
    }
)
_CAUSES = {
    Cause.WOLF: "killed by wolves, night {n}",
    Cause.POISON: "poisoned, night {n}",
    Cause.EXILE: "exiled, day {n}",
    Cause.SHOT: "shot by the hunter, day {n}",
    Cause.LOVE: "died of heartbreak, day {n}",
}


# -- hook: the causes an identity's own event writes (registry.EventSpec.causes, the duel) --
def _cause_text(cause: Cause) -> str:
    known = _CAUSES.get(cause)
    if known is not None:
        return known
    named = next((s.causes[cause] for s in event_specs() if cause in s.causes), None)
    return (named.en if named is not None else cause) + ", day {n}"


def god_fates(state: GameState) -> dict[int, str]:
    """Each dead seat's fate with its cause, from the god's-eye state."""
    return {d.seat: _cause_text(d.cause).format(n=d.day) for d in state.deaths}


SEEN_DIED = "died"
"""How a seat died as the table learned it, when only the dawn told: no cause."""


def seen_deaths(entries: Iterable[Entry]) -> dict[int, tuple[str, int]]:
    """Each dead seat's death as the public learned it: ``(how, day)``, ``how`` being
    ``died`` (at night: no cause), ``exile``, ``shot`` or ``heartbreak`` (a lover who died
    with the exiled or shot partner). An idiot who showed his card lives: no death."""
    deaths: dict[int, tuple[str, int]] = {}
    for e in entries:
        if e.phase == "dawn":
            for seat in e.diff.get("died", []):
                deaths[seat] = (SEEN_DIED, e.day)
        elif e.phase == "vote" and e.diff.get("revealed") is not None:
            continue
        elif e.phase == "vote" and e.diff.get("exiled") is not None:
            deaths[e.diff["exiled"]] = (Cause.EXILE.value, e.day)
        elif e.phase == "hunter-shot" and e.diff.get("target") is not None:
            deaths[e.diff["target"]] = (Cause.SHOT.value, e.day)
        for seat in e.diff.get("heartbroken", []):
            deaths[seat] = (Cause.LOVE.value, e.day)
    return deaths


def seen_fates(entries: Iterable[Entry]) -> dict[int, str]:
    """Each dead seat's fate as the public learned it: when, and if exiled or shot."""
    texts = {SEEN_DIED: "died, night {n}", **{str(c): t for c, t in _CAUSES.items()}}
    return {seat: texts[how].format(n=day) for seat, (how, day) in seen_deaths(entries).items()}


def variants_line(config: GameConfig) -> str:
    """The rules in one line: the board and every variant that differs from the default."""
    default = GameConfig()
    name = board_of(config)
    if config.identities == default.identities:
        board = "standard nine"
    else:
        board = f"board {name}" if name is not None else "custom deck"
    changed = [
        f"{name.replace('_', ' ')}: {getattr(config, name)}"
        for name in type(config).model_fields
        if name not in ("identities", "win_rule")  # the rule is named anyway
        and getattr(config, name) != getattr(default, name)
    ]
    return ", ".join([f"{board}, {config.seats} seats", f"win rule: {config.win_rule}", *changed])


class StoryRenderer:
    """Renders one viewer's entries of one game, in order."""

    def __init__(
        self,
        spec: ViewSpec,
        start: GameState,
        seat_view: SeatView | None = None,
        *,
        game_id: str = "",
    ) -> None:
        self.spec = spec
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
            self.known[seat_view.seat] = seat_view.identity
            for wolf in seat_view.wolves:
                self.known[wolf] = Identity.WEREWOLF
        self._section: tuple[int, int] | None = None  # (day, 0 night / 1 day) drawn last

    # -- pieces ---------------------------------------------------------------------------
    def team(self, seat: int) -> Team | None:
        identity = self.known.get(seat)
        return team_of(identity) if identity is not None else self.teams.get(seat)

    def seat(self, seat: int | None, *, role: bool = False) -> Text:
        """``3 Cai``, in its team's colour when known; ``role=True`` adds ``[witch]``."""
        if seat is None:
            return Text("nobody")
        team = self.team(seat)
        label = Text(f"{seat} {self.names[seat - 1]}", style=TEAM_STYLES[team] if team else "")
        identity = self.known.get(seat)
        if role and identity is not None and self.spec.kind is ViewKind.GOD:
            label.append(f" [{identity}]")
        return label

    def seats(self, seats: Sequence[int]) -> Text:
        return Text(", ").join(self.seat(s) for s in seats) if seats else Text("nobody")

    def header(self, *, ended: bool) -> RenderableType:
        """The game, its rules and the view; the seed only to the god or once the game has
        ended: the seed gives the deal, so a seat or the public would know every card."""
        game = f"game {self.game_id}" if self.game_id else "a game"
        seed = f" (seed {self.start.seed})" if ended or self.spec.kind is ViewKind.GOD else ""
        lines = [
            Text(f"Werewolf, {game}{seed}", style="bold"),
            Text(variants_line(self.start.config)),
            Text(f"Shown: {self.spec.label}{self._whoami()}", style="dim"),
        ]
        return Panel(Group(*lines), box=box.ROUNDED, expand=False)

    def _whoami(self) -> str:
        seat = self.spec.seat
        if seat is None:
            return ""
        return f" ({self.names[seat - 1]}, the {self.known[seat]})"

    def cast(self, fates: Mapping[int, str], *, title: str = "Cast") -> Table:
        """Seat, name, role, team and fate, as far as the viewer knows them."""
        table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
        for column in ("Seat", "Name", "Role", "Team", "Fate"):
            table.add_column(column, overflow="fold")
        for s in self.start.seats:
            team = self.team(s)
            style = TEAM_STYLES[team] if team else ""
            identity = self.known.get(s)
            table.add_row(
                Text(str(s)),
                Text(self.names[s - 1], style=style),
                Text(str(identity) if identity else "?"),
                Text(str(team) if team else "?", style=style),
                Text(fates.get(s, "alive")),
            )
        return table

    def _heading(self, entry: Entry) -> list[RenderableType]:
        if entry.phase.startswith("__") or entry.phase == "seat-swap":
            return []
        night = entry.phase in _NIGHT_PHASES
        section = (entry.day, 0 if night else 1)  # night N comes before day N
        if self._section is not None and section <= self._section:
            return []
        self._section = section
        title = f"Night {entry.day}" if night else f"Day {entry.day}"
        style = NIGHT_STYLE if night else DAY_STYLE
        return [Text(""), Rule(Text(title, style=f"bold {style}"))]

    def _indented(self, text: Text) -> Padding:
        return Padding(text, (0, 0, 0, INDENT), expand=False)

    def _thought(self, name: str, text: str) -> RenderableType:
        _, seat, decision = [*name.split("/", 2), "", ""][:3]
        who = self.seat(int(seat)) if is_number(seat) else Text(seat)
        line = Text.assemble("» ", who, f" thinks ({decision}): ", text)
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
                f": {fb['decision']} fell back to the default after refused answers"
                f" ({fb.get('reason') or 'no reason'}; {fb['key']})",
            )
            line.stylize(FALLBACK_STYLE)
            out.append(self._indented(line))
        return out

    # -- entries --------------------------------------------------------------------------
    def entry(self, entry: Entry) -> list[RenderableType]:
        """The renderables of one entry, with a heading when a night or day begins."""
        entry = harmless_entry(entry)
        draw = getattr(self, "_" + entry.phase.strip("_").replace("-", "_"), None)
        self._drawn: set[str] = set()
        body: list[RenderableType] = draw(entry) if draw is not None else self._unknown(entry)
        return [*self._heading(entry), *body, *self._fallbacks(entry), *self._reasoning(entry)]

    def _unknown(self, entry: Entry) -> list[RenderableType]:
        spec = event_spec(entry.phase)
        if spec is not None:  # hook: an identity's own event, drawn from its meaning
            return [self._registered(entry, spec)]
        phase = one_line(entry.phase)
        return [Text(f"({phase}: an event this version does not draw)", style="dim")]

    def _registered(self, entry: Entry, spec: EventSpec) -> Text:
        meaning = spec.meaning(dict(entry.diff), dict(entry.detail))
        line = Text.assemble(f"{spec.label.en.capitalize()}: ")
        shown = [
            Text.assemble(self.seat(s), f" shows the {what} card") for s, what in meaning.revealed
        ]
        dead = [
            Text.assemble(
                self.seat(s),
                " dies" + (f" ({_cause_text(Cause(c))})".replace(", day {n}", "") if c else ""),
            )
            for s, c in meaning.deaths
        ]
        parts = [*shown, *dead] or [Text("nothing the table sees")]
        for number, part in enumerate(parts):
            line.append_text(part if number == 0 else Text("; ") + part)
        return line

    def _wolf_night(self, e: Entry) -> list[RenderableType]:
        discussion: list[dict[str, Any]] = list(e.detail.get("discussion", []))
        if not discussion and len(e.detail.get("proposals", [])) == 1:
            return self._wolf_ballots(e)
        wolves = [int(line["seat"]) for line in discussion]
        out: list[RenderableType] = [
            Text.assemble(Text("The wolves", style="bold"), " (", self.seats(wolves), ") talk:")
        ]
        for line in discussion:
            seat = int(line["seat"])
            out.append(self._indented(Text.assemble(self.seat(seat), ": ", line["text"])))
            out += self._reasoning_of(e, seat, "wolf-talk")
        for number, proposals in enumerate(e.detail.get("proposals", []), start=1):
            pairs = Text(", ").join(
                Text.assemble(self.seat(w), " → ", self.seat(t)) for w, t in proposals
            )
            out.append(self._indented(Text.assemble(f"Proposals, round {number}: ", pairs)))
        out.append(
            self._indented(
                Text.assemble(Text("Target: ", style="bold"), self.seat(e.diff["target"]))
            )
        )
        return out

    def _wolf_ballots(self, e: Entry) -> list[RenderableType]:
        """``wolf_kill = "vote"``: one ballot each, no talk; a tie drawn at random."""
        ballots = e.detail["proposals"][0]
        pairs = Text(", ").join(
            Text.assemble(self.seat(w), " → ", self.seat(t) if t is not None else Text("abstain"))
            for w, t in ballots
        )
        wolves = [int(w) for w, _ in ballots]
        out: list[RenderableType] = [
            Text.assemble(
                Text("The wolves", style="bold"), " (", self.seats(wolves), ") vote: ", pairs
            )
        ]
        target = Text.assemble(Text("Target: ", style="bold"), self.seat(e.diff["target"]))
        drawn = e.detail.get("draw")
        if drawn is not None and all(t is None for _, t in ballots):  # wolf_abstain
            target.append_text(
                Text.assemble(
                    " (every wolf abstained: drawn at random among ",
                    self.seats(drawn["among"]),
                    ")",
                )
            )
        elif drawn is not None:
            target.append_text(
                Text.assemble(" (a tie between ", self.seats(drawn["among"]), ", drawn at random)")
            )
        out.append(self._indented(target))
        return out

    def _witch_action(self, e: Entry) -> list[RenderableType]:
        witch = e.audience[0] if e.audience else self.spec.seat
        told = e.detail.get("told_target")
        who = Text("The witch", style="bold")
        if witch:
            who = Text.assemble(who, " (", self.seat(witch), ")")
        heard = (
            Text.assemble(" was told the victim: ", self.seat(told))
            if told is not None
            else Text(" learned no victim")
        )
        acts: list[Text] = []
        if e.diff.get("save"):
            acts.append(Text.assemble("saves ", self.seat(told)))
        if e.diff.get("poison") is not None:
            acts.append(Text.assemble("poisons ", self.seat(e.diff["poison"])))
        action = Text(" and ").join(acts) if acts else Text("uses no potion")
        return [Text.assemble(who, heard, "; she ", action, ".")]

    def _seer_check(self, e: Entry) -> list[RenderableType]:
        seer = e.audience[0] if e.audience else self.spec.seat
        who = Text("The seer", style="bold")
        if seer:
            who = Text.assemble(who, " (", self.seat(seer), ")")
        if e.diff.get("target") is None:  # a failed answer under night_fallback = "nothing"
            return [Text.assemble(who, " checks nobody.")]
        target, wolf = int(e.diff["target"]), bool(e.diff["wolf"])
        if self.spec.kind is ViewKind.SEAT and target not in self.known:
            self.teams[target] = Team.WOLVES if wolf else Team.GOOD
        verdict = Text("a WOLF", style=TEAM_STYLES[Team.WOLVES]) if wolf else Text("good")
        identity = e.diff.get("identity")
        if identity is not None:  # seer_learns = "identity"
            verdict = Text.assemble(f"the {one_line(str(identity))} (", verdict, ")")
        return [Text.assemble(who, " checks ", self.seat(target), ": ", verdict, ".")]

    def _dawn(self, e: Entry) -> list[RenderableType]:
        died = list(e.diff.get("died", []))
        if not died:
            return [Text.assemble(Text("Dawn.", style="bold"), " A peaceful night: nobody died.")]
        return [
            Text.assemble(
                Text("Dawn.", style="bold"), " Died in the night: ", self.seats(died), "."
            ),
            *self._revealed(e),
        ]

    def _revealed(self, e: Entry) -> list[RenderableType]:
        """What the config revealed of the dead (``reveal_on_death``): known to every seat."""
        out: list[RenderableType] = []
        for seat, what in e.detail.get("revealed") or []:
            seat = int(seat)
            if what in (Team.WOLVES.value, Team.GOOD.value):
                self.teams.setdefault(seat, Team(what))
                told = "a wolf" if what == Team.WOLVES.value else "good"
            else:
                self.known.setdefault(seat, Identity(what))
                told = f"the {what}"
            out.append(
                self._indented(Text.assemble("Revealed: ", self.seat(seat), f" was {told}."))
            )
        return out

    def _floor_bid(self, e: Entry) -> list[RenderableType]:
        bids = Text(", ").join(
            Text.assemble(self.seat(int(s)), f" {b}") for s, b in e.detail.get("bids", [])
        )
        return [
            Text.assemble(
                Text(f"Bids for speech {e.detail.get('speech', '?')}: ", style="dim"),
                bids,
                " → ",
                self.seat(int(e.diff["floor"])),
                " speaks.",
            )
        ]

    def _hunter_shot(self, e: Entry) -> list[RenderableType]:
        shooter, target = int(e.diff["shooter"]), e.diff.get("target")
        self.known.setdefault(shooter, Identity.HUNTER)  # a shot reveals the card
        who = Text.assemble(Text("The hunter", style="bold"), " (", self.seat(shooter), ")")
        if target is None:
            return [Text.assemble(who, " keeps the bullet.")]
        shot = Text.assemble(who, " shows the hunter card and shoots ", self.seat(target), ".")
        return [shot, *self._revealed(e), *self._heartbreak(e)]

    def _heartbreak(self, e: Entry) -> list[RenderableType]:
        broken = list(e.diff.get("heartbroken", []))
        if not broken:
            return []
        return [Text.assemble(self.seats(broken), " dies of heartbreak.")]

    def _protect(self, e: Entry, title: str) -> list[RenderableType]:
        who = Text(title, style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, " (", self.seat(actor), ")")
        return [Text.assemble(who, " protects ", self.seat(e.diff.get("target")), ".")]

    def _guard_protect(self, e: Entry) -> list[RenderableType]:
        return self._protect(e, "The guard")

    def _doctor_protect(self, e: Entry) -> list[RenderableType]:
        return self._protect(e, "The doctor")

    def _doctor_told(self, e: Entry) -> list[RenderableType]:
        who = Text("The doctor", style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, " (", self.seat(actor), ")")
        return [
            Text.assemble(who, " learns her protection saved ", self.seat(e.diff["saved"]), ".")
        ]

    def _cupid_link(self, e: Entry) -> list[RenderableType]:
        a, b = e.diff["lovers"]
        who = Text("Cupid", style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, " (", self.seat(actor), ")")
        return [Text.assemble(who, " links ", self.seat(a), " and ", self.seat(b), " as lovers.")]

    def _lovers_told(self, e: Entry) -> list[RenderableType]:
        a, b = e.diff["lovers"]
        shown = e.detail.get("identities")
        if shown and self.spec.kind is ViewKind.SEAT:
            for seat, identity in zip((a, b), shown, strict=True):
                self.known.setdefault(seat, Identity(identity))
        line = Text.assemble(
            Text("The lovers", style="bold"), " ", self.seat(a), " and ", self.seat(b)
        )
        line.append(" learn of each other" + (", with their cards." if shown else "."))
        return [line]

    def _speech_block(self, label: str, e: Entry, decision: str) -> list[RenderableType]:
        speaker = int(e.diff["speaker"])
        head = Text.assemble(Text(label, style="bold"), self.seat(speaker, role=True), ":")
        body = self._indented(Text(e.detail["text"]))
        return [head, body, *self._reasoning_of(e, speaker, decision)]

    def _last_words(self, e: Entry) -> list[RenderableType]:
        return self._speech_block("Last words of ", e, "last-words")

    def _day_speech(self, e: Entry) -> list[RenderableType]:
        return self._speech_block("PK speech of " if e.detail.get("pk") else "", e, "speech")

    def _vote(self, e: Entry) -> list[RenderableType]:
        pk_round = e.detail.get("round") == 2
        title = f"Day {e.day} PK re-vote" if pk_round else f"Day {e.day} vote"
        by_target: dict[int | None, list[int]] = {}
        for voter, target in e.detail.get("ballots", []):
            by_target.setdefault(target, []).append(voter)
        table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
        table.add_column("Votes", justify="right")
        table.add_column("Against")
        table.add_column("Voters", overflow="fold")
        targets = sorted(
            (t for t in by_target if t is not None), key=lambda t: (-len(by_target[t]), t)
        )
        for target in targets:
            voters = by_target[target]
            table.add_row(Text(str(len(voters))), self.seat(target), self.seats(voters))
        if None in by_target:
            table.add_row(Text("-"), Text("(abstained)"), self.seats(by_target[None]))
        exiled, pk = e.diff.get("exiled"), list(e.diff.get("pk", []))
        if pk:
            result = Text.assemble("Tie between ", self.seats(pk), ": a PK round follows.")
        elif e.diff.get("revealed") is not None:
            idiot = int(e.diff["revealed"])
            self.known.setdefault(idiot, Identity.IDIOT)  # the reveal shows the card
            result = Text.assemble(
                self.seat(idiot), " is exiled, reveals the idiot card and stays alive (no vote)."
            )
        elif exiled is not None:
            result = Text.assemble(self.seat(exiled), " is exiled.")
        else:
            result = Text("Nobody is exiled.")
        drawn = e.detail.get("draw")
        if drawn is not None:  # a tie or a vote for nobody, settled by a recorded draw
            why = "a tie between " if e.detail.get("counts") else "nobody voted; drawn among "
            result.right_crop(1)  # the sentence's full stop goes after the note
            result.append_text(
                Text.assemble(" (", why, self.seats(drawn["among"]), ", drawn at random).")
            )
        return [
            Text(""),
            table,
            Text.assemble("→ ", result),
            *self._revealed(e),
            *self._heartbreak(e),
            *self._beliefs(e),
        ]

    def _beliefs(self, e: Entry) -> list[RenderableType]:
        """The god view's belief reports with a vote: who gave each seat what P(wolf); a
        report about a wolf is drawn in the wolves' colour. Vote after vote, the tables are
        the belief trajectory of the game."""
        if not e.beliefs:
            return []
        targets = sorted({t for told in e.beliefs.values() for t in told})
        table = Table(
            title=f"Day {e.day} beliefs: P(wolf) reported with the vote",
            box=box.SIMPLE_HEAD,
            title_justify="left",
            pad_edge=False,
        )
        table.add_column("By")
        for t in targets:
            table.add_column(str(t), justify="right")
        for believer in sorted(e.beliefs):
            told = e.beliefs[believer]
            cells = [
                Text(
                    "" if t not in told else f"{told[t]:.2f}",
                    style=TEAM_STYLES[Team.WOLVES] if self.team(t) is Team.WOLVES else "",
                )
                for t in targets
            ]
            table.add_row(self.seat(believer, role=True), *cells)
        return [table]

    def _game_end(self, e: Entry) -> list[RenderableType]:
        identities = [Identity(i) for i in e.detail.get("identities", [])]
        for seat, identity in enumerate(identities, start=1):
            self.known[seat] = identity  # the end reveals every card
        winner = str(e.diff.get("winner", "draw"))
        style = {"wolves": TEAM_STYLES[Team.WOLVES], "good": TEAM_STYLES[Team.GOOD]}.get(
            winner, "bold"
        )
        body = Text.assemble(
            Text(_WINNER_TEXT.get(winner, winner), style=f"bold {style}"),
            f": {e.detail.get('reason', '')}.",
        )
        alive = [int(s) for s in e.detail.get("alive", [])]
        survivors = Text.assemble("Survivors: ", self.seats(alive), ".")
        return [
            Text(""),
            Panel(Group(body, survivors), title=f"Result, day {e.day}", title_align="left"),
        ]

    def _seat_swap(self, e: Entry) -> list[RenderableType]:
        seat = int(e.detail["seat"])
        return [
            Text.assemble(
                Text("Seat swap: ", style="bold"),
                self.seat(seat),
                f" is now played by {e.detail.get('to', '?')} (was {e.detail.get('from', '?')}).",
            )
        ]

    def _error(self, e: Entry) -> list[RenderableType]:
        role = e.detail.get("role", "?")
        line = Text(
            f"! The game stopped: phase {one_line(str(role))} failed: {one_line(e.note)}",
            style="bold red",
        )
        return [line]

    def _resume(self, e: Entry) -> list[RenderableType]:
        return [Text("The game was resumed.", style="bold")]


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
