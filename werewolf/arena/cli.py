"""``werewolf arena``: run a tournament, report on it, or run the built-in mock baseline.

::

    werewolf arena run --players mock,random,mock:bold --games 60 --name baseline
    werewolf arena report baseline [--markdown F] [--json F] [--plot DIR]
    werewolf arena list
    werewolf arena rm NAME
    werewolf arena baseline

Bad input prints one line and exits with 2 (the ``werewolf`` command's handler turns the
package's errors into that line); Ctrl-C exits with 130 and says how to continue.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from pulse_core.limits import clip, read_document

from ..argtypes import (
    DEFAULT_STORE,
    EXIT_INTERRUPTED,
    add_lock_timeout,
    int_in,
    number_in,
    seed_number,
    width,
)
from ..boards import BOARDS, board_config, with_board
from ..config import GameConfig, parse_config
from ..errors import ConfigError, GameFileError, StoreFault, WerewolfError
from ..lineup import Lineup, SeatSpec, load_lineup
from ..outputs import Kind, check_output, classify, one_file, refuse, write_output
from ..players.ledger import BillLedger
from ..players.prompting import LANGS
from ..pricing import with_bundled
from ..storefaults import STORAGE_ERRORS, explain, refuse_damaged
from .metrics import tournament_metrics
from .record_cache import cache_path
from .report import Report
from .report_json import report_json_text
from .report_plots import CHARTS, require_matplotlib, write_plots
from .report_tables import render_report, report_markdown
from .results import run_games
from .roster import ArenaBudget, ArenaPlayer, Roster, load_roster, parse_players
from .runner import RunResult, check_play, check_store_path, open_run_store, play_run
from .schedule import game_id
from .seating import RunSeats, SeatFactory, check_keys, mock_seats
from .spec import RunSpec, Schedule, balance_unit, load_run, make_run, run_path, save_run
from .tally import RunProgress, Tally

__all__ = ["BASELINE_PLAYERS", "add_arena", "build_report", "seat_factory"]

EXIT_UNFINISHED = 1
BASELINE_PLAYERS = ("mock:cautious", "mock:steady", "mock:bold", "random")
BASELINE_GAMES = 72
# the most each option takes: far beyond any real tournament
MAX_GAMES = 1_000_000
MAX_CONCURRENCY = 1024  # games in flight in one process
MAX_WORKERS = 256  # processes
MAX_BUDGET_TOKENS = 10**15
MAX_BUDGET_USD = 1e9
MAX_BOOTSTRAP = 100_000  # resamples: the intervals settle long before


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


# -- run --------------------------------------------------------------------------------------------
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
    args: argparse.Namespace, *, created_ms: int | None = None, games: int | None = None
) -> RunSpec:
    roster = load_roster(args.roster) if args.roster is not None else None
    lineup = load_lineup(args.lineup) if args.lineup is not None else None
    prices = dict(roster.prices) if roster else {}
    budget = roster.budget if roster else ArenaBudget()
    seating: tuple[str, ...] | None = None
    config = _run_config(args)
    if lineup is not None:
        if args.players:
            raise ConfigError([("--lineup", "a lineup names its players: leave out --players")])
        players, seating = _lineup_players(lineup, config.seats)
        prices |= lineup.prices
        if lineup.budget.tokens is not None:
            budget = _budget(budget, tokens=lineup.budget.tokens)
        schedule = Schedule.LINEUP
    else:
        players = parse_players(args.players or [], roster)
        if not players:
            raise ConfigError([("--players", "name the players, e.g. --players mock,random")])
        schedule = Schedule(
            args.schedule or ("head-to-head" if len(players) == 2 else "round-robin")
        )
    if getattr(args, "beliefs", False) or (lineup is not None and lineup.beliefs):
        config = config.model_copy(update={"beliefs": True})
    fields: dict[str, Any] = {
        "config": config,
        "name": args.name,
        "players": players,
        "schedule": schedule,
        "lineup": seating,
        "seed": args.seed if args.seed is not None else 0,
        "lang": getattr(args, "lang", None) or "en",
        "prices": prices,
        "budget": budget,
        "created_ms": time.time_ns() // 1_000_000 if created_ms is None else created_ms,
        "games": 1,
    }
    unit = max(1, balance_unit(schedule, len(players), config.seats))
    fields["games"] = args.games or games or unit * math.ceil(60 / unit)
    return make_run(**fields)


def _run_config(args: argparse.Namespace) -> GameConfig:
    """``--board NAME`` and ``--config FILE``: the rules every game of the run plays (the
    file's fields over the board's; the default board else)."""
    board = getattr(args, "board", None)  # the baseline command has neither
    if getattr(args, "config", None) is None:
        return board_config(board, "--board") if board else GameConfig()
    data = read_document(args.config)
    if not isinstance(data, dict):
        raise ConfigError([(str(args.config), "must hold a table of config fields")])
    try:
        return parse_config(with_board(data, board), strict=True)
    except ConfigError as exc:  # name the file, as werewolf play --config does
        raise ConfigError(
            [(f"{args.config}: {field}", message) for field, message in exc.problems]
        ) from None


def _continued_run(args: argparse.Namespace, saved: RunSpec) -> RunSpec:
    """The saved run, with more games if asked. The same options as before continue it
    (so the command that was interrupted can simply be given again); options that would
    change its games are refused."""
    given = [
        flag
        for flag, value in (
            ("--players", args.players),
            ("--roster", args.roster),
            ("--lineup", args.lineup),
            ("--schedule", args.schedule),
            ("--seed", args.seed),
        )
        if value
    ]
    rules = _run_config(args).model_copy(update={"beliefs": saved.config.beliefs})
    if getattr(args, "config", None) is not None and rules != saved.config:
        raise ConfigError(
            [("--config", f"run {saved.name} exists with other rules: pick another --name")]
        )
    lang = getattr(args, "lang", None)
    if lang is not None and lang != saved.lang:
        raise ConfigError(
            [("--lang", f"run {saved.name} was played in {saved.lang!r}: pick another --name")]
        )
    if getattr(args, "beliefs", False) and not saved.config.beliefs:
        raise ConfigError(
            [
                (
                    "--beliefs",
                    f"run {saved.name} was played without belief reports: pick a new --name",
                )
            ]
        )
    if given:
        if args.players or args.roster or args.lineup:
            if args.seed is None:
                args.seed = saved.seed
            if args.schedule is None and saved.schedule is not Schedule.LINEUP:
                args.schedule = saved.schedule.value
            asked = _new_run(args, created_ms=saved.created_ms, games=saved.games).identity()
        else:  # only the seed or the schedule: compare those
            asked = {**saved.identity(), "seed": args.seed or saved.seed}
            asked["schedule"] = args.schedule or saved.schedule.value
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
    if args.games is None or args.games == saved.games:
        return saved
    if args.games < saved.games:
        raise ConfigError(
            [("--games", f"run {saved.name} has {saved.games} games: a run never shrinks")]
        )
    return make_run(**{**saved.model_dump(), "games": args.games})


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


def _with_budget(args: argparse.Namespace, spec: RunSpec) -> RunSpec:
    budget = spec.budget
    if args.budget_tokens is not None:
        budget = _budget(budget, tokens=args.budget_tokens)
    if args.budget_usd is not None:
        budget = _budget(budget, usd=args.budget_usd)
    prices = spec.prices
    if args.prices is not None:
        prices = {**prices, **load_lineup(args.prices).prices}
    if budget == spec.budget and prices == spec.prices:
        return spec
    return make_run(**{**spec.model_dump(), "budget": budget, "prices": prices})


class _ProgressView:
    """A rich progress bar with games done, time spent and left, running win rates, tokens
    and cost. Time left is estimated from the games ended since this command started (a
    continued run's earlier games do not count as speed)."""

    def __init__(
        self, console: Console, spec: RunSpec, get_time: Callable[[], float] | None = None
    ) -> None:
        self.spec = spec
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
            console=console,
            transient=False,
            get_time=get_time,
        )
        self.task = self.progress.add_task(spec.name, total=spec.games, status="")
        self._seen = False

    def update(self, progress: RunProgress) -> None:
        rates = " ".join(
            f"{p.name} {100 * r:.0f}%"
            for p in self.spec.players
            if (r := progress.win_rate(p.name)) is not None
        )
        status = f"wins: {rates}" if rates else ""
        if progress.tokens:
            status += f" | {progress.tokens:,} tokens"
            if progress.cost is not None:
                status += f", ${progress.cost:.4f}"
        if not self._seen:  # games ended before now are where the bar starts, not speed
            self._seen = True
            self.progress.reset(self.task, completed=len(progress.ended), status=status)
        else:
            self.progress.update(self.task, completed=len(progress.ended), status=status)


