"""werewolf: the nine-player werewolf game (预女猎 9人局) as a pulse_core workflow.

Pure game logic lives in ``config``, ``cast``, ``state``, ``rules``, ``visibility`` and
``moderator``; ``phases`` and ``game`` make it a workflow; ``players`` seats mock, random,
LLM or human players; ``replay`` renders logs; ``cli`` is the ``werewolf`` command.
``app`` is the application layer, whose main calls are here too: ``play_game`` (seats
may be Python objects), ``resume_game``, ``load_log``, ``export_replay``, ``fold_to``,
``play_arena`` and ``arena_report`` (docs/python-api.md).
"""

from typing import TYPE_CHECKING

from .errors import (
    ConfigError,
    GameFileError,
    GameStateError,
    IllegalDecisionError,
    PlayerProtocolError,
    UnknownSeatError,
    WerewolfError,
)
from .lazy import lazy_names

if TYPE_CHECKING:
    from .app.check import check_player
    from .app.fold import fold_to
    from .app.play import play_game
    from .app.pyseats import PlayerSource, SeatChoice
    from .app.replay import export_replay, load_log
    from .app.result import GameResult
    from .app.resume import resume_game
    from .app.tournament import arena_report, play_arena
    from .cast import GODS, Identity, Team, team_of
    from .config import GameConfig, SelfSave, TiePolicy, WinRule, parse_config
    from .decisions import Answer, Choice, DecisionKind, Request, Speech, Usage, WitchChoice
    from .game import fold_chain, start_game, werewolf_workflow
    from .moderator import next_phase
    from .players.base import Player
    from .ruletext import rules_text
    from .state import Cause, GameState, Outcome, Phase, Stage, evolve, initial_state
    from .visibility import Observation, SeatView, view

_HOMES = {
    "GameResult": "app.result",
    "arena_report": "app.tournament",
    "export_replay": "app.replay",
    "fold_to": "app.fold",
    "load_log": "app.replay",
    "play_arena": "app.tournament",
    "play_game": "app.play",
    "PlayerSource": "app.pyseats",
    "resume_game": "app.resume",
    "SeatChoice": "app.pyseats",
    **dict.fromkeys(("GODS", "Identity", "Team", "team_of"), "cast"),
    **dict.fromkeys(("GameConfig", "SelfSave", "TiePolicy", "WinRule", "parse_config"), "config"),
    **dict.fromkeys(
        ("Answer", "Choice", "DecisionKind", "Request", "Speech", "Usage", "WitchChoice"),
        "decisions",
    ),
    **dict.fromkeys(("fold_chain", "start_game", "werewolf_workflow"), "game"),
    "next_phase": "moderator",
    "Player": "players.base",
    "check_player": "app.check",
    "rules_text": "ruletext",
    **dict.fromkeys(
        ("Cause", "GameState", "Outcome", "Phase", "Stage", "evolve", "initial_state"), "state"
    ),
    **dict.fromkeys(("Observation", "SeatView", "view"), "visibility"),
}
"""Where each name of the package is defined, by module of ``werewolf``: a name is loaded on
first use (PEP 562), so that importing the rules or the state loads no player, replay or
arena module (nor the LLM client and rich they bring)."""


__getattr__, __dir__ = lazy_names(__name__, _HOMES)

__all__ = [
    "GODS",
    "Answer",
    "Cause",
    "Choice",
    "ConfigError",
    "DecisionKind",
    "GameConfig",
    "GameFileError",
    "GameResult",
    "GameState",
    "GameStateError",
    "Identity",
    "IllegalDecisionError",
    "Observation",
    "Outcome",
    "Phase",
    "Player",
    "PlayerProtocolError",
    "PlayerSource",
    "Request",
    "SeatChoice",
    "SeatView",
    "SelfSave",
    "Speech",
    "Stage",
    "Team",
    "TiePolicy",
    "UnknownSeatError",
    "Usage",
    "WerewolfError",
    "WinRule",
    "WitchChoice",
    "arena_report",
    "check_player",
    "evolve",
    "export_replay",
    "fold_chain",
    "fold_to",
    "initial_state",
    "load_log",
    "next_phase",
    "parse_config",
    "play_arena",
    "play_game",
    "resume_game",
    "rules_text",
    "start_game",
    "team_of",
    "view",
    "werewolf_workflow",
]
