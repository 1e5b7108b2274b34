"""The one player protocol every seat kind implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..decisions import Answer, Request

__all__ = ["Player"]


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker: mock, random, LLM or human.

    ``decide`` receives the seat's view and the legal options and returns an answer; the
    rules check it, and an illegal answer is asked again with ``request.feedback`` set.
    A player whose ``decide`` never waits on anything (no I/O: mock, random) may say so
    with a class attribute ``immediate = True``; a game whose seats all do is then played
    without a task per answer or per phase. One that never reads ``request.view`` (random)
    may say ``reads_view = False``: its views are then built only if read after all, while
    every other player's is built with its request (a view built on first read costs more).
    """

    kind: str

    async def decide(self, request: Request) -> Answer: ...
