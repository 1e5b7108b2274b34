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
- transient faults (timeouts, dropped connections, HTTP 408, 409, 429 honouring
  ``Retry-After``, 5xx, ``200`` answers with no choices or with a body that is not a chat
  completion) are retried per request with bounded exponential back-off and jitter
  (``pulse_core.llm.RetryPolicy``), for as long as the seat's ``patience``; each retry is
  told to the pool's ``status`` (a ``SeatRetry``: the CLI prints a status line), and the
  retries are recorded in the decision's usage;
- on a seat's first call, a host name that does not resolve or a refused connection is
  not retried: a mistyped or unreachable endpoint stops the game at once;
- a thinking model's ``<think>`` block before a JSON-mode answer is kept as the decision's
  reasoning (the god view's), and the JSON after it is the answer;
- an endpoint that refuses tool calls (an HTTP 4xx that names tools or functions) is asked
  again in JSON mode, and the seat stays in JSON mode for the rest of the game (recorded as
  ``mode: "json"`` in its usage);
- an endpoint still down past its patience (or asking, by ``Retry-After``, to wait longer
  than the patience left: the message says so and names the lineup field), or refusing the
  request otherwise, raises ``SeatUnavailableError``, and a spent token budget
  ``BudgetExceededError``: the phase
  fails, the game waits for ``werewolf resume`` (maybe with ``--seat N=mock``).

Every token the endpoint billed is counted as the answers arrive, at the HTTP layer
(``bills.measured``): refused answers, empty answers that were retried and the requests
of a decision that then failed included. A failing decision's ``SeatError`` carries its
``usage``, which the failed phase records with its error. Each answer is also handed to
``bill`` as it arrives (the store's bill ledger, ``ledger``), so a killed process loses
none; an answer without ``usage`` is estimated from the text and the seat warns once.

The seats of a seating share their HTTP clients and the token budget (``endpoints``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pulse_core.errors import (
    LLMPatienceError,
    LLMRequestError,
    LLMToolsRefusedError,
    LLMUnavailableError,
    LLMUnreachableError,
)

from ..config import Discussion, WolfKill
from ..decisions import Answer, NoAnswer, Request, Usage
from ..errors import SeatUnavailableError
from ..lineup import SeatSpec
from ..text import one_line
from .endpoints import ClientPool, SeatRetry, TokenMeter, warn_on_stderr
from .prompting import build_messages, default_personality, history_lines, system_prompt
from .schema import DecisionTool, decision_tool, stable_tools

if TYPE_CHECKING:  # openai and httpx2 are loaded with the first LLM seat: a second saved
    from pulse_core.llm import RetryNotice, ToolCallOutcome

    from .bills import Billed

__all__ = ["LLMPlayer"]


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
        warn: Callable[[str], None] | None = warn_on_stderr,
        bill: Callable[[Request, Billed], None] | None = None,
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
        self.retry = clients.retry_policy(spec, f"{game_seed}:{seat}", self._retrying)
        self._answered = False  # has the endpoint answered this seat yet (in this process)?
        self._system_prompt: str | None = None
        self._drawn: list[str] = []  # the seat's record as text, observation by observation
        self._drawn_upto = 0  # the index of the last observation drawn
        self.warn = warn  # told once when the endpoint reports no usage (None: nobody)
        self.bill = bill  # each answer as it arrives, with the request (the bill ledger)

    def _sampling(self) -> dict[str, Any]:
        spec = self.spec
        values = {
            "temperature": spec.temperature,
            "top_p": spec.top_p,
            "max_tokens": spec.max_tokens,
        }
        return {k: v for k, v in values.items() if v is not None}

    def _where(self) -> str:
        return f"seat {self.seat} ({self.spec.label()} at {self.clients.shown_url(self.spec)})"

    def _retrying(self, notice: RetryNotice) -> None:
        if self.clients.status is not None:
            self.clients.status(SeatRetry(self.seat, self._where(), notice))

    def _why(self, exc: LLMRequestError | LLMUnavailableError) -> str:
        """The one line a failed call ends the game with: where, what, and what to change."""
        why = f"{self._where()}: {exc}"
        if isinstance(exc, LLMUnreachableError):
            why += "; check the seat's base_url (and the network), then resume"
        elif isinstance(exc, LLMPatienceError):
            why += (
                f"; raise the seat's patience in the lineup (patience = {exc.asked:g} or more,"
                f" in seconds; now {self.spec.patience:g})"
            )
        return one_line(why)

    async def _call(self, request: Request) -> tuple[ToolCallOutcome[BaseModel], DecisionTool]:
        from pulse_core.llm import call_tool

        messages = build_messages(
            request,
            self.personality,
            self.lang,
            system=self._system(request),
            history=self._history(request),
        )
        client = self.clients.client(self.spec)
        # before the endpoint has answered once, a host that does not resolve or refuses
        # connections is a mistake to tell at once, not an outage to wait out
        retry = self.retry if self._answered else replace(self.retry, unreachable_is_final=True)
        while True:
            # one tools array for the whole game (cacheable), unless the lineup asks for the
            # legal seats in each schema; JSON mode shows the request's own schema
            stable = self.mode == "tool" and not self.spec.enum_targets
            tool = decision_tool(request, self.lang, stable=stable)
            config = request.view.config
            tools = (
                stable_tools(
                    self.lang,
                    frozenset(config.identities),
                    bidding=config.discussion is Discussion.BIDDING,
                    beliefs=config.beliefs,
                    ballots=config.wolf_kill is WolfKill.VOTE,
                    destruct=config.self_destruct,
                    sheriff=config.sheriff,
                )
                if stable
                else None
            )
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
                    retry=retry,
                    tools=tools,
                    **self._sampling(),
                )
                self._answered = True
                return outcome, tool
            except LLMToolsRefusedError:
                if self.mode == "json":
                    raise
                self.mode = "json"  # no tool support: JSON output, for the rest of the game

    def _system(self, request: Request) -> str:
        """The seat's system prompt, made once: nothing in it changes during a game."""
        if self._system_prompt is None:
            self._system_prompt = system_prompt(request.view, self.personality, self.lang)
        return self._system_prompt

    def _history(self, request: Request) -> list[str]:
        """The seat's record as text, each observation drawn once: a seat's observations
        only grow, so only the new ones are drawn for each request."""
        observations = request.view.observations
        last = observations[-1].index if observations else 0
        if last < self._drawn_upto:  # an older view than the last one: draw it afresh
            return history_lines(request.view, self.lang)
        self._drawn += history_lines(request.view, self.lang, after=self._drawn_upto)
        self._drawn_upto = last
        return list(self._drawn)

    def _usage(self, bills: list[Billed], retries: int = 0) -> Usage:
        """What the endpoint billed for one decision, every answered request included."""
        return Usage(
            prompt_tokens=sum(b.prompt_tokens for b in bills),
            completion_tokens=sum(b.completion_tokens for b in bills),
            latency_ms=sum(b.seconds for b in bills) * 1000,
            calls=len(bills),
            retries=retries,
            mode=self.mode,
            estimated=any(b.estimated for b in bills),
        )

    def _warn_estimated(self, usage: Usage) -> None:
        """Once per seat: its endpoint reports no usage, so its tokens are estimates."""
        if (
            usage.estimated
            and self.warn is not None
            and self.clients.first_warning(self.spec, self.seat)
        ):
            self.warn(
                f"{self._where()}: the endpoint reports no token usage; this seat's tokens "
                "are estimated from the text (about 4 characters a token) and marked as "
                "estimated, and the budget counts the estimates"
            )

    async def decide(self, request: Request) -> Answer:
        from .bills import measured

        self.meter.check(self.seat)
        note = self.bill
        with measured(None if note is None else lambda b: note(request, b)) as bills:
            try:
                outcome, tool = await self._call(request)
            except (LLMRequestError, LLMUnavailableError) as exc:
                usage = self._usage(bills)
                self.meter.add(usage.prompt_tokens + usage.completion_tokens)
                self._warn_estimated(usage)
                raise SeatUnavailableError(self.seat, self._why(exc), usage=usage) from None
            except BaseException:
                self.meter.add(sum(b.prompt_tokens + b.completion_tokens for b in bills))
                raise
        usage = self._usage(bills, outcome.transport_retries)
        self.meter.add(usage.prompt_tokens + usage.completion_tokens)
        self._warn_estimated(usage)
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
        if outcome.thinking:  # a thinking model's block, kept as (the start of) its reasoning
            said = answer.reasoning.strip()
            reasoning = f"{outcome.thinking}\n\n{said}" if said else outcome.thinking
            answer = replace(answer, reasoning=reasoning)
        return replace(answer, usage=usage, exchange=exchange)
