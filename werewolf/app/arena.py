"""Arena runs: a run made from its options (or continued), checked, saved and played.

::

    from werewolf.app.arena import RunOptions, prepare_run, run_arena

    prepared = prepare_run(RunOptions(name="baseline", players=["mock,random"], games=8), store)
    result = run_arena(prepared, store)

A run is saved (``arena/NAME.json`` beside the store) only once everything it needs was
checked: its players can be seated (keys set), its budget priced and its store opened; a
refused run leaves no run file behind. Given again, the same options continue a run that
was stopped; options that would change its games are refused. Reports, listing and
removal are in ``werewolf.app.arena_runs``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pulse_core.limits import read_document

from ..arena.roster import ArenaBudget, ArenaPlayer, Roster, load_roster, parse_players
from ..arena.runner import RunResult, check_play, check_store_path, open_run_store, play_run
from ..arena.seating import RunSeats, SeatFactory, check_keys, mock_seats
from ..arena.spec import RunSpec, Schedule, balance_unit, load_run, make_run, run_path, save_run
from ..arena.tally import RunProgress
from ..argtypes import DEFAULT_STORE
from ..boards import board_config, with_board
from ..config import GameConfig, parse_config
from ..errors import ConfigError, StoreFault
from ..lineup import Lineup, SeatSpec, load_lineup
from ..outputs import Kind, classify, refuse
from ..players.ledger import BillLedger
from ..pricing import with_bundled
from ..storefaults import STORAGE_ERRORS, explain, refuse_damaged

__all__ = [
    "PreparedRun",
    "RunInterrupted",
    "RunOptions",
    "prepare_run",
    "run_arena",
    "run_hint",
    "run_workers",
    "seat_factory",
    "with_budget",
]


@dataclass(frozen=True)
class RunOptions:
    """What a run is asked to be; None (or empty) for what is not said."""

    name: str = "arena"
    players: Sequence[str] = ()  # comma-separated [NAME=]KIND[:ARG] lists
    roster: Path | None = None
    lineup: Path | None = None
    schedule: str | None = None
    seed: int | None = None
    board: str | None = None
    config: Path | None = None
    beliefs: bool = False
    lang: str | None = None
    games: int | None = None
    budget_tokens: int | None = None
    budget_usd: float | None = None
    prices: Path | None = None


@dataclass(frozen=True)
class PreparedRun:
    """A run checked and saved, ready to play: its spec, file and seat factory."""

    spec: RunSpec
    run_file: Path
    factory: SeatFactory
    workers: int


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: finished games are saved and the run continues when asked."""

    def __init__(self, spec: RunSpec, store: Path) -> None:
        super().__init__(spec.name)
        self.spec, self.store = spec, store


def run_hint(name: str, store: Path) -> str:
    """The command that continues the run ``name``."""
    where = "" if store == DEFAULT_STORE else f" --store {store}"
    return f"werewolf arena run --name {name}{where}"


def seat_factory(spec: RunSpec, store: Path | None = None) -> SeatFactory:
    """How the run's seats are made; every player is tried once now (and LLM players' key
    variables checked), so a player that cannot be seated fails before a game starts. LLM
    seats write every answer to the bill ledger of ``store`` as it arrives."""
    check_keys({p.name: p.spec for p in spec.players})
    ledger = BillLedger(store) if store is not None else None
    factory = RunSeats(lang=spec.lang, ledger=ledger) if spec.uses_tokens else mock_seats(spec.lang)
    for player in spec.players:
        factory(player.spec, 0, 1)
    return factory


def _lineup_players(lineup: Lineup, seats: int) -> tuple[list[ArenaPlayer], tuple[str, ...]]:
    """Arena players from a lineup file: one per distinct seat spec, named by its ``name``
    or its label (``mock:bold``, ``llm:gpt-4o``)."""
    specs = lineup.resolve(seats)
    names: dict[SeatSpec, str] = {}
    for spec in specs.values():
        if spec not in names:
            label = spec.name or (
                f"mock:{spec.personality}"
                if spec.kind == "mock" and spec.personality
                else spec.label()
            )
            if label in names.values():
                raise ConfigError(
                    [("--lineup", f"two different seats are both {label!r}: give them names")]
                )
            names[spec] = label
    players = parse_players([], Roster(players={n: s for s, n in names.items()}))
    return players, tuple(names[specs[s]] for s in range(1, seats + 1))


