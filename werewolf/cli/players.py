"""``werewolf players``: the seat kinds there are; ``werewolf check-player``: a player's
protocol and manners checked through seeded games (``werewolf.app.check``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..app.check import FAULT_KINDS, check_player
from ..argtypes import int_in
from ..boards import BOARDS
from ..errors import ConfigError
from ..lineup import KINDS
from ..players.python import installed_players
from .common import shown

__all__ = ["add_check_player", "add_players", "run_check_player", "run_players"]

_BUILT_IN = {
    "mock": "scripted players, seeded per game (mock:PERSONALITY)",
    "random": "a legal answer at random",
    "llm": "a model behind an OpenAI-compatible endpoint (llm:MODEL)",
    "human": "the person at this terminal",
    "web": "a person in a browser tab (the URL is printed at start)",
    "py": "a Python player: py:MODULE:FACTORY",
}


def _out(line: str) -> None:
    sys.stdout.write(shown(line) + "\n")


def run_players(args: argparse.Namespace) -> int:
    for kind in KINDS:
        _out(f"{kind:<10} {_BUILT_IN.get(kind, '')}")
    for name, point in sorted(installed_players().items()):
        _out(f"{name:<10} installed: {point.value}")
    return 0


def add_players(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "players",
        help="list the seat kinds: built in, and installed players",
        description="List the kinds a seat may be played by (--seat N=KIND): the built-in "
        "ones and those installed packages offer (entry-point group werewolf.players).",
    )
    parser.set_defaults(run=run_players)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("give seconds above 0, at most 3600")
    return value


def run_check_player(args: argparse.Namespace) -> int:
    boards = args.board or None
    unknown = sorted(set(boards or ()) - set(BOARDS))
    if unknown:
        raise ConfigError([("--board", f"no board {unknown[0]!r}: use {', '.join(BOARDS)}")])
    report = check_player(
        args.spec, boards=boards, games=args.games, seed=args.seed, slow=args.slow
    )
    for line in report.lines():
        _out(line)
    counts = ", ".join(f"{report.count(kind)} {kind}" for kind in FAULT_KINDS)
    verdict = "clean" if report.ok else "faults"
    _out(f"{report.player}: {report.games} games, {verdict} ({counts})")
    return 0 if report.ok else 1


def add_check_player(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check-player",
        help="check a Python player through seeded games",
        description="Play a player through a few seeded games on every board, at a seat "
        "of every identity, the other seats mock players; report protocol violations, "
        "illegal answers, exceptions, slow answers and state carried between games, one "
        "line each. Exit 0 when clean, 1 when faults.",
    )
    parser.add_argument("spec", help="py:MODULE:FACTORY, or an installed player's name")
    parser.add_argument(
        "--games", type=int_in(1, 100), default=2, metavar="N", help="seeds per board (2)"
    )
    parser.add_argument("--seed", type=int_in(0, 2**53), default=0, metavar="N", help="first seed")
    parser.add_argument(
        "--board",
        action="append",
        choices=list(BOARDS),
        help="check on this board only (repeatable; default every board)",
    )
    parser.add_argument(
        "--slow",
        type=_seconds,
        default=1.0,
        metavar="SECONDS",
        help="an answer taking longer is reported (default 1)",
    )
    parser.set_defaults(run=run_check_player)
