"""All-or-nothing file writes, and the sweep of what a killed writer left behind.

``atomic_write(path, data)`` writes ``<name>.<pid>.tmp`` beside the target and renames it
into place, so a reader sees the old file or the new one, never half of one. A process
killed between the two leaves its temp file; the next write of the same target removes the
temp files of processes that no longer run (``sweep``), so none lingers forever.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["atomic_write", "sweep"]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


def sweep(target: Path) -> int:
    """Remove ``target``'s temp files whose writer is gone; returns how many."""
    removed = 0
    try:
        candidates = list(target.parent.glob(f"{target.name}.*.tmp"))
    except OSError:
        return 0
    for tmp in candidates:
        pid = tmp.name[len(target.name) + 1 : -len(".tmp")]
        if pid.isascii() and pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed += 1
    return removed


def atomic_write(path: str | os.PathLike[str], data: bytes, *, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` all or nothing (see the module docstring)."""
    target = Path(path)
    sweep(target)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