def _workers(args: argparse.Namespace, spec: RunSpec) -> int:
    if args.workers is not None:
        return int(args.workers)
    return 1 if spec.uses_tokens else max(1, os.cpu_count() or 1)


def _play(
    args: argparse.Namespace,
    spec: RunSpec,
    run_file: Path,
    console: Console,
    factory: SeatFactory,
) -> RunResult:
    workers = _workers(args, spec)
    err = Console(stderr=True, highlight=False)
    # a progress bar only where someone watches: piped output gets the summary alone
    view = _ProgressView(err, spec) if not args.quiet and err.is_terminal else None
    on_progress: Callable[[RunProgress], None] | None = view.update if view else None
    try:
        if view is not None:
            view.progress.start()
        return play_run(
            spec,
            run_file,
            args.store,
            concurrency=args.concurrency,
            workers=workers,
            factory=factory,
            on_progress=on_progress,
            lock_timeout=args.lock_timeout,
        )
    except KeyboardInterrupt:
        raise _Interrupted(spec, args.store) from None
    finally:
        if view is not None:
            view.progress.stop()


class _Interrupted(Exception):
    def __init__(self, spec: RunSpec, store: Path) -> None:
        super().__init__(spec.name)
        self.spec, self.store = spec, store


def _resume_hint(spec: RunSpec, store: Path) -> str:
    where = "" if store == DEFAULT_STORE else f" --store {store}"
    return f"werewolf arena run --name {spec.name}{where}"


