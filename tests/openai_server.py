"""A real, scriptable OpenAI-compatible HTTP server for tests.

It listens on ``127.0.0.1`` (a free port), in a background thread, and speaks the two
endpoints the code under test uses::

    POST /v1/chat/completions     answered by the test's handler
    GET  /v1/models               lists ``models``

The test decides every answer with a handler ``(request_json) -> Reply``; a reply is one of

=====================  ======================================================================
``ToolCall``           the assistant calls a function (``arguments`` is sent verbatim, so it
                       may be invalid JSON)
``Text``               plain assistant text (also how a model ignores a forced tool call)
``JSONContent``        assistant text holding ``json.dumps(value)`` (what JSON mode returns)
``HTTPError``          an error status (429, 500, 401, ...) with an OpenAI error body and,
                       with ``retry_after``, ``Retry-After`` / ``retry-after-ms`` headers
``Hang``               sleep ``seconds`` (longer than the client's timeout), then drop the
                       connection without answering
``Empty``              ``200`` with no choices (what some providers send when a filter
                       fires), still billing the prompt's tokens
``Reset``              drop the connection at once, without answering
``Raw``                ``body`` verbatim with any status and content type (a proxy's HTML
                       page with ``200``, a body that is not JSON)
``Rewritten``          the body ``reply`` would have sent, passed through ``rewrite`` first
                       (text to text: JSON escapes where ``json.dumps`` puts none, say)
=====================  ======================================================================

``server.reports_usage = False`` leaves ``usage`` out of every answer, as some endpoints
do; ``server.billed()`` still counts what the answers would have billed.
``server.latency`` (seconds) delays every answer, as a remote model would. Each request is
recorded with when it arrived and when it was answered (``time.monotonic()``), and
``server.billed()`` sums the tokens every answer billed, so tests and benchmarks can compare
the client's count and timing with the endpoint's.

``script(*replies)`` turns a list of replies into a handler that answers them in order.
Every request is recorded (``server.requests``: method, path, headers, parsed body, the
reply given and the usage reported), so a test can check what the client sent, e.g. that a
hidden fact never reached a prompt. Usage (prompt/completion tokens) is computed
deterministically from the request and the reply unless the reply names it.

Use it as a context manager::

    with OpenAIServer(script(ToolCall("vote", '{"target": 3}'))) as server:
        client = server.client()          # AsyncOpenAI with small timeouts and retries
        ...
        assert server.bodies()[0]["tool_choice"]["function"]["name"] == "vote"

or through the ``openai_server`` pytest fixture, which yields a running server whose
handler the test sets (``server.handler = ...`` or ``server.script(...)``).

A handler that raises answers HTTP 500 with ``x-should-retry: false`` (so the client does
not retry) and the exception is re-raised when the server stops, so a broken test handler
never passes silently.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import count
from typing import Any, TypeAlias

import openai
import pytest

__all__ = [
    "TEST_API_KEY",
    "Empty",
    "HTTPError",
    "Handler",
    "Hang",
    "JSONContent",
    "OpenAIServer",
    "Raw",
    "Recorded",
    "Reply",
    "Reset",
    "Rewritten",
    "ScriptExhaustedError",
    "Text",
    "ToolCall",
    "Usage",
    "openai_server",
    "script",
]

TEST_API_KEY = "sk-test-0123456789abcdef-do-not-leak"
"""The key ``OpenAIServer.client()`` sends: tests check it never shows up in errors or meta."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts reported back to the client."""

    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True, slots=True)
class ToolCall:
    """The assistant calls ``name`` with ``arguments`` (sent as is; may be broken JSON).

    ``content`` is optional text next to the call (some models think aloud first).
    """

    name: str
    arguments: str
    content: str | None = None
    usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """Plain assistant text, ``finish_reason`` "stop"."""

    content: str
    usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class JSONContent:
    """Assistant text that is ``json.dumps(value)``: a JSON-mode answer."""

    value: Any
    usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class HTTPError:
    """An error status with an OpenAI-style error body.

    ``retry_after`` (seconds) sets ``Retry-After`` (rounded up to whole seconds) and
    ``retry-after-ms``, which the openai client prefers, so tests can ask for short waits.
    """

    status: int
    message: str = "scripted error"
    retry_after: float | None = None


@dataclass(frozen=True, slots=True)
class Hang:
    """Answer nothing for ``seconds`` (or until the server stops), then drop the connection."""

    seconds: float = 30.0


@dataclass(frozen=True, slots=True)
class Empty:
    """``200`` with ``choices: []``; the prompt is billed all the same (``usage``)."""

    usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class Reset:
    """Drop the connection at once (the client sees a reset or a closed connection)."""


@dataclass(frozen=True, slots=True)
class Raw:
    """``body`` sent verbatim, with ``status`` and ``content_type`` (no usage billed)."""

    body: str
    status: int = 200
    content_type: str = "text/html; charset=utf-8"


