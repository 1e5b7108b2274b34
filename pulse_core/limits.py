"""Bounded reading of files a user hands over: size, line length, nesting and numbers.

Every JSON or TOML document the packages read from a user goes through ``read_bounded``
(whole small files) or ``bounded_lines`` (a replay, streamed one line at a time) and then
``parse_json`` / ``parse_toml``, so a hostile or damaged file costs bounded memory and time
and ends in one ``LimitError`` naming the file, line and problem, never a ``RecursionError``
or a 4,300-digit ``ValueError``. Only regular files are read (``open_regular``): a FIFO
would block the reader and a device such as ``/dev/zero`` never ends. ``clip`` cuts a value
before an error message echoes it.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .errors import LimitError, NumberTooLargeError

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_DOCUMENT_BYTES",
    "MAX_INT",
    "MAX_LINE_BYTES",
    "MAX_TOPIC_BYTES",
    "LimitError",
    "bounded_lines",
    "check_tree",
    "clip",
    "open_regular",
    "parse_json",
    "parse_toml",
    "read_bounded",
    "read_document",
]

MAX_DEPTH = 32  # nesting of arrays and objects; the deepest real file has 6
MAX_DIGITS = 100  # an int in a file: far beyond any seed or count, and int() stays cheap
MAX_INT = 10**MAX_DIGITS - 1
MAX_DOCUMENT_BYTES = 1 << 20  # a config, lineup, roster or run file
MAX_LINE_BYTES = 16 << 20  # one event of a topic file (an LLM seat's exchange is the largest)
MAX_TOPIC_BYTES = 64 << 20  # a whole topic file (an LLM game with every exchange: ~5 MB)
CLIP = 60  # characters of a value an error message echoes
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # absent on Windows, which has no FIFOs to open


def clip(value: object, limit: int = CLIP) -> str:
    """``str(value)``, cut to ``limit`` characters (with ``...``): errors echo values."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, refused unless it is a regular file: a FIFO
    or a terminal would block the reader (opening a FIFO waits for a writer) and a device
    such as ``/dev/zero`` never ends, so neither is a file a user hands over."""
    source = str(path)
    try:
        # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LimitError(source, None, "no such file") from None
    except IsADirectoryError:
        raise LimitError(source, None, "a folder, not a file") from None
    except OSError as exc:
        raise LimitError(source, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LimitError(source, None, "a folder, not a file")
        if not stat.S_ISREG(mode):
            raise LimitError(source, None, f"{_kind(mode)}, not a regular file")
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_bounded(path: str | os.PathLike[str], limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a small file, refused (before reading it all) above ``limit``."""
    source = str(path)
    try:
        with open_regular(path) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise LimitError(source, None, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise LimitError(source, None, f"larger than {limit:,} bytes: not a file this reads")
    return data


def bounded_lines(
    path: str | os.PathLike[str],
    *,
    line_limit: int = MAX_LINE_BYTES,
    file_limit: int = MAX_TOPIC_BYTES,
) -> Iterator[tuple[int, bytes]]:
    """``(line number, line without its end)`` of a file, read one line at a time, each
    line and the whole file within their limits (so memory stays bounded by one line)."""
    source = str(path)
    fh = open_regular(path)
    total = 0
    try:
        for number in range(1, 1 << 62):
            raw = fh.readline(line_limit + 1)
            if not raw:
                return
            total += len(raw)
            if len(raw) > line_limit and not raw.endswith(b"\n"):
                raise LimitError(source, number, f"a line over {line_limit:,} bytes")
            if total > file_limit:
                raise LimitError(source, number, f"the file is over {file_limit:,} bytes")
            yield number, raw.removesuffix(b"\n")
    except OSError as exc:
        raise LimitError(source, None, f"cannot read: {exc.strerror or exc}") from None
    finally:
        fh.close()


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:  # before int(): 10,000 digits cost quadratic time
        raise NumberTooLargeError(f"the number {clip(text, 24)} is too large")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NumberTooLargeError(f"the number {clip(text, 24)} is too large")
    return value


def _no_constant(text: str) -> object:
    raise NumberTooLargeError(f"{text} is not a number this reads")


def check_tree(value: object, source: str, line: int | None = None) -> None:
    """Refuse a parsed document nested deeper than ``MAX_DEPTH`` or holding an int of more
    than ``MAX_DIGITS`` digits or a non-finite float. Iterative, so depth costs no stack."""
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, at, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise LimitError(
                    source, line, f"{at or 'document'}: nested deeper than {MAX_DEPTH}"
                )
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                stack.append((child, f"{at}.{key}" if at else str(key), depth + 1))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
            raise LimitError(source, line, f"{clip(at, 40)}: the number is too large")
        elif isinstance(item, float) and not math.isfinite(item):
            raise LimitError(source, line, f"{clip(at, 40)}: not a finite number")


def _text(raw: bytes, source: str, line: int | None, kind: str) -> str:
    if raw.startswith(b"SQLite format 3\x00"):
        raise LimitError(source, None, f"an SQLite store, not a {kind} file (pass it as --store)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LimitError(source, line, f"not UTF-8 text (byte {exc.start})") from None


def parse_json(raw: bytes, source: str, line: int | None = None) -> Any:
    """One JSON document (a file, or line ``line`` of a JSON Lines file), bounded."""
    text = _text(raw, source, line, "JSON")
    try:
        value = json.loads(
            text,
            parse_int=_bounded_int,
            parse_float=_finite_float,
            parse_constant=_no_constant,
        )
    except NumberTooLargeError as exc:
        raise LimitError(source, line, str(exc)) from None
    except RecursionError:
        raise LimitError(source, line, f"nested deeper than {MAX_DEPTH}") from None
    except json.JSONDecodeError as exc:
        at = (line or 1) + exc.lineno - 1
        raise LimitError(source, at, f"not JSON: {exc.msg} (column {exc.colno})") from None
    check_tree(value, source, line)
    return value


def parse_toml(raw: bytes, source: str) -> dict[str, Any]:
    """One TOML document, bounded."""
    text = _text(raw, source, None, "TOML")
    try:
        value = tomllib.loads(text, parse_float=_finite_float)
    except NumberTooLargeError as exc:
        raise LimitError(source, None, str(exc)) from None
    except RecursionError:
        raise LimitError(source, None, f"nested deeper than {MAX_DEPTH}") from None
    except tomllib.TOMLDecodeError as exc:
        raise LimitError(source, None, f"not valid TOML: {clip(exc, 120)}") from None
    except ValueError:  # tomllib's int() of a number over 4,300 digits
        raise LimitError(source, None, "a number is too large") from None
    check_tree(value, source)
    return value


def read_document(path: str | os.PathLike[str]) -> Any:
    """A small JSON (``.json``) or TOML (anything else) file, bounded."""
    data = read_bounded(path)
    if Path(path).suffix == ".json":
        return parse_json(data, str(path))
    return parse_toml(data, str(path))