def _outcome(console: Console, spec: RunSpec, store: Path, result: RunResult) -> int:
    progress = result.progress
    plural = "es" if result.workers > 1 else ""
    console.print(
        f"Run {spec.name}: {len(progress.ended)} of {spec.games} games ended "
        f"({result.seconds:.1f} s, {result.workers} process{plural}).",
        markup=False,
    )
    if result.stopped:
        console.print(
            f"Stopped: {result.stopped}. Raise the budget to go on: {_resume_hint(spec, store)} "
            "--budget-tokens N / --budget-usd X",
            markup=False,
            soft_wrap=True,
        )
    elif progress.failed:
        console.print(
            f"{len(progress.failed)} games stopped on an error; run again to retry them: "
            f"{_resume_hint(spec, store)}",
            markup=False,
            soft_wrap=True,
        )
        return EXIT_UNFINISHED
    return 0


def _run_or_continue(args: argparse.Namespace) -> tuple[RunSpec, Path, SeatFactory]:
    """The run to play, saved only once everything it needs was checked: its players can
    be seated (keys set), its budget priced and its store opened. A refused run leaves no
    run file behind to clash with the next try."""
    run_file = run_path(args.store, args.name)
    found = classify(run_file)
    if found in (Kind.FOLDER, Kind.SPECIAL):  # any other file must load as a run to be saved
        raise refuse(run_file, "--name", found, wanted="another run")
    spec = _continued_run(args, load_run(run_file)) if run_file.exists() else _new_run(args)
    spec = _with_bundled_prices(_with_budget(args, spec))  # a saved run always loads again
    factory = seat_factory(spec, args.store)
    check_play(spec, workers=_workers(args, spec), factory=factory)
    check_store_path(args.store)
    store = open_run_store(args.store)
    try:
        refuse_damaged(store)
    finally:
        store.close()
    save_run(run_file, spec)
    return spec, run_file, factory


