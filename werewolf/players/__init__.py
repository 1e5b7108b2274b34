"""Seat kinds behind one ``Player`` protocol, and the seatings that fill a game with them.

``make_player(kind, game_seed=..., seat=..., **options)`` builds one seat's player from the
``PLAYER_KINDS`` registry; ``uniform_seating(kind)``, ``mock_seating()`` and
``seating_from_specs(specs)`` return the ``seating(game_id, state)`` function
``werewolf_workflow`` calls before every phase (``seatings``).

Every name here is loaded on first use (PEP 562): importing one module of the package
(``players.base`` from the phases, say) loads neither the LLM client nor the mock minds.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import BudgetExceededError, SeatError, SeatLeftError, SeatUnavailableError

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # loaded once: the next lookup is the module's own
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


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
