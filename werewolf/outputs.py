"""Writing a file the user named (an export, a report, a chart, a cassette): never over or
into a file the command did not write for that purpose, all or nothing.

``classify`` says what a path holds now: nothing, an empty file, a folder, a device or
pipe, or one of the files werewolf writes (a store, a replay, an arena run file, a
cassette, each export), told apart by how each begins; anything else is ``OTHER``, and a
path that cannot be looked at (a symlink loop, a name too long) ``UNUSABLE``.
``check_output`` lets an output replace only a missing path, an empty file or an earlier
output of its own kind (``--html`` an earlier HTML export, never a store, a replay, a run
file, a cassette or a file of the user's), and never one of the command's inputs.
``write_output`` writes through a temp file renamed into place (through a symlink to its
target); ``pulse_core.tempfiles`` sweeps the temp files a killed writer left behind.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from enum import Enum
from pathlib import Path

from pulse_core.limits import clip
from pulse_core.tempfiles import atomic_write

from .errors import ConfigError

__all__ = [
    "Kind",
    "check_output",
    "classify",
    "file_in_the_way",
    "one_file",
    "refuse",
    "write_output",
]

_HEAD = 4096  # bytes read to tell the kinds apart: each says what it is in its first line


class Kind(Enum):
    """What a path holds; the value is how a refusal names it."""

    MISSING = "missing"
    EMPTY = "an empty file"
    FOLDER = "a folder"
    SPECIAL = "not a regular file (a device, a pipe or a socket)"
    STORE = "an SQLite file (a store)"
    REPLAY = "a replay file"
    RUN = "an arena run file"
    CASSETTE = "a cassette"
    HTML = "an HTML export of a replay"
    MARKDOWN = "a Markdown export of a replay"
    REPORT_MARKDOWN = "an arena report"
    REPORT_JSON = "an arena report's JSON"
    CHART = "an arena chart"
    OTHER = "a file werewolf did not write"
    UNUSABLE = "a path that cannot be read (a symlink loop, a name too long, no permission)"


# how each kind's file begins, as werewolf writes it (json.dumps, the page template, ...)
_STARTS: tuple[tuple[Kind, re.Pattern[bytes]], ...] = (
    (Kind.STORE, re.compile(rb"SQLite format 3\x00")),
    (Kind.REPLAY, re.compile(rb'\{"format": "pulse-topic"')),
    (Kind.RUN, re.compile(rb'\{\n  "format": 1,\n  "name": ')),
    (Kind.REPORT_JSON, re.compile(rb'\{\n  "format": 1,\n  "run": \{')),
    (Kind.CASSETTE, re.compile(rb'\{"(session|hash)": ')),
    (
        Kind.HTML,
        re.compile(rb"<!DOCTYPE html>\n<html[^>]*>\n<head>\n.*<title>Werewolf game ", re.S),
    ),
    (Kind.MARKDOWN, re.compile(rb"### Werewolf game ")),
    (Kind.REPORT_MARKDOWN, re.compile(rb"# Arena run `")),
    (Kind.CHART, re.compile(rb"\x89PNG\r\n\x1a\n.*Matplotlib", re.S)),
)


def classify(path: Path) -> Kind:
    """What ``path`` holds (a symlink: what its target holds). A pipe or device is never
    opened: reading one could block or consume what another process waits for. A path
    through folders not made yet is what it names once they are: ``new/../notes.txt`` is
    ``notes.txt`` as soon as ``new`` is made for the write."""
    found = _kind_of(path)
    if found is Kind.MISSING and ".." in path.parts:
        found = _kind_of(Path(os.path.realpath(path)))  # the missing part taken by name
    return found


def _kind_of(path: Path) -> Kind:
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return Kind.MISSING  # nothing there (making its folder will say what is wrong)
    except OSError:
        return Kind.UNUSABLE  # nothing is known to be safe to replace
    if stat.S_ISDIR(info.st_mode):
        return Kind.FOLDER
    if not stat.S_ISREG(info.st_mode):
        return Kind.SPECIAL
    if info.st_size == 0:
        return Kind.EMPTY
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return Kind.UNUSABLE
    for kind, start in _STARTS:
        if start.match(head):
            return kind
    return Kind.OTHER


def file_in_the_way(path: Path) -> Path | None:
    """The nearest existing folder of ``path`` when it is no folder (``notes.txt`` for
    ``notes.txt/page.html``): making the path's folders would fail on it half-way."""
    for parent in path.parents:
        try:
            if parent.exists() or parent.is_symlink():
                return None if parent.is_dir() else parent
        except OSError:
            return parent  # a symlink loop, a name too long: no folder to write into
    return None


