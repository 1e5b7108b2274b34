"""What a seat has seen, as its prompts tell it: one line per observation of its view
(``history_lines``), the identities' own events told through ``IdentitySpec.observe``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from ..cast import Identity
from ..config import WolfKill
from ..events import meaning_of
from ..registry import Observe, identity_specs
from ..state import Cause
from ..visibility import Observation, SeatView
from .promptset import PromptSet, prompt_set, quote, seat_label, seats_text

__all__ = ["history_lines", "observation_text", "vote_outcome"]


_HEARTBREAK = Cause.LOVE.value


def _observation(
    ps: PromptSet, names: Sequence[str], obs: Observation, *, ballots: bool = False
) -> str | None:
    """One observation as text, or None for an event that is not part of the game's story
    (a seat swap, the end); ``ballots``: the wolves vote (their rounds read as ballots)."""
    d, detail, day = obs.diff, obs.detail, obs.day

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    def pairs(items: Iterable[Sequence[int | None]]) -> str:
        return ps.say("list.sep").join(
            ps.say(
                "obs.ballot", voter=seat(v), target=ps.say("obs.abstain") if t is None else seat(t)
            )
            for v, t in items
        )

    if obs.phase == "wolf-night":
        lines = [ps.say("obs.wolf-night", day=day)]
        lines += [
            quote(
                "wolf-talk",
                int(line["seat"]),
                names[int(line["seat"]) - 1],
                line["text"],
                night=day,
            )
            for line in detail.get("discussion", [])
        ]
        for number, proposals in enumerate(detail.get("proposals", []), start=1):
            key = "obs.wolf-night.ballots" if ballots else "obs.wolf-night.proposals"
            lines.append(ps.say(key, round=number, pairs=pairs(proposals)))
        lines.append(ps.say("obs.wolf-night.target", target=seat(d.get("target"))))
        lines += _drawn(ps, names, detail)
        return "\n".join(lines)
    if obs.phase == "witch-action":
        told = detail.get("told_target")
        lines = [
            ps.say("obs.witch.told", day=day, target=seat(told))
            if told is not None
            else ps.say("obs.witch.untold", day=day)
        ]
        if d.get("save"):
            lines.append(ps.say("obs.witch.save"))
        if d.get("poison") is not None:
            lines.append(ps.say("obs.witch.poison", target=seat(d["poison"])))
        if not d.get("save") and d.get("poison") is None:
            lines.append(ps.say("obs.witch.none"))
        return " ".join(lines)
    if obs.phase == "seer-check":
        if d.get("target") is None:  # her answer failed (night_fallback = "nothing")
            return ps.say("obs.seer.none", day=day)
        verdict = ps.say("verdict.wolf" if d.get("wolf") else "verdict.good")
        if d.get("identity") is not None:  # seer_learns = "identity"
            return ps.say(
                "obs.seer.identity",
                day=day,
                target=seat(d.get("target")),
                identity=_identity_name(ps, str(d["identity"])),
                verdict=verdict,
            )
        return ps.say("obs.seer", day=day, target=seat(d.get("target")), verdict=verdict)
    if obs.phase == "dawn":
        died = [seat for seat, _ in meaning_of(obs.phase, d, detail).deaths]
        if not died:
            return ps.say("obs.dawn.peaceful", day=day)
        return ps.say("obs.dawn.died", day=day, seats=seats_text(ps, names, died)) + _revealed(
            ps, names, detail
        )
    if obs.phase == "hunter-shot":
        if d.get("target") is None:
            return ps.say("obs.hunter.kept", day=day)
        return (
            ps.say(
                "obs.hunter.shot", day=day, shooter=seat(d.get("shooter")), target=seat(d["target"])
            )
            + _revealed(ps, names, detail)
            + _heartbreak(ps, names, obs.phase, d, detail)
        )
    identity_line = _identity_observation(ps, names, obs)
    if identity_line is not None:
        return identity_line
    observe = _observers().get(obs.phase)
    if observe is not None:  # an identity's own event (IdentitySpec.observe)
        variant, seats = observe(d)
        named = {name: seat(s) for name, s in seats.items()}
        return ps.say(f"obs.{obs.phase}.{variant}", day=day, **named)
    if obs.phase == "floor-bid":
        bids = ps.say("list.sep").join(f"{seat(s)} {b}" for s, b in detail.get("bids", []))
        return ps.say(
            "obs.bid",
            day=day,
            speech=detail.get("speech", ""),
            bids=bids,
            speaker=seat(d.get("floor")),
        )
    if obs.phase in ("last-words", "day-speech"):
        speaker = int(d["speaker"])
        if obs.phase == "last-words":
            key, label = "obs.last-words", "last-words"
        else:
            key, label = (
                ("obs.pk-speech", "pk-speech") if detail.get("pk") else ("obs.speech", "speech")
            )
        head = ps.say(key, day=day, speaker=seat(speaker))
        return (
            head
            + "\n"
            + quote(label, speaker, names[speaker - 1], str(detail.get("text", "")), day=day)
        )
    if obs.phase == "vote":
        key = "obs.pk-vote" if detail.get("round") == 2 else "obs.vote"
        told = ps.say(key, day=day, ballots=pairs(detail.get("ballots", [])))
        return told + " " + _vote_outcome(ps, names, obs)
    return None


def _vote_outcome(ps: PromptSet, names: Sequence[str], obs: Observation) -> str:
    """What a vote decided (an exile, a tie, nobody), and what followed it, as text."""
    d, detail = obs.diff, obs.detail
    lines = []
    if d.get("pk"):
        lines.append(ps.say("obs.vote.tie", seats=seats_text(ps, names, d["pk"])))
    elif d.get("exiled") is not None:
        lines.append(ps.say("obs.vote.exiled", seat=seat_label(ps, names, d["exiled"])))
        if d.get("revealed") is not None:
            lines.append(ps.say("obs.idiot.revealed", seat=seat_label(ps, names, d["revealed"])))
    else:
        lines.append(ps.say("obs.vote.nobody"))
    lines += _drawn(ps, names, detail)
    heartbreak = _heartbreak(ps, names, obs.phase, d, detail)
    return " ".join(lines) + _revealed(ps, names, detail) + heartbreak


@cache
def _observers() -> dict[str, Observe]:
    return {phase: how for spec in identity_specs() for phase, how in spec.observe.items()}


def _heartbreak(
    ps: PromptSet, names: Sequence[str], phase: str, diff: dict[str, Any], detail: dict[str, Any]
) -> str:
    """The lovers an event says died of heartbreak (its meaning), as a sentence; ''."""
    broken = [s for s, cause in meaning_of(phase, diff, detail).deaths if cause == _HEARTBREAK]
    return " " + ps.say("obs.heartbroken", seats=seats_text(ps, names, broken)) if broken else ""


def _identity_observation(ps: PromptSet, names: Sequence[str], obs: Observation) -> str | None:
    """The night events of the guard, the doctor, cupid and the lovers, as text."""
    d, day = obs.diff, obs.day

    def seat(s: int | None) -> str:
        return seat_label(ps, names, s)

    if obs.phase in ("guard-protect", "doctor-protect"):
        key = "obs.guard" if obs.phase == "guard-protect" else "obs.doctor"
        return ps.say(key, day=day, target=seat(d.get("target")))
    if obs.phase == "doctor-told":
        return ps.say("obs.doctor.saved", day=day, target=seat(d.get("saved")))
    if obs.phase == "cupid-link":
        a, b = d["lovers"]
        return ps.say("obs.cupid", day=day, a=seat(a), b=seat(b))
    if obs.phase == "lovers-told":
        a, b = d["lovers"]
        lines = [ps.say("obs.lovers", day=day, a=seat(a), b=seat(b))]
        shown = obs.detail.get("identities")
        if shown:
            ia, ib = (ps.say(f"identity.{i}") for i in shown)
            lines.append(ps.say("obs.lovers.identities", a=seat(a), b=seat(b), ia=ia, ib=ib))
            if (shown[0] == "werewolf") != (shown[1] == "werewolf"):
                lines.append(ps.say("obs.lovers.third"))
        return " ".join(lines)
    return None


def _drawn(ps: PromptSet, names: Sequence[str], detail: Mapping[str, Any]) -> list[str]:
    """The random draw that settled a tie or an empty vote, as a line; none without one."""
    drawn = detail.get("draw")
    if not isinstance(drawn, Mapping):
        return []
    return [ps.say("obs.drawn", seats=seats_text(ps, names, drawn.get("among", [])))]


def _identity_name(ps: PromptSet, value: str) -> str:
    """An identity as the prompts name it ("a Villager", "医生"); an unknown one as given."""
    known = value in {i.value for i in Identity}
    return ps.say(f"identity.{value}") if known else value


def _revealed(ps: PromptSet, names: Sequence[str], detail: Mapping[str, Any]) -> str:
    """What the config revealed of the dead (``reveal_on_death``), as a sentence; ''."""
    told = detail.get("revealed") or []
    return "".join(
        " "
        + ps.say(
            "obs.revealed",
            seat=seat_label(ps, names, int(s)),
            what=ps.say(f"reveal.{what}")
            if what in ("wolves", "good")
            else _identity_name(ps, what),
        )
        for s, what in told
    )


def history_lines(view: SeatView, lang: str, *, after: int = 0) -> list[str]:
    """The seat's observations as text, oldest first (only those whose index is past
    ``after``)."""
    ps = prompt_set(lang)
    ballots = view.config.wolf_kill is WolfKill.VOTE
    lines: list[str] = []
    for obs in view.observations:
        if obs.index <= after:
            continue
        text = _observation(ps, view.names, obs, ballots=ballots)
        if text is not None:
            lines.append(text)
    return lines


def observation_text(view: SeatView, obs: Observation, lang: str) -> str | None:
    """One of the seat's observations as ``history_lines`` tells it, or None."""
    ballots = view.config.wolf_kill is WolfKill.VOTE
    return _observation(prompt_set(lang), view.names, obs, ballots=ballots)


def vote_outcome(view: SeatView, obs: Observation, lang: str) -> str:
    """What the vote ``obs`` decided and what followed, as the seat's history tells it."""
    return _vote_outcome(prompt_set(lang), view.names, obs)
