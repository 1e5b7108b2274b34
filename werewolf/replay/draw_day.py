"""Drawing the day's events: the dawn, the talk, the bids, the vote, the shot, the end,
and what they reveal; and the adapter's control events (a failure, a resume)."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..cast import Team
from ..state import Cause
from ..text import one_line
from .drawbase import TEAM_STYLES, Drawing
from .views import Entry
from .words import outcome_text

__all__ = ["DayDrawing"]

_WINNER_TEXT = {
    "wolves": "The wolves win",
    "good": "The good side wins",
    "draw": "A draw",
    "lovers": "Cupid and the lovers win",
}

_TEAMS = frozenset(team.value for team in Team)
_LOVE = Cause.LOVE.value


class DayDrawing(Drawing):
    """The drawings of the day's kinds (``_<kind>``, found by the entry's phase)."""

    def _dawn(self, e: Entry) -> list[RenderableType]:
        died = list(e.diff.get("died", []))
        if not died:
            return [
                Text.assemble(
                    Text(self.w("Dawn."), style="bold"), self.w(" A peaceful night: nobody died.")
                )
            ]
        return [
            Text.assemble(
                Text(self.w("Dawn."), style="bold"),
                self.w(" Died in the night: "),
                self.seats(died),
                self.w("."),
            ),
            *self._revealed(e),
        ]

    def _revealed(self, e: Entry) -> list[RenderableType]:
        """What the config revealed of the dead (``reveal_on_death``): known to every seat."""
        out: list[RenderableType] = []
        for seat, what in e.detail.get("revealed") or []:
            seat = int(seat)
            if what in _TEAMS:
                told = self.w("a wolf" if what == Team.WOLVES.value else "good")
            else:
                told = self.w("the {identity}", identity=self.identity(what))
            out.append(
                self._indented(
                    Text.assemble(
                        self.w("Revealed: "), self.seat(seat), self.w(" was {told}.", told=told)
                    )
                )
            )
        return out

    def _floor_bid(self, e: Entry) -> list[RenderableType]:
        bids = Text(self.w(", ")).join(
            Text.assemble(self.seat(int(s)), f" {b}") for s, b in e.detail.get("bids", [])
        )
        return [
            Text.assemble(
                Text(self.w("Bids for speech {n}: ", n=e.detail.get("speech", "?")), style="dim"),
                bids,
                " → ",
                self.seat(int(e.diff["floor"])),
                self.w(" speaks."),
            )
        ]

    def _hunter_shot(self, e: Entry) -> list[RenderableType]:
        shooter, target = int(e.diff["shooter"]), e.diff.get("target")
        card = e.diff.get("card")  # a shooter who is not the hunter: the wolf king
        name = self.w("The hunter") if card is None else self.identity(card).capitalize()
        who = Text.assemble(Text(name, style="bold"), self.w(" ("), self.seat(shooter), self.w(")"))
        if target is None:
            return [Text.assemble(who, self.w(" keeps the bullet."))]
        shows = (
            self.w(" shows the hunter card and shoots ")
            if card is None
            else self.w(" shows the {identity} card and shoots ", identity=self.identity(card))
        )
        shot = Text.assemble(who, shows, self.seat(target), self.w("."))
        return [shot, *self._revealed(e), *self._heartbreak(e)]

    def _heartbreak(self, e: Entry) -> list[RenderableType]:
        broken = [seat for seat, cause in self._meaning.deaths if cause == _LOVE]
        if not broken:
            return []
        return [Text.assemble(self.seats(broken), self.w(" dies of heartbreak."))]

    def _speech_block(self, label: str, e: Entry, decision: str) -> list[RenderableType]:
        speaker = int(e.diff["speaker"])
        head = Text.assemble(
            Text(self.w(label), style="bold"), self.seat(speaker, role=True), self.w(":")
        )
        body = self._indented(Text(e.detail["text"]))
        return [head, body, *self._reasoning_of(e, speaker, decision)]

    def _last_words(self, e: Entry) -> list[RenderableType]:
        return self._speech_block("Last words of ", e, "last-words")

    def _day_speech(self, e: Entry) -> list[RenderableType]:
        if e.diff.get("self_destruct"):  # no words: the self-destruct event follows
            speaker, take = int(e.diff["speaker"]), e.diff.get("take")
            line = Text.assemble(
                self.seat(speaker, role=True), self.w(" interrupts the day: self-destructs")
            )
            if take is not None:
                line.append_text(Text.assemble(self.w(", to take "), self.seat(int(take))))
            return [line, *self._reasoning_of(e, speaker, "speech")]
        return self._speech_block("PK speech of " if e.detail.get("pk") else "", e, "speech")

    def _self_destruct(self, e: Entry) -> list[RenderableType]:
        wolf, target = int(e.diff["wolf"]), e.diff.get("target")
        if target is None:
            line = Text.assemble(self.seat(wolf), self.w(" reveals a wolf and self-destructs"))
        else:
            line = Text.assemble(
                self.seat(wolf),
                self.w(" reveals the white wolf king and self-destructs, taking "),
                self.seat(int(target)),
            )
        line.append(self.w("; the day ends without a vote."))
        return [line, *self._revealed(e), *self._heartbreak(e)]

    def _vote(self, e: Entry) -> list[RenderableType]:
        pk_round = e.detail.get("round") == 2
        title = self.w("Day {n} PK re-vote" if pk_round else "Day {n} vote", n=e.day)
        by_target: dict[int | None, list[int]] = {}
        for voter, target in e.detail.get("ballots", []):
            by_target.setdefault(target, []).append(voter)
        table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
        table.add_column(self.w("Votes"), justify="right")
        table.add_column(self.w("Against"))
        table.add_column(self.w("Voters"), overflow="fold")
        # the sheriff's ballot weighs more (detail.sheriff): the counts say by how much
        weighed = (
            {int(s): c for s, c in e.detail.get("counts", [])} if "sheriff" in e.detail else {}
        )
        targets = sorted(
            (t for t in by_target if t is not None),
            key=lambda t: (-weighed.get(t, len(by_target[t])), t),
        )
        for target in targets:
            voters = by_target[target]
            votes = f"{weighed[target]:g}" if target in weighed else str(len(voters))
            table.add_row(Text(votes), self.seat(target), self._voters(voters, e))
        if None in by_target:
            table.add_row(Text("-"), Text(self.w("(abstained)")), self.seats(by_target[None]))
        exiled, pk = e.diff.get("exiled"), list(e.diff.get("pk", []))
        if pk:
            result = Text.assemble(
                self.w("Tie between "), self.seats(pk), self.w(": a PK round follows.")
            )
        elif e.diff.get("revealed") is not None:
            idiot = int(e.diff["revealed"])
            result = Text.assemble(
                self.seat(idiot),
                self.w(" is exiled, reveals the idiot card and stays alive (no vote)."),
            )
        elif exiled is not None:
            result = Text.assemble(self.seat(exiled), self.w(" is exiled."))
        else:
            result = Text(self.w("Nobody is exiled."))
        drawn = e.detail.get("draw")
        if drawn is not None:  # a tie or a vote for nobody, settled by a recorded draw
            why = self.w(
                "a tie between " if e.detail.get("counts") else "nobody voted; drawn among "
            )
            result.right_crop(1)  # the sentence's full stop goes after the note
            result.append_text(
                Text.assemble(
                    self.w(" ("), why, self.seats(drawn["among"]), self.w(", drawn at random).")
                )
            )
        return [
            Text(""),
            table,
            Text.assemble("→ ", result),
            *self._revealed(e),
            *self._heartbreak(e),
            *self._beliefs(e),
        ]

    def _voters(self, voters: list[int], e: Entry) -> Text:
        """The voters, the sheriff marked with his ballot's weight."""
        sheriff = e.detail.get("sheriff")
        if sheriff not in voters:
            return self.seats(voters)
        weight = f"{self.start.config.sheriff_weight:g}"
        return Text(self.w(", ")).join(
            self.seat(v)
            + Text(self.w(" (sheriff, ×{weight})", weight=weight) if v == sheriff else "")
            for v in voters
        )

    def _beliefs(self, e: Entry) -> list[RenderableType]:
        """The god view's belief reports with a vote: who gave each seat what P(wolf); a
        report about a wolf is drawn in the wolves' colour. Vote after vote, the tables are
        the belief trajectory of the game."""
        if not e.beliefs:
            return []
        targets = sorted({t for told in e.beliefs.values() for t in told})
        table = Table(
            title=self.w("Day {n} beliefs: P(wolf) reported with the vote", n=e.day),
            box=box.SIMPLE_HEAD,
            title_justify="left",
            pad_edge=False,
        )
        table.add_column(self.w("By"))
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
        winner = str(e.diff.get("winner", "draw"))
        style = {"wolves": TEAM_STYLES[Team.WOLVES], "good": TEAM_STYLES[Team.GOOD]}.get(
            winner, "bold"
        )
        body = Text.assemble(
            Text(self.w(_WINNER_TEXT.get(winner, winner)), style=f"bold {style}"),
            self.w(": "),
            outcome_text(str(e.detail.get("reason", "")), self.lang),
            self.w("."),
        )
        alive = [int(s) for s in e.detail.get("alive", [])]
        survivors = Text.assemble(self.w("Survivors: "), self.seats(alive), self.w("."))
        title = self.w("Result, day {n}", n=e.day)
        return [Text(""), Panel(Group(body, survivors), title=title, title_align="left")]

    def _seat_swap(self, e: Entry) -> list[RenderableType]:
        seat = int(e.detail["seat"])
        return [
            Text.assemble(
                Text(self.w("Seat swap: "), style="bold"),
                self.seat(seat),
                self.w(
                    " is now played by {to} (was {was}).",
                    to=e.detail.get("to", "?"),
                    was=e.detail.get("from", "?"),
                ),
            )
        ]

    def _error(self, e: Entry) -> list[RenderableType]:
        role = e.detail.get("role", "?")
        line = Text(
            self.w(
                "! The game stopped: phase {role} failed: {note}",
                role=one_line(str(role)),
                note=one_line(e.note),
            ),
            style="bold red",
        )
        return [line]

    def _resume(self, e: Entry) -> list[RenderableType]:
        return [Text(self.w("The game was resumed."), style="bold")]
