"""What an LLM seat's answered requests bill: the endpoint's time and tokens, collected per block.

``measured()`` opens a sink in the current task's context; each answered request adds a
``Billed`` to it (``note_bill``, called by the transports of ``cassette``): its time (a replay adds
the recorded time) and the tokens its body's ``usage`` billed (a successful answer without one:
estimated from the text, and marked so), also for answers the caller then throws away (an
empty answer retried, an error). So a seat's latency is the time its endpoint took
to answer, the same in a recording and its replay, client back-off waits are not counted,
and every billed token is seen exactly once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CHARS_PER_TOKEN",
    "MAX_TOKEN_COUNT",
    "Billed",
    "billed",
    "estimate_usage",
    "estimated_tokens",
    "measured",
    "note_bill",
    "token_count",
]


@dataclass(frozen=True, slots=True)
class Billed:
    """One answered request: the endpoint's time and the tokens its answer billed;
    ``estimated`` when the answer reported no ``usage`` and the tokens were estimated from
    the text (``estimate_usage``)."""

    seconds: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False


class _Bills(list[Billed]):
    """The bills of one block, each also handed to ``on_bill`` as it arrives."""

    def __init__(self, on_bill: Callable[[Billed], None] | None) -> None:
        super().__init__()
        self.on_bill = on_bill


_SINK: ContextVar[_Bills | None] = ContextVar("werewolf_endpoint_bills", default=None)


@contextmanager
def measured(on_bill: Callable[[Billed], None] | None = None) -> Iterator[list[Billed]]:
    """A list that collects a ``Billed`` for every request answered inside the block (in
    this task and the tasks it starts); ``on_bill`` is called with each as it arrives,
    before the client reads the answer (the ledger writes it down then)."""
    bills = _Bills(on_bill)
    token = _SINK.set(bills)
    try:
        yield bills
    finally:
        _SINK.reset(token)


CHARS_PER_TOKEN = 4
"""How many characters of text make a token, for an estimate: the usual rule of thumb for
English text and JSON with the common tokenizers (Chinese text has fewer a token)."""


def estimated_tokens(text: str) -> int:
    """The tokens of ``text``, estimated from its length (``CHARS_PER_TOKEN``)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def estimate_usage(request: bytes, answer: Any) -> tuple[int, int]:
    """(prompt, completion) tokens of an answer that reported none, estimated from the
    text: the request's messages and tools, and the choices' content and tool calls."""
    try:
        body = json.loads(request)
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    sent = [body.get("messages"), body.get("tools")] if isinstance(body, dict) else [request]
    prompt = estimated_tokens(json.dumps(sent, ensure_ascii=False, default=str))
    produced: list[str] = []
    for choice in answer.get("choices") or []:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            continue
        produced.append(str(message.get("content") or ""))
        for call in message.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                produced += [str(function.get("name") or ""), str(function.get("arguments") or "")]
    return prompt, estimated_tokens("".join(produced))


MAX_TOKEN_COUNT = 2**53
"""More tokens than any answer is billed, and the most a replay page's numbers hold exactly."""


def token_count(value: Any) -> int | None:
    """A count of ``usage`` as the answer gave it (missing: 0), or ``None`` when it is no
    count of tokens: not a whole number, negative, or past ``MAX_TOKEN_COUNT``. Such an
    answer is estimated instead; a log with a negative count would not be read back."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if 0 <= value <= MAX_TOKEN_COUNT else None


def billed(request: bytes, status: int, content: bytes) -> tuple[int, int, bool]:
    """(prompt, completion, estimated) tokens an answer billed: its JSON body's ``usage``;
    a successful answer without one is estimated from the text (an endpoint that reports
    no usage still bills), one cut off has its prompt estimated; an error answer without
    one, or a page that is no JSON at all (a proxy's), bills nothing."""
    try:
        answer = json.loads(content)
    except (ValueError, UnicodeDecodeError):
        if 200 <= status < 300 and content.lstrip().startswith(b"{"):
            # an answer cut off on its way (a dropped connection, a proxy's size limit): the
            # endpoint billed the prompt, and the count at its end never arrived
            return estimate_usage(request, {})[0], 0, True
        return 0, 0, False
    if not isinstance(answer, dict):
        return 0, 0, False
    usage = answer.get("usage")
    if isinstance(usage, dict):
        prompt = token_count(usage.get("prompt_tokens"))
        completion = token_count(usage.get("completion_tokens"))
        if prompt is not None and completion is not None:
            return prompt, completion, False
    if 200 <= status < 300 and "choices" in answer:
        return (*estimate_usage(request, answer), True)
    return 0, 0, False


def note_bill(seconds: float, request: bytes, status: int, content: bytes) -> None:
    sink = _SINK.get()
    if sink is not None:
        bill = Billed(seconds, *billed(request, status, content))
        sink.append(bill)
        if sink.on_bill is not None:
            sink.on_bill(bill)
