"""What the ``werewolf`` commands share: argparse ``type=`` functions (a bad value becomes
argparse's one-line usage error, never a silent no-op, a hang or a traceback later on), the
default store and the exit code of an interrupted command.

Every number an option takes has a range, and the error names it: ``argument --pace:
'1e308' is out of range: use a number above 0 and at most 60 (seconds)``. NaN, infinities,
negative and absurdly large values never reach the code that would sleep, loop or allocate
by them."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = [
    "DEFAULT_STORE",
    "EXIT_INTERRUPTED",
    "MAX_SEED",
    "MAX_WIDTH",
    "STORE_HELP",
    "STORE_VARIABLE",
    "add_lock_timeout",
    "default_store",
    "int_in",
    "is_number",
    "number_in",
    "number_pair",
    "seed_number",
    "width",
]

DEFAULT_STORE = Path("games") / "werewolf.sqlite3"
STORE_VARIABLE = "WEREWOLF_STORE"  # one store for every directory a user plays from
STORE_HELP = f"${STORE_VARIABLE} if set, else {DEFAULT_STORE} under the current directory"
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT
MAX_WIDTH = 1000  # columns: wider than any screen, and small enough to draw in a moment
MAX_SEED = 2**63 - 1  # the largest signed 64-bit integer: a seed fits every store of one
_MAX_DIGITS = 18  # every number a user types fits in 64 bits
_MAX_FLOAT_TEXT = 40  # characters: more is no number anyone types


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: ``str.isdigit`` also takes
    ``³`` and ``٣``, which ``int`` then refuses or reads as another digit."""
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()


def default_store(env: Mapping[str, str] = os.environ) -> Path:
    """The store a command uses without ``--store``: ``$WEREWOLF_STORE`` (``~`` expanded),
    else ``games/werewolf.sqlite3`` in the current directory, as the quick start expects."""
    chosen = env.get(STORE_VARIABLE, "").strip()
    return Path(chosen).expanduser() if chosen else DEFAULT_STORE


def _shown(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:24] + "...")


def _figure(value: float) -> str:
    """A bound as people write it: 60, 1,000,000, 0.5."""
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


def _float_text(text: str) -> bool:
    """Whether ``text`` is a number as people type it: ``float`` also takes ``٣``, ``１``,
    ``1_000`` and spaces around it."""
    return (
        0 < len(text) <= _MAX_FLOAT_TEXT
        and text.isascii()
        and text.strip() == text
        and ("_" not in text)
    )


def _all_digits(text: str) -> bool:
    return text.isascii() and text.removeprefix("-").isdigit()


def int_in(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number in ASCII digits from ``low`` to ``high``;
    ``unit`` (e.g. ``"columns"``) is said with the range."""
    allowed = f"{low} to {high}" + (f" ({unit})" if unit else "")

    def parse(text: str) -> int:
        digits = text.removeprefix("-")
        if not is_number(digits):
            if _all_digits(text):  # more digits than any number in range
                raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range: use {allowed}")
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number: use {allowed}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: use {allowed}")
        return value

    return parse


def number_in(high: float, unit: str = "") -> Callable[[str], float]:
    """An argparse type: a finite number above 0 and at most ``high`` (an amount of money,
    a pause); ``unit`` is said with the range."""
    allowed = f"a number above 0 and at most {_figure(high)}" + (f" ({unit})" if unit else "")

    def parse(text: str) -> float:
        try:
            if not _float_text(text) and len(text) <= _MAX_FLOAT_TEXT:
                raise ValueError(text)
            value = float(text) if len(text) <= _MAX_FLOAT_TEXT else math.nan
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a number: use {allowed}"
            ) from None
        if not 0 < value <= high:  # NaN fails every comparison, so it lands here too
            raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range: use {allowed}")
        return value

    return parse


def number_pair(
    high: float, form: str = "A,B", unit: str = ""
) -> Callable[[str], tuple[float, float]]:
    """An argparse type: ``A,B``, two finite numbers from 0 to ``high`` (a price pair);
    ``form`` names the two (``PROMPT,COMPLETION``) in the error."""
    allowed = f"{form}, each from 0 to {_figure(high)}" + (f" ({unit})" if unit else "")

    def parse(text: str) -> tuple[float, float]:
        first, comma, second = text.partition(",")
        try:
            if not comma or len(text) > 2 * _MAX_FLOAT_TEXT:
                raise ValueError(text)
            if not (_float_text(first.strip()) and _float_text(second.strip())):
                raise ValueError(text)
            pair = (float(first), float(second))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not two numbers: use {allowed}"
            ) from None
        if not all(0 <= value <= high for value in pair):
            raise argparse.ArgumentTypeError(f"{_shown(text)} is out of range: use {allowed}")
        return pair

    return parse


seed_number = int_in(0, MAX_SEED)
"""A game or run seed."""

width = int_in(1, MAX_WIDTH, "columns")
"""A drawing width in columns."""


def add_lock_timeout(parser: argparse.ArgumentParser) -> None:
    """``--lock-timeout``, for every command that writes a store (``play``, ``resume``,
    ``arena run``)."""
    parser.add_argument(
        "--lock-timeout",
        type=number_in(86_400, "seconds"),
        metavar="SECONDS",
        help="give up when another process holds the store's write lock this long "
        "(default: wait, saying who holds it after a second)",
    )
