"""What one chat-completion call returns and costs: the types ``pulse_core.llm`` hands out.

Token counts come from the endpoint's ``usage``; a count that is not a whole number of
tokens from 0 up (a hostile or broken endpoint's) is taken as 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeAlias, TypeVar

import pydantic

__all__ = [
    "ChatMessage",
    "LLMExchange",
    "LLMUsage",
    "M",
    "Mode",
    "ToolCallOutcome",
    "reported_usage",
]

M = TypeVar("M", bound=pydantic.BaseModel)

Mode: TypeAlias = Literal["tool", "json"]
ChatMessage: TypeAlias = dict[str, Any]
"""One chat message as the endpoint takes it: ``{"role": ..., "content": ...}`` and so on."""


@dataclass(frozen=True, slots=True)
class LLMUsage:
    """Token counts as the endpoint reported them (0 when it reported none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: LLMUsage) -> LLMUsage:
        return LLMUsage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True, slots=True)
class LLMExchange:
    """One attempt: the assistant's message as received, and why it was rejected (if so)."""

    reply: ChatMessage
    problem: str | None
    usage: LLMUsage
    latency: float  # seconds


@dataclass(frozen=True, slots=True)
class ToolCallOutcome(Generic[M]):
    """What ``call_tool`` ended with.

    ``parsed`` is the validated arguments, or ``None`` when every attempt was rejected;
    ``problems`` holds one line per rejected attempt; ``messages`` is the whole
    conversation, every request message and every reply, feedback included.
    """

    parsed: M | None
    problems: list[str]
    usage: LLMUsage
    latency: float  # seconds, summed over attempts
    attempts: int
    exchanges: list[LLMExchange]
    messages: list[ChatMessage] = field(default_factory=list)
    transport_retries: int = 0  # requests sent again after a transient failure
    thinking: str | None = None  # a JSON-mode answer's <think> block, taken out before parsing

    @property
    def ok(self) -> bool:
        return self.parsed is not None


def reported_usage(usage: Any) -> LLMUsage:
    """The tokens an answer's ``usage`` reports; a count that is not a whole number of
    tokens from 0 up (a hostile or broken endpoint's) is taken as 0."""
    if not isinstance(usage, dict):
        return LLMUsage()

    def count(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0
        return int(value) if value >= 0 and float(value).is_integer() else 0

    return LLMUsage(count(usage.get("prompt_tokens")), count(usage.get("completion_tokens")))
