"""The arena: tournaments between players (models, mock strategies), with ratings,
intervals and cost, played durably into the store and resumable at any point.

``spec`` (the run file), ``roster`` (players), ``schedule`` (which game is played at each
index), ``seating``, ``runner``, ``driver`` and ``tally`` (playing), ``results`` and
``game_records`` (reading the games back), ``metrics``, ``intervals`` and ``ratings`` (pure
figures from the logs), ``report`` with ``report_tables``, ``report_json`` and
``report_plots`` (tables, Markdown, JSON, plots) and ``cli`` (``werewolf arena``).
``docs/arena.md`` describes it all.
"""

from ..errors import ArenaError
from .game_records import GameRecord, game_record
from .intervals import Estimate, wilson
from .metrics import PlayerMetrics, TournamentMetrics, tournament_metrics
from .ratings import BradleyTerry, Match, bradley_terry, elo
from .results import RunGames, run_games
from .roster import ArenaBudget, ArenaPlayer, Roster, load_roster, parse_players
from .runner import RunResult, play_run
from .schedule import GamePlan, game_id, plan_game
from .spec import RunSpec, Schedule, load_run, make_run, run_path, save_run
from .tally import RunProgress

__all__ = [
    "ArenaBudget",
    "ArenaError",
    "ArenaPlayer",
    "BradleyTerry",
    "Estimate",
    "GamePlan",
    "GameRecord",
    "Match",
    "PlayerMetrics",
    "Roster",
    "RunGames",
    "RunProgress",
    "RunResult",
    "RunSpec",
    "Schedule",
    "TournamentMetrics",
    "bradley_terry",
    "elo",
    "game_id",
    "game_record",
    "load_roster",
    "load_run",
    "make_run",
    "parse_players",
    "plan_game",
    "play_run",
    "run_games",
    "run_path",
    "save_run",
    "tournament_metrics",
    "wilson",
]
