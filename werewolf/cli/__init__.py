"""The ``werewolf`` command: ``play``, ``resume``, ``replay``, ``games``, ``arena``, ``serve``,
``players``, ``check-player``.

Argument parsing and printing only: the work is ``werewolf.app``'s. Each subcommand is one
``add_<name>(subparsers)`` function listed in ``SUBCOMMANDS``, which sets ``run`` to the
function that carries it out; adding a command is a function and a line. Bad input
(options, files, game ids, configs) prints one line on stderr and exits with 2, never a
traceback; Ctrl-C exits with 130 and says how to resume.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from pulse_core import CODE_REV, PulseError
from pulse_core.limits import clip

from ..app import GameInterrupted
from ..arena.cli import add_arena
from ..argtypes import DEFAULT_STORE, EXIT_INTERRUPTED
from ..errors import WerewolfError
from ..heap import tune_for_play
from ..serve.cli import add_serve
from ..storefaults import explain
from .common import EXIT_USAGE, one_line, say, shown
from .games import add_games
from .play import add_play
from .players import add_check_player, add_players
from .replay import add_replay
from .resume import add_resume
from .seats import resume_command

__all__ = ["DEFAULT_STORE", "SUBCOMMANDS", "build_parser", "command", "main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        # argparse echoes the value it refused: a pasted megabyte stays out of the line
        message = clip(shown(" ".join(message.split())), 200)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        # an option no command knows is reported by the command it was given to, so the
        # line points to that command's help (werewolf play --help), not the top one
        known, extras = self.parse_known_args(args, namespace)
        if extras:
            _innermost(self, known).error(f"unrecognized arguments: {' '.join(extras)}")
        return known


def _innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The (sub)command parser ``args`` were parsed by: ``werewolf arena run``'s, say."""
    for action in parser._actions:  # argparse keeps its subcommands there
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _innermost(chosen, args)
    return parser


SUBCOMMANDS: list[Callable[[Any], None]] = [
    add_play,
    add_resume,
    add_replay,
    add_games,
    add_arena,
    add_serve,
    add_players,
    add_check_player,
]
"""One function per subcommand; each adds its parser and sets ``run``."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="werewolf",
        description="A werewolf game on pulse_core for mock, LLM and human players: play, "
        "resume, replay, list games, and run arena tournaments.",
    )
    parser.add_argument("--version", action="version", version=f"werewolf {CODE_REV}")
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def command() -> int:
    """The installed ``werewolf`` program: ``main()`` in a process of its own, which may set
    the garbage collector for playing games (``werewolf.heap``); ``main`` leaves it alone,
    for programs that call it in theirs."""
    tune_for_play()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code. With no arguments, the help."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help()
        return 0
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        code: int = args.run(args)
        return code
    except GameInterrupted as stop:  # the game is saved: say how to go on with it
        resume = resume_command(stop.game_id, args)
        say(f"interrupted. Game {stop.game_id} is saved; continue it with: {resume}")
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        say("interrupted")
        return EXIT_INTERRUPTED
    except (WerewolfError, PulseError, OSError) as exc:
        say(f"error: {one_line(exc)}")
        return EXIT_USAGE
    except sqlite3.Error as exc:  # a store fault outside a game: which store, what to do
        say(f"error: {one_line(explain(exc, getattr(args, 'store', DEFAULT_STORE)))}")
        return EXIT_USAGE
