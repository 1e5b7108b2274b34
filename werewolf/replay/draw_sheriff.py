"""Drawing the sheriff's events: the election (who runs, the speeches, who withdraws, the
vote and its PK, an elected sheriff or a lost badge), the badge passed or torn, and the
direction he chose. All are public: every view draws them alike."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from .drawbase import Drawing
from .views import Entry

__all__ = ["SheriffDrawing", "votes_text"]

BADGE = "★"


def votes_text(votes: float) -> str:
    """A count as the table says it: 2, or 2.5 where the sheriff's ballot weighs 1.5."""
    return f"{votes:g}"


class SheriffDrawing(Drawing):
    """The drawings of the sheriff's kinds (``_<kind>``, found by the entry's phase)."""

    def _sheriff(self, seat: int) -> Text:
        return Text.assemble(self.seat(seat), f" {BADGE}")

    def _listed(self, seats: Sequence[int]) -> Text:
        return self.seats(list(seats)) if seats else Text(self.w("nobody"))

    def _sheriff_run(self, e: Entry) -> list[RenderableType]:
        running = [int(s) for s in e.diff.get("candidates", [])]
        head = Text.assemble(
            Text(self.w("Sheriff election."), style="bold"),
            self.w(" Running: "),
            self._listed(running),
            self.w("."),
        )
        if not running:
            return [head, Text(self.w("Nobody runs: no sheriff."))]
        alone = e.diff.get("sheriff")
        if alone is not None:
            return [
                head,
                Text.assemble(self._sheriff(int(alone)), self.w(" is elected unopposed.")),
            ]
        return [head]

    def _sheriff_speech(self, e: Entry) -> list[RenderableType]:
        if e.diff.get("self_destruct"):  # no words: the election stops, the blast follows
            speaker = int(e.diff["speaker"])
            line = Text.assemble(
                self.seat(speaker, role=True), self.w(" interrupts the election: self-destructs")
            )
            return [line, *self._reasoning_of(e, speaker, "sheriff-speech")]
        label = "Election PK speech of " if e.detail.get("pk") else "Election speech of "
        return self._speech_block(label, e, "sheriff-speech")

    def _speech_block(self, label: str, e: Entry, decision: str) -> list[RenderableType]:
        raise NotImplementedError  # DayDrawing's

    def _sheriff_withdraw(self, e: Entry) -> list[RenderableType]:
        out = [int(s) for s in e.diff.get("withdrawn", [])]
        lines: list[RenderableType] = [
            Text.assemble(self.w("Withdrawn (退水): "), self._listed(out), self.w("."))
        ]
        alone = e.diff.get("sheriff")
        if alone is not None:
            lines.append(
                Text.assemble(self._sheriff(int(alone)), self.w(" is left alone: sheriff."))
            )
        elif e.diff.get("lost"):
            lines.append(Text(self.w("Nobody left to vote for or to vote: the badge is lost.")))
        return lines

    def _sheriff_vote(self, e: Entry) -> list[RenderableType]:
        pk_round = e.detail.get("round") == 2
        title = self.w("Sheriff PK re-vote" if pk_round else "Sheriff vote")
        by_target: dict[int | None, list[int]] = {}
        for voter, target in e.detail.get("ballots", []):
            by_target.setdefault(target, []).append(int(voter))
        counts = {int(s): c for s, c in e.detail.get("counts", [])}
        table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
        table.add_column(self.w("Votes"), justify="right")
        table.add_column(self.w("For"))
        table.add_column(self.w("Voters"), overflow="fold")
        for target in sorted(counts, key=lambda t: (-counts[t], t)):
            table.add_row(
                Text(votes_text(counts[target])), self.seat(target), self.seats(by_target[target])
            )
        if None in by_target:
            table.add_row(Text("-"), Text(self.w("(abstained)")), self.seats(by_target[None]))
        elected, pk = e.diff.get("sheriff"), [int(s) for s in e.diff.get("pk", [])]
        if elected is not None:
            result = Text.assemble(self._sheriff(int(elected)), self.w(" is elected sheriff."))
        elif pk:
            result = Text.assemble(
                self.w("Tie between "),
                self.seats(pk),
                self.w(": they speak again, then a re-vote."),
            )
        else:
            result = Text(self.w("No sheriff: the badge is lost."))
        return [Text(""), table, Text.assemble("→ ", result)]

    def _sheriff_badge(self, e: Entry) -> list[RenderableType]:
        holder, heir = int(e.diff["holder"]), e.diff.get("to")
        who = Text.assemble(
            Text(self.w("The sheriff"), style="bold"), self.w(" ("), self.seat(holder), self.w(")")
        )
        if heir is None:
            return [Text.assemble(who, self.w(" tears the badge."))]
        return [
            Text.assemble(
                who, self.w(" passes the badge to "), self._sheriff(int(heir)), self.w(".")
            )
        ]

    def _sheriff_order(self, e: Entry) -> list[RenderableType]:
        sheriff, first = int(e.diff["sheriff"]), int(e.diff["first"])
        way = self.w("to the left" if e.diff.get("left") else "to the right")
        return [
            Text.assemble(
                Text(self.w("The sheriff"), style="bold"),
                self.w(" ("),
                self._sheriff(sheriff),
                self.w(") has "),
                self.seat(first),
                self.w(" speak first, {way}, and speaks last.", way=way),
            )
        ]
