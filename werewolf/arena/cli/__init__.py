"""``werewolf arena``: run a tournament, report on it, or run the built-in mock baseline.

::

    werewolf arena run --players mock,random,mock:bold --games 60 --name baseline
    werewolf arena report baseline [--markdown F] [--json F] [--plot DIR]
    werewolf arena list
    werewolf arena rm NAME
    werewolf arena baseline

The parsers are here, the commands in ``commands`` (argument handling and printing; the
work is ``werewolf.app.arena``'s). Bad input prints one line and exits with 2 (the
``werewolf`` command's handler turns the package's errors into that line); Ctrl-C exits
with 130 and says how to continue.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...argtypes import (
    STORE_HELP,
    add_lock_timeout,
    default_store,
    int_in,
    number_in,
    seed_number,
    width,
)
from ...boards import BOARDS
from ...players.prompting import LANGS
from ..spec import Schedule
from .commands import (
    MAX_BOOTSTRAP,
    MAX_BUDGET_TOKENS,
    MAX_BUDGET_USD,
    MAX_CONCURRENCY,
    MAX_GAMES,
    MAX_WORKERS,
    cmd_baseline,
    cmd_list,
    cmd_report,
    cmd_rm,
    cmd_run,
)

__all__ = ["add_arena"]


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=Path,
        default=default_store(),
        metavar="PATH",
        help=f"the SQLite event store (default: {STORE_HELP}; runs in arena/ beside it)",
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
        help="comma-separated [NAME=]KIND[:ARG]: mock, mock:bold, random, llm:MODEL, "
        "py:MODULE:FACTORY, an installed player, or roster names",
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
