"""The application layer: play, resume, replay, export and arena runs as plain Python.

What the ``werewolf`` command, ``werewolf serve`` and the arena do, without argparse or
printing: open the store, seat the players, drive the game, finish and export. The caller
hears what happens through the hooks it passes (``Table``: a live view, LLM retries, a
store lock held elsewhere); a user mistake raises ``werewolf.errors.WerewolfError``.

::

    from werewolf.app import play_game

    result = play_game(board="standard-9", seed=1)  # mock seats, in memory
    print(result.winner, result.reason, len(result.chain))
    print(result.view("seat:3"))
"""

from .arena import PreparedRun, RunInterrupted, RunOptions, prepare_run, run_arena, run_hint
from .arena_runs import ReportFiles, RunRow, build_report, list_runs, remove_run, write_report
from .fold import fold_to
from .play import Seats, game_config, play_game, resume_command, seat_specs
from .pyseats import PlayerSource, PythonSeating, SeatChoice
from .replay import export_replay, follow_game, list_saved_games, load_log, replay_prices
from .result import GameResult, View, finish_game, view_spec
from .resume import Resumption, open_resume, resume_game
from .session import GameInterrupted, Table, Watch
from .store import open_game_store, replay_file_path
from .tournament import arena_report, play_arena

__all__ = [
    "GameInterrupted",
    "GameResult",
    "PlayerSource",
    "PreparedRun",
    "PythonSeating",
    "ReportFiles",
    "Resumption",
    "RunInterrupted",
    "RunOptions",
    "RunRow",
    "SeatChoice",
    "Seats",
    "Table",
    "View",
    "Watch",
    "arena_report",
    "build_report",
    "export_replay",
    "finish_game",
    "fold_to",
    "follow_game",
    "game_config",
    "list_runs",
    "list_saved_games",
    "load_log",
    "open_game_store",
    "open_resume",
    "play_arena",
    "play_game",
    "prepare_run",
    "remove_run",
    "replay_file_path",
    "replay_prices",
    "resume_command",
    "resume_game",
    "run_arena",
    "run_hint",
    "seat_specs",
    "view_spec",
    "write_report",
]
