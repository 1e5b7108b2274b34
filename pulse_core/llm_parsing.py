"""Judging a structured answer: the arguments of the forced call, or a JSON-mode reply.

Parsed and validated by a pydantic model, never a regex over free text (seed 004). A reply
that fails gets feedback messages saying exactly what was wrong, for the model's next try.
A thinking model's ``<think>...</think>`` block before a JSON answer is no part of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic

from .errors import WorkflowError
from .llm_outcome import ChatMessage, M

__all__ = [
    "check_sampling",
    "check_tool_name",
    "json_instruction",
    "judge_json_reply",
    "judge_tool_reply",
    "split_thinking",
    "with_instruction",
]

_TOOL_NAME_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what OpenAI accepts as a function name
_RESERVED_SAMPLING = frozenset(
    {"model", "messages", "tools", "tool_choice", "response_format", "stream", "timeout"}
)


def _describe_errors(error: pydantic.ValidationError) -> str:
    parts: list[str] = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"]) or "(the whole object)"
        text = f"`{where}`: {item['msg']}"
        if item["type"] != "missing":
            got = json.dumps(item.get("input"), ensure_ascii=False, default=str)
            text += f" (got {got[:60]})"
        parts.append(text)
    return "; ".join(parts)


def _validate(
    arguments_model: type[M], text: str, what: str, *, plural: bool
) -> tuple[M | None, str | None]:
    """Parse and validate ``text``; the parsed model, or a sentence saying what is wrong."""
    is_, does = ("are", "do") if plural else ("is", "does")
    try:
        return arguments_model.model_validate_json(text), None
    except pydantic.ValidationError as exc:
        broken = [e for e in exc.errors(include_url=False) if e["type"] == "json_invalid"]
        if broken:
            return None, f"{what} {is_} not valid JSON ({broken[0]['msg']})"
        return None, f"{what} {does} not match the schema: {_describe_errors(exc)}"


def _strip_fence(text: str) -> str:
    """Drop a Markdown code fence around a JSON answer (models add one even in JSON mode)."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and "\n" in stripped:
        body = stripped[:-3].split("\n", 1)[1]
        return body.strip()
    return stripped


_THINKING = re.compile(
    r"\A\s*<(think|thinking|reasoning)>(.*?)</\1>\s*", re.DOTALL | re.IGNORECASE
)  # what thinking models put before their answer


def split_thinking(text: str) -> tuple[str | None, str]:
    """A thinking model's ``<think>...</think>`` block (also ``<thinking>``, ``<reasoning>``)
    at the start of ``text``, and the rest: (the block's text, or ``None``; the rest)."""
    found = _THINKING.match(text)
    if found is None:
        return None, text
    return found.group(2).strip(), text[found.end() :]


def check_tool_name(tool_name: str) -> None:
    if not _TOOL_NAME_RE.match(tool_name):
        raise WorkflowError(
            f"tool name {tool_name!r} must be 1-64 letters, digits, '_' or '-' (OpenAI's rule)"
        )


def check_sampling(sampling: Mapping[str, Any]) -> None:
    reserved = sorted(_RESERVED_SAMPLING.intersection(sampling))
    if reserved:
        raise WorkflowError(f"sampling options may not set {', '.join(reserved)}: the role does")


def json_instruction(tool_name: str, tool_description: str, schema: Mapping[str, Any]) -> str:
    return (
        f"Answer with only a JSON object, no other text: the arguments of `{tool_name}` "
        f"({tool_description}). It must match this JSON schema:\n"
        f"{json.dumps(schema, ensure_ascii=False)}"
    )


def with_instruction(messages: Sequence[Mapping[str, Any]], instruction: str) -> list[ChatMessage]:
    """The messages with ``instruction`` added to the system prompt (or as one, first)."""
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system" and isinstance(out[0].get("content"), str):
        out[0]["content"] = f"{out[0]['content']}\n\n{instruction}"
    else:
        out.insert(0, {"role": "system", "content": instruction})
    return out


def judge_tool_reply(
    message: ChatMessage, tool_name: str, arguments_model: type[M]
) -> tuple[M | None, str | None, list[ChatMessage]]:
    """Validate a tool-mode reply: (parsed, problem, feedback messages to send if rejected)."""
    calls: list[dict[str, Any]] = message.get("tool_calls") or []
    if not calls:
        content = message.get("content") or ""
        answered = "plain text" if content.strip() else "an empty message"
        missing = f"no call to the function `{tool_name}`: the answer was {answered}"
        request = f"{missing}. Call `{tool_name}` now; do not answer in text."
        return None, missing, [{"role": "user", "content": request}]
    chosen = next((c for c in calls if c.get("function", {}).get("name") == tool_name), None)
    problem: str | None
    if chosen is None:
        called = ", ".join(f"`{c.get('function', {}).get('name')}`" for c in calls)
        problem = f"called {called}, but the only function is `{tool_name}`"
    else:
        arguments = chosen.get("function", {}).get("arguments") or ""
        what = f"the arguments of `{tool_name}`"
        parsed, problem = _validate(arguments_model, arguments, what, plural=True)
        if problem is None:
            return parsed, None, []
    # Every call in the reply needs its own tool message, or the endpoint refuses the next turn.
    answers: list[ChatMessage] = []
    for call in calls:
        if chosen is None or call is chosen:
            text = f"Rejected: {problem}. Call `{tool_name}` again with arguments that fix this."
        else:
            text = f"Ignored: call only `{tool_name}`, once."
        answers.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": text})
    return None, problem, answers


def judge_json_reply(
    message: ChatMessage, arguments_model: type[M]
) -> tuple[M | None, str | None, list[ChatMessage]]:
    """Validate a JSON-mode reply: (parsed, problem, feedback messages to send if rejected).
    A thinking block before the JSON is no part of it."""
    content = _strip_fence(split_thinking(message.get("content") or "")[1])
    problem: str | None
    if not content:
        problem = "the answer was empty, not a JSON object"
    else:
        parsed, problem = _validate(arguments_model, content, "the answer", plural=False)
        if problem is None:
            return parsed, None, []
    request = f"Rejected: {problem}. Answer again with only a JSON object that fixes this."
    return None, problem, [{"role": "user", "content": request}]
