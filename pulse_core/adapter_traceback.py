"""Tracebacks fit to travel: an error event's content goes into exported topic files."""

from __future__ import annotations

import os
import sys
import traceback

__all__ = ["portable_traceback"]


def portable_traceback(exc: BaseException) -> str:
    """The traceback of ``exc`` with each file named from the import root that holds it
    (``pulse_core/adapter.py``), never by an absolute path of this machine: the error
    event's content travels in exported topic files."""
    roots = sorted({os.path.abspath(p) for p in sys.path if p}, key=len, reverse=True)

    def portable(filename: str) -> str:
        for root in roots:
            if filename.startswith(root + os.sep):
                return filename[len(root) + 1 :]
        return os.path.basename(filename) if os.path.isabs(filename) else filename

    top = traceback.TracebackException.from_exception(exc)  # reads the source lines now
    pending, seen = [top], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        for frame in current.stack:
            frame.filename = portable(frame.filename)
        pending += [t for t in (current.__cause__, current.__context__) if t is not None]
        pending += list(current.exceptions or [])
    return "".join(top.format())
