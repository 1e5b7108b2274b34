"""Tournament figures, computed from the games' logs alone.

``tournament_metrics(records, ...)`` turns the records of the ended games (``game_records``)
into per-player and per-role figures, each with a 95% interval, and the ratings.

Definitions (each rate is a Wilson interval; means and ratios are bootstrapped over games):

- win rate: one observation per game and side a player is on (a player holding seats on
  both sides counts once for each); a draw is not a win. By team: the same, per side. By
  role: one observation per seat held.
- survival: the share of seats held that were alive when the game ended.
- votes on wolves (good seats): ballots for a seat (abstentions left out), PK rounds too.
- exiles of wolves (good side): every exile of a game where the player held a good seat.
- seer checks on wolves; witch saves of a good player (the wolves' target was good) and
  poisons of a wolf: per check, save or poison of the seats the player held.
- wolf days: for each wolf seat, the day it died, or the game's last day if it lived.
- fallback rate: decisions taken by the fallback after refused answers, over decisions.
- tokens and cost per game (games the player played) and per decision; latency per answer.
- belief figures (games with belief reports): see ``beliefs``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cast import Identity, Team
from ..errors import GameStateError
from ..lineup import Price
from ..state import Outcome
from .beliefs import (
    BeliefRecord,
    CalibrationBin,
    brier,
    calibration,
    deception,
    log_loss,
)
from .game_records import GameRecord, SeatRecord
from .intervals import Estimate, bootstrap_ratio, resamples, wilson
from .ratings import bradley_terry_estimates, elo_estimates

__all__ = [
    "ROLES",
    "Matchup",
    "PlayerMetrics",
    "RoleMetrics",
    "TournamentMetrics",
    "tournament_metrics",
]

ROLES = (Identity.WEREWOLF, Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.VILLAGER)
"""The roles every report lists; the other identities are listed when a run deals them."""


# -- figures ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoleMetrics:
    seats: int
    win: Estimate
    survival: Estimate


@dataclass(frozen=True, slots=True)
class PlayerMetrics:
    name: str
    games: int
    win: Estimate
    win_as: dict[str, Estimate]  # by team: "wolves", "good"
    draws: int
    survival: Estimate
    roles: dict[str, RoleMetrics]
    votes_on_wolves: Estimate
    exiles_of_wolves: Estimate
    seer_checks_on_wolves: Estimate
    witch_saves_of_good: Estimate
    witch_poisons_on_wolves: Estimate
    wolf_days: Estimate
    fallback_rate: Estimate
    decisions: int
    calls: int
    tokens: int
    tokens_per_game: Estimate
    tokens_per_decision: Estimate
    cost: float | None  # USD; None without a price (or without tokens)
    cost_per_game: Estimate
    cost_per_decision: Estimate
    latency_ms: Estimate
    estimated_tokens: int = 0  # of ``tokens``, those estimated (the endpoint reported none)
    # belief figures (none without belief reports): the player's good seats' reports
    belief_reports: int = 0
    brier: Estimate = field(default_factory=lambda: Estimate(None, None, None, 0))
    log_loss: Estimate = field(default_factory=lambda: Estimate(None, None, None, 0))
    brier_by_day: dict[str, Estimate] = field(default_factory=dict)  # "1", "2", "3+"
    brier_by_identity: dict[str, Estimate] = field(default_factory=dict)
    deception: Estimate = field(default_factory=lambda: Estimate(None, None, None, 0))
    calibration: list[CalibrationBin] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Matchup:
    first: str
    second: str
    games: int
    first_wins: int
    second_wins: int
    draws: int
    first_win_rate: Estimate


@dataclass(frozen=True, slots=True)
class TournamentMetrics:
    games: int
    wolves_win: Estimate
    draws: int
    players: dict[str, PlayerMetrics]
    elo: dict[str, Estimate]
    bradley_terry: dict[str, Estimate]
    wolf_edge: Estimate
    matchups: list[Matchup] = field(default_factory=list)
    calibration: list[CalibrationBin] = field(default_factory=list)  # every good seat's reports


def _cost(seat: SeatRecord, prices: Mapping[str, Price]) -> float | None:
    if seat.prompt_tokens + seat.completion_tokens == 0:
        return 0.0
    price = prices.get(seat.model) if seat.model else None
    return None if price is None else price.cost(seat.prompt_tokens, seat.completion_tokens)


def _rate(seats: Sequence[SeatRecord], hits: str, total: str) -> Estimate:
    return wilson(sum(getattr(s, hits) for s in seats), sum(getattr(s, total) for s in seats))


def _player(
    name: str,
    records: Sequence[GameRecord],
    prices: Mapping[str, Price],
    rounds: int,
    seed: int,
) -> PlayerMetrics:
    games = [r for r in records if any(s.player == name for s in r.seats)]
    seats = [s for r in games for s in r.seats if s.player == name]
    sides = [
        (team, r.winner)
        for r in games
        for team in Team
        if any(s.player == name and s.team is team for s in r.seats)
    ]
    win_as = {
        team.value: wilson(
            sum(1 for t, w in sides if t is team and w.value == team.value),
            sum(1 for t, _ in sides if t is team),
        )
        for team in Team
    }
    roles = {}
    for role in (*ROLES, *(i for i in Identity if i not in ROLES)):
        held = [s for s in seats if s.identity is role]
        if not held and role not in ROLES:
            continue
        roles[role.value] = RoleMetrics(
            len(held),
            wilson(sum(s.won for s in held), len(held)),
            wilson(sum(s.alive for s in held), len(held)),
        )
    good = [s for s in seats if s.team is Team.GOOD]
    exiles = [
        e
        for r in games
        if any(s.player == name and s.team is Team.GOOD for s in r.seats)
        for e in r.exiles
    ]
    per_game = [[s for s in r.seats if s.player == name] for r in games]
    draws = resamples(len(games), rounds, f"{seed}|{name}")
    wolf_seats = [[s for s in g if s.team is Team.WOLVES] for g in per_game]  # kings too
    decisions = [float(sum(s.decisions for s in g)) for g in per_game]
    tokens = [float(sum(s.prompt_tokens + s.completion_tokens for s in g)) for g in per_game]
    answers = [float(sum(s.answers for s in g)) for g in per_game]
    calls = sum(s.calls for s in seats)
    costs = [[_cost(s, prices) for s in g] for g in per_game]
    priced = calls > 0 and all(c is not None for g in costs for c in g)
    cost_per_game = [sum(c or 0.0 for c in g) for g in costs]
    ones = [1.0] * len(games)
    none = Estimate(None, None, None, len(games))
    believed = _belief_figures(name, games, draws)
    return PlayerMetrics(
        name=name,
        games=len(games),
        win=wilson(sum(1 for t, w in sides if w.value == t.value), len(sides)),
        win_as=win_as,
        draws=sum(1 for r in games if r.winner is Outcome.DRAW),
        survival=wilson(sum(s.alive for s in seats), len(seats)),
        roles=roles,
        votes_on_wolves=_rate(good, "votes_on_wolves", "votes_cast"),
        exiles_of_wolves=wilson(sum(w for _, w in exiles), len(exiles)),
        seer_checks_on_wolves=_rate(seats, "checks_on_wolves", "checks"),
        witch_saves_of_good=_rate(seats, "good_saves", "saves"),
        witch_poisons_on_wolves=_rate(seats, "wolf_poisons", "poisons"),
        wolf_days=bootstrap_ratio(
            [float(sum(s.last_day for s in g)) for g in wolf_seats],
            [float(len(g)) for g in wolf_seats],
            draws,
        ),
        fallback_rate=_rate(seats, "fallbacks", "decisions"),
        decisions=int(sum(decisions)),
        calls=calls,
        tokens=int(sum(tokens)),
        estimated_tokens=sum(s.estimated_tokens for s in seats),
        tokens_per_game=bootstrap_ratio(tokens, ones, draws) if calls else none,
        tokens_per_decision=bootstrap_ratio(tokens, decisions, draws) if calls else none,
        cost=sum(cost_per_game) if priced else None,
        cost_per_game=bootstrap_ratio(cost_per_game, ones, draws) if priced else none,
        cost_per_decision=bootstrap_ratio(cost_per_game, decisions, draws) if priced else none,
        latency_ms=bootstrap_ratio(
            [sum(s.latency_ms for s in g) for g in per_game], answers, draws
        ),
        **believed,
    )


def _good_reports(record: GameRecord) -> list[BeliefRecord]:
    return [r for r in record.beliefs if record.seat(r.believer).team is Team.GOOD]


def _belief_figures(name: str, games: Sequence[GameRecord], draws: Any) -> dict[str, Any]:
    """The player's belief figures: its good seats' reports scored, and the good side's
    reports about its wolf seats (deception); nothing when no game had reports."""
    if not any(r.beliefs for r in games):
        return {}
    mine = [[r for r in _good_reports(g) if g.seat(r.believer).player == name] for g in games]
    about_me = [
        [
            r
            for r in _good_reports(g)
            if g.seat(r.target).player == name and g.seat(r.target).team is Team.WOLVES
        ]
        for g in games
    ]
    days: dict[str, tuple[int, int]] = {"1": (1, 1), "2": (2, 2), "3+": (3, 10**6)}
    by_day = {
        label: brier([[r for r in g if low <= r.day <= high] for g in mine], draws)
        for label, (low, high) in days.items()
    }
    by_identity = {
        role.value: brier(
            [
                [r for r in gm if g.seat(r.believer).identity is role]
                for gm, g in zip(mine, games, strict=True)
            ],
            draws,
        )
        for role in ROLES
        if role is not Identity.WEREWOLF
    }
    return {
        "belief_reports": sum(len(g) for g in mine),
        "brier": brier(mine, draws),
        "log_loss": log_loss(mine, draws),
        "brier_by_day": by_day,
        "brier_by_identity": by_identity,
        "deception": deception(about_me, draws),
        "calibration": calibration([r for g in mine for r in g]),
    }


def _matchups(records: Sequence[GameRecord], players: Sequence[str]) -> list[Matchup]:
    """Games with one player per side and two different players, by pair (in roster order)."""
    order = {p: i for i, p in enumerate(players)}
    tally: dict[tuple[str, str], Counter[str]] = {}
    for r in records:
        wolves, good = set(r.side(Team.WOLVES)), set(r.side(Team.GOOD))
        if len(wolves) != 1 or len(good) != 1 or wolves == good:
            continue
        w, g = next(iter(wolves)), next(iter(good))
        pair = (w, g) if order[w] < order[g] else (g, w)
        counts = tally.setdefault(pair, Counter())
        counts["games"] += 1
        if r.winner is Outcome.DRAW:
            counts["draws"] += 1
        else:
            counts[w if r.winner is Outcome.WOLVES else g] += 1
    return [
        Matchup(a, b, c["games"], c[a], c[b], c["draws"], wilson(c[a], c["games"]))
        for (a, b), c in sorted(tally.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]]))
    ]


def tournament_metrics(
    records: Sequence[GameRecord],
    players: Sequence[str],
    *,
    prices: Mapping[str, Price] | None = None,
    rounds: int = 1000,
    seed: int = 0,
) -> TournamentMetrics:
    """Every figure of a tournament from its ended games' records (in any order: they are
    sorted by game index). ``prices`` by model; ``rounds`` bootstrap resamples, drawn from
    ``seed``, so the same games always give the same figures."""
    records = sorted(records, key=lambda r: r.index)
    unknown = sorted({s.player for r in records for s in r.seats} - set(players))
    if unknown:
        raise GameStateError(f"games name players not in the run: {', '.join(unknown)}")
    matches = [r.match() for r in records]
    draws = resamples(len(records), rounds, f"{seed}|ratings")
    bt, edge = bradley_terry_estimates(matches, players, draws)
    return TournamentMetrics(
        games=len(records),
        wolves_win=wilson(sum(r.winner is Outcome.WOLVES for r in records), len(records)),
        draws=sum(r.winner is Outcome.DRAW for r in records),
        players={p: _player(p, records, prices or {}, rounds, seed) for p in players},
        elo=elo_estimates(matches, players, draws),
        bradley_terry=bt,
        wolf_edge=edge,
        matchups=_matchups(records, players),
        calibration=calibration([r for g in records for r in _good_reports(g)])
        if any(g.beliefs for g in records)
        else [],
    )
