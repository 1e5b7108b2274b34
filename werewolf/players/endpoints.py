"""What the LLM seats of a seating share: their HTTP clients (``ClientPool``), the retries they are
told of (``SeatRetry``) and the game's token budget (``TokenMeter``).

Clients are shared by the seats of a seating with the same endpoint, key variable and
timeout, one set per event loop (an ``AsyncOpenAI`` belongs to the loop it was used in).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import BudgetExceededError
from ..lineup import SeatSpec
from ..text import one_line

if TYPE_CHECKING:  # openai and httpx2 are loaded with the first LLM seat: a second saved
    import httpx2
    import openai

    from pulse_core.llm import RetryNotice, RetryPolicy


__all__ = [
    "BACKOFF",
    "DEFAULT_BASE_URL",
    "ClientPool",
    "SeatRetry",
    "StatusSink",
    "TokenMeter",
    "TransportFactory",
    "retry_line",
    "warn_on_stderr",
]


DEFAULT_BASE_URL = "https://api.openai.com/v1"


BACKOFF = (0.5, 30.0)
"""The first and the longest wait between two tries of one request, in seconds."""


TransportFactory: TypeAlias = "Callable[[], httpx2.AsyncBaseTransport]"


@dataclass(frozen=True, slots=True)
class SeatRetry:
    """A seat's request failed for a reason that may pass and is about to be tried again."""

    seat: int
    where: str  # the seat, its player and its endpoint (never a key)
    notice: RetryNotice


StatusSink: TypeAlias = "Callable[[SeatRetry], None]"


def retry_line(retry: SeatRetry, *, name_seat: bool = True) -> str:
    """A one-line status for a retry: what failed, when the next try is, how to stop.
    Without ``name_seat`` (a person plays a seat) neither the seat nor its endpoint is
    named: which seat is asked, and when, would tell them who acts at night."""
    notice = retry.notice
    stop = "Ctrl-C stops the game (werewolf resume continues it)"
    if not name_seat:
        return f"An LLM endpoint failed; trying again in {notice.wait:.1f} s. {stop}."
    return (
        f"{retry.where}: {notice.failure}; try {notice.failures + 1} in {notice.wait:.1f} s "
        f"(down {notice.down:.0f} s of its {notice.patience:g} s patience). {stop}."
    )


def warn_on_stderr(message: str) -> None:
    """A seat's warning, one line on stderr (the game goes on)."""
    sys.stderr.write(f"werewolf: warning: {one_line(message)}\n")
    sys.stderr.flush()


class TokenMeter:
    """The tokens a game has spent, against its budget (``None``: no budget)."""

    def __init__(self, budget: int | None = None, spent: int = 0) -> None:
        self.budget = budget
        self.spent = spent

    def check(self, seat: int) -> None:
        """Raise BudgetExceededError once the budget is spent."""
        if self.budget is not None and self.spent >= self.budget:
            raise BudgetExceededError(seat, lambda: self.spent, self.budget)

    def add(self, tokens: int) -> None:
        self.spent += tokens


class ClientPool:
    """``AsyncOpenAI`` clients by endpoint, key variable and timeout, per event loop.

    ``transport`` makes the httpx transport under each client (default: the network,
    timed); keys are read from ``env`` when a client is made and never kept elsewhere;
    ``backoff`` is the first and the longest wait between two tries of one request (the
    clients themselves never retry: ``retry_policy`` does, per seat); ``waits=False`` counts
    the waits without waiting (a cassette answers at once); ``status`` is told of every
    retry that waits.
    """

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        transport: TransportFactory | None = None,
        *,
        backoff: tuple[float, float] = BACKOFF,
        waits: bool = True,
        status: StatusSink | None = None,
    ) -> None:
        self._env = os.environ if env is None else env
        self._transport = transport
        self.backoff = backoff
        self.waits = waits
        self.status = status
        self._clients: dict[tuple[Any, ...], tuple[asyncio.AbstractEventLoop, openai.AsyncOpenAI]]
        self._clients = {}
        self._warned: set[tuple[str, str | None, int]] = set()

    def first_warning(self, spec: SeatSpec, seat: int) -> bool:
        """True the first time it is asked for this endpoint, model and seat: a seat's
        warning is given once, also over the many games of an arena run."""
        key = (self.base_url(spec), spec.model, seat)
        if key in self._warned:
            return False
        self._warned.add(key)
        return True

    def base_url(self, spec: SeatSpec) -> str:
        return spec.resolved_base_url(self._env) or DEFAULT_BASE_URL

    def shown_url(self, spec: SeatSpec) -> str:
        """The seat's endpoint as lines and logs name it: no password, token or key."""
        from pulse_core.redact import public_url

        return public_url(self.base_url(spec), self._env.get(spec.key_env()))

    def retry_policy(
        self, spec: SeatSpec, seed: str, on_retry: Callable[[RetryNotice], None] | None = None
    ) -> RetryPolicy:
        """A seat's policy; its jitter is drawn from ``seed``, so a replay of recorded
        answers waits (or, replaying, counts) the same and gives up where the recording
        did. ``on_retry`` hears of each retry that waits (not of a replay's)."""
        import random

        from pulse_core.llm import RetryPolicy

        first, longest = self.backoff
        policy = RetryPolicy(
            patience=spec.patience,
            base_delay=first,
            max_delay=longest,
            rng=random.Random(seed),
            on_retry=on_retry if self.waits else None,
        )
        return policy if self.waits else policy.no_wait()

    def client(self, spec: SeatSpec) -> openai.AsyncOpenAI:
        loop = asyncio.get_running_loop()
        key = (id(loop), self.base_url(spec), spec.key_env(), spec.timeout)
        found = self._clients.get(key)
        if found is not None and found[0] is loop:
            return found[1]
        import openai

        from .cassette import MeteredTransport

        api_key = self._env.get(spec.key_env()) or ""
        transport = self._transport() if self._transport is not None else MeteredTransport()
        client = openai.AsyncOpenAI(
            base_url=self.base_url(spec),
            api_key=api_key,
            timeout=spec.timeout,
            max_retries=0,  # retried per request by the seat's RetryPolicy
            http_client=openai.DefaultAsyncHttpxClient(transport=transport),
        )
        self._clients[key] = (loop, client)
        return client

    async def aclose(self) -> None:
        """Close the clients made in the running loop."""
        loop = asyncio.get_running_loop()
        for key, (owner, client) in list(self._clients.items()):
            if owner is loop:
                await client.close()
                del self._clients[key]
