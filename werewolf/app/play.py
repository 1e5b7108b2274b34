"""Playing a new game: ``play_game``.

::

    from werewolf.app import play_game

    result = play_game(board="standard-9", seed=1)  # mock players, in memory
    result.winner, result.reason, result.chain
    print(result.view("public"))

A game is played in memory unless ``store`` names a SQLite file; there it is saved event
by event (resumable by its id after Ctrl-C or an error) and exported to ``GAME.jsonl``
beside the store when the drive stops. Seats are mock players unless ``seats`` (``{3:
"llm:gpt-4o-mini", 4: "mock:bold", 5: MyAgent()}``: a spec, a ``Player`` object or a
``factory(game_seed=..., seat=...)``), ``players`` (every seat: ``mock`` or ``random``) or a
``lineup`` file say otherwise; they are checked (key variables set, personalities known)
before anything is written.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from pulse_core import MemoryEventStore, SQLiteEventStore, WorkflowRule

from ..boards import board_config
from ..config import GameConfig
from ..errors import ConfigError
from ..game import start_game, werewolf_workflow
from ..lineup import PEOPLE, Lineup, SeatSpec
from ..outputs import check_record
from ..players.ledger import BillLedger
from ..players.setup import play_specs
from .pyseats import PlayerSource, PythonSeating, SeatChoice, python_spec, split_seats
from .result import GameResult, finish_game
from .session import GameSeating, Table, load_cassette, run_game, seat_table
from .store import closing, open_game_store, storage_faults

__all__ = [
    "FRESH_SEEDS",
    "Seats",
    "game_config",
    "play_game",
    "python_seating",
    "resume_command",
    "seat_specs",
]

FRESH_SEEDS = 2**53  # a seed drawn when none is given: far past searching, exact in JSON


@dataclass(frozen=True)
class Seats:
    """Every seat's checked spec, and the lineup they came from (prices, budget)."""

    specs: Mapping[int, SeatSpec]
    lineup: Lineup = field(default_factory=Lineup)
    python: Mapping[int, PlayerSource] = field(default_factory=dict)  # seats Python objects play

    @property
    def humans(self) -> frozenset[int]:
        """The seats people play."""
        return frozenset(seat for seat, spec in self.specs.items() if spec.kind in PEOPLE)


def seat_specs(
    count: int,
    seats: Mapping[int, SeatChoice] | None = None,
    *,
    players: str | None = None,
    lineup: str | PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    replay: bool = False,
) -> Seats:
    """The ``count`` seats of a new game: ``players`` in every seat (mock unless said),
    then the ``lineup`` file's, then ``seats`` (``{3: "llm:gpt-4o-mini"}``, or a Python
    player: ``werewolf.app.pyseats``); checked against ``env`` (the process's environment
    unless given); with ``replay`` (answers from a cassette) no key variable need be set."""
    strings, python = split_seats(seats, count)
    specs, loaded = play_specs(
        count,
        players=players,
        lineup=lineup,
        seat_args=[f"{seat}={spec}" for seat, spec in strings.items()],
        env=os.environ if env is None else env,
        replay=replay,
    )
    specs.update({seat: python_spec(source) for seat, source in python.items()})
    return Seats(specs, loaded, python)


def game_config(config: GameConfig | None = None, board: str | None = None) -> GameConfig:
    """``config``, or the named ``board``'s (standard-9 when neither is given)."""
    if config is not None and board is not None:
        raise ConfigError([("board", "give a config or a board, not both")])
    if config is not None:
        return config
    return board_config(board) if board is not None else GameConfig()


def resume_command(game_id: str, store: Path) -> str:
    """The plainest command that goes on with a game of ``store``."""
    return shlex.join(["werewolf", "resume", game_id, "--store", str(store)])


def play_game(
    config: GameConfig | None = None,
    *,
    board: str | None = None,
    seats: Mapping[int, SeatChoice] | Seats | None = None,
    players: str | None = None,
    lineup: str | PathLike[str] | None = None,
    seed: int | None = None,
    store: str | PathLike[str] | None = None,
    lock_timeout: float | None = None,
    table: Table | None = None,
    continue_with: Callable[[str], str] | None = None,
) -> GameResult:
    """Play a new game to its end (or to the error it stopped on); see the module
    docstring. ``seed`` gives the deal and the mock players' choices (a fresh one, drawn
    from 2**53 values, when not given); ``table`` how seats are made and the game watched;
    ``continue_with(game_id)`` is the command a storage fault's message tells to go on."""
    config = game_config(config, board)
    table = table or Table()
    if not isinstance(seats, Seats):
        seats = seat_specs(
            config.seats,
            seats,
            players=players,
            lineup=lineup,
            replay=table.cassette is not None,
        )
    if seats.lineup.beliefs and not config.beliefs:  # the lineup asks for belief reports
        config = config.model_copy(update={"beliefs": True})
    # a fresh seed is recorded; drawn from 2**53 values (exact in the HTML viewer's
    # numbers), so nobody at the table or watching can search the seeds for the one whose
    # mock seats play as they see: the seed gives the deal
    seed = seed if seed is not None else secrets.randbelow(FRESH_SEEDS)
    if isinstance(table.cassette, Path):  # read and checked before the store is made
        table = dataclasses.replace(table, cassette=load_cassette(table.cassette))
    if table.record is not None:
        check_record(table.record, 0)  # before the store is made: a refusal leaves no trace
    if store is None:
        return _play(MemoryEventStore(), None, config, seats, seed, table)
    path = Path(store)
    opened = open_game_store(path, create=True, lock_timeout=lock_timeout, notice=table.notice)
    game: list[str] = []  # the game's id, once there is a game to go on with
    go_on = continue_with or (lambda game_id: resume_command(game_id, path))
    with closing(opened), storage_faults(path, lambda: go_on(game[0]) if game else ""):
        return _play(opened, path, config, seats, seed, table, game)


def python_seating(
    seats: Seats,
    table: Table,
    *,
    lang: str,
    budget: int | None,
    ledger: BillLedger | None,
    spent: int = 0,
    session: int = 0,
) -> GameSeating:
    """The seating of ``seats``: by their specs, the Python seats by their objects."""
    specs = {seat: spec for seat, spec in seats.specs.items() if seat not in seats.python}
    inner = seat_table(
        specs, table, lang=lang, budget=budget, ledger=ledger, spent=spent, session=session
    )
    return PythonSeating(inner, seats.python) if seats.python else inner


def _play(
    store: MemoryEventStore | SQLiteEventStore,
    path: Path | None,
    config: GameConfig,
    seats: Seats,
    seed: int,
    table: Table,
    started: list[str] | None = None,
) -> GameResult:
    ledger = BillLedger(store.path) if isinstance(store, SQLiteEventStore) else None
    budget = seats.lineup.budget.tokens
    lang = table.lang or "en"
    seating = python_seating(seats, table, lang=lang, budget=budget, ledger=ledger)
    starter = WorkflowRule(werewolf_workflow(seating), store)
    recorded = [seats.specs[s].public() for s in sorted(seats.specs)]  # for resume
    extra: dict[str, Any] = {"players": recorded, "lang": lang}
    if budget is not None:
        extra["budget"] = budget
    game_id = start_game(starter, seed=seed, config=config, **extra)
    if started is not None:
        started.append(game_id)
    status = run_game(store, game_id, seating, table)
    return finish_game(
        store, path, game_id, status, prices=seats.lineup.prices, humans=seats.humans
    )