def cmd_run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, width=args.width)
    spec, run_file, factory = _run_or_continue(args)
    try:
        result = _play(args, spec, run_file, console, factory)
    except STORAGE_ERRORS as exc:
        raise StoreFault(explain(exc, args.store, _resume_hint(spec, args.store))) from None
    except _Interrupted as stop:
        _say(
            f"interrupted. Finished games are saved; continue with: "
            f"{_resume_hint(stop.spec, stop.store)}"
        )
        return EXIT_INTERRUPTED
    code = _outcome(console, spec, args.store, result)
    console.print(f"Report: werewolf arena report {spec.name}", markup=False)
    return code


# -- report -------------------------------------------------------------------------------------------
def build_report(spec: RunSpec, store_path: Path, *, rounds: int = 1000) -> Report:
    """The report of a run from the games in the store."""
    if not store_path.is_file():
        raise ConfigError([("--store", f"{store_path}: no such store")])
    store = open_run_store(store_path, read_only=True)
    try:
        games = run_games(spec, store, cache_path(run_path(store_path, spec.name)))
    finally:
        store.close()
    players = [p.name for p in spec.players]
    prices = with_bundled(spec.prices, (p.spec.model for p in spec.players if p.uses_tokens))
    metrics = tournament_metrics(
        games.records, players, prices=prices, rounds=rounds, seed=spec.seed
    )
    return Report(spec, games, metrics)


def _report_files(args: argparse.Namespace, name: str) -> tuple[Path, Path]:
    """Where the report goes: ``--markdown`` and ``--json``, else beside the run file."""
    run_file = run_path(args.store, name)
    markdown = args.markdown or run_file.with_suffix(".md")
    json_file = args.json or run_file.with_name(f"{name}.report.json")
    return markdown, json_file


def _check_outputs(args: argparse.Namespace, name: str) -> None:
    """Refuse every file the report would write over that is not an earlier report of its
    kind, before anything is read or written (the record cache included)."""
    markdown, json_file = _report_files(args, name)
    inputs = [run_path(args.store, name), args.store]
    if one_file(markdown, json_file):
        raise ConfigError([("--json", "names the Markdown report's file: name another")])
    check_output(markdown, "--markdown", Kind.REPORT_MARKDOWN, inputs)
    check_output(json_file, "--json", Kind.REPORT_JSON, inputs)
    if args.plot is not None:
        found = classify(args.plot)
        if found not in (Kind.MISSING, Kind.FOLDER):
            raise refuse(args.plot, "--plot", found, wanted="a folder")
        for chart in CHARTS:
            check_output(args.plot / chart, "--plot", Kind.CHART, inputs)


def _write_outputs(args: argparse.Namespace, report: Report, console: Console) -> None:
    markdown, json_file = _report_files(args, report.spec.name)
    _check_outputs(args, report.spec.name)
    inputs = [run_path(args.store, report.spec.name), args.store]
    write_output(markdown, report_markdown(report), "--markdown", Kind.REPORT_MARKDOWN, inputs)
    write_output(json_file, report_json_text(report), "--json", Kind.REPORT_JSON, inputs)
    written = [markdown, json_file]
    if args.plot is not None:
        written += write_plots(report, args.plot)
    console.print("Wrote " + ", ".join(str(p) for p in written), markup=False, soft_wrap=True)


def cmd_report(args: argparse.Namespace) -> int:
    console = Console(highlight=False, width=args.width)
    spec = load_run(run_path(args.store, args.name, "NAME"))
    if args.plot is not None:
        require_matplotlib()  # fail before any work
    _check_outputs(args, spec.name)  # before the report's cache is written
    report = build_report(spec, args.store, rounds=args.bootstrap)
    render_report(console, report)
    _write_outputs(args, report, console)
    return 0


# -- list and rm --------------------------------------------------------------------------------------
def _run_files(store: Path) -> list[Path]:
    folder = run_path(store, "x").parent
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".report.json"))


def _ended_games(spec: RunSpec, store_path: Path) -> int | None:
    """How many of the run's games have ended, or None when there is no store yet."""
    if not store_path.is_file():
        return None
    store = open_run_store(store_path, read_only=True)
    try:
        return len(Tally(spec, store).update().ended)
    finally:
        store.close()


