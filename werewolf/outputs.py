"""Writing a file the user named (an HTML or Markdown export, a report): never over what
the command reads or over a log, all or nothing.

``write_output`` refuses a target that is one of the command's inputs (``replay g.jsonl
--html g.jsonl``), a replay file, an SQLite store or a folder, and writes through a temp
file renamed into place; ``pulse_core.tempfiles`` sweeps the temp files a killed writer
left behind.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pulse_core.limits import clip
from pulse_core.tempfiles import atomic_write

from .errors import ConfigError

__all__ = ["check_output", "write_output"]

_LOGS = (b'{"format": "pulse-topic"', b"SQLite format 3\x00")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: Path, option: str, inputs: Iterable[Path | str] = ()) -> None:
    """Refuse ``path`` as an output of ``option`` when writing it would destroy data."""
    for source in inputs:
        if _same(path, Path(source)):
            raise ConfigError(
                [(option, f"{clip(path, 300)} is what this command reads: name another")]
            )
    if path.is_dir():
        raise ConfigError([(option, f"{clip(path, 300)} is a folder: name a file")])
    if path.is_file():
        try:
            with open(path, "rb") as fh:
                head = fh.read(32)
        except OSError:
            return  # the write will say what is wrong
        if head.startswith(_LOGS):
            raise ConfigError(
                [
                    (
                        option,
                        f"{clip(path, 300)} is a game log (a replay file or a store): name another",
                    )
                ]
            )


def write_output(path: Path, text: str, option: str, inputs: Iterable[Path | str] = ()) -> None:
    """Write ``text`` to ``path`` once ``check_output`` allows it, atomically."""
    check_output(path, option, inputs)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"), fsync=False)
