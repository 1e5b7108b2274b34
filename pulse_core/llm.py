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
players) get the same forced call, validation, feedback and bounded retry.

Transient failures (timeouts, dropped connections, HTTP 408, 409, 429 and 5xx, a ``200``
answer with no choices, what some providers send when a filter fires, and a ``200`` answer
whose body is not a chat completion, such as a proxy's HTML page) are retried per request.
Without a ``RetryPolicy`` that is the openai client's job (its ``max_retries``; it does not
retry the last kind); with one, the loop here does it (give the client ``max_retries=0``):
bounded exponential back-off with jitter, honouring ``Retry-After``, until the endpoint has stayed down for the
policy's ``patience``. Then the call raises ``LLMUnavailableError`` (``LLMPatienceError`` when
the endpoint asked, by ``Retry-After``, to wait longer than the patience left); a refused
request (other 4xx) raises ``LLMRequestError``, and ``LLMToolsRefusedError`` when it refuses
tool calls. The adapter records either as the topic's failure, and the topic can be resumed.
A policy can report each retry (``on_retry``) and give up at once on an endpoint that does
not exist or refuses connections (``unreachable_is_final``).

Neither the errors nor ``meta`` ever hold the client's API key: every string of an answer is
masked after JSON decoding (``pulse_core.redact``), so an endpoint that echoes the key,
escaped or not, whole or split, gets it into no message, exchange or error. Tokens billed
for an answer that was then retried (an empty one) are counted in the usage of the answer
that follows.

Every role adds ``meta["llm"]``: model, mode, attempts, prompt and completion tokens, and
latency in milliseconds; and attaches the whole exchange (``attachments["llm_exchange"]``,
the messages sent and received as JSON) so a god view can show what the model saw.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, TypeAlias, TypeVar

import httpx2
import openai
import pydantic
from openai.types.chat import ChatCompletion, ChatCompletionMessage

from .errors import (
    LLMError,
    LLMPatienceError,
    LLMRequestError,
    LLMToolsRefusedError,
    LLMUnavailableError,
    LLMUnreachableError,
    WorkflowError,
)
from .events import Event, Meta
from .redact import mask_json, mask_secret, public_url
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

M = TypeVar("M", bound=pydantic.BaseModel)

Mode: TypeAlias = Literal["tool", "json"]
ChatMessage: TypeAlias = dict[str, Any]
"""One chat message as the endpoint takes it: ``{"role": ..., "content": ...}`` and so on."""

DEFAULT_TIMEOUT = 120.0
"""Seconds one request may take before the client gives up on it (and maybe retries)."""

_TOOL_NAME_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what OpenAI accepts as a function name
_RESERVED_SAMPLING = frozenset(
    {"model", "messages", "tools", "tool_choice", "response_format", "stream", "timeout"}
)
_MAX_PROBLEM_CHARS = 300  # problems go into meta, which stays small


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


# -- one request --------------------------------------------------------------------------------
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


class _EmptyAnswerError(Exception):
    """A ``200`` answer with no choices; its billed usage travels with it."""

    def __init__(self, usage: LLMUsage) -> None:
        super().__init__("answered with no choices")
        self.usage = usage


class _UnreadableAnswerError(Exception):
    """A ``200`` answer whose body is not a chat completion (a proxy's HTML page, say)."""


_SNIPPET_CHARS = 80  # of an unreadable body, in the error: enough to recognise the page


