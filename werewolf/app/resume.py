"""Resuming a game of a store: ``resume_game``, or ``open_resume`` to look before going on.

::

    from werewolf.app import resume_game

    result = resume_game("games/werewolf.sqlite3", game_id)  # its own seats
    result = resume_game(store, game_id, seats={4: "mock"})  # seat 4 swapped (recorded)
    result = resume_game(store, game_id, seats={3: MyAgent()})  # a Python seat, again

The log is checked first (its chain, its events' shapes, its objects, and every move
re-judged by the rules), so a forged or damaged log is never played on. A game that has
ended is exported again and returned as it is; a failed one is resumed; each seat changed
from the recorded one is recorded as a seat swap (a seat a Python object played, not given
again, goes to a mock player: a swap too).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from os import PathLike
from pathlib import Path

from pulse_core import ERROR, Event, SQLiteEventStore, WorkflowRule

from ..errors import GameFileError
from ..game import fold_chain, werewolf_workflow
from ..lineup import Price
from ..outputs import check_record
from ..players.ledger import BillLedger, recovered_tokens
from ..players.setup import resume_specs, tokens_spent
from ..players.swaps import append_swaps
from ..replay import check_game
from ..replay.judge import rejudge
from ..scope import TopicScope
from ..storefaults import check_chain, check_objects
from .play import Seats, python_seating, resume_command
from .pyseats import PYTHON_PREFIX, SeatChoice, python_spec, split_seats
from .result import GameResult, finish_game
from .session import Table, load_cassette, resume_failed, run_game
from .store import check_replay_file, closing, open_game_store, storage_faults

__all__ = ["Resumption", "open_resume", "resume_game"]


class Resumption:
    """A game of an open store, checked and ready to go on (``run``), or ended."""

    def __init__(
        self,
        store: SQLiteEventStore,
        path: Path,
        game_id: str,
        chain: Sequence[Event],
        seats: Seats | None,
        table: Table,
    ) -> None:
        self.store = store
        self.path = path
        self.game_id = game_id
        self.chain = chain
        self.seats = seats  # None when the game has ended: no seat of it matters any more
        self.table = table

    @property
    def ended(self) -> bool:
        return self.seats is None

    def finish(self, prices: Mapping[str, Price] | None = None) -> GameResult:
        """An ended game: exported again, to its own file, and its result."""
        check_replay_file(self.path, self.game_id)
        return finish_game(self.store, self.path, self.game_id, "ended", prices=prices)

    def run(self, table: Table | None = None) -> GameResult:
        """Go on with the game until it ends or stops on an error; ``table`` (as given to
        ``open_resume`` unless replaced) says how it is watched."""
        seats = self.seats
        if seats is None:
            return self.finish()
        table = table or self.table
        store, chain, game_id = self.store, self.chain, self.game_id
        check_replay_file(self.path, game_id)
        game = chain[0].meta.get("game", {})
        lang = table.lang or str(game.get("lang", "en"))
        tokens = seats.lineup.budget.tokens
        budget = tokens if tokens is not None else game.get("budget")
        # answers a stopped process received but never recorded in an event: counted now,
        # recorded with the game's next event
        ledger = BillLedger(store.path)
        recovered = ledger.unrecorded(game_id, chain)
        spent = tokens_spent(chain) + recovered_tokens(recovered)
        seating = python_seating(
            seats,
            table,
            lang=lang,
            budget=budget,
            ledger=ledger,
            spent=spent,
            session=len(chain),
        )
        rule = WorkflowRule(werewolf_workflow(seating), TopicScope(store, [game_id]))
        if chain[-1].role == ERROR:
            resume_failed(rule, game_id, self.path)  # first: a swap follows the failure
        append_swaps(store, game_id, seats.specs)
        status = run_game(
            store, game_id, seating, table, resume_failed_game=True, recovered=recovered
        )
        return finish_game(
            store,
            self.path,
            game_id,
            status,
            prices=seats.lineup.prices,
            humans=seats.humans,
        )


@contextmanager
def open_resume(
    store: str | PathLike[str],
    game_id: str,
    *,
    seats: Mapping[int, SeatChoice] | None = None,
    seat_args: Sequence[str] = (),
    lineup: str | PathLike[str] | None = None,
    lock_timeout: float | None = None,
    table: Table | None = None,
    env: Mapping[str, str] | None = None,
    continue_with: Callable[[], str] | None = None,
) -> Iterator[Resumption]:
    """The game ``game_id`` of ``store``, checked, with the seats it goes on with: as
    recorded, then the ``lineup`` file's, then ``seats`` (``{4: "mock"}``) or ``seat_args``
    (``"4=mock"``). The store stays open (and a storage fault in the block is one line
    naming it, with ``continue_with()``) until the block ends."""
    path = Path(store)
    table = table or Table()
    opened = open_game_store(path, create=False, lock_timeout=lock_timeout, notice=table.notice)
    go_on = continue_with or (lambda: resume_command(game_id, path))
    with closing(opened), storage_faults(path, go_on):
        chain = opened.chain(game_id)
        if not chain:
            raise GameFileError(f"{path}: no game {game_id}")
        label = f"{path} game {game_id}"

        def where(event: Event) -> str:
            return f"{label} version {event.version}"

        check_chain(chain, f"{path}: game {game_id}")  # before a move is played on
        check_game(chain, where, trust=True)  # its events' shapes
        check_objects(opened, chain, game_id)  # a log that was edited or lost an object
        rejudge(chain, where)  # a forged chain: what the rules give
        # the files named are checked whether or not there is anything left to play
        if table.record is not None:
            check_record(table.record, len(chain))
        if isinstance(table.cassette, Path):
            table = dataclasses.replace(
                table, cassette=load_cassette(table.cassette, session=len(chain))
            )
        found: Seats | None = None
        state = fold_chain(chain)
        if not state.ended:  # an ended game's seats matter no more
            strings, python = split_seats(seats, len(state.seats))
            given = [*seat_args, *(f"{seat}={spec}" for seat, spec in strings.items())]
            specs, loaded = resume_specs(
                chain,
                lineup=lineup,
                seat_args=given,
                env=os.environ if env is None else env,
                replay=table.cassette is not None,
            )
            for seat, spec in specs.items():  # a Python seat not given again: a mock's now
                if (spec.name or "").startswith(PYTHON_PREFIX) and seat not in python:
                    specs[seat] = spec.model_copy(update={"name": None})
            specs.update({seat: python_spec(source) for seat, source in python.items()})
            found = Seats(specs, loaded, python)
        yield Resumption(opened, path, game_id, chain, found, table)


def resume_game(
    store: str | PathLike[str],
    game_id: str,
    *,
    seats: Mapping[int, SeatChoice] | None = None,
    lineup: str | PathLike[str] | None = None,
    lock_timeout: float | None = None,
    table: Table | None = None,
) -> GameResult:
    """Go on with a game of ``store`` (see the module docstring); its result."""
    with open_resume(
        store, game_id, seats=seats, lineup=lineup, lock_timeout=lock_timeout, table=table
    ) as resumed:
        return resumed.run()
