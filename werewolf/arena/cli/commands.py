"""What ``werewolf arena run``, ``report``, ``list``, ``rm`` and ``baseline`` do: options
made into ``werewolf.app`` calls, and their results printed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from rich import box
from rich.console import Console
from rich.table import Table

from pulse_core.limits import clip

from ...app.arena import (
    RunInterrupted,
    RunOptions,
    prepare_run,
    run_arena,
    run_hint,
)
from ...app.arena_runs import (
    ReportFiles,
    build_report,
    check_report_files,
    list_runs,
    remove_run,
    write_report,
)
from ...argtypes import EXIT_INTERRUPTED
from ..report import Report
from ..report_plots import require_matplotlib
from ..report_tables import render_report
from ..runner import RunResult
from ..spec import RunSpec, load_run, run_path
from ..tally import RunProgress
from .progress import ProgressView

__all__ = [
    "BASELINE_GAMES",
    "BASELINE_PLAYERS",
    "cmd_baseline",
    "cmd_list",
    "cmd_report",
    "cmd_rm",
    "cmd_run",
]

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


def _options(args: argparse.Namespace) -> RunOptions:
    """The run the options ask for (``baseline`` has no rules, roster or budget options)."""
    return RunOptions(
        name=args.name,
        players=getattr(args, "players", None) or (),
        roster=getattr(args, "roster", None),
        lineup=getattr(args, "lineup", None),
        schedule=getattr(args, "schedule", None),
        seed=getattr(args, "seed", None),
        board=getattr(args, "board", None),
        config=getattr(args, "config", None),
        beliefs=bool(getattr(args, "beliefs", False)),
        lang=getattr(args, "lang", None),
        games=args.games,
        budget_tokens=getattr(args, "budget_tokens", None),
        budget_usd=getattr(args, "budget_usd", None),
        prices=getattr(args, "prices", None),
    )


def cmd_run(args: argparse.Namespace) -> int:
    return _run(args, _options(args))


def _run(args: argparse.Namespace, options: RunOptions) -> int:
    console = Console(highlight=False, width=args.width)
    prepared = prepare_run(options, args.store, workers=args.workers)
    spec = prepared.spec
    err = Console(stderr=True, highlight=False)
    # a progress bar only where someone watches: piped output gets the summary alone
    view = ProgressView(err, spec) if not args.quiet and err.is_terminal else None
    on_progress: Callable[[RunProgress], None] | None = view.update if view else None
    try:
        if view is not None:
            view.progress.start()
        try:
            result = run_arena(
                prepared,
                args.store,
                concurrency=args.concurrency,
                on_progress=on_progress,
                lock_timeout=args.lock_timeout,
            )
        finally:
            if view is not None:
                view.progress.stop()
    except RunInterrupted as stop:
        _say(
            f"interrupted. Finished games are saved; continue with: "
            f"{run_hint(stop.spec.name, stop.store)}"
        )
        return EXIT_INTERRUPTED
    code = _outcome(console, spec, args, result)
    console.print(f"Report: werewolf arena report {spec.name}", markup=False)
    return code


def _outcome(console: Console, spec: RunSpec, args: argparse.Namespace, result: RunResult) -> int:
    progress = result.progress
    plural = "es" if result.workers > 1 else ""
    console.print(
        f"Run {spec.name}: {len(progress.ended)} of {spec.games} games ended "
        f"({result.seconds:.1f} s, {result.workers} process{plural}).",
        markup=False,
    )
    hint = run_hint(spec.name, args.store)
    if result.stopped:
        console.print(
            f"Stopped: {result.stopped}. Raise the budget to go on: {hint} "
            "--budget-tokens N / --budget-usd X",
            markup=False,
            soft_wrap=True,
        )
    elif progress.failed:
        console.print(
            f"{len(progress.failed)} games stopped on an error; run again to retry them: {hint}",
            markup=False,
            soft_wrap=True,
        )
        return EXIT_UNFINISHED
    return 0


def _files(args: argparse.Namespace) -> ReportFiles:
    return ReportFiles(markdown=args.markdown, json=args.json, plot=args.plot)


def _write(args: argparse.Namespace, report: Report, console: Console) -> None:
    written = write_report(report, _files(args), args.store)
    console.print("Wrote " + ", ".join(str(p) for p in written), markup=False, soft_wrap=True)


def cmd_report(args: argparse.Namespace) -> int:
    console = Console(highlight=False, width=args.width)
    spec = load_run(run_path(args.store, args.name, "NAME"))
    if args.plot is not None:
        require_matplotlib()  # fail before any work
    check_report_files(_files(args), args.store, spec.name)  # before the cache is written
    report = build_report(spec, args.store, rounds=args.bootstrap)
    render_report(console, report)
    _write(args, report, console)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Every run beside the store: its players, schedule and how far it got."""
    console = Console(highlight=False, width=args.width)
    rows = list_runs(args.store)
    if not rows:
        console.print(f"No runs beside {args.store}.", markup=False, soft_wrap=True)
        return 0
    table = Table(box=box.SIMPLE, show_header=True, header_style="bold")
    for column in ("run", "players", "schedule", "games ended"):
        table.add_column(column)
    for row in rows:
        if row.spec is None:
            table.add_row(row.name, f"unreadable: {clip(row.problem, 80)}", "", "")
            continue
        table.add_row(
            row.spec.name,
            ", ".join(p.name for p in row.spec.players),
            row.spec.schedule.value,
            f"{row.ended} of {row.spec.games}",
        )
    console.print(table)
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    """Remove a run's file and its default report files; its games stay in the store."""
    started = remove_run(args.store, args.name)
    Console(highlight=False).print(
        f"Removed run {args.name}; its {started} games stay in the store {args.store}.",
        markup=False,
        soft_wrap=True,
    )
    return 0


def cmd_baseline(args: argparse.Namespace) -> int:
    """The built-in mock tournament: the mock personalities and the random player."""
    args.markdown = args.json = args.plot = None
    check_report_files(_files(args), args.store, args.name)  # before a game is played
    fresh = not run_path(args.store, args.name).exists()
    players = [",".join(BASELINE_PLAYERS)] if fresh else []
    games = BASELINE_GAMES if args.games is None and fresh else args.games
    options = RunOptions(name=args.name, players=players, lang=args.lang, games=games)
    code = _run(args, options)
    if code == EXIT_INTERRUPTED:
        return code
    console = Console(highlight=False, width=args.width)
    report = build_report(load_run(run_path(args.store, args.name)), args.store)
    render_report(console, report)
    _write(args, report, console)
    return code


def _say(message: str) -> None:
    sys.stderr.write(f"werewolf: {message}\n")
