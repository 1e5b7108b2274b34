"""One ended arena game read from its log alone: ``game_record(chain)`` gives who held each seat
(the start event's ``game.arena.assignment``), the deal, the winner, deaths, votes, checks,
potions, decisions, fallbacks and token usage, as a ``GameRecord`` of ``SeatRecord``s; the
figures (``metrics``) are computed from these records."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pulse_core import Event

from ..cast import Identity, Team, team_of
from ..errors import GameStateError
from ..events import meaning_of
from ..game import fold_chain
from ..state import Cause, Outcome
from .beliefs import BeliefRecord, ReadAttachment, belief_records
from .ratings import Match, weights_of

__all__ = ["GameRecord", "SeatRecord", "game_record"]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of one ended game, with what its player did there."""

    seat: int
    player: str
    identity: Identity
    model: str | None
    won: bool
    alive: bool
    last_day: int  # the day it died, or the game's last day
    votes_cast: int = 0
    votes_on_wolves: int = 0
    checks: int = 0
    checks_on_wolves: int = 0
    saves: int = 0
    good_saves: int = 0
    poisons: int = 0
    wolf_poisons: int = 0
    decisions: int = 0
    fallbacks: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    answers: int = 0  # usage entries: answers that reported tokens and latency
    latency_ms: float = 0.0  # summed over those answers
    estimated_tokens: int = 0  # of the tokens, those estimated (the endpoint reported none)

    @property
    def team(self) -> Team:
        return team_of(self.identity)


@dataclass(frozen=True, slots=True)
class GameRecord:
    index: int
    winner: Outcome
    seats: tuple[SeatRecord, ...]
    exiles: tuple[tuple[int, bool], ...]  # (exiled seat, was a wolf), in order
    beliefs: tuple[BeliefRecord, ...] = ()  # every seat's belief reports (config beliefs)

    def seat(self, number: int) -> SeatRecord:
        return self.seats[number - 1]

    def side(self, team: Team) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats if s.team is team)

    def match(self) -> Match:
        score = {Outcome.WOLVES: 1.0, Outcome.GOOD: 0.0, Outcome.DRAW: 0.5}[self.winner]
        sides = {t.value: self.side(t) for t in Team}
        return Match(weights_of(sides), score)


def _arena(chain: Sequence[Event]) -> dict[str, Any]:
    game = chain[0].meta.get("game", {})
    arena = game.get("arena")
    if not isinstance(arena, dict) or not isinstance(arena.get("assignment"), list):
        raise GameStateError(f"game {chain[0].key} was not played in the arena (no assignment)")
    return arena


def game_record(chain: Sequence[Event], read: ReadAttachment | None = None) -> GameRecord | None:
    """The record of an ended arena game; None while the game has not ended. ``read``
    gives an event's attachment (from the store): belief reports are read with it."""
    if not chain:
        raise GameStateError("an empty chain is not a game")
    arena = _arena(chain)
    state = fold_chain(chain)
    if not state.ended or state.winner is None:
        return None
    players = [str(p) for p in arena["assignment"]]
    if len(players) != len(state.identities):
        raise GameStateError(
            f"game {chain[0].key}: {len(players)} players for {len(state.identities)} seats"
        )
    specs = chain[0].meta["game"].get("players") or [{}] * len(players)
    counts: dict[int, Counter[str]] = {s: Counter() for s in state.seats}
    latency: dict[int, float] = dict.fromkeys(state.seats, 0.0)
    exiles: list[tuple[int, bool]] = []
    wolf_target: int | None = None
    for event in chain:
        _count_event(event, state.team, counts, latency, exiles, wolf_target)
        if event.role == "wolf-night":
            wolf_target = event.meta["diff"].get("target")
    last_day = {d.seat: d.day for d in state.deaths}
    seats = tuple(
        SeatRecord(
            seat=seat,
            player=players[seat - 1],
            identity=state.identity(seat),
            model=specs[seat - 1].get("model") if isinstance(specs[seat - 1], dict) else None,
            won=state.winner.value == state.team(seat).value,
            alive=state.is_alive(seat),
            last_day=last_day.get(seat, state.night),
            latency_ms=latency[seat],
            **counts[seat],
        )
        for seat in state.seats
    )
    beliefs = belief_records(chain, read) if read is not None else ()
    return GameRecord(int(arena.get("index", 0)), state.winner, seats, tuple(exiles), beliefs)


_EXILE = Cause.EXILE.value


def _count_event(
    event: Event,
    team: Callable[[int], Team],
    counts: dict[int, Counter[str]],
    latency: dict[int, float],
    exiles: list[tuple[int, bool]],
    wolf_target: int | None,
) -> None:
    """Add one event's decisions, votes, checks, potions, fallbacks and usage to ``counts``."""
    meta, role = event.meta, event.role
    diff, detail = meta.get("diff", {}), meta.get("detail", {})
    decided: list[int] = []
    if role == "wolf-night":
        decided += [int(d["seat"]) for d in detail.get("discussion", [])]
        decided += [int(seat) for rnd in detail.get("proposals", []) for seat, _ in rnd]
    elif role in ("witch-action", "seer-check"):
        decided += [int(s) for s in meta.get("visible_to") or []]
    elif role == "hunter-shot":
        decided.append(int(diff["shooter"]))
    elif role in ("last-words", "day-speech"):
        decided.append(int(diff["speaker"]))
    elif role == "vote":
        for voter, target in detail.get("ballots", []):
            decided.append(int(voter))
            if target is not None and team(voter) is Team.GOOD:
                counts[voter]["votes_cast"] += 1
                counts[voter]["votes_on_wolves"] += team(target) is Team.WOLVES
        # an exile is a death the vote means (an idiot who shows his card lives on)
        for seat, cause in meaning_of(role, diff, detail).deaths:
            if cause == _EXILE:
                exiles.append((seat, team(seat) is Team.WOLVES))
    for seat in decided:
        counts[seat]["decisions"] += 1
    if role == "seer-check" and diff.get("target") is not None:
        seer = decided[0]
        counts[seer]["checks"] += 1
        counts[seer]["checks_on_wolves"] += bool(diff.get("wolf"))
    if role == "witch-action":
        witch = decided[0]
        if diff.get("save") and wolf_target is not None:
            counts[witch]["saves"] += 1
            counts[witch]["good_saves"] += team(wolf_target) is Team.GOOD
        if diff.get("poison") is not None:
            counts[witch]["poisons"] += 1
            counts[witch]["wolf_poisons"] += team(diff["poison"]) is Team.WOLVES
    for fb in meta.get("fallbacks", []):
        counts[int(fb["seat"])]["fallbacks"] += 1
    for use in meta.get("usage", []):
        seat = int(use["seat"])
        counts[seat]["prompt_tokens"] += int(use.get("prompt_tokens", 0))
        counts[seat]["completion_tokens"] += int(use.get("completion_tokens", 0))
        counts[seat]["calls"] += int(use.get("calls", 0))
        counts[seat]["answers"] += 1
        if use.get("estimated"):
            counts[seat]["estimated_tokens"] += int(use.get("prompt_tokens", 0)) + int(
                use.get("completion_tokens", 0)
            )
        latency[seat] += float(use.get("latency_ms", 0.0))
