"""Seating a run's games: each seat gets a player made from its arena player's seat spec."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..errors import ConfigError
from ..lineup import SeatSpec
from ..players import Player, make_player
from ..state import GameState
from .schedule import GamePlan

__all__ = ["SeatFactory", "run_seating", "seat_player"]

SeatFactory = Callable[[SeatSpec, int, int], Player]
"""Makes the player of one seat: ``(spec, game_seed, seat) -> Player``."""


def seat_player(spec: SeatSpec, game_seed: int, seat: int) -> Player:
    """The player of ``seat`` for ``spec``: mock (with its personality, if named), random."""
    if spec.kind == "mock":
        options = {"personality": spec.personality} if spec.personality else {}
        return make_player("mock", game_seed=game_seed, seat=seat, **options)
    if spec.kind == "random":
        return make_player("random", game_seed=game_seed, seat=seat)
    raise ConfigError([("players", f"{spec.label()}: this build cannot seat {spec.kind} players")])


def run_seating(
    plans: Mapping[str, GamePlan],
    specs: Mapping[str, SeatSpec],
    factory: SeatFactory = seat_player,
) -> Callable[[str, GameState], Mapping[int, Player]]:
    """The workflow's seating for a run: ``plans`` by game id, ``specs`` by player name.
    Players are made once per game and dropped when it is decided."""
    games: dict[str, dict[int, Player]] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        players = games.get(game_id)
        if players is None:
            plan = plans[game_id]
            players = {
                seat: factory(specs[plan.assignment[seat - 1]], state.seed, seat)
                for seat in state.seats
            }
            games[game_id] = players
        if state.winner is not None or state.ended:
            games.pop(game_id, None)
        return players

    return seating
