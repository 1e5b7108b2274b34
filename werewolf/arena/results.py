"""A run's games as the store holds them: records of the ended ones, and what is left."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pulse_core import EventStore
from pulse_core.workflow import read_attachment

from .metrics import GameRecord, game_record
from .record_cache import RecordCache
from .schedule import game_id
from .spec import RunSpec

__all__ = ["RunGames", "run_games"]


@dataclass(frozen=True, slots=True)
class RunGames:
    records: tuple[GameRecord, ...]  # ended games, by index
    unfinished: tuple[int, ...]  # started, not ended (in progress, failed or stopped)
    missing: tuple[int, ...]  # not started


def run_games(spec: RunSpec, store: EventStore, cache: Path | None = None) -> RunGames:
    """Read every planned game of the run from ``store``; with a ``cache`` file, ended
    games already read by an earlier report are taken from it (see ``record_cache``)."""
    records: list[GameRecord] = []
    unfinished: list[int] = []
    missing: list[int] = []
    kept = RecordCache(cache, store) if cache is not None else None
    for index in range(spec.games):
        key = game_id(spec, index)
        record = kept.records.get(key) if kept is not None else None
        if record is not None:
            records.append(record)
            continue
        chain = store.chain(key)
        if not chain:
            missing.append(index)
            continue
        record = game_record(chain, lambda event, name: read_attachment(store, event, name))
        if record is None:
            unfinished.append(index)
        else:
            records.append(record)
            if kept is not None:
                kept.add(key, record)
    if kept is not None:
        kept.save()
    return RunGames(tuple(records), tuple(unfinished), tuple(missing))
