"""werewolf: the nine-player werewolf game (预女猎 9人局) as a pulse_core workflow.

Pure game logic lives in ``config``, ``cast``, ``state``, ``rules``, ``visibility`` and
``moderator``; ``phases`` and ``game`` make it a workflow; ``players`` seats mock, random,
LLM or human players; ``replay`` renders logs; ``cli`` is the ``werewolf`` command.
"""

from .cast import Identity, Team, team_of
from .config import GameConfig, SelfSave, TiePolicy, WinRule, parse_config
from .decisions import Answer, Choice, DecisionKind, Request, Speech, Usage, WitchChoice
from .errors import (
    ConfigError,
    GameFileError,
    GameStateError,
    IllegalDecisionError,
    UnknownSeatError,
    WerewolfError,
)
from .game import fold_chain, start_game, werewolf_workflow
from .moderator import next_phase
from .players.base import Player
from .ruletext import rules_text
from .state import Cause, GameState, Outcome, Phase, Stage, evolve, initial_state
from .visibility import Observation, SeatView, view

__all__ = [
    "GODS",
    "Answer",
    "Cause",
    "Choice",
    "ConfigError",
    "DecisionKind",
    "GameConfig",
    "GameFileError",
    "GameState",
    "GameStateError",
    "Identity",
    "IllegalDecisionError",
    "Observation",
    "Outcome",
    "Phase",
    "Player",
    "Request",
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
    "evolve",
    "fold_chain",
    "initial_state",
    "next_phase",
    "parse_config",
    "rules_text",
    "start_game",
    "team_of",
    "view",
    "werewolf_workflow",
]


def __getattr__(name: str) -> object:
    """``GODS`` (the gods, 神职) is read from the identities' registry when first asked
    for: importing the package registers no identity by itself."""
    if name == "GODS":
        from .registry import gods

        return gods()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
