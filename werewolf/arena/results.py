"""A run's games as the store holds them: records of the ended ones, what is left, and
the tokens every game was billed (what the run's budget counts, unfinished games too)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pulse_core import Event, EventStore
from pulse_core.workflow import read_attachment

from ..lineup import Price
from .game_records import GameRecord, game_record
from .record_cache import RecordCache
from .schedule import game_id, plan_game
from .spec import RunSpec

__all__ = ["RunGames", "Spent", "run_games"]


@dataclass(frozen=True, slots=True)
class Spent:
    """Tokens billed, by model (``None``: a seat without one), as (prompt, completion);
    ``estimated``: how many of them were estimated (the endpoint reported no usage)."""

    by_model: Mapping[str | None, tuple[int, int]] = field(default_factory=dict)
    estimated: int = 0

    @property
    def tokens(self) -> int:
        return sum(p + c for p, c in self.by_model.values())

    def cost(self, prices: Mapping[str, Price]) -> float | None:
        """USD at ``prices``; None when a model that used tokens has no price."""
        total = 0.0
        for model, (p, c) in self.by_model.items():
            price = prices.get(model) if model else None
            if p + c and price is None:
                return None
            total += price.cost(p, c) if price is not None else 0.0
        return total

    def __add__(self, other: Spent) -> Spent:
        merged = dict(self.by_model)
        for model, (p, c) in other.by_model.items():
            before = merged.get(model, (0, 0))
            merged[model] = (before[0] + p, before[1] + c)
        return Spent(merged, self.estimated + other.estimated)


def spent_of_records(records: Iterable[GameRecord]) -> Spent:
    """What ended games were billed, from their records."""
    spent = Spent()
    for record in records:
        for seat in record.seats:
            if seat.prompt_tokens or seat.completion_tokens:
                one = {seat.model: (seat.prompt_tokens, seat.completion_tokens)}
                spent += Spent(one, seat.estimated_tokens)
    return spent


def _spent_of_chain(spec: RunSpec, index: int, chain: Sequence[Event]) -> Spent:
    """What a game's events recorded as billed, by the model of each seat's player."""
    assignment = plan_game(spec, index).assignment
    spent = Spent()
    for event in chain:
        for use in event.meta.get("usage", []):
            p, c = int(use.get("prompt_tokens", 0)), int(use.get("completion_tokens", 0))
            model = spec.player(assignment[int(use["seat"]) - 1]).spec.model
            spent += Spent({model: (p, c)}, p + c if use.get("estimated") else 0)
    return spent


@dataclass(frozen=True, slots=True)
class RunGames:
    records: tuple[GameRecord, ...]  # ended games, by index
    unfinished: tuple[int, ...]  # started, not ended (in progress, failed or stopped)
    missing: tuple[int, ...]  # not started
    unfinished_spent: Spent = field(default_factory=Spent)  # billed to unfinished games

    @property
    def ended_spent(self) -> Spent:
        """Billed to the ended games: the ones the report's figures are of."""
        return spent_of_records(self.records)

    @property
    def spent(self) -> Spent:
        """Billed to every game of the run, ended or not: what its budget counts."""
        return self.ended_spent + self.unfinished_spent


def run_games(spec: RunSpec, store: EventStore, cache: Path | None = None) -> RunGames:
    """Read every planned game of the run from ``store``; with a ``cache`` file, ended
    games already read by an earlier report are taken from it (see ``record_cache``)."""
    records: list[GameRecord] = []
    unfinished: list[int] = []
    unfinished_spent = Spent()
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
            unfinished_spent += _spent_of_chain(spec, index, chain)
        else:
            records.append(record)
            if kept is not None:
                kept.add(key, record)
    if kept is not None:
        kept.save()
    return RunGames(tuple(records), tuple(unfinished), tuple(missing), unfinished_spent)
