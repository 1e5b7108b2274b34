"""``werewolf play``: a new game, shown live, then its result and replay file."""

from __future__ import annotations

import argparse
import os
import secrets
from typing import Any

from rich.console import Console

from ..app import Seats, play_game
from ..app.play import FRESH_SEEDS
from ..argtypes import add_lock_timeout, number_in, seed_number
from ..players.setup import play_specs
from .common import add_live_view, add_store, check_seat, view_spec
from .seats import (
    add_seats,
    browser_seats,
    default_view,
    print_result,
    resume_command,
    table_options,
    watching,
)
from .variants import add_variants, game_config

__all__ = ["add_play", "run_play"]

MAX_PACE = 60.0  # seconds between two steps: slower is no game to watch
SEAT_KINDS = ("mock", "random")  # the kinds --players can put in every seat


def run_play(args: argparse.Namespace) -> int:
    config = game_config(args)
    check_seat(view_spec(args.view), config.seats)
    # a fresh seed is recorded and shown at the end (see werewolf.app.play)
    seed = args.seed if args.seed is not None else secrets.randbelow(FRESH_SEEDS)
    specs, lineup = play_specs(
        config.seats,
        players=args.players,
        lineup=args.lineup,
        seat_args=args.seat,
        env=os.environ,
        replay=args.replay_llm is not None,
    )
    default_view(args, specs)
    check_seat(view_spec(args.view), config.seats)
    console = Console(highlight=False)
    table = browser_seats(args, specs, table_options(args, pace=args.pace or 0.0))
    result = play_game(
        config,
        seats=Seats(specs, lineup),
        seed=seed,
        store=args.store,
        lock_timeout=args.lock_timeout,
        table=watching(args, console, specs, table),
        continue_with=lambda game_id: resume_command(game_id, args),
    )
    return print_result(console, result, resume_command(result.game_id, args))


def add_play(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a seeded mock game, shown live",
        description="Play a seeded game (mock players by default) on the embedded store, "
        "shown live as a spectator sees it, then export its replay file.",
    )
    parser.add_argument(
        "--seed", type=seed_number, help="the game seed (default: a fresh one, shown)"
    )
    parser.add_argument(
        "--players", choices=SEAT_KINDS, help="who plays every seat not named otherwise (mock)"
    )
    add_seats(parser, resume=False)
    add_store(parser)
    add_lock_timeout(parser)
    add_live_view(parser)
    add_variants(parser)
    parser.add_argument(
        "--pace",
        type=number_in(MAX_PACE, "seconds"),
        metavar="SECONDS",
        help="pause between steps, to watch a mock game being played (werewolf serve)",
    )
    parser.set_defaults(run=run_play)
