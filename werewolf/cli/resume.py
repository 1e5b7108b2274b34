"""``werewolf resume``: a game that was interrupted or stopped on an error goes on."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from ..app import Resumption, open_resume
from ..argtypes import add_lock_timeout
from ..lineup import load_lineup
from .common import add_live_view, add_store, check_seat, game_id, view_spec
from .seats import (
    add_seats,
    browser_seats,
    default_view,
    print_result,
    resume_command,
    table_options,
    watching,
)

__all__ = ["add_resume", "run_resume"]


def run_resume(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    with open_resume(
        args.store,
        args.game,
        seat_args=args.seat,
        lineup=args.lineup,
        lock_timeout=args.lock_timeout,
        table=table_options(args),
        continue_with=lambda: resume_command(args.game, args),
    ) as resumed:
        if resumed.seats is None:  # ended: nothing of its seats matters any more
            if args.view is not None:
                view_spec(args.view)  # a mistyped option is refused all the same
            return _ended(console, resumed, args)
        specs = resumed.seats.specs
        check_seat(view_spec(args.view), len(specs))
        default_view(args, specs)
        table = browser_seats(args, specs, resumed.table)
        result = resumed.run(watching(args, console, specs, table))
        return print_result(console, result, resume_command(args.game, args))


def _ended(console: Console, resumed: Resumption, args: argparse.Namespace) -> int:
    """``resume`` of a game that has ended: the same with or without seats to change (none
    is changed, no key is needed): it says so, with the result, and exits 0, so resuming
    until a game is over never fails on the last try."""
    changes = " (--seat and --lineup change nothing)" if args.seat or args.lineup else ""
    console.print(
        f"Game {args.game} has ended: there is nothing to resume{changes}.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    prices = load_lineup(args.lineup).prices if args.lineup is not None else {}
    return print_result(console, resumed.finish(prices), "")


def add_resume(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resume",
        help="continue an interrupted or failed game",
        description="Continue a game that was interrupted (or stopped on an error) with the "
        "players it was started with (or, with --seat / --lineup, others: each change is "
        "recorded as a seat swap), then export its replay file.",
    )
    parser.add_argument("game", type=game_id, metavar="GAME", help="the game id")
    add_seats(parser, resume=True)
    add_store(parser)
    add_lock_timeout(parser)
    add_live_view(parser)
    parser.set_defaults(run=run_resume)
