"""Driving one game in a store: its seats, the loop of ticks, and Ctrl-C.

``Table`` is how a game is seated and watched: the language, the LLM cassette to record or
answer from, and the hooks through which the caller hears what happens (``watch``: the
events as they are read, for a live view; ``on_retry``: an LLM request tried again;
``notice``: the store's write lock held by another process). Nothing here prints.
``seat_table`` makes the seating of a game's specs; ``run_game`` drives the game until it
ends or fails; Ctrl-C raises ``GameInterrupted`` with the game's id (the game is saved).
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pulse_core import (
    ConflictError,
    Event,
    EventStore,
    SQLiteEventStore,
    WorkflowError,
    WorkflowRule,
)

from ..errors import GameFileError
from ..game import werewolf_workflow
from ..lineup import SeatSpec
from ..players import SpecSeating, seating_from_specs
from ..players.base import Player
from ..players.endpoints import StatusSink
from ..players.human import Terminal
from ..players.ledger import BillLedger
from ..players.web import WebHost
from ..scope import TopicScope, floor_seq
from ..state import GameState
from .store import Notice

if TYPE_CHECKING:
    from ..players.cassette import CassetteTransport

__all__ = [
    "GameInterrupted",
    "GameSeating",
    "Table",
    "Watch",
    "load_cassette",
    "resume_failed",
    "run_game",
    "seat_table",
]

Feed = Callable[[Sequence[Event]], None]


class GameSeating(Protocol):
    """The players of a game (``SpecSeating``, or one with Python seats): called before
    every phase, and closed when the drive stops."""

    def __call__(self, game_id: str, state: GameState) -> Mapping[int, Player]: ...

    async def aclose(self) -> None: ...

    def close(self) -> None: ...


class Watch(Protocol):
    """Called once the game is in the store: what should see its events as they are read
    (e.g. ``LiveReplay(...).feed``), or None."""

    def __call__(self, store: EventStore, game_id: str) -> Feed | None: ...


class GameInterrupted(KeyboardInterrupt):
    """Ctrl-C during a game: the game is saved and can be resumed by its id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


@dataclass(frozen=True)
class Table:
    """How a game's seats are made and the game watched; see the module docstring."""

    lang: str | None = None  # the language seats speak (None: the game's own; en when new)
    record: Path | None = None  # append every LLM request and answer to this cassette
    cassette: Path | CassetteTransport | None = None  # answer LLM seats from it, no network
    watch: Watch | None = None
    on_retry: StatusSink | None = None
    notice: Notice | None = None
    terminal: Terminal | None = None  # where a human seat plays (None: this terminal)
    recap: bool = True  # a human seat is told the story so far (False: a live view shows it)
    pace: float = 0.0  # seconds between two steps, to watch a mock game being played
    web: WebHost | None = None  # serves the browser seats (None: a free port, told to notice)


def load_cassette(path: Path | None, session: int = 0) -> CassetteTransport | None:
    """The cassette at ``path``, read whole and checked: its part for the process that took
    the game up at ``session`` events (0: a new game)."""
    if path is None:
        return None
    from ..players.cassette import CassetteTransport  # the HTTP stack: only when replaying

    return CassetteTransport(path, session=session)


def seat_table(
    specs: Mapping[int, SeatSpec],
    table: Table,
    *,
    lang: str,
    budget: int | None,
    ledger: BillLedger | None,
    spent: int = 0,
    session: int = 0,
) -> SpecSeating:
    """The seating of ``specs``: LLM seats share the game's ``budget`` (``spent`` of it
    already) and write every answer to ``ledger`` as it arrives."""
    cassette = table.cassette
    return seating_from_specs(
        specs,
        lang=lang,
        budget=budget,
        spent=spent,
        record=None if table.record is None else str(table.record),
        replay=str(cassette) if isinstance(cassette, Path) else cassette,
        terminal=table.terminal,
        session=session,
        recap=table.recap,
        status=table.on_retry,
        ledger=ledger,
        web=table.web,
        announce=table.notice,
    )


async def _drive(
    rule: WorkflowRule[GameState | None],
    scope: TopicScope,
    game_id: str,
    seating: GameSeating,
    pace: float = 0.0,
) -> str:
    """Tick until the game ends or fails; returns the status. A live view is fed the
    events each tick reads (the scope passes them on); ``pace`` seconds pass between
    steps, so people can follow a mock game as it is played."""
    try:
        while True:
            appended = await rule.tick()
            status = rule.status(game_id)
            if status != "running":
                scope.read_after(rule.cursor)  # the failure the last tick wrote, for the view
                return status
            if appended == 0:  # another runner holds the next step: wait for it
                await asyncio.sleep(0.05)
            elif pace:
                await asyncio.sleep(pace)
    finally:
        await seating.aclose()


def run_game(
    store: EventStore,
    game_id: str,
    seating: GameSeating,
    table: Table,
    *,
    resume_failed_game: bool = False,
    recovered: Sequence[dict[str, Any]] = (),
) -> str:
    """Drive ``game_id`` until it ends (``"ended"``) or stops on an error (``"failed"``);
    with ``resume_failed_game``, a game that failed at once is resumed once."""
    feed = table.watch(store, game_id) if table.watch is not None else None
    scope = TopicScope(store, [game_id], on_read=feed)
    rule = WorkflowRule(werewolf_workflow(seating, carried={game_id: recovered}), scope)
    rule.cursor = floor_seq(store, [game_id])
    try:
        status = asyncio.run(_drive(rule, scope, game_id, seating, table.pace))
        if status == "failed" and resume_failed_game:
            resume_failed(rule, game_id, _path(store))
            status = asyncio.run(_drive(rule, scope, game_id, seating, table.pace))
    except KeyboardInterrupt:
        raise GameInterrupted(game_id) from None
    finally:
        seating.close()
    return status


def _path(store: EventStore) -> Path | None:
    return store.path if isinstance(store, SQLiteEventStore) else None


def resume_failed(rule: WorkflowRule[GameState | None], game_id: str, store: Path | None) -> None:
    """Resume a failed game; when another process resumed it first, say so."""
    try:
        rule.resume(game_id)
    except (ConflictError, WorkflowError):
        where = [] if store is None else ["--store", str(store)]
        raise GameFileError(
            f"game {game_id} was resumed by another process meanwhile: watch it with "
            f"{shlex.join(['werewolf', 'replay', game_id, '--follow', *where])}"
        ) from None
