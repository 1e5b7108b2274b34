"""What every ``werewolf`` subcommand shares: exit codes, the one-line messages on
stderr, the ``--store`` and live-view options, game ids and views as typed."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pulse_core import is_ulid
from pulse_core.limits import clip

from ..app import view_spec as _as_view
from ..argtypes import STORE_HELP, default_store
from ..errors import ConfigError
from ..replay import ViewKind, ViewSpec

__all__ = [
    "EXIT_FAILED",
    "EXIT_USAGE",
    "add_live_view",
    "add_store",
    "check_seat",
    "game_id",
    "one_line",
    "say",
    "shown",
    "view_spec",
]

EXIT_FAILED = 1  # a game that stopped on an error (resumable)
EXIT_USAGE = 2  # bad options, files or game ids


def add_store(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=Path,
        default=default_store(),
        metavar="PATH",
        help=f"the SQLite event store (default: {STORE_HELP}; objects beside it)",
    )


def add_live_view(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--view",
        metavar="VIEW",
        help="what to show while the game runs: public (default; a human seat's own view "
        "when one plays), god, or seat:N",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        "--fast",
        dest="quiet",
        action="store_true",
        help="draw nothing while playing: print only the result",
    )


def view_spec(word: str | None) -> ViewSpec:
    """``--view``: one word, so it never takes the game id that follows it."""
    return ViewSpec(ViewKind.PUBLIC) if word is None else _as_view(word, "--view")


def check_seat(spec: ViewSpec, seats: int, option: str = "--view") -> None:
    if spec.seat is not None and not 1 <= spec.seat <= seats:
        raise ConfigError([(option, f"no seat {spec.seat}: seats are 1 to {seats}")])


def game_id(text: str) -> str:
    """A game id as typed: ids are upper-case ULIDs, and one typed in lower case is one too."""
    return text.upper() if is_ulid(text.upper()) else text


def say(message: str) -> None:
    sys.stderr.write(f"werewolf: {message}\n")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # what a terminal would act on, not show


def shown(text: str) -> str:
    """``text`` with its control characters written out (``\\x1b``): a path or value that
    holds an escape sequence is shown, never played on the user's terminal."""
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    # a name that is not UTF-8 (a surrogate escape) is written out too, never an encode error
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def one_line(exc: object) -> str:
    """An error as one line of bounded length, whatever a file made it echo."""
    return clip(shown(" ".join(str(exc).split())), 1000)
