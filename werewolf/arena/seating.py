"""Seating a run's games: each seat gets a player made from its arena player's seat spec.

``seat_player`` makes mock and random seats; ``RunSeats`` adds LLM seats (the players of
``werewolf.players.llm``), which share one pool of HTTP clients across every game of the
run and close it with ``aclose`` when the run stops, and write every answer to the store's
bill ledger as it arrives (``ledger``; ``werewolf.players.ledger``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import partial

from ..errors import ConfigError
from ..lineup import SeatSpec
from ..players import Player, cached_seating, make_player
from ..players.ledger import BillLedger
from ..state import GameState
from .schedule import GamePlan

__all__ = [
    "RunSeats",
    "SeatFactory",
    "check_keys",
    "forkable",
    "mock_seats",
    "run_seating",
    "seat_player",
]

SeatFactory = Callable[[SeatSpec, int, int], Player]
"""Makes the player of one seat: ``(spec, game_seed, seat) -> Player``."""


def seat_player(spec: SeatSpec, game_seed: int, seat: int, lang: str = "en") -> Player:
    """The player of ``seat`` for ``spec``: mock (with its personality, if named, speaking
    and thinking in ``lang``), random, a Python player (``py:`` or installed)."""
    if spec.kind == "mock":
        options = {"personality": spec.personality} if spec.personality else {}
        return make_player("mock", game_seed=game_seed, seat=seat, lang=lang, **options)
    if spec.kind == "random":
        return make_player("random", game_seed=game_seed, seat=seat)
    if spec.kind not in ("llm", "human", "web"):
        return make_player(spec.kind, game_seed=game_seed, seat=seat, **spec.factory_options())
    raise ConfigError([("players", f"{spec.label()}: this build cannot seat {spec.kind} players")])


def mock_seats(lang: str) -> SeatFactory:
    """The factory of a run without LLM seats, its mocks speaking ``lang``."""
    return seat_player if lang == "en" else partial(seat_player, lang=lang)


def forkable(factory: SeatFactory) -> bool:
    """True for a factory a forked worker may use: it holds no clients (mock and random
    seats only)."""
    return factory is seat_player or (isinstance(factory, partial) and factory.func is seat_player)


def check_keys(specs: Mapping[str, SeatSpec], env: Mapping[str, str] | None = None) -> None:
    """Every LLM player's key variable must be set: all problems at once, before a game."""
    env = os.environ if env is None else env
    problems = [
        (f"players.{name}", f"{name}: environment variable {spec.key_env()} is not set")
        for name, spec in specs.items()
        if spec.kind == "llm" and not env.get(spec.key_env())
    ]
    if problems:
        raise ConfigError(problems)


class RunSeats:
    """The seat factory of a run with LLM players (see the module docstring)."""

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        *,
        lang: str = "en",
        ledger: BillLedger | None = None,
    ) -> None:
        from ..players.endpoints import ClientPool  # the openai client loads only for LLM runs

        self.lang = lang
        self.clients = ClientPool(env)
        self.ledger = ledger

    def __call__(self, spec: SeatSpec, game_seed: int, seat: int) -> Player:
        if spec.kind != "llm":
            return seat_player(spec, game_seed, seat, self.lang)
        bill = {"bill": self.ledger.note} if self.ledger is not None else {}
        return make_player(
            "llm",
            game_seed=game_seed,
            seat=seat,
            spec=spec,
            clients=self.clients,
            lang=self.lang,
            **bill,
        )

    async def aclose(self) -> None:
        """Close the clients made in the running event loop, and the ledger."""
        await self.clients.aclose()
        if self.ledger is not None:
            self.ledger.close()


def run_seating(
    plans: Mapping[str, GamePlan],
    specs: Mapping[str, SeatSpec],
    factory: SeatFactory = seat_player,
) -> Callable[[str, GameState], Mapping[int, Player]]:
    """The workflow's seating for a run: ``plans`` by game id, ``specs`` by player name.
    Players are made once per game and dropped when it is decided."""

    def make(game_id: str, state: GameState, seat: int) -> Player:
        return factory(specs[plans[game_id].assignment[seat - 1]], state.seed, seat)

    return cached_seating(make)
