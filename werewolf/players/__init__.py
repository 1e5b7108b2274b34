"""Seat kinds behind one ``Player`` protocol, and the seatings that fill a game with them.

``make_player(kind, game_seed=..., seat=..., **options)`` builds one seat's player from the
``PLAYER_KINDS`` registry; ``uniform_seating(kind)``, ``mock_seating()`` and
``seating_from_specs(specs)`` return the ``seating(game_id, state)`` function
``werewolf_workflow`` calls before every phase (``seatings``).

Every name here is loaded on first use (PEP 562): importing one module of the package
(``players.base`` from the phases, say) loads neither the LLM client nor the mock minds.
"""

from typing import TYPE_CHECKING

from ..errors import BudgetExceededError, SeatError, SeatLeftError, SeatUnavailableError
from ..lazy import lazy_names

if TYPE_CHECKING:
    from .base import Player
    from .human import HumanPlayer
    from .llm import LLMPlayer
    from .mock import MockPlayer
    from .random_player import RandomPlayer
    from .seatings import (
        PLAYER_KINDS,
        PlayerFactory,
        SpecSeating,
        cached_seating,
        make_player,
        mock_seating,
        register_player,
        seating_from_specs,
        uniform_seating,
    )
    from .seatings import REPLAY_KEY as REPLAY_KEY
    from .seatings import Seating as Seating

_HOMES = {
    "HumanPlayer": "human",
    "LLMPlayer": "llm",
    "MockPlayer": "mock",
    "Player": "base",
    "RandomPlayer": "random_player",
    **dict.fromkeys(
        (
            "PLAYER_KINDS",
            "REPLAY_KEY",
            "PlayerFactory",
            "Seating",
            "SpecSeating",
            "cached_seating",
            "make_player",
            "mock_seating",
            "register_player",
            "seating_from_specs",
            "uniform_seating",
        ),
        "seatings",
    ),
}
"""Where each name of the package is defined, by module of ``werewolf.players``."""


__getattr__, __dir__ = lazy_names(__name__, _HOMES)

__all__ = [
    "PLAYER_KINDS",
    "BudgetExceededError",
    "HumanPlayer",
    "LLMPlayer",
    "MockPlayer",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "SeatError",
    "SeatLeftError",
    "SeatUnavailableError",
    "SpecSeating",
    "cached_seating",
    "make_player",
    "mock_seating",
    "register_player",
    "seating_from_specs",
    "uniform_seating",
]
