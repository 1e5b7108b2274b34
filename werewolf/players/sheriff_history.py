"""How a seat's prompt tells of the sheriff's events (all public): who ran, the election's
speeches, withdrawals and votes, who was elected or that the badge was lost, the badge
passed or torn, and the direction the sheriff chose."""

from __future__ import annotations

from collections.abc import Sequence

from ..visibility import Observation
from .promptset import PromptSet, quote, seat_label, seats_text

__all__ = ["sheriff_observation"]


def sheriff_observation(ps: PromptSet, names: Sequence[str], obs: Observation) -> str | None:
    """The event as text, or None for an event that is not the sheriff's."""
    d, detail, day = obs.diff, obs.detail, obs.day

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    def outcome() -> list[str]:
        if d.get("sheriff") is not None:
            return [ps.say("obs.sheriff-elected", seat=seat(d["sheriff"]))]
        if d.get("pk"):
            return [ps.say("obs.sheriff-tie", seats=seats_text(ps, names, d["pk"]))]
        return [ps.say("obs.badge-lost")] if d.get("lost") else []

    phase = obs.phase
    if phase == "sheriff-run":
        running = d.get("candidates") or []
        if not running:
            return ps.say("obs.sheriff-run.none", day=day)
        return " ".join(
            [ps.say("obs.sheriff-run", day=day, seats=seats_text(ps, names, running)), *outcome()]
        )
    if phase == "sheriff-speech" and d.get("self_destruct"):
        return ps.say("obs.sheriff-speech.destruct", day=day, speaker=seat(d.get("speaker")))
    if phase == "sheriff-speech":
        speaker = int(d["speaker"])
        key = "obs.sheriff-pk-speech" if detail.get("pk") else "obs.sheriff-speech"
        text = str(detail.get("text", ""))
        said = quote("sheriff-speech", speaker, names[speaker - 1], text, day=day)
        return ps.say(key, day=day, speaker=seat(speaker)) + "\n" + said
    if phase == "sheriff-withdraw":
        out = seats_text(ps, names, d.get("withdrawn") or [])
        return " ".join([ps.say("obs.sheriff-withdraw", day=day, seats=out), *outcome()])
    if phase == "sheriff-vote":
        key = "obs.sheriff-pk-vote" if detail.get("round") == 2 else "obs.sheriff-vote"
        ballots = ps.say("list.sep").join(
            ps.say(
                "obs.ballot",
                voter=seat(v),
                target=ps.say("obs.abstain") if t is None else seat(t),
            )
            for v, t in detail.get("ballots", [])
        )
        return " ".join([ps.say(key, day=day, ballots=ballots), *outcome()])
    if phase == "sheriff-badge":
        holder, heir = seat(d.get("holder")), d.get("to")
        if heir is None:
            return ps.say("obs.badge.torn", day=day, holder=holder)
        return ps.say("obs.badge", day=day, holder=holder, heir=seat(heir))
    if phase == "sheriff-order":
        way = ps.say("obs.order.left" if d.get("left") else "obs.order.right")
        return ps.say(
            "obs.order",
            day=day,
            sheriff=seat(d.get("sheriff")),
            first=seat(d.get("first")),
            way=way,
        )
    return None
