"""Drawing the night's events: the wolves, the witch, the seer, the guard and the doctor,
cupid and the lovers, each as its viewer saw it."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..cast import Team
from ..text import one_line
from .drawbase import TEAM_STYLES, Drawing
from .views import Entry

__all__ = ["NightDrawing"]


class NightDrawing(Drawing):
    """The drawings of the night's kinds (``_<kind>``, found by the entry's phase)."""

    def _wolf_night(self, e: Entry) -> list[RenderableType]:
        discussion: list[dict[str, Any]] = list(e.detail.get("discussion", []))
        if not discussion and len(e.detail.get("proposals", [])) == 1:
            return self._wolf_ballots(e)
        wolves = [int(line["seat"]) for line in discussion]
        out: list[RenderableType] = [
            Text.assemble(
                Text(self.w("The wolves"), style="bold"),
                self.w(" ("),
                self.seats(wolves),
                self.w(") talk:"),
            )
        ]
        for line in discussion:
            seat = int(line["seat"])
            out.append(self._indented(Text.assemble(self.seat(seat), self.w(": "), line["text"])))
            out += self._reasoning_of(e, seat, "wolf-talk")
        for number, proposals in enumerate(e.detail.get("proposals", []), start=1):
            pairs = Text(self.w(", ")).join(
                Text.assemble(self.seat(w), " → ", self.seat(t)) for w, t in proposals
            )
            proposed = self.w("Proposals, round {n}: ", n=number)
            out.append(self._indented(Text.assemble(proposed, pairs)))
        out.append(
            self._indented(
                Text.assemble(Text(self.w("Target: "), style="bold"), self.seat(e.diff["target"]))
            )
        )
        return out

    def _wolf_ballots(self, e: Entry) -> list[RenderableType]:
        """``wolf_kill = "vote"``: one ballot each, no talk; a tie drawn at random."""
        ballots = e.detail["proposals"][0]
        pairs = Text(self.w(", ")).join(
            Text.assemble(
                self.seat(w), " → ", self.seat(t) if t is not None else Text(self.w("abstain"))
            )
            for w, t in ballots
        )
        wolves = [int(w) for w, _ in ballots]
        out: list[RenderableType] = [
            Text.assemble(
                Text(self.w("The wolves"), style="bold"),
                self.w(" ("),
                self.seats(wolves),
                self.w(") vote: "),
                pairs,
            )
        ]
        target = Text.assemble(Text(self.w("Target: "), style="bold"), self.seat(e.diff["target"]))
        drawn = e.detail.get("draw")
        if drawn is not None and all(t is None for _, t in ballots):  # wolf_abstain
            target.append_text(
                Text.assemble(
                    self.w(" (every wolf abstained: drawn at random among "),
                    self.seats(drawn["among"]),
                    self.w(")"),
                )
            )
        elif drawn is not None:
            target.append_text(
                Text.assemble(
                    self.w(" (a tie between "),
                    self.seats(drawn["among"]),
                    self.w(", drawn at random)"),
                )
            )
        out.append(self._indented(target))
        return out

    def _witch_action(self, e: Entry) -> list[RenderableType]:
        witch = e.audience[0] if e.audience else self.spec.seat
        told = e.detail.get("told_target")
        who = Text(self.w("The witch"), style="bold")
        if witch:
            who = Text.assemble(who, self.w(" ("), self.seat(witch), self.w(")"))
        heard = (
            Text.assemble(self.w(" was told the victim: "), self.seat(told))
            if told is not None
            else Text(self.w(" learned no victim"))
        )
        acts: list[Text] = []
        if e.diff.get("save"):
            acts.append(Text.assemble(self.w("saves "), self.seat(told)))
        if e.diff.get("poison") is not None:
            acts.append(Text.assemble(self.w("poisons "), self.seat(e.diff["poison"])))
        action = Text(self.w(" and ")).join(acts) if acts else Text(self.w("uses no potion"))
        return [Text.assemble(who, heard, self.w("; she "), action, self.w("."))]

    def _seer_check(self, e: Entry) -> list[RenderableType]:
        seer = e.audience[0] if e.audience else self.spec.seat
        who = Text(self.w("The seer"), style="bold")
        if seer:
            who = Text.assemble(who, self.w(" ("), self.seat(seer), self.w(")"))
        if e.diff.get("target") is None:  # a failed answer under night_fallback = "nothing"
            return [Text.assemble(who, self.w(" checks nobody."))]
        target, wolf = int(e.diff["target"]), bool(e.diff["wolf"])
        verdict = (
            Text(self.w("a WOLF"), style=TEAM_STYLES[Team.WOLVES]) if wolf else Text(self.w("good"))
        )
        identity = e.diff.get("identity")
        if identity is not None:  # seer_learns = "identity"
            named = self.w("the {identity} (", identity=one_line(self.identity(identity)))
            verdict = Text.assemble(named, verdict, self.w(")"))
        checks = Text.assemble(who, self.w(" checks "), self.seat(target), self.w(": "))
        return [Text.assemble(checks, verdict, self.w("."))]

    def _protect(self, e: Entry, title: str) -> list[RenderableType]:
        who = Text(self.w(title), style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, self.w(" ("), self.seat(actor), self.w(")"))
        return [
            Text.assemble(who, self.w(" protects "), self.seat(e.diff.get("target")), self.w("."))
        ]

    def _guard_protect(self, e: Entry) -> list[RenderableType]:
        return self._protect(e, "The guard")

    def _doctor_protect(self, e: Entry) -> list[RenderableType]:
        return self._protect(e, "The doctor")

    def _doctor_told(self, e: Entry) -> list[RenderableType]:
        who = Text(self.w("The doctor"), style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, self.w(" ("), self.seat(actor), self.w(")"))
        return [
            Text.assemble(
                who,
                self.w(" learns her protection saved "),
                self.seat(e.diff["saved"]),
                self.w("."),
            )
        ]

    def _cupid_link(self, e: Entry) -> list[RenderableType]:
        a, b = e.diff["lovers"]
        who = Text(self.w("Cupid"), style="bold")
        actor = e.audience[0] if e.audience else self.spec.seat
        if actor:
            who = Text.assemble(who, self.w(" ("), self.seat(actor), self.w(")"))
        linked = (self.w(" links "), self.seat(a), self.w(" and "), self.seat(b))
        return [Text.assemble(who, *linked, self.w(" as lovers."))]

    def _lovers_told(self, e: Entry) -> list[RenderableType]:
        a, b = e.diff["lovers"]
        shown = e.detail.get("identities")
        line = Text.assemble(
            Text(self.w("The lovers"), style="bold"),
            " ",
            self.seat(a),
            self.w(" and "),
            self.seat(b),
        )
        line.append(
            self.w(" learn of each other, with their cards." if shown else " learn of each other.")
        )
        return [line]
