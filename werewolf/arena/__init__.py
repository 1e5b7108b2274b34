"""The arena: tournaments between players (models, mock strategies), with ratings,
intervals and cost, played durably into the store and resumable at any point.

``spec`` (the run file), ``roster`` (players), ``schedule`` (which game is played at each
index), ``seating``, ``runner``, ``driver`` and ``tally`` (playing), ``results`` and
``game_records`` (reading the games back), ``metrics``, ``intervals`` and ``ratings`` (pure
figures from the logs), ``report`` with ``report_tables``, ``report_json`` and
``report_plots`` (tables, Markdown, JSON, plots) and ``cli`` (``werewolf arena``).
``docs/arena.md`` describes it all.
"""

from typing import TYPE_CHECKING

from ..errors import ArenaError
from ..lazy import lazy_names

if TYPE_CHECKING:
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

_HOMES = {
    **dict.fromkeys(("GameRecord", "game_record"), "game_records"),
    **dict.fromkeys(("Estimate", "wilson"), "intervals"),
    **dict.fromkeys(("PlayerMetrics", "TournamentMetrics", "tournament_metrics"), "metrics"),
    **dict.fromkeys(("BradleyTerry", "Match", "bradley_terry", "elo"), "ratings"),
    **dict.fromkeys(("RunGames", "run_games"), "results"),
    **dict.fromkeys(
        ("ArenaBudget", "ArenaPlayer", "Roster", "load_roster", "parse_players"), "roster"
    ),
    **dict.fromkeys(("RunResult", "play_run"), "runner"),
    **dict.fromkeys(("GamePlan", "game_id", "plan_game"), "schedule"),
    **dict.fromkeys(
        ("RunSpec", "Schedule", "load_run", "make_run", "run_path", "save_run"), "spec"
    ),
    "RunProgress": "tally",
}
"""Where each name of the package is defined: loaded on first use, so that importing one
of the arena's modules loads no other."""

__getattr__, __dir__ = lazy_names(__name__, _HOMES)

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