@dataclass(frozen=True, slots=True)
class Rewritten:
    """What ``reply`` would have sent, its body text passed through ``rewrite`` first."""

    reply: ToolCall | Text | JSONContent | HTTPError
    rewrite: Callable[[str], str]


Reply: TypeAlias = (
    ToolCall | Text | JSONContent | HTTPError | Hang | Empty | Reset | Raw | Rewritten
)
Handler: TypeAlias = Callable[[dict[str, Any]], Reply]


@dataclass(slots=True)
class Recorded:
    """One request the server received, with what it answered (header names lower-case)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    reply: Reply | None = None
    usage: Usage | None = None
    started: float = 0.0  # time.monotonic() when it arrived
    finished: float = 0.0  # ... and when it was answered (or dropped)


def script(*replies: Reply) -> Handler:
    """A handler answering ``replies`` in order.

    A request past the end raises ``ScriptExhaustedError`` in the handler, so the server
    answers HTTP 500 without a retry and re-raises it when it stops: a client that asks more
    often than the test expected fails loudly.
    """
    queue = list(replies)
    lock = threading.Lock()

    def handler(_request: dict[str, Any]) -> Reply:
        with lock:
            if not queue:
                raise ScriptExhaustedError(f"script of {len(replies)} replies is exhausted")
            return queue.pop(0)

    return handler


class ScriptExhaustedError(RuntimeError):
    """More requests arrived than the script had replies."""


def _estimate_tokens(text: str) -> int:
    # Deterministic and roughly proportional to size; real tokenizers are not needed here.
    return max(1, len(text) // 4)


class _Server(ThreadingHTTPServer):
    # a game sends a whole round of votes at once; the default backlog of 5 drops some
    # connections and each dropped one waits a second for the TCP retry
    request_queue_size = 128


class OpenAIServer:
    """A running OpenAI-compatible server; see the module docstring."""

    def __init__(
        self,
        handler: Handler | None = None,
        *,
        models: Sequence[str] = ("test-model",),
    ) -> None:
        self.handler: Handler | None = handler
        self.models = list(models)
        self.latency = 0.0  # seconds before each chat completion is answered
        self.reports_usage = True  # False: answers carry no ``usage`` (still billed here)
        self.requests: list[Recorded] = []
        self.handler_errors: list[Exception] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ids = count(1)
        self._httpd = _Server(("127.0.0.1", 0), _make_request_handler(self))
        self._httpd.daemon_threads = True  # a Hang must never keep the test process alive
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, what ``openai.AsyncOpenAI(base_url=...)`` wants."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},  # stop() waits at most this long
                name="openai-test-server",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, release hanging requests, and re-raise a handler's exception."""
        self._stopping.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()
        if self.handler_errors:
            raise self.handler_errors[0]

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- scripting and inspection ------------------------------------------------------------
    def script(self, *replies: Reply) -> None:
        """Answer the next requests with ``replies``, in order."""
        self.handler = script(*replies)

    def client(
        self, *, timeout: float = 2.0, max_retries: int = 2, api_key: str = TEST_API_KEY
    ) -> openai.AsyncOpenAI:
        """An ``AsyncOpenAI`` pointed here, with test-sized timeout and retries."""
        return openai.AsyncOpenAI(
            base_url=self.base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
        )

    def completions(self) -> list[Recorded]:
        """The recorded ``POST /v1/chat/completions`` requests, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def billed(self) -> Usage:
        """The tokens every answer so far billed (empty answers included)."""
        done = [r.usage for r in self.completions() if r.usage is not None]
        return Usage(sum(u.prompt_tokens for u in done), sum(u.completion_tokens for u in done))

    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of the chat-completion requests, in arrival order."""
        return [r.body for r in self.completions() if r.body is not None]

    # -- answering (called from the server's threads) -----------------------------------------
    def _record(self, recorded: Recorded) -> None:
        with self._lock:
            self.requests.append(recorded)

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)

    def _next_id(self) -> int:
        with self._lock:
            return next(self._ids)


def _completion_body(
    server: OpenAIServer, request: dict[str, Any], reply: ToolCall | Text | JSONContent
) -> tuple[dict[str, Any], Usage]:
    """The chat.completion JSON for a successful reply, and the usage it reports."""
    n = server._next_id()
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if isinstance(reply, ToolCall):
        message["content"] = reply.content
        message["tool_calls"] = [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": reply.name, "arguments": reply.arguments},
            }
        ]
        finish = "tool_calls"
        produced = reply.name + reply.arguments + (reply.content or "")
    else:
        text = reply.content if isinstance(reply, Text) else json.dumps(reply.value)
        message["content"] = text
        finish = "stop"
        produced = text
    usage = reply.usage or Usage(
        prompt_tokens=_estimate_tokens(json.dumps(request.get("messages", []))),
        completion_tokens=_estimate_tokens(produced),
    )
    body = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1_700_000_000 + n,
        "model": str(request.get("model", "")),
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        },
    }
    if not server.reports_usage:
        del body["usage"]
    return body, usage


