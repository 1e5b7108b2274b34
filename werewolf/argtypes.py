"""What the ``werewolf`` commands share: argparse ``type=`` functions (a bad value becomes
argparse's one-line usage error, never a silent no-op or a traceback later on), the default
store and the exit code of an interrupted command."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

__all__ = ["DEFAULT_STORE", "EXIT_INTERRUPTED", "positive_float", "positive_int"]

DEFAULT_STORE = Path("games") / "werewolf.sqlite3"
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count, a width)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (an amount of money)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value
