"""A run's games as the store holds them: records of the ended ones, and what is left."""

from __future__ import annotations

from dataclasses import dataclass

from pulse_core import EventStore

from .metrics import GameRecord, game_record
from .schedule import game_id
from .spec import RunSpec

__all__ = ["RunGames", "run_games"]


@dataclass(frozen=True, slots=True)
class RunGames:
    records: tuple[GameRecord, ...]  # ended games, by index
    unfinished: tuple[int, ...]  # started, not ended (in progress, failed or stopped)
    missing: tuple[int, ...]  # not started


def run_games(spec: RunSpec, store: EventStore) -> RunGames:
    """Read every planned game of the run from ``store``."""
    records: list[GameRecord] = []
    unfinished: list[int] = []
    missing: list[int] = []
    for index in range(spec.games):
        chain = store.chain(game_id(spec, index))
        if not chain:
            missing.append(index)
            continue
        record = game_record(chain)
        if record is None:
            unfinished.append(index)
        else:
            records.append(record)
    return RunGames(tuple(records), tuple(unfinished), tuple(missing))
