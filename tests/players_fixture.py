"""Python players for the tests of ``py:`` seats: a good one, and broken ones."""

from __future__ import annotations

import asyncio
import random
from typing import Any, ClassVar

from werewolf.decisions import Answer, Choice, Request, Speech, WitchChoice


class Steady:
    """A legal player: speaks plainly, picks the first legal option, never uses a potion."""

    kind = "steady"

    def __init__(self, game_seed: int, seat: int, word: str = "hello") -> None:
        self.seat = seat
        self.word = word
        self.rng = random.Random(game_seed * 100 + seat)

    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:
            return Speech(f"{self.word} from seat {self.seat}")
        if request.witch is not None:
            return WitchChoice()
        return Choice(self.rng.choice(request.options))


def make(*, game_seed: int, seat: int, **options: Any) -> Steady:
    return Steady(game_seed, seat, **options)


class ReturnsInt(Steady):
    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:
            return Speech("hi")
        return 3  # type: ignore[return-value]


def make_int(*, game_seed: int, seat: int) -> ReturnsInt:
    return ReturnsInt(game_seed, seat)


class SyncDecide:
    def decide(self, request: Request) -> Answer:
        return Speech("hi") if request.kind.speaks else Choice(request.options[0])


def make_sync(*, game_seed: int, seat: int) -> SyncDecide:
    return SyncDecide()


class Illegal(Steady):
    """Always names seat 99: refused by the rules, so every decision takes its fallback."""

    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:
            return Speech("hi")
        if request.witch is not None:
            return WitchChoice(poison=99)
        return Choice(99)


def make_illegal(*, game_seed: int, seat: int) -> Illegal:
    return Illegal(game_seed, seat)


class Leaky(Steady):
    """Remembers every game it sees: a second game is played differently from a first."""

    games: ClassVar[list[int]] = []

    def __init__(self, game_seed: int, seat: int) -> None:
        super().__init__(game_seed, seat)
        Leaky.games.append(game_seed)
        self.rng = random.Random(len(Leaky.games))


def make_leaky(*, game_seed: int, seat: int) -> Leaky:
    return Leaky(game_seed, seat)


not_callable = 42


class Raising(Steady):
    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:
            raise RuntimeError("no idea")
        return await super().decide(request)


def make_raising(*, game_seed: int, seat: int) -> Raising:
    return Raising(game_seed, seat)


class Slow(Steady):
    async def decide(self, request: Request) -> Answer:
        await asyncio.sleep(0.01)
        return await super().decide(request)


def make_slow(*, game_seed: int, seat: int) -> Slow:
    return Slow(game_seed, seat)