def _new_run(
    options: RunOptions, *, created_ms: int | None = None, games: int | None = None
) -> RunSpec:
    roster = load_roster(options.roster) if options.roster is not None else None
    lineup = load_lineup(options.lineup) if options.lineup is not None else None
    prices = dict(roster.prices) if roster else {}
    budget = roster.budget if roster else ArenaBudget()
    seating: tuple[str, ...] | None = None
    config = _run_config(options)
    if lineup is not None:
        if options.players:
            raise ConfigError([("--lineup", "a lineup names its players: leave out --players")])
        players, seating = _lineup_players(lineup, config.seats)
        prices |= lineup.prices
        if lineup.budget.tokens is not None:
            budget = _budget(budget, tokens=lineup.budget.tokens)
        schedule = Schedule.LINEUP
    else:
        players = parse_players(list(options.players), roster)
        if not players:
            raise ConfigError([("--players", "name the players, e.g. --players mock,random")])
        schedule = Schedule(
            options.schedule or ("head-to-head" if len(players) == 2 else "round-robin")
        )
    if options.beliefs or (lineup is not None and lineup.beliefs):
        config = config.model_copy(update={"beliefs": True})
    fields: dict[str, Any] = {
        "config": config,
        "name": options.name,
        "players": players,
        "schedule": schedule,
        "lineup": seating,
        "seed": options.seed if options.seed is not None else 0,
        "lang": options.lang or "en",
        "prices": prices,
        "budget": budget,
        "created_ms": time.time_ns() // 1_000_000 if created_ms is None else created_ms,
        "games": 1,
    }
    unit = max(1, balance_unit(schedule, len(players), config.seats))
    fields["games"] = options.games or games or unit * math.ceil(60 / unit)
    return make_run(**fields)


def _run_config(options: RunOptions) -> GameConfig:
    """``--board NAME`` and ``--config FILE``: the rules every game of the run plays (the
    file's fields over the board's; the default board else)."""
    board = options.board
    if options.config is None:
        return board_config(board, "--board") if board else GameConfig()
    data = read_document(options.config)
    if not isinstance(data, dict):
        raise ConfigError([(str(options.config), "must hold a table of config fields")])
    try:
        return parse_config(with_board(data, board), strict=True)
    except ConfigError as exc:  # name the file, as werewolf play --config does
        raise ConfigError(
            [(f"{options.config}: {field}", message) for field, message in exc.problems]
        ) from None


def _continued_run(options: RunOptions, saved: RunSpec) -> RunSpec:
    """The saved run, with more games if asked. The same options as before continue it
    (so the command that was interrupted can simply be given again); options that would
    change its games are refused."""
    given = [
        flag
        for flag, value in (
            ("--players", options.players),
            ("--roster", options.roster),
            ("--lineup", options.lineup),
            ("--schedule", options.schedule),
            ("--seed", options.seed),
        )
        if value
    ]
    rules = _run_config(options).model_copy(update={"beliefs": saved.config.beliefs})
    if options.config is not None and rules != saved.config:
        raise ConfigError(
            [("--config", f"run {saved.name} exists with other rules: pick another --name")]
        )
    if options.lang is not None and options.lang != saved.lang:
        raise ConfigError(
            [("--lang", f"run {saved.name} was played in {saved.lang!r}: pick another --name")]
        )
    if options.beliefs and not saved.config.beliefs:
        raise ConfigError(
            [
                (
                    "--beliefs",
                    f"run {saved.name} was played without belief reports: pick a new --name",
                )
            ]
        )
    if given:
        if options.players or options.roster or options.lineup:
            seed = options.seed if options.seed is not None else saved.seed
            schedule = options.schedule
            if schedule is None and saved.schedule is not Schedule.LINEUP:
                schedule = saved.schedule.value
            same = dataclasses.replace(options, seed=seed, schedule=schedule)
            asked = _new_run(same, created_ms=saved.created_ms, games=saved.games).identity()
        else:  # only the seed or the schedule: compare those
            asked = {**saved.identity(), "seed": options.seed or saved.seed}
            asked["schedule"] = options.schedule or saved.schedule.value
        differ = [k for k, v in asked.items() if saved.identity()[k] != v]
        if differ:
            raise ConfigError(
                [
                    (
                        given[0],
                        f"run {saved.name} exists with other {', '.join(differ)}: continue "
                        "it with its own options (or none), or pick another --name",
                    )
                ]
            )
    if options.games is None or options.games == saved.games:
        return saved
    if options.games < saved.games:
        raise ConfigError(
            [("--games", f"run {saved.name} has {saved.games} games: a run never shrinks")]
        )
    return make_run(**{**saved.model_dump(), "games": options.games})