def _error_body(status: int, message: str) -> dict[str, Any]:
    if status == 429:
        kind = "rate_limit_error"
    elif status >= 500:
        kind = "server_error"
    else:
        kind = "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _make_request_handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class _RequestHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: a Hang can simply close

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

        def _send_json(
            self,
            status: int,
            body: dict[str, Any],
            headers: dict[str, str],
            rewrite: Callable[[str], str] | None = None,
        ) -> None:
            text = json.dumps(body)
            self._send_text(status, text if rewrite is None else rewrite(text), headers)

        def _send_text(
            self,
            status: int,
            text: str,
            headers: dict[str, str],
            content_type: str = "application/json",
        ) -> None:
            data = text.encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout); nothing to answer

        def _headers(self) -> dict[str, str]:
            return {name.lower(): value for name, value in self.headers.items()}

        def do_GET(self) -> None:
            recorded = Recorded("GET", self.path, self._headers(), None)
            server._record(recorded)
            if self.path.rstrip("/") == "/v1/models":
                data = [
                    {"id": m, "object": "model", "created": 0, "owned_by": "test"}
                    for m in server.models
                ]
                self._send_json(200, {"object": "list", "data": data}, {})
            else:
                self._send_json(404, _error_body(404, f"no route {self.path}"), {})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"null")
            except json.JSONDecodeError:
                body = None
            recorded = Recorded("POST", self.path, self._headers(), body)
            recorded.started = time.monotonic()
            server._record(recorded)
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send_json(404, _error_body(404, f"no route {self.path}"), {})
                return
            if not isinstance(body, dict):
                self._send_json(400, _error_body(400, "request body is not a JSON object"), {})
                return
            if body.get("stream"):
                self._send_json(400, _error_body(400, "streaming is not supported here"), {})
                return
            if server.handler is None:
                self._send_json(
                    500, _error_body(500, "no handler set"), {"x-should-retry": "false"}
                )
                return
            try:
                reply = server.handler(body)
            except Exception as exc:  # noqa: BLE001 - reported to the test when the server stops
                server.handler_errors.append(exc)
                self._send_json(
                    500, _error_body(500, f"handler raised {exc!r}"), {"x-should-retry": "false"}
                )
                return
            recorded.reply = reply
            if server.latency > 0:
                server._wait(server.latency)
            try:
                self._answer(body, reply, recorded)
            finally:
                recorded.finished = time.monotonic()

        def _answer(self, body: dict[str, Any], reply: Reply, recorded: Recorded) -> None:
            rewrite = None
            if isinstance(reply, Rewritten):
                reply, rewrite = reply.reply, reply.rewrite
            if isinstance(reply, Raw):
                self._send_text(reply.status, reply.body, {}, reply.content_type)
                return
            if isinstance(reply, Reset):
                # RST rather than FIN: linger on with a zero timeout
                linger = struct.pack("ii", 1, 0)
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                self.close_connection = True
                return
            if isinstance(reply, Empty):
                usage = reply.usage or Usage(
                    _estimate_tokens(json.dumps(body.get("messages", []))), 0
                )
                recorded.usage = usage
                n = server._next_id()
                empty = {
                    "id": f"chatcmpl-{n}",
                    "object": "chat.completion",
                    "created": 1_700_000_000 + n,
                    "model": str(body.get("model", "")),
                    "choices": [],
                    "usage": {
                        "prompt_tokens": usage.prompt_tokens,
                        "completion_tokens": usage.completion_tokens,
                        "total_tokens": usage.prompt_tokens + usage.completion_tokens,
                    },
                }
                if not server.reports_usage:
                    del empty["usage"]
                self._send_json(200, empty, {})
                return
            if isinstance(reply, Hang):
                server._wait(reply.seconds)
                self.close_connection = True
                return
            if isinstance(reply, HTTPError):
                headers: dict[str, str] = {}
                if reply.retry_after is not None:
                    headers["Retry-After"] = str(max(0, -int(-reply.retry_after // 1)))
                    headers["retry-after-ms"] = str(int(reply.retry_after * 1000))
                error = _error_body(reply.status, reply.message)
                self._send_json(reply.status, error, headers, rewrite)
                return
            completion, usage = _completion_body(server, body, reply)
            recorded.usage = usage
            self._send_json(200, completion, {}, rewrite)

    return _RequestHandler


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A running ``OpenAIServer`` with no handler yet: set ``server.handler`` or ``script``."""
    with OpenAIServer() as server:
        yield server
