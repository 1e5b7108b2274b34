"""LLM seats: one player per seat behind any OpenAI-compatible endpoint.

``LLMPlayer.decide`` makes a fresh request per decision from the seat's view alone
(``prompting``), offers one function whose arguments admit only the legal answers
(``schema``), and forces the call through ``pulse_core.llm.call_tool``. The answer comes
back with its private ``reasoning``, its ``usage`` (tokens, endpoint latency, calls) and its
``exchange`` (the messages sent and the reply, JSON), which the phase keeps for the god view.

Failures, from the smallest:

- an invalid answer (no call, broken JSON, a dead or unknown seat, a potion she cannot
  use) comes back as ``NoAnswer`` with the validator's reason: the phase asks again with the
  reason (``request.feedback``), a bounded number of times, then records a legal fallback;
- timeouts, HTTP 429 (honouring ``Retry-After``) and 5xx are retried by the openai client
  with back-off (``MAX_RETRIES``);
- an endpoint that refuses tool calls (HTTP 4xx) is asked again in JSON mode, and the seat
  stays in JSON mode for the rest of the game;
- an endpoint still down after the retries raises ``SeatUnavailableError``, and a spent
  token budget ``BudgetExceededError``: the phase fails, the game waits for ``werewolf
  resume`` (maybe with ``--seat N=mock``).

Clients are shared by the seats of a seating with the same endpoint, key variable and
timeout, one set per event loop (an ``AsyncOpenAI`` belongs to the loop it was used in).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias

from pydantic import BaseModel

from pulse_core.errors import LLMRequestError, LLMUnavailableError

from ..decisions import Answer, NoAnswer, Request, Usage
from ..lineup import SeatSpec
from .errors import BudgetExceededError, SeatUnavailableError
from .prompting import build_messages, default_personality
from .schema import DecisionTool, decision_tool

if TYPE_CHECKING:  # openai and httpx2 are loaded with the first LLM seat: a second saved
    import httpx2
    import openai

    from pulse_core.llm import ToolCallOutcome

__all__ = [
    "DEFAULT_BASE_URL",
    "MAX_RETRIES",
    "ClientPool",
    "LLMPlayer",
    "TokenMeter",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
MAX_RETRIES = 3
"""HTTP-level retries of one request (timeouts, 429, 5xx), with the client's back-off."""

TransportFactory: TypeAlias = "Callable[[], httpx2.AsyncBaseTransport]"


class TokenMeter:
    """The tokens a game has spent, against its budget (``None``: no budget)."""

    def __init__(self, budget: int | None = None, spent: int = 0) -> None:
        self.budget = budget
        self.spent = spent

    def check(self, seat: int) -> None:
        """Raise BudgetExceededError once the budget is spent."""
        if self.budget is not None and self.spent >= self.budget:
            raise BudgetExceededError(seat, self.spent, self.budget)

    def add(self, tokens: int) -> None:
        self.spent += tokens


class ClientPool:
    """``AsyncOpenAI`` clients by endpoint, key variable and timeout, per event loop.

    ``transport`` makes the httpx transport under each client (default: the network,
    timed); keys are read from ``env`` when a client is made and never kept elsewhere;
    ``max_retries`` is how often one request is retried after a timeout, 429 or 5xx.
    """

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        transport: TransportFactory | None = None,
        *,
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self._env = os.environ if env is None else env
        self._transport = transport
        self.max_retries = max_retries
        self._clients: dict[tuple[Any, ...], tuple[asyncio.AbstractEventLoop, openai.AsyncOpenAI]]
        self._clients = {}

    def base_url(self, spec: SeatSpec) -> str:
        return spec.resolved_base_url(self._env) or DEFAULT_BASE_URL

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
            max_retries=self.max_retries,
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


class LLMPlayer:
    """One seat played by a model; see the module docstring."""

    kind = "llm"

    def __init__(
        self,
        spec: SeatSpec,
        *,
        seat: int,
        game_seed: int,
        clients: ClientPool,
        lang: str = "en",
        meter: TokenMeter | None = None,
    ) -> None:
        if not spec.model:
            raise ValueError(f"seat {seat}: an llm seat needs a model")
        self.spec = spec
        self.model = spec.model
        self.seat = seat
        self.lang = lang
        self.clients = clients
        self.meter = meter or TokenMeter()
        self.personality = spec.personality or default_personality(game_seed, seat, lang)
        self.mode: str = "json" if spec.tool_mode == "json" else "tool"

    def _sampling(self) -> dict[str, Any]:
        spec = self.spec
        values = {
            "temperature": spec.temperature,
            "top_p": spec.top_p,
            "max_tokens": spec.max_tokens,
        }
        return {k: v for k, v in values.items() if v is not None}

    def _where(self) -> str:
        return f"seat {self.seat} ({self.spec.label()} at {self.clients.base_url(self.spec)})"

    async def _call(self, request: Request) -> tuple[ToolCallOutcome[BaseModel], DecisionTool]:
        from pulse_core.llm import call_tool

        tool = decision_tool(request, self.lang)
        messages = build_messages(request, self.personality, self.lang)
        client = self.clients.client(self.spec)
        while True:
            try:
                outcome = await call_tool(
                    client,
                    model=self.model,
                    messages=messages,
                    tool_name=tool.name,
                    tool_description=tool.description,
                    arguments_model=tool.model,
                    max_retries=0,  # the phase asks again, with the reason, in a fresh request
                    mode="json" if self.mode == "json" else "tool",
                    timeout=self.spec.timeout,
                    **self._sampling(),
                )
                return outcome, tool
            except LLMRequestError as exc:
                if self.mode == "tool":  # maybe no tool support: try JSON output instead
                    self.mode = "json"
                    continue
                raise SeatUnavailableError(self.seat, f"{self._where()}: {exc}") from None
            except LLMUnavailableError as exc:
                raise SeatUnavailableError(self.seat, f"{self._where()}: {exc}") from None

    async def decide(self, request: Request) -> Answer:
        from .cassette import measured

        self.meter.check(self.seat)
        with measured() as endpoint_seconds:
            outcome, tool = await self._call(request)
        self.meter.add(outcome.usage.prompt_tokens + outcome.usage.completion_tokens)
        seconds = sum(endpoint_seconds) if endpoint_seconds else outcome.latency
        usage = Usage(
            prompt_tokens=outcome.usage.prompt_tokens,
            completion_tokens=outcome.usage.completion_tokens,
            latency_ms=seconds * 1000,
            calls=outcome.attempts,
        )
        exchange = json.dumps(
            {
                "key": request.key,
                "model": self.model,
                "mode": self.mode,
                "tool": tool.name,
                "messages": outcome.messages,
                "problems": outcome.problems,
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
            },
            ensure_ascii=False,
            default=str,
        )
        if outcome.parsed is None:
            reason = outcome.problems[-1] if outcome.problems else "no answer"
            return NoAnswer(reason, usage=usage, exchange=exchange)
        answer = tool.answer(outcome.parsed)
        return replace(answer, usage=usage, exchange=exchange)