def _budget(budget: ArenaBudget, **changes: object) -> ArenaBudget:
    """``budget`` with ``changes``, validated (``model_copy`` would not check them)."""
    try:
        return ArenaBudget.model_validate({**budget.model_dump(), **changes})
    except ValidationError as exc:
        raise ConfigError(
            [(f"budget.{e['loc'][0]}", str(e["msg"])) for e in exc.errors() if e["loc"]]
        ) from None


def _with_bundled_prices(spec: RunSpec) -> RunSpec:
    """The spec, validated, with the bundled price of each model it does not price (kept in
    the run file, so its report stays the same when the bundled table changes)."""
    prices = with_bundled(spec.prices, (p.spec.model for p in spec.players if p.uses_tokens))
    return make_run(**{**spec.model_dump(), "prices": prices})


def with_budget(options: RunOptions, spec: RunSpec) -> RunSpec:
    """``spec`` with the budget and prices ``options`` give, validated."""
    budget = spec.budget
    if options.budget_tokens is not None:
        budget = _budget(budget, tokens=options.budget_tokens)
    if options.budget_usd is not None:
        budget = _budget(budget, usd=options.budget_usd)
    prices = spec.prices
    if options.prices is not None:
        prices = {**prices, **load_lineup(options.prices).prices}
    if budget == spec.budget and prices == spec.prices:
        return spec
    return make_run(**{**spec.model_dump(), "budget": budget, "prices": prices})


def run_workers(workers: int | None, spec: RunSpec) -> int:
    """The processes a run plays in: as asked, else one per CPU core (one with LLM
    players: their budget is counted in one process)."""
    if workers is not None:
        return workers
    return 1 if spec.uses_tokens else max(1, os.cpu_count() or 1)


def prepare_run(options: RunOptions, store: Path, *, workers: int | None = None) -> PreparedRun:
    """The run to play (new, or the saved one continued), saved once everything it needs
    was checked; see the module docstring."""
    run_file = run_path(store, options.name)
    found = classify(run_file)
    if found in (Kind.FOLDER, Kind.SPECIAL):  # any other file must load as a run to be saved
        raise refuse(run_file, "--name", found, wanted="another run")
    spec = _continued_run(options, load_run(run_file)) if run_file.exists() else _new_run(options)
    spec = _with_bundled_prices(with_budget(options, spec))  # a saved run always loads again
    factory = seat_factory(spec, store)
    used = run_workers(workers, spec)
    check_play(spec, workers=used, factory=factory)
    check_store_path(store)
    opened = open_run_store(store)
    try:
        refuse_damaged(opened)
    finally:
        opened.close()
    save_run(run_file, spec)
    return PreparedRun(spec, run_file, factory, used)


def run_arena(
    prepared: PreparedRun,
    store: Path,
    *,
    concurrency: int = 8,
    on_progress: Callable[[RunProgress], None] | None = None,
    lock_timeout: float | None = None,
) -> RunResult:
    """Play every game of the run not yet ended. Ctrl-C raises ``RunInterrupted``; a
    storage fault is one line naming the store and the command that continues the run."""
    spec = prepared.spec
    try:
        return play_run(
            spec,
            prepared.run_file,
            store,
            concurrency=concurrency,
            workers=prepared.workers,
            factory=prepared.factory,
            on_progress=on_progress,
            lock_timeout=lock_timeout,
        )
    except KeyboardInterrupt:
        raise RunInterrupted(spec, store) from None
    except STORAGE_ERRORS as exc:
        raise StoreFault(explain(exc, store, run_hint(spec.name, store))) from None
