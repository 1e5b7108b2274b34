"""What the ``werewolf`` commands share: argparse ``type=`` functions (a bad value becomes
argparse's one-line usage error, never a silent no-op or a traceback later on), the default
store and the exit code of an interrupted command."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

__all__ = [
    "DEFAULT_STORE",
    "EXIT_INTERRUPTED",
    "MAX_WIDTH",
    "is_number",
    "positive_float",
    "positive_int",
    "seat_number",
    "whole_number",
    "width",
]

DEFAULT_STORE = Path("games") / "werewolf.sqlite3"
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT
MAX_WIDTH = 1000  # columns: wider than any screen, and small enough to draw in a moment
_MAX_DIGITS = 18  # every number a user types fits in 64 bits


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: ``str.isdigit`` also takes
    ``³`` and ``٣``, which ``int`` then refuses or reads as another digit."""
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()


def _shown(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:24] + "...")


def whole_number(text: str) -> int:
    """A whole number, maybe negative, in ASCII digits (a seed, a day cap)."""
    if not is_number(text.removeprefix("-")):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number")
    return int(text)


def seat_number(text: str) -> int:
    """A seat number: ASCII digits, at least 1 (whether the game has it is checked later)."""
    return positive_int(text)


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count, a width)."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def width(text: str) -> int:
    """A drawing width in columns: 1 to ``MAX_WIDTH``."""
    value = positive_int(text)
    if value > MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"at most {MAX_WIDTH} columns, not {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (an amount of money)."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {_shown(text)}")
    return value
