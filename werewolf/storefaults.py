"""What a storage fault means to the user: one line naming the store and what to do.

A full disk, a read-only file system, a damaged SQLite file or a missing or damaged
content object reach the commands as ``sqlite3`` errors, ``OSError`` or pulse_core's
object errors; ``StoreFault`` turns each into a sentence. Nothing already committed is lost
by any of them (SQLite rolls the failed transaction back), so a game can be continued once
the cause is fixed. ``refuse_damaged`` keeps a store that fails SQLite's quick check from
ever being written again, and ``check_objects`` finds a chain's missing or damaged
objects before a resume plays on.
"""

from __future__ import annotations

import errno
import math
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from pulse_core import (
    ATTACHMENTS,
    CorruptObjectError,
    Event,
    FileObjectStore,
    ObjectNotFoundError,
    PulseError,
    SQLiteEventStore,
    StoreLockedError,
)
from pulse_core.chain import first_broken
from pulse_core.limits import clip
from pulse_core.sqlite_objects import SQLiteObjectStore
from pulse_core.sqlite_room import ROOM, free_bytes

from .errors import StoreFault
from .outputs import Kind, classify, file_in_the_way

__all__ = [
    "STORAGE_ERRORS",
    "check_chain",
    "check_objects",
    "explain",
    "lock_notice",
    "open_store",
    "refuse_damaged",
]

STORAGE_ERRORS = (sqlite3.Error, OSError, ObjectNotFoundError, CorruptObjectError)
_NOT_STORES = frozenset(Kind) - {Kind.MISSING, Kind.EMPTY, Kind.STORE, Kind.OTHER}
"""What a store path may hold and be named for before SQLite opens it: a folder, a device,
an unusable path or one of werewolf's other files (a file of the user's goes on to SQLite,
which tells a damaged store from no store)."""


def _kind(exc: BaseException) -> str:
    text = str(exc).lower()
    number = getattr(exc, "errno", None)
    if number == errno.ENOSPC or "disk is full" in text or "no space" in text:
        return "full"
    if number in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text:
        return "read-only"
    if "locked" in text or "busy" in text:
        return "locked"
    if isinstance(exc, ObjectNotFoundError | CorruptObjectError):
        return "object"
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return "damaged"
    if "malformed" in text or "not a database" in text:
        return "damaged"
    return "other"


def _full(store: Path) -> bool:
    """The store's file system has less room than a store needs (SQLite reports a full
    disk met while growing the WAL's index as a bare "disk I/O error")."""
    free = free_bytes(store.parent if store.parent != Path() else Path("."))
    return free is not None and free < ROOM


def _writable(store: Path) -> bool:
    folder = store.parent if store.parent != Path() else Path(".")
    return os.access(folder, os.W_OK) and (not store.exists() or os.access(store, os.W_OK))


def explain(exc: BaseException, store: Path, then: str = "") -> str:
    """One line: which store, what went wrong, what to do (``then``: how to go on)."""
    go_on = f", then continue with: {then}" if then else ""
    if isinstance(exc, StoreLockedError):
        return (
            f"{store}: {exc.holder} holds the store's write lock; gave up after "
            f"{exc.waited:g} s (--lock-timeout); nothing written is lost: try again when it "
            f"is done{go_on}"
        )
    kind = _kind(exc)
    if kind == "other" and "unable to open" in str(exc) and not _writable(store):
        kind = "read-only"  # SQLite's word for a WAL file it may not create
    if kind == "other" and "disk i/o error" in str(exc).lower() and _full(store):
        kind = "full"
    if kind == "full":
        return f"{store}: the disk is full; nothing written is lost: free some space{go_on}"
    if kind == "read-only":
        return (
            f"{store}: cannot write here (read-only file system or no permission); nothing "
            f"written is lost: copy the store somewhere writable and pass --store{go_on}"
        )
    if kind == "locked":
        return f"{store}: another process holds the store locked; try again when it is done"
    if kind == "object":
        return (
            f"{store}: {exc}: restore the store and the objects/ folder beside it from a "
            "backup, or replay the game from its replay file"
        )
    if kind == "damaged":
        return (
            f"{store}: the store file is damaged ({clip(exc, 80)}); it is not written again: "
            f"recover what it holds with `sqlite3 {store} .recover`, or use another --store"
        )
    return f"{store}: {clip(exc, 200)}{go_on}"