def _unreadable(response: httpx2.Response, text: str) -> _UnreadableAnswerError:
    kind = response.headers.get("content-type", "no content type").split(";")[0].strip()
    snippet = " ".join(text.split())[:_SNIPPET_CHARS]
    return _UnreadableAnswerError(
        f"answered HTTP {response.status_code} with a body that is not a chat completion "
        f"({kind}: {snippet!r})"
    )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _well_formed(value: Any) -> Any:
    """A decoded JSON value with every lone surrogate (``\\ud800`` escaped alone, which
    ``json`` decodes as it is) replaced by U+FFFD: such a string cannot be written as UTF-8,
    to a log, a terminal or a page."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_well_formed(item) for item in value]
    if isinstance(value, dict):
        return {_well_formed(k): _well_formed(v) for k, v in value.items()}
    return value


def _reported_usage(usage: Any) -> LLMUsage:
    """The tokens an answer's ``usage`` reports; a count that is not a whole number of
    tokens from 0 up (a hostile or broken endpoint's) is taken as 0."""
    if not isinstance(usage, dict):
        return LLMUsage()

    def count(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0
        return int(value) if value >= 0 and float(value).is_integer() else 0

    return LLMUsage(count(usage.get("prompt_tokens")), count(usage.get("completion_tokens")))


def _api_key(client: openai.AsyncOpenAI) -> str | None:
    key = getattr(client, "api_key", None)
    return key if isinstance(key, str) else None


def _redact(text: str, client: openai.AsyncOpenAI) -> str:
    """``text`` with the client's API key masked, should a server have echoed it (escaped,
    in part, or whole: see ``pulse_core.redact``)."""
    return mask_secret(text, _api_key(client))


def _public_url(client: openai.AsyncOpenAI) -> str:
    """The client's endpoint as messages name it: no password, token or key in it."""
    return public_url(str(client.base_url), _api_key(client))


def _unreachable(exc: BaseException) -> str | None:
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


def _transient(exc: Exception) -> bool:
    """Whether trying the same request again may succeed."""
    transient = (
        _EmptyAnswerError,
        _UnreadableAnswerError,
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


def _retry_after(exc: Exception) -> float | None:
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


_TOOLS_WORDS = re.compile(r"tool|function", re.IGNORECASE)


def _endpoint_error(
    client: openai.AsyncOpenAI, model: str, exc: Exception, tries: str, *, tools: bool = False
) -> LLMError:
    """The pulse_core error for a failed request: says where, what, and how often it tried."""
    where = f"{_public_url(client)} (model {model!r})"
    error: LLMError
    if isinstance(exc, _EmptyAnswerError | _UnreadableAnswerError):
        error = LLMUnavailableError(f"{where} {exc} ({tries})")
    elif isinstance(exc, openai.APITimeoutError):
        error = LLMUnavailableError(f"{where} did not answer within the timeout ({tries})")
    elif isinstance(exc, openai.APIConnectionError):
        why = _unreachable(exc) or exc.message
        error = LLMUnavailableError(f"cannot reach {where}: {why} ({tries})")
    elif isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        detail = exc.message[:_MAX_PROBLEM_CHARS]
        if _transient(exc) or status == 429 or status >= 500:
            error = LLMUnavailableError(f"{where} answered HTTP {status} ({tries}): {detail}")
        elif tools and _TOOLS_WORDS.search(exc.message):
            error = LLMToolsRefusedError(f"{where} refused tool calls, HTTP {status}: {detail}")
        else:
            error = LLMRequestError(f"{where} refused the request, HTTP {status}: {detail}")
    else:
        message = getattr(exc, "message", str(exc))
        error = LLMRequestError(f"{where} sent an answer the client cannot read: {message}")
    return type(error)(_redact(str(error), client))


def _failure(client: openai.AsyncOpenAI, exc: Exception) -> str:
    """What failed, in a few words for a status line (the key masked)."""
    if isinstance(exc, _EmptyAnswerError | _UnreadableAnswerError):
        text = str(exc)
    elif isinstance(exc, openai.APITimeoutError):
        text = "no answer within the timeout"
    elif isinstance(exc, openai.APIConnectionError):
        text = f"cannot connect: {_unreachable(exc) or exc.message}"
    elif isinstance(exc, openai.APIStatusError):
        text = f"HTTP {exc.status_code}: {_said(exc)[:_SNIPPET_CHARS]}"
    else:
        text = str(exc)
    return _redact(" ".join(text.split()), client)


def _said(exc: openai.APIStatusError) -> str:
    """What an error answer says: its ``error.message`` when it has one."""
    body = exc.body
    if isinstance(body, dict):
        said = body.get("message")
        if isinstance(body.get("error"), dict):
            said = body["error"].get("message")
        if isinstance(said, str) and said.strip():
            return said
    return exc.message


def _patience_error(
    client: openai.AsyncOpenAI, model: str, exc: Exception, asked: float, left: float, tries: str
) -> LLMPatienceError:
    """The endpoint asked (``Retry-After``) for a wait the patience left does not cover."""
    status = exc.status_code if isinstance(exc, openai.APIStatusError) else "an error"
    message = (
        f"{_public_url(client)} (model {model!r}) answered HTTP {status} and asked to wait "
        f"{asked:g} s (Retry-After), more than the {left:g} s of patience left ({tries})"
    )
    return LLMPatienceError(_redact(message, client), asked=asked, patience=left)


async def _request_once(
    client: openai.AsyncOpenAI,
    model: str,
    messages: Sequence[ChatMessage],
    timeout: float | None,
    request: Mapping[str, Any],
) -> tuple[ChatCompletionMessage, LLMUsage]:
    # the client's own request path (errors), but the body as it is: create() first walks
    # every message and tool through its typed-dict transform, milliseconds a request on
    # the critical path of a game, for plain JSON that needs no transforming; the answer is
    # read here, so that a body that is not JSON is a transient fault like an empty answer,
    # and every string in it is masked after decoding, escapes and all
    body = {"model": model, "messages": list(messages), **request}
    options: Any = {} if timeout is None else {"timeout": timeout}
    raw = await client.post(
        "/chat/completions", body=body, cast_to=httpx2.Response, options=options
    )
    text = (await raw.aread()).decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError:
        raise _unreadable(raw, _redact(text, client)) from None
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
        raise _unreadable(raw, _redact(text, client))
    response = ChatCompletion.construct(**_well_formed(mask_json(data, _api_key(client))))
    if response.choices and not isinstance(
        getattr(response.choices[0], "message", None), ChatCompletionMessage
    ):
        raise _unreadable(raw, _redact(text, client))
    usage = _reported_usage(data.get("usage"))
    if not response.choices:
        raise _EmptyAnswerError(usage)
    return response.choices[0].message, usage


async def _complete(
    client: openai.AsyncOpenAI,
    *,
    model: str,
    messages: Sequence[ChatMessage],
    timeout: float | None,
    request: Mapping[str, Any],
    retry: RetryPolicy | None = None,
) -> tuple[ChatCompletionMessage, LLMUsage, float, int]:
    """One chat completion, retried per ``retry`` after transient failures: the assistant's
    message, the usage (billed empty answers included), the latency in seconds of the try
    that answered, and how many tries were sent again."""
    spent = LLMUsage()
    failures = 0
    down = 0.0  # seconds the endpoint has been down for this request, as RetryPolicy counts
    while True:
        started = time.perf_counter()
        try:
            message, usage = await _request_once(client, model, messages, timeout, request)
            return message, spent + usage, time.perf_counter() - started, failures
        except (openai.APIError, _EmptyAnswerError, _UnreadableAnswerError) as exc:
            if isinstance(exc, _EmptyAnswerError):
                spent += exc.usage
            failures += 1
            if isinstance(exc, openai.APITimeoutError):
                down += _timeout_seconds(client, timeout)
            asked = _retry_after(exc)
            wait = 0.0 if retry is None else retry.wait(failures, asked)
            tries = f"{client.max_retries + 1 if retry is None else failures} tries"
            final = retry is None or not _transient(exc)
            if retry is not None and retry.unreachable_is_final and _unreachable(exc):
                error = _endpoint_error(client, model, exc, tries)
                raise LLMUnreachableError(str(error)) from None
            if not final and retry is not None and down + wait > retry.patience:
                if asked is not None and asked >= wait:  # the endpoint's wait broke it
                    left = max(0.0, retry.patience - down)
                    raise _patience_error(client, model, exc, asked, left, tries) from None
                final = True
            if final or retry is None:
                tools = "tools" in request
                # from None: the client's exception text may quote request details
                raise _endpoint_error(client, model, exc, tries, tools=tools) from None
            if retry.on_retry is not None:
                notice = RetryNotice(_failure(client, exc), failures, wait, down, retry.patience)
                retry.on_retry(notice)
            down += wait
            await retry.sleep(wait)


def _timeout_seconds(client: openai.AsyncOpenAI, timeout: float | None) -> float:
    if timeout is not None:
        return timeout
    own = client.timeout
    return float(own) if isinstance(own, int | float) else 0.0


def _assistant_message(message: ChatCompletionMessage) -> ChatMessage:
    """The assistant's message as it goes back into the conversation."""
    sent: ChatMessage = {"role": "assistant"}
    if message.content is not None:
        sent["content"] = message.content
    if message.tool_calls:
        sent["tool_calls"] = [call.model_dump(exclude_none=True) for call in message.tool_calls]
    if "content" not in sent and "tool_calls" not in sent:
        sent["content"] = ""
    return sent


# -- validation -----------------------------------------------------------------------------------
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


# -- the forced-call loop -----------------------------------------------------------------------
def _check_tool_name(tool_name: str) -> None:
    if not _TOOL_NAME_RE.match(tool_name):
        raise WorkflowError(
            f"tool name {tool_name!r} must be 1-64 letters, digits, '_' or '-' (OpenAI's rule)"
        )


def _check_sampling(sampling: Mapping[str, Any]) -> None:
    reserved = sorted(_RESERVED_SAMPLING.intersection(sampling))
    if reserved:
        raise WorkflowError(f"sampling options may not set {', '.join(reserved)}: the role does")


def _json_instruction(tool_name: str, tool_description: str, schema: Mapping[str, Any]) -> str:
    return (
        f"Answer with only a JSON object, no other text: the arguments of `{tool_name}` "
        f"({tool_description}). It must match this JSON schema:\n"
        f"{json.dumps(schema, ensure_ascii=False)}"
    )


def _with_instruction(messages: Sequence[Mapping[str, Any]], instruction: str) -> list[ChatMessage]:
    """The messages with ``instruction`` added to the system prompt (or as one, first)."""
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system" and isinstance(out[0].get("content"), str):
        out[0]["content"] = f"{out[0]['content']}\n\n{instruction}"
    else:
        out.insert(0, {"role": "system", "content": instruction})
    return out


def _judge_tool_reply(
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


def _judge_json_reply(
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
    _check_tool_name(tool_name)
    _check_sampling(sampling)
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
        instruction = _json_instruction(tool_name, tool_description, schema)
        conversation = _with_instruction(messages, instruction)
        request["response_format"] = {"type": "json_object"}

    exchanges: list[LLMExchange] = []
    problems: list[str] = []
    usage = LLMUsage()
    latency = 0.0
    resent = 0
    for _attempt in range(max_retries + 1):
        message, used, took, again = await _complete(
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
        reply = _assistant_message(message)
        conversation.append(reply)
        if mode == "tool":
            parsed, problem, feedback = _judge_tool_reply(reply, tool_name, arguments_model)
        else:
            parsed, problem, feedback = _judge_json_reply(reply, arguments_model)
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
    _check_sampling(sampling)

    async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        messages: list[ChatMessage] = [
            {"role": "system", "content": system_prompt},
            {"role": "user", "content": build_user_message(chain, store)},
        ]
        message, usage, latency, _ = await _complete(
            client, model=model, messages=messages, timeout=timeout, request=sampling
        )
        reply = _assistant_message(message)
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
    _check_tool_name(tool_name)
    _check_sampling(sampling)
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
                "problems": [p[:_MAX_PROBLEM_CHARS] for p in outcome.problems],
            }
        return _finish(result, extra, outcome.messages)

    return role