def cmd_list(args: argparse.Namespace) -> int:
    """Every run beside the store: its players, schedule and how far it got."""
    console = Console(highlight=False, width=args.width)
    files = _run_files(args.store)
    if not files:
        console.print(f"No runs beside {args.store}.", markup=False, soft_wrap=True)
        return 0
    table = Table(box=box.SIMPLE, show_header=True, header_style="bold")
    for column in ("run", "players", "schedule", "games ended"):
        table.add_column(column)
    for path in files:
        try:
            spec = load_run(path)
        except WerewolfError as exc:
            table.add_row(path.stem, f"unreadable: {clip(exc, 80)}", "", "")
            continue
        ended = _ended_games(spec, args.store)
        table.add_row(
            spec.name,
            ", ".join(p.name for p in spec.players),
            spec.schedule.value,
            f"{0 if ended is None else ended} of {spec.games}",
        )
    console.print(table)
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    """Remove a run's file and its default report files; its games stay in the store
    (the log is append-only), and the name is free again."""
    run_file = run_path(args.store, args.name, "NAME")
    if not run_file.is_file():
        raise GameFileError(f"{run_file}: no such run (see werewolf arena list)")
    try:
        spec: RunSpec | None = load_run(run_file)
    except WerewolfError:
        spec = None  # a damaged run file is removed all the same
    started = 0
    if spec is not None and args.store.is_file():
        store = open_run_store(args.store, read_only=True)
        try:
            started = sum(1 for i in range(spec.games) if store.version(game_id(spec, i)))
        finally:
            store.close()
    reports = {
        run_file.with_suffix(".md"): Kind.REPORT_MARKDOWN,
        run_file.with_name(f"{args.name}.report.json"): Kind.REPORT_JSON,
    }
    for path in (run_file, *reports, cache_path(run_file)):
        if path in reports and classify(path) is not reports[path]:
            continue  # a file of that name the report did not write stays
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # the cache folder goes with its last run
        cache_path(run_file).parent.rmdir()
    Console(highlight=False).print(
        f"Removed run {args.name}; its {started} games stay in the store {args.store}.",
        markup=False,
        soft_wrap=True,
    )
    return 0


# -- baseline -----------------------------------------------------------------------------------------
def cmd_baseline(args: argparse.Namespace) -> int:
    """The built-in mock tournament: the mock personalities and the random player."""
    args.markdown = args.json = args.plot = None
    _check_outputs(args, args.name)  # the report's files, before a game is played
    args.players = (
        [",".join(BASELINE_PLAYERS)] if not run_path(args.store, args.name).exists() else []
    )
    args.roster = args.lineup = args.schedule = args.seed = None
    args.budget_tokens = args.budget_usd = args.prices = None
    if args.games is None and not run_path(args.store, args.name).exists():
        args.games = BASELINE_GAMES
    code = cmd_run(args)
    if code == EXIT_INTERRUPTED:
        return code
    console = Console(highlight=False, width=args.width)
    report = build_report(load_run(run_path(args.store, args.name)), args.store)
    render_report(console, report)
    _write_outputs(args, report, console)
    return code


# -- parsers ------------------------------------------------------------------------------------------
def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=Path,
        default=DEFAULT_STORE,
        metavar="PATH",
        help=f"the SQLite event store (default: {DEFAULT_STORE}; runs in arena/ beside it)",
    )
    parser.add_argument("--width", type=width, metavar="COLUMNS", help="draw tables at this width")


def _add_playing(parser: argparse.ArgumentParser, *, default_name: str) -> None:
    parser.add_argument(
        "--name", default=default_name, help=f"the run's name (default: {default_name})"
    )
    parser.add_argument("--games", type=int_in(1, MAX_GAMES), metavar="N", help="games in the run")
    parser.add_argument(
        "--concurrency",
        type=int_in(1, MAX_CONCURRENCY),
        default=8,
        metavar="K",
        help="games in flight at once (default 8)",
    )
    parser.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        metavar="W",
        help="processes for mock runs (default: every CPU core; 1 with LLM players)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGS,
        help="the language mock and LLM seats speak and think in (en)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_lock_timeout(parser)
    _add_common(parser)