def open_store(
    path: Path,
    *,
    read_only: bool = False,
    durable: bool = True,
    lock_timeout: float | None = None,
    on_lock_wait: Callable[[str], None] | None = None,
    then: str = "",
) -> SQLiteEventStore:
    """The store at ``path``; one that cannot be opened for a storage fault (a full disk,
    a folder that cannot be written, a damaged file) is ``StoreFault``'s one line (ending
    with ``then``, how to go on, as ``explain`` writes it). A write waits ``lock_timeout``
    seconds for another process's write lock (None: as long as it takes), telling
    ``on_lock_wait`` who holds it after a second."""
    if lock_timeout is None:
        lock_timeout = math.inf
    _check_path(path)
    try:
        return SQLiteEventStore(
            path,
            read_only=read_only,
            durable=durable,
            lock_timeout=lock_timeout,
            on_lock_wait=on_lock_wait,
        )
    except PulseError as exc:
        if isinstance(exc.__cause__, STORAGE_ERRORS):
            raise StoreFault(explain(exc.__cause__, path, then)) from None
        raise


def _back_out_of_new_folder(path: Path) -> bool:
    """``new/../x``: a ``..`` after a folder that is not there (making it is a change)."""
    parts = path.parts
    return any(
        part == ".." and index > 0 and not Path(*parts[:index]).exists()
        for index, part in enumerate(parts)
    )


def _loops(path: Path) -> bool:
    try:
        path.stat()
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _check_path(path: Path) -> None:
    """Refuse a store path for what it plainly is, before SQLite opens it: a replay, run
    file, cassette or export is no damaged store, a symlink to nowhere is nothing SQLite can
    make, and a file where a folder should be is named."""
    shown = clip(path, 300)
    if _back_out_of_new_folder(path):  # the folders made for it would stay
        raise StoreFault(f"{shown}: goes through a folder that is not there: pass --store FILE")
    if path.is_symlink() and not path.exists():  # SQLite makes the file it points at
        target = Path(os.path.realpath(path))
        if _loops(path) or not target.parent.is_dir():
            raise StoreFault(f"{shown}: a symlink that leads nowhere: pass --store FILE")
    found = classify(path)
    if found in _NOT_STORES:
        raise StoreFault(f"{shown} is {found.value}, not a store: pass --store FILE")
    blocker = file_in_the_way(path)
    if blocker is not None:
        raise StoreFault(f"{shown}: {clip(blocker, 300)} is not a folder: pass --store FILE")


def lock_notice(store: Path, say: Callable[[str], None]) -> Callable[[str], None]:
    """What a writer says (through ``say``) once it has waited a second for the lock."""

    def notice(holder: str) -> None:
        say(
            f"{store}: waiting for the store's write lock, held by {holder}; Ctrl-C stops "
            "(nothing written is lost), --lock-timeout SECONDS gives up by itself"
        )

    return notice


def refuse_damaged(store: SQLiteEventStore) -> None:
    """Raise ``StoreFault`` when the store fails SQLite's quick check: a damaged store is
    never written to again (a write could spread the damage over what is still sound)."""
    try:
        answer = store.quick_check()
    except sqlite3.DatabaseError as exc:
        raise StoreFault(explain(sqlite3.DatabaseError(str(exc)), store.path)) from None
    if answer != "ok":
        raise StoreFault(explain(sqlite3.DatabaseError(f"integrity check: {answer}"), store.path))


def check_chain(chain: Sequence[Event], where: str) -> None:
    """Raise ``StoreFault`` naming the first version missing from ``chain`` (a deleted
    row), else the first event whose hash chain does not follow (an event edited in the
    store). A store not yet migrated has no chain to check."""
    for number, event in enumerate(chain, start=1):
        if event.version != number:  # a row deleted: the next one's chain breaks too
            raise StoreFault(
                f"{where} version {number} is missing from the store (deleted): the "
                "events after it cannot be trusted"
            )
    if not chain or not chain[0].chain:
        return
    broken = first_broken(chain)
    if broken is not None:
        event = chain[broken]
        raise StoreFault(
            f"{where} version {event.version} ({event.kind}) was edited in the store: its "
            "chain hash does not follow from the events before it; the game cannot be trusted"
        )


def check_objects(store: SQLiteEventStore, chain: Sequence[Event], game: str) -> None:
    """Every content and attachment object of ``chain`` is present and matches its hash;
    else ``StoreFault`` naming the game, the event and the object's path."""
    for event in chain:
        digests = [event.hash, *dict(event.meta.get(ATTACHMENTS) or {}).values()]
        for digest in digests:
            try:
                store.objects.get(str(digest))
            except (ObjectNotFoundError, CorruptObjectError) as exc:
                what = "missing" if isinstance(exc, ObjectNotFoundError) else "damaged"
                raise StoreFault(
                    f"{store.path}: game {game} version {event.version} ({event.kind}): its "
                    f"object {clip(_where(store, str(digest)), 300)} is {what}: restore the "
                    "store and its objects/ folder from a backup, or import the game's "
                    "replay file into a new --store"
                ) from None


def _where(store: SQLiteEventStore, digest: str) -> str:
    """Where an object is: its file, the store's database (an inline object), or its hash."""
    objects = store.objects
    if isinstance(objects, SQLiteObjectStore):
        return objects.where(digest)
    if isinstance(objects, FileObjectStore):
        return str(objects.path_of(digest))
    return digest
