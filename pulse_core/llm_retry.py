"""When a failed chat-completion request is tried again, and when it is given up.

Transient failures (timeouts, dropped connections, HTTP 408, 409, 429 and 5xx, a ``200``
answer with no choices, what some providers send when a filter fires, and a ``200`` answer
whose body is not a chat completion, such as a proxy's HTML page) are retried per request.
Without a ``RetryPolicy`` that is the openai client's job (its ``max_retries``; it does not
retry the last kind); with one, ``pulse_core.llm_transport`` does it (give the client
``max_retries=0``): bounded exponential back-off with jitter, honouring ``Retry-After``,
until the endpoint has stayed down for the policy's ``patience``. Then the call raises
``LLMUnavailableError`` (``LLMPatienceError`` when the endpoint asked, by ``Retry-After``,
to wait longer than the patience left); a refused request (other 4xx) raises
``LLMRequestError``, and ``LLMToolsRefusedError`` when it refuses tool calls. A policy can
report each retry (``on_retry``) and give up at once on an endpoint that does not exist or
refuses connections (``unreachable_is_final``).
"""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

import openai

from .errors import LLMEmptyAnswerError, LLMUnreadableAnswerError, WorkflowError

__all__ = [
    "RetryNotice",
    "RetryPolicy",
    "retry_after",
    "timeout_seconds",
    "transient",
    "unreachable",
]


async def _no_wait(seconds: float) -> None:
    """A sleep that does not wait: for replays, whose answers are all at hand."""


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """A transient failure about to be retried, for a status line: what failed (one line,
    the key masked), how many tries failed so far, the wait before the next one, and the
    seconds the endpoint has been down against the policy's patience."""

    failure: str
    failures: int
    wait: float
    down: float
    patience: float


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How one request is retried after a transient failure.

    The n-th wait is ``base_delay * 2**n`` capped at ``max_delay``, plus up to ``jitter`` of
    itself drawn from ``rng`` (so seats that failed together do not retry together), or the
    ``Retry-After`` the endpoint sent when that is longer. The request is given up (the call
    raises ``LLMUnavailableError``) once the endpoint would have been down for more than
    ``patience`` seconds, counting the waits and the full timeout of every try that timed
    out. Counted so rather than by the clock, the decision depends only on the answers and
    the seeded ``rng``: a replay of recorded answers gives up exactly where the recording
    did. ``sleep`` waits (``no_wait()`` makes a policy for replays).

    ``on_retry`` is told of each retry before its wait (a status line for people watching).
    With ``unreachable_is_final`` a host name that does not resolve or a refused connection
    is not retried: on a first call that is a mistyped or unreachable endpoint, and waiting
    out the patience would only hide it.
    """

    patience: float = 300.0
    base_delay: float = 0.5
    max_delay: float = 30.0
    jitter: float = 0.5
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)
    sleep: Callable[[float], Awaitable[None]] = field(
        default=asyncio.sleep, compare=False, repr=False
    )
    on_retry: Callable[[RetryNotice], None] | None = field(default=None, compare=False, repr=False)
    unreachable_is_final: bool = False

    def __post_init__(self) -> None:
        for name in ("patience", "base_delay", "max_delay", "jitter"):
            if getattr(self, name) < 0:
                raise WorkflowError(f"RetryPolicy.{name} must be 0 or more")

    def wait(self, failures: int, retry_after: float | None) -> float:
        """Seconds to wait before the next try, after ``failures`` failures (1 or more)."""
        delay = min(self.max_delay, self.base_delay * 2.0 ** (failures - 1))
        delay *= 1 + self.jitter * self.rng.random()
        # at least what the endpoint asked for, and never a tight loop on a tiny Retry-After
        return delay if retry_after is None else max(retry_after, delay)

    def no_wait(self) -> RetryPolicy:
        """The same decisions, without waiting."""
        return replace(self, sleep=_no_wait)


def unreachable(exc: BaseException) -> str | None:
    """Why a connection failed, when it is that the host name does not resolve or the
    connection was refused: neither mends itself in seconds."""
    seen: BaseException | None = exc
    for _depth in range(10):  # the client's error wraps the socket's a few levels down
        if seen is None:
            break
        if isinstance(seen, socket.gaierror):
            return "the host name does not resolve"
        if isinstance(seen, ConnectionRefusedError):
            return "the connection was refused"
        seen = seen.__cause__ or seen.__context__
    return None


def transient(exc: Exception) -> bool:
    """Whether trying the same request again may succeed."""
    transient = (
        LLMEmptyAnswerError,
        LLMUnreadableAnswerError,
        openai.APITimeoutError,
        openai.APIConnectionError,
    )
    if isinstance(exc, transient):
        return True
    if isinstance(exc, openai.APIStatusError):
        if exc.response.headers.get("x-should-retry") == "false":
            return False
        return exc.status_code in (408, 409, 429) or exc.status_code >= 500
    return False


def retry_after(exc: Exception) -> float | None:
    """The wait an error answer asked for (``retry-after-ms`` or ``Retry-After`` seconds)."""
    if not isinstance(exc, openai.APIStatusError):
        return None
    headers = exc.response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return float(value) * scale
            except ValueError:
                continue  # an HTTP date: fall back to the policy's back-off
    return None


def timeout_seconds(client: openai.AsyncOpenAI, timeout: float | None) -> float:
    if timeout is not None:
        return timeout
    own = client.timeout
    return float(own) if isinstance(own, int | float) else 0.0
