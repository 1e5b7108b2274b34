"""An arena run in one call, and the figures of a run: ``play_arena``, ``arena_report``.

::

    from werewolf.app import arena_report, play_arena

    report = play_arena("runs.sqlite3", players=["mock", "random"], games=4, seed=1)
    for player in report.ranked():
        print(player.name, player.win.value, player.win_as["wolves"].value)
    report = arena_report("runs.sqlite3")  # read again later, from the store

``play_arena`` is ``werewolf arena run`` without the command: the run is prepared (checked
and saved beside the store), every game not yet ended is played and its report built; the
same call again continues a run that was stopped. The players are arena specs
(``docs/arena.md``: ``mock``, ``random``, ``NAME=llm:MODEL``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path

from ..arena.report import Report
from ..arena.spec import load_run, run_path
from ..arena.tally import RunProgress
from ..errors import ConfigError
from .arena import RunOptions, prepare_run, run_arena
from .arena_runs import build_report

__all__ = ["arena_report", "play_arena"]


def play_arena(
    store: str | PathLike[str],
    *,
    players: Sequence[str],
    games: int | None = None,
    board: str | None = None,
    seed: int | None = None,
    name: str = "arena",
    beliefs: bool = False,
    workers: int | None = 1,
    concurrency: int = 8,
    on_progress: Callable[[RunProgress], None] | None = None,
) -> Report:
    """Play the run ``name`` of ``store`` between ``players`` (one spec each) and return
    its report; see the module docstring."""
    path = Path(store)
    options = RunOptions(
        name=name,
        players=[",".join(players)],
        games=games,
        board=board,
        seed=seed,
        beliefs=beliefs,
    )
    prepared = prepare_run(options, path, workers=workers)
    run_arena(prepared, path, concurrency=concurrency, on_progress=on_progress)
    return build_report(prepared.spec, path)


def arena_report(store: str | PathLike[str], name: str = "arena", *, rounds: int = 1000) -> Report:
    """The report of the run ``name`` of ``store``, from its games (``rounds``: bootstrap
    rounds behind the ratings' intervals)."""
    path = Path(store)
    run_file = run_path(path, name)
    if not run_file.is_file():
        raise ConfigError([("name", f"{path}: no arena run named {name!r}")])
    return build_report(load_run(run_file), path, rounds=rounds)
