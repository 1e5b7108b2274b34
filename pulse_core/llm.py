"""LLM roles over any OpenAI-compatible endpoint: the "sandwich" of seed 000.

A role builds a prompt from its topic (a system prompt and one user message), calls the
model, and turns the answer into a ``RoleResult``:

- ``llm_role``: the answer is free text, handed to ``parse_response``.
- ``tool_role``: the answer is structured. The model is forced to call one function whose
  JSON schema comes from a pydantic model; the arguments are validated by that model. A
  missing call, broken JSON or a schema violation is sent back to the model, saying exactly
  what was wrong, and it tries again (bounded); after that the role returns
  ``default_result`` and marks ``meta["fallback"]``. Never a regex over free text (seed 004).
  ``mode="json"`` does the same for endpoints without tool support: the schema goes into the
  system prompt and ``response_format`` asks for a JSON object; a thinking model's
  ``<think>...</think>`` block before the JSON is taken out before parsing and kept as the
  outcome's ``thinking``.

The loop behind ``tool_role`` is ``call_tool``, public so that callers outside a role (LLM
players) get the same forced call, validation, feedback and bounded retry. Its parts:
``llm_outcome`` (what a call returns), ``llm_retry`` (when a transient failure is tried
again: ``RetryPolicy``), ``llm_transport`` (one request, the API key masked in everything
it returns or raises) and ``llm_parsing`` (judging an answer). A failed call raises
``LLMUnavailableError`` or ``LLMRequestError``; the adapter records either as the topic's
failure, and the topic can be resumed.

Every role adds ``meta["llm"]``: model, mode, attempts, prompt and completion tokens, and
latency in milliseconds; and attaches the whole exchange (``attachments["llm_exchange"]``,
the messages sent and received as JSON) so a god view can show what the model saw.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import openai

from .errors import WorkflowError
from .events import Event, Meta
from .llm_outcome import ChatMessage, LLMExchange, LLMUsage, M, Mode, ToolCallOutcome
from .llm_parsing import (
    check_sampling,
    check_tool_name,
    json_instruction,
    judge_json_reply,
    judge_tool_reply,
    split_thinking,
    with_instruction,
)
from .llm_retry import RetryNotice, RetryPolicy
from .llm_transport import MAX_PROBLEM_CHARS, assistant_message, complete
from .store import EventStore
from .workflow import Role, RoleResult

__all__ = [
    "ChatMessage",
    "LLMExchange",
    "LLMUsage",
    "Mode",
    "RetryNotice",
    "RetryPolicy",
    "ToolCallOutcome",
    "call_tool",
    "llm_role",
    "split_thinking",
    "tool_role",
]

DEFAULT_TIMEOUT = 120.0
"""Seconds one request may take before the client gives up on it (and maybe retries)."""


# -- the forced-call loop -----------------------------------------------------------------------
async def call_tool(
    client: openai.AsyncOpenAI,
    *,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    tool_name: str,
    tool_description: str,
    arguments_model: type[M],
    max_retries: int = 2,
    mode: Mode = "tool",
    timeout: float | None = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    tools: Sequence[Mapping[str, Any]] | None = None,
    **sampling: Any,
) -> ToolCallOutcome[M]:
    """Ask for one structured answer, validated by ``arguments_model``.

    In ``"tool"`` mode the request offers one function, ``tool_name``, with the model's JSON
    schema as its parameters, and forces it (``tool_choice``). In ``"json"`` mode the schema
    goes into the system prompt and ``response_format`` asks for a JSON object. A reply with
    no call, invalid JSON or arguments that fail validation is answered with a message that
    says exactly what was wrong, and the model tries again, at most ``max_retries`` times.

    Returns the outcome whether or not an attempt succeeded (``outcome.parsed`` is ``None``
    when none did). Raises ``LLMUnavailableError`` / ``LLMRequestError`` (``LLMToolsRefused
    Error`` when it refuses tools) when the endpoint cannot be used at all; ``timeout`` is per
    request (``None``: the client's own); ``retry`` retries transient failures here (see
    ``RetryPolicy``; the client should then have ``max_retries=0``). ``tools`` is the whole
    tools array to offer in tool mode, ``tool_name`` among them (default: that one function
    with the model's schema): a caller may keep one array for many requests, so that the
    request prefix a provider caches stays the same; the answer is still validated by
    ``arguments_model``.
    """
    check_tool_name(tool_name)
    check_sampling(sampling)
    if max_retries < 0:
        raise WorkflowError(f"max_retries must be 0 or more, not {max_retries}")
    if mode not in ("tool", "json"):
        raise WorkflowError(f"mode must be 'tool' or 'json', not {mode!r}")
    schema = arguments_model.model_json_schema()
    request: dict[str, Any] = dict(sampling)
    if mode == "tool":
        conversation = [dict(m) for m in messages]
        function = {"name": tool_name, "description": tool_description, "parameters": schema}
        offered: list[Mapping[str, Any]] = [{"type": "function", "function": function}]
        if tools is not None:
            offered = list(tools)
        if not any(dict(t.get("function") or {}).get("name") == tool_name for t in offered):
            raise WorkflowError(f"tools offers no function {tool_name!r}")
        request["tools"] = offered
        request["tool_choice"] = {"type": "function", "function": {"name": tool_name}}
    else:
        instruction = json_instruction(tool_name, tool_description, schema)
        conversation = with_instruction(messages, instruction)
        request["response_format"] = {"type": "json_object"}

    exchanges: list[LLMExchange] = []
    problems: list[str] = []
    usage = LLMUsage()
    latency = 0.0
    resent = 0
    for _attempt in range(max_retries + 1):
        message, used, took, again = await complete(
            client,
            model=model,
            messages=conversation,
            timeout=timeout,
            request=request,
            retry=retry,
        )
        usage += used
        resent += again
        latency += took
        reply = assistant_message(message)
        conversation.append(reply)
        if mode == "tool":
            parsed, problem, feedback = judge_tool_reply(reply, tool_name, arguments_model)
        else:
            parsed, problem, feedback = judge_json_reply(reply, arguments_model)
        raw = message.model_dump(exclude_none=True)
        exchanges.append(LLMExchange(reply=raw, problem=problem, usage=used, latency=took))
        if problem is None:
            thinking = None
            if mode == "json":
                thinking = split_thinking(reply.get("content") or "")[0]
            return ToolCallOutcome(
                parsed,
                problems,
                usage,
                latency,
                len(exchanges),
                exchanges,
                conversation,
                resent,
                thinking or None,
            )
        problems.append(problem)
        conversation.extend(feedback)
    return ToolCallOutcome(
        None, problems, usage, latency, len(exchanges), exchanges, conversation, resent
    )


# -- role factories -----------------------------------------------------------------------------
BuildUserMessage: TypeAlias = Callable[[Sequence[Event], EventStore], str]
"""``(chain, store) -> str``: the user message; ``read_content(store, event)`` reads inputs."""


def _llm_meta(
    model: str, mode: str, attempts: int, usage: LLMUsage, latency: float
) -> dict[str, Any]:
    return {
        "model": model,
        "mode": mode,
        "attempts": attempts,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "latency_ms": round(latency * 1000),
    }


def _finish(result: RoleResult, extra_meta: Meta, exchange: list[ChatMessage]) -> RoleResult:
    meta = {**result.meta, **extra_meta}
    attachments = {
        **result.attachments,
        "llm_exchange": json.dumps(exchange, ensure_ascii=False, default=str),
    }
    return RoleResult(result.content, meta, attachments)


def llm_role(
    client: openai.AsyncOpenAI,
    *,
    model: str,
    system_prompt: str,
    build_user_message: BuildUserMessage,
    parse_response: Callable[[str, Sequence[Event]], RoleResult],
    timeout: float | None = DEFAULT_TIMEOUT,
    **sampling: Any,
) -> Role:
    """A role that asks the model in free text and parses the answer with ``parse_response``.

    ``sampling`` (temperature, max_tokens, seed, ...) goes into every request. The result's
    meta gets ``meta["llm"]``; an exception from ``parse_response`` fails the topic.
    """
    check_sampling(sampling)

    async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        messages: list[ChatMessage] = [
            {"role": "system", "content": system_prompt},
            {"role": "user", "content": build_user_message(chain, store)},
        ]
        message, usage, latency, _ = await complete(
            client, model=model, messages=messages, timeout=timeout, request=sampling
        )
        reply = assistant_message(message)
        result = parse_response(message.content or "", chain)
        extra = {"llm": _llm_meta(model, "text", 1, usage, latency)}
        return _finish(result, extra, [*messages, reply])

    return role


def tool_role(
    client: openai.AsyncOpenAI,
    *,
    model: str,
    system_prompt: str,
    build_user_message: BuildUserMessage,
    tool_name: str,
    tool_description: str,
    arguments_model: type[M],
    to_role_result: Callable[[M, Sequence[Event]], RoleResult],
    default_result: Callable[[Sequence[Event], list[str]], RoleResult],
    max_retries: int = 2,
    mode: Mode = "tool",
    timeout: float | None = DEFAULT_TIMEOUT,
    **sampling: Any,
) -> Role:
    """A role whose answer is one validated call of ``tool_name`` (see ``call_tool``).

    A valid call becomes ``to_role_result(parsed, chain)``. When every attempt was rejected
    the role returns ``default_result(chain, problems)`` with ``meta["fallback"] =
    {"reason": ..., "problems": [...]}``, so the moderator and the log both see it. Either
    way ``meta["llm"]`` records model, mode, attempts, tokens and latency.
    """
    check_tool_name(tool_name)
    check_sampling(sampling)
    if max_retries < 0:
        raise WorkflowError(f"max_retries must be 0 or more, not {max_retries}")

    async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        messages: list[ChatMessage] = [
            {"role": "system", "content": system_prompt},
            {"role": "user", "content": build_user_message(chain, store)},
        ]
        outcome = await call_tool(
            client,
            model=model,
            messages=messages,
            tool_name=tool_name,
            tool_description=tool_description,
            arguments_model=arguments_model,
            max_retries=max_retries,
            mode=mode,
            timeout=timeout,
            **sampling,
        )
        extra: Meta = {
            "llm": _llm_meta(model, mode, outcome.attempts, outcome.usage, outcome.latency)
        }
        if outcome.parsed is not None:
            result = to_role_result(outcome.parsed, chain)
        else:
            result = default_result(chain, list(outcome.problems))
            extra["fallback"] = {
                "reason": f"no valid `{tool_name}` call in {outcome.attempts} attempts",
                "problems": [p[:MAX_PROBLEM_CHARS] for p in outcome.problems],
            }
        return _finish(result, extra, outcome.messages)

    return role
