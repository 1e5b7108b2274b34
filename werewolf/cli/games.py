"""``werewolf games``: the games of a store, newest first."""

from __future__ import annotations

import argparse
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..app import list_saved_games
from ..argtypes import int_in, width
from .common import add_store

__all__ = ["add_games", "run_games"]

MAX_LISTED = 1_000_000  # games listed at most by --limit (--all lists every one)


def run_games(args: argparse.Namespace) -> int:
    console = Console(width=args.width, highlight=False)
    games, total = list_saved_games(args.store, limit=None if args.all else args.limit)
    if not games:
        console.print(f"No games in {args.store}: play one with werewolf play.", markup=False)
        return 0
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1))
    for header in ("game (players)", "started (UTC)", "board", "seats", "winner"):
        table.add_column(header, justify="right" if header == "seats" else "left")
    for game in games:
        who = Text(game.game_id)
        players = game.players + (f"; arena run {game.run}" if game.run is not None else "")
        if players:
            who.append("\n" + players, style="dim")
        table.add_row(
            who,
            game.started.strftime("%Y-%m-%d %H:%M"),
            game.board,
            str(game.seats),
            game.result,
        )
    console.print(table)
    if total > len(games):
        console.print(
            f"The newest {len(games)} of {total} games; --all lists every one.", markup=False
        )
    console.print("Replay one: werewolf replay GAME", markup=False)
    return 0


def add_games(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the saved games, newest first",
        description="List the games in the store, newest first: id, when it started, "
        "board, winner (or whether it stopped or is in progress) and who sat at the table.",
    )
    add_store(parser)
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--limit",
        type=int_in(1, MAX_LISTED),
        default=20,
        metavar="N",
        help="list the newest N games (default 20)",
    )
    count.add_argument("--all", action="store_true", help="list every game")
    parser.add_argument("--width", type=width, metavar="COLUMNS", help="draw at this width")
    parser.set_defaults(run=run_games)
