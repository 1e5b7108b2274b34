"""One chat completion on the wire: the request, the answer read, the errors that name it.

The body is posted as it is and the answer read here, so that a body that is not JSON is a
transient fault like an empty answer. Neither the errors nor the answer ever hold the
client's API key: every string of an answer is masked after JSON decoding
(``pulse_core.redact``), so an endpoint that echoes the key, escaped or not, whole or
split, gets it into no message, exchange or error. Tokens billed for an answer that was
then retried (an empty one) are counted in the usage of the answer that follows.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessage

from .errors import (
    LLMEmptyAnswerError,
    LLMError,
    LLMPatienceError,
    LLMRequestError,
    LLMToolsRefusedError,
    LLMUnavailableError,
    LLMUnreachableError,
    LLMUnreadableAnswerError,
)
from .llm_outcome import ChatMessage, LLMUsage, reported_usage
from .llm_retry import (
    RetryNotice,
    RetryPolicy,
    retry_after,
    timeout_seconds,
    transient,
    unreachable,
)
from .redact import mask_json, mask_secret, public_url

__all__ = ["MAX_PROBLEM_CHARS", "assistant_message", "complete"]

MAX_PROBLEM_CHARS = 300  # problems go into meta, which stays small


_SNIPPET_CHARS = 80  # of an unreadable body, in the error: enough to recognise the page


def _unreadable(response: httpx2.Response, text: str) -> LLMUnreadableAnswerError:
    kind = response.headers.get("content-type", "no content type").split(";")[0].strip()
    snippet = " ".join(text.split())[:_SNIPPET_CHARS]
    return LLMUnreadableAnswerError(
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


_TOOLS_WORDS = re.compile(r"tool|function", re.IGNORECASE)


def _endpoint_error(
    client: openai.AsyncOpenAI, model: str, exc: Exception, tries: str, *, tools: bool = False
) -> LLMError:
    """The pulse_core error for a failed request: says where, what, and how often it tried."""
    where = f"{_public_url(client)} (model {model!r})"
    error: LLMError
    if isinstance(exc, LLMEmptyAnswerError | LLMUnreadableAnswerError):
        error = LLMUnavailableError(f"{where} {exc} ({tries})")
    elif isinstance(exc, openai.APITimeoutError):
        error = LLMUnavailableError(f"{where} did not answer within the timeout ({tries})")
    elif isinstance(exc, openai.APIConnectionError):
        why = unreachable(exc) or exc.message
        error = LLMUnavailableError(f"cannot reach {where}: {why} ({tries})")
    elif isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        detail = exc.message[:MAX_PROBLEM_CHARS]
        if transient(exc) or status == 429 or status >= 500:
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
    if isinstance(exc, LLMEmptyAnswerError | LLMUnreadableAnswerError):
        text = str(exc)
    elif isinstance(exc, openai.APITimeoutError):
        text = "no answer within the timeout"
    elif isinstance(exc, openai.APIConnectionError):
        text = f"cannot connect: {unreachable(exc) or exc.message}"
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
    usage = reported_usage(data.get("usage"))
    if not response.choices:
        raise LLMEmptyAnswerError(usage)
    return response.choices[0].message, usage


async def complete(
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
        except (openai.APIError, LLMEmptyAnswerError, LLMUnreadableAnswerError) as exc:
            if isinstance(exc, LLMEmptyAnswerError):
                spent += exc.usage
            failures += 1
            if isinstance(exc, openai.APITimeoutError):
                down += timeout_seconds(client, timeout)
            asked = retry_after(exc)
            wait = 0.0 if retry is None else retry.wait(failures, asked)
            tries = f"{client.max_retries + 1 if retry is None else failures} tries"
            final = retry is None or not transient(exc)
            if retry is not None and retry.unreachable_is_final and unreachable(exc):
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


def assistant_message(message: ChatCompletionMessage) -> ChatMessage:
    """The assistant's message as it goes back into the conversation."""
    sent: ChatMessage = {"role": "assistant"}
    if message.content is not None:
        sent["content"] = message.content
    if message.tool_calls:
        sent["tool_calls"] = [call.model_dump(exclude_none=True) for call in message.tool_calls]
    if "content" not in sent and "tool_calls" not in sent:
        sent["content"] = ""
    return sent