def refuse(path: Path, option: str, found: Kind, *, wanted: str = "a new file") -> ConfigError:
    """The one-line refusal of ``path`` as ``option``'s output: what it is, what to name."""
    return ConfigError(
        [(option, f"{clip(path, 300)} is {found.value}: name {wanted}, it is left as it is")]
    )


def one_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file, existing or not (``os.path.realpath``: a symlink
    loop is a path like any other, where ``Path.resolve`` raises RuntimeError)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: Path, option: str, kind: Kind, inputs: Iterable[Path | str] = ()) -> None:
    """Refuse ``path`` as the output of ``option`` (a file of ``kind``) unless it is missing,
    empty or an earlier output of the same kind, and not one of the command's ``inputs``."""
    for source in inputs:
        if _same(path, Path(source)):
            raise ConfigError(
                [(option, f"{clip(path, 300)} is what this command reads: name another")]
            )
    found = classify(path)
    if found not in (Kind.MISSING, Kind.EMPTY, kind):
        raise refuse(path, option, found, wanted=f"a new file or {kind.value}")
    _check_folder(path, option)
    folder = _existing_folder(path.resolve() if path.is_symlink() else path)
    if folder is not None and not os.access(folder, os.W_OK):
        # the temp file goes beside the target: say so now, not after the work, and name
        # the file asked for, not the temp file
        raise ConfigError(
            [(option, f"{clip(path, 300)}: cannot write in {clip(folder, 300)} (read-only "
              "file system or no permission): name a file in a folder you may write")]
        )  # fmt: skip


def _existing_folder(path: Path) -> Path | None:
    """The folder ``path`` goes in, or the nearest one above it that exists (the rest is
    made on writing); None when none does (making it says what is wrong)."""
    for folder in path.absolute().parents:
        if folder.is_dir():
            return folder
        if folder.exists():
            return None
    return None


def _check_folder(path: Path, option: str) -> None:
    """A path that leads to no file it could write (a symlink to nothing), or through a
    file where a folder should be, is refused naming the option."""
    if path.is_symlink() and not path.exists():  # no file it could write to
        raise ConfigError([(option, f"{clip(path, 300)} is a symlink to nothing: name a new file")])
    blocker = file_in_the_way(path)
    if blocker is not None:
        raise ConfigError(
            [
                (
                    option,
                    f"{clip(path, 300)}: {clip(blocker, 300)} is not a folder: name a file in one",
                )
            ]
        )


def write_output(
    path: Path, text: str, option: str, kind: Kind, inputs: Iterable[Path | str] = ()
) -> None:
    """Write ``text`` to ``path`` once ``check_output`` allows it, atomically; a symlink
    stays and its target is replaced."""
    check_output(path, option, kind, inputs)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text.encode("utf-8"), fsync=False)
    except OSError as exc:  # no permission, a read-only or full file system
        raise ConfigError(
            [(option, f"{clip(path, 300)}: cannot write it: {exc.strerror or exc}")]
        ) from None


def _sessions(path: Path) -> list[int]:
    """The session markers of a cassette (``players.cassette``): where each recording
    process took its game up. A marker that does not read as one is -1."""
    found: list[int] = []
    with open(path, "rb") as fh:
        for line in fh:
            if line.startswith(b'{"session": '):
                digits = line[len(b'{"session": ') :].split(b"}", 1)[0].split(b",", 1)[0]
                found.append(int(digits) if digits.strip().isdigit() else -1)
    return found


def check_record(path: Path, session: int) -> None:
    """Refuse ``--record path`` for a process that takes a game up at ``session`` events
    unless the path is new (or empty) or, for a resumed game, a cassette whose parts all
    began before this one, as the earlier processes of the same game left it."""
    found = classify(path)
    if found in (Kind.MISSING, Kind.EMPTY):
        _check_folder(path, "--record")
        return
    if session == 0 or found is not Kind.CASSETTE:
        raise refuse(path, "--record", found, wanted="a new cassette file")
    try:
        sessions = _sessions(path)
    except OSError:
        sessions = [-1]
    if not sessions or sessions[0] != 0 or any(not 0 <= s < session for s in sessions):
        raise ConfigError(
            [
                (
                    "--record",
                    f"{clip(path, 300)} is a cassette of another game (its parts are not "
                    f"this game's before version {session}): name a new file, it is left as "
                    "it is",
                )
            ]
        )