def add_arena(subparsers: Any) -> None:
    """The ``arena`` subcommand and its own subcommands (run, report, baseline)."""
    arena = subparsers.add_parser(
        "arena",
        help="tournaments between models and mock strategies: ratings, intervals, cost",
        description="Tournaments between players (LLM models or mock strategies): every game "
        "saved as it is played, resumable, reported with 95% intervals. See docs/arena.md.",
    )
    commands = arena.add_subparsers(
        dest="arena_command", required=True, metavar="COMMAND", parser_class=type(arena)
    )

    run = commands.add_parser(
        "run",
        help="play (or continue) a tournament",
        description="Play a tournament, or continue one that was stopped: finished games are "
        "kept, games in progress go on, missing ones are played.",
    )
    run.add_argument(
        "--players",
        action="append",
        metavar="LIST",
        help="comma-separated [NAME=]KIND[:ARG]: mock, mock:bold, random, llm:MODEL, or "
        "roster names",
    )
    run.add_argument(
        "--roster", type=Path, metavar="FILE", help="players, prices and budget (TOML)"
    )
    run.add_argument(
        "--lineup", type=Path, metavar="FILE", help="a lineup file: one player per seat"
    )
    run.add_argument(
        "--schedule",
        choices=[s.value for s in Schedule if s is not Schedule.LINEUP],
        help="head-to-head (2 players) or round-robin (default by player count)",
    )
    run.add_argument("--seed", type=seed_number, metavar="N", help="the run seed (default 0)")
    run.add_argument(
        "--board", choices=list(BOARDS), help="the board every game plays (default standard-9)"
    )
    run.add_argument(
        "--beliefs",
        action="store_true",
        help="with each vote every seat also reports P(wolf) of each other living seat "
        "(private); the report then scores detection, deception and calibration",
    )
    run.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the rules of every game (TOML or JSON, as werewolf play --config): e.g. a "
        "discussion format, speech rounds or budget, what death reveals",
    )
    run.add_argument(
        "--budget-tokens",
        type=int_in(1, MAX_BUDGET_TOKENS),
        metavar="N",
        help="stop after N tokens",
    )
    run.add_argument(
        "--budget-usd",
        type=number_in(MAX_BUDGET_USD, "USD"),
        metavar="X",
        help="stop after X dollars",
    )
    run.add_argument("--prices", type=Path, metavar="FILE", help="prices by model (lineup TOML)")
    _add_playing(run, default_name="arena")
    run.set_defaults(run=cmd_run)

    report = commands.add_parser(
        "report",
        help="tables, Markdown, JSON and charts of a run",
        description="Print a run's tables and write its Markdown report and JSON figures "
        "(beside the run file unless named); --plot writes PNG charts (needs matplotlib).",
    )
    report.add_argument("name", metavar="NAME", help="the run's name")
    report.add_argument("--markdown", type=Path, metavar="FILE", help="the Markdown report")
    report.add_argument("--json", type=Path, metavar="FILE", help="every figure, as JSON")
    report.add_argument("--plot", type=Path, metavar="DIR", help="write PNG charts into DIR")
    report.add_argument(
        "--bootstrap",
        type=int_in(1, MAX_BOOTSTRAP),
        default=1000,
        metavar="B",
        help="bootstrap resamples (default 1000)",
    )
    _add_common(report)
    report.set_defaults(run=cmd_report)

    listing = commands.add_parser(
        "list",
        help="the runs beside the store, with their players and progress",
        description="List every run beside the store: its players, schedule and games ended.",
    )
    _add_common(listing)
    listing.set_defaults(run=cmd_list)

    rm = commands.add_parser(
        "rm",
        help="remove a run (its games stay in the store)",
        description="Remove a run's file and its report files, so its name is free again. "
        "Its games stay in the store: the log is append-only.",
    )
    rm.add_argument("name", metavar="NAME", help="the run's name")
    _add_common(rm)
    rm.set_defaults(run=cmd_rm)

    baseline = commands.add_parser(
        "baseline",
        help="the built-in mock tournament (seconds, no API key)",
        description="A round-robin of the mock personalities and the random player, then its "
        "report: the metrics on real numbers without any API key.",
    )
    _add_playing(baseline, default_name="baseline")
    baseline.set_defaults(run=cmd_baseline)


def _say(message: str) -> None:
    sys.stderr.write(f"werewolf: {message}\n")
