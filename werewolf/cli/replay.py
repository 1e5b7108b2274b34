"""``werewolf replay``: draw a game (god, seat or public view), follow one being played,
or export it as HTML or Markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from ..app import export_replay, follow_game, load_log, replay_prices
from ..argtypes import int_in, number_pair, width
from ..config import MAX_SEATS, field_range
from ..errors import ConfigError
from ..lineup import MAX_PRICE
from ..replay import ViewKind, ViewSpec, render_replay, replay_markdown
from .common import add_store, check_seat, game_id, say, view_spec

__all__ = ["add_replay", "run_replay"]


def _replay_spec(args: argparse.Namespace) -> ViewSpec:
    """``--view`` as ``play`` and ``resume`` spell it; ``--seat N`` and ``--public`` are
    the older spellings of ``--view seat:N`` and ``--view public``."""
    if args.view is not None:
        return view_spec(args.view)
    if args.public:
        return ViewSpec(ViewKind.PUBLIC)
    if args.seat is not None:
        return ViewSpec.of_seat(args.seat)
    return ViewSpec(ViewKind.GOD)


def run_replay(args: argparse.Namespace) -> int:
    spec = _replay_spec(args)
    if not Path(args.target).exists():
        args.target = game_id(args.target)
    console = Console(width=args.width, highlight=False)
    if args.follow:
        if args.day is not None or args.html is not None or args.markdown is not None:
            raise ConfigError([("--follow", "draws a running game: no --day, --html, --markdown")])
        follow_game(args.store, args.target, console, spec)
        return 0
    log = load_log(args.target, args.store, trust=args.trust)
    prices = replay_prices(args.price, args.prices)
    if spec.seat is not None:
        check_seat(spec, len(log.state.identities), "--view" if args.view else "--seat")
    inputs = [args.target, args.store] + ([args.prices] if args.prices else [])
    to_stdout = args.markdown == "-"
    export_replay(
        log,
        spec,
        html=args.html,
        markdown=None if args.markdown is None or to_stdout else Path(args.markdown),
        from_day=args.day,
        width=args.width or 100,
        stats=not args.no_stats,
        prices=prices,
        inputs=inputs,
        notice=say,
    )
    options: dict[str, Any] = {"from_day": args.day, "stats": not args.no_stats, "prices": prices}
    if to_stdout:
        sys.stdout.write(replay_markdown(log, spec, width=args.width or 100, **options))
    if args.html is None and args.markdown is None:
        render_replay(console, log, spec, **options)
    return 0


def add_replay(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="draw a game from its replay file or the store",
        description="Draw a game: the god view (every private action and reasoning) by "
        "default, one seat's view, or the public one; or export it as HTML or Markdown.",
    )
    parser.add_argument("target", metavar="FILE|GAME", help="a replay file (.jsonl) or a game id")
    add_store(parser)
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--view",
        metavar="VIEW",
        help="god (default: every private action and reasoning), public (what a spectator "
        "saw) or seat:N (exactly what seat N saw), as play and resume spell it",
    )
    who.add_argument(
        "--seat", type=int_in(1, MAX_SEATS), metavar="N", help="the same as --view seat:N"
    )
    who.add_argument("--public", action="store_true", help="the same as --view public")
    parser.add_argument(
        "--day",
        type=int_in(1, field_range("day_cap")[1]),
        metavar="K",
        help="start at day K (with the night before it; the cast is shown first)",
    )
    parser.add_argument(
        "--follow", action="store_true", help="draw a running game (by id) as it is played"
    )
    parser.add_argument("--html", type=Path, metavar="FILE", help="write a standalone HTML page")
    parser.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write Markdown for an issue (to FILE, or stdout)",
    )
    parser.add_argument("--width", type=width, metavar="COLUMNS", help="draw at this width")
    parser.add_argument("--no-stats", action="store_true", help="leave out the summary")
    parser.add_argument(
        "--price",
        type=number_pair(MAX_PRICE, "PROMPT,COMPLETION", "USD per million tokens"),
        metavar="PROMPT,COMPLETION",
        help="USD per million tokens, for a cost figure",
    )
    parser.add_argument("--prices", type=Path, metavar="LINEUP", help="prices by model (TOML)")
    parser.add_argument(
        "--trust",
        action="store_true",
        help="skip re-judging every event by the rules (faster; for a log you trust)",
    )
    parser.set_defaults(run=run_replay)
