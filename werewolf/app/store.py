"""Opening a game store, and the one line a storage fault becomes.

``open_game_store`` opens the SQLite store a command plays into or reads from: a store to
be written passes SQLite's quick check first (a damaged store is never written to again),
and a write waits for another process's write lock up to ``lock_timeout`` seconds, telling
``notice`` who holds it. ``storage_faults`` turns a full disk or a damaged file met while
playing into ``StoreFault``'s one line, naming the store and how to go on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pulse_core import EventStore, SQLiteEventStore

from ..errors import GameFileError, StoreFault
from ..outputs import Kind, classify, refuse
from ..storefaults import (
    STORAGE_ERRORS,
    explain,
    lock_notice,
    open_store,
    refuse_damaged,
)

__all__ = [
    "Notice",
    "check_replay_file",
    "closing",
    "open_game_store",
    "replay_file_path",
    "storage_faults",
]

Notice = Callable[[str], None]
"""Hears a line meant for the person waiting (e.g. who holds the store's write lock)."""


def open_game_store(
    path: Path,
    *,
    create: bool,
    read_only: bool = False,
    lock_timeout: float | None = None,
    notice: Notice | None = None,
) -> SQLiteEventStore:
    """The store at ``path`` (made when ``create``); see the module docstring."""
    if not create and not path.is_file():
        raise GameFileError(f"{path}: no such store (play a game first, or pass --store)")
    if path.exists() and not path.is_file():
        raise GameFileError(f"{path}: not a store file (a folder?): pass --store FILE")
    on_wait = lock_notice(path, notice) if notice is not None else None
    store = open_store(path, read_only=read_only, lock_timeout=lock_timeout, on_lock_wait=on_wait)
    if not read_only:
        try:
            refuse_damaged(store)
        except BaseException:
            store.close()
            raise
    return store


@contextmanager
def storage_faults(store: Path, then: Callable[[], str] = str) -> Iterator[None]:
    """A storage fault in the block (a full disk, a damaged file or object) becomes one
    line naming the store and what to do, with ``then()``: the command that goes on."""
    try:
        yield
    except STORAGE_ERRORS as exc:
        raise StoreFault(explain(exc, store, then())) from None


@contextmanager
def closing(store: EventStore) -> Iterator[None]:
    """Close ``store`` when the block ends, however it ends."""
    try:
        yield
    finally:
        store.close()


def replay_file_path(store: Path, game_id: str) -> Path:
    """Where a game of ``store`` is exported: ``GAME.jsonl`` beside the store."""
    return store.parent / f"{game_id}.jsonl"


def check_replay_file(store: Path, game_id: str) -> None:
    """The replay file a game goes on being exported to must be its own (or new): a file of
    that name that is something else is refused before the game goes on."""
    path = replay_file_path(store, game_id)
    found = classify(path)
    if found not in (Kind.MISSING, Kind.EMPTY, Kind.REPLAY):
        raise refuse(path, "--store", found, wanted="a store whose folder holds no such file")
