"""The HTTP layer under LLM seats: endpoint timing, and cassettes that record and replay.

The openai client of every LLM seat sends its requests through one of two httpx
transports, so the client's own code path (retries, error handling, parsing) always runs:

- ``MeteredTransport`` forwards to the network. It times each request that got an answer
  and, given a ``CassetteRecorder``, appends the pair to a cassette file.
- ``CassetteTransport`` never touches the network: it answers each request with the
  response recorded for the same request body (the SHA-256 of its canonical JSON), in
  recorded order when one body was sent more than once (a retry after HTTP 500, say). A
  request the cassette does not hold gets HTTP 400 saying so: the game went another way
  than the recording.

A cassette is JSON Lines, one answered request a line::

    {"hash": "...", "path": "/v1/chat/completions", "request": {...body...},
     "status": 200, "headers": {"content-type": "application/json"},
     "response": "...body text...", "latency_ms": 812.4}

Each process that records into a cassette first writes ``{"session": N}``, N being how many
events the game had when the process took it up (0: a new game). A replay names the same N
and is answered from that part of the cassette only, so a game that was stopped and resumed
(the same request asked again in the resumed process) replays each process from its own
answers. A cassette without session lines is one part. It is read as a replay file is
(``pulse_core.limits``: a regular file, at most ``MAX_CASSETTE_BYTES``, each line bounded in
size, nesting and numbers) and checked whole before a game starts.

A request that got no answer (a timeout, a dropped connection) is recorded too, with
``"error": "timeout"`` or ``"error": "connection"`` (``"dns"`` for a host name that did not
resolve, ``"refused"`` for a refused connection; ``status`` 0, ``response`` empty), and
raised again in a replay, so the retries of a recorded game replay as they happened.

Request headers are not recorded, and the key the request carried (its ``Authorization``
bearer token) is replaced by ``***`` in every answer before anyone reads it, after JSON
decoding (``pulse_core.redact``): an endpoint that echoes the key in an answer or an error
body, plain or JSON-escaped, whole, in part or split over two fields, gets it into no
cassette, message, exchange or log.

Both transports hand each answered request's time and body to ``bills.note_bill``, which
bills it to the block ``bills.measured()`` opened.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx2

from pulse_core.limits import LimitError, bounded_lines, parse_json
from pulse_core.redact import mask_json_text

from ..errors import ConfigError
from .bills import note_bill

__all__ = [
    "MAX_CASSETTE_BYTES",
    "CassetteRecorder",
    "CassetteTransport",
    "MeteredTransport",
    "request_hash",
]

MAX_CASSETTE_BYTES = 256 << 20  # every request holds its whole prompt: more than a replay
_KEPT_HEADERS = ("content-type", "retry-after", "retry-after-ms", "x-should-retry")


def _scrub(content: bytes, request: httpx2.Request) -> bytes:
    """``content`` with the request's bearer token masked, should the endpoint echo it:
    in the decoded text, so JSON escapes hide nothing."""
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or len(key) < 4:
        return content
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:  # not text: the key as it was sent is all there is to find
        return content.replace(key.encode("utf-8"), b"***")
    masked = mask_json_text(text, key)
    return content if masked == text else masked.encode("utf-8")


def _failure_kind(exc: httpx2.TransportError) -> str:
    """How a request got no answer, as a cassette records it."""
    if isinstance(exc, httpx2.TimeoutException):
        return "timeout"
    seen: BaseException | None = exc
    for _depth in range(10):  # the socket's error is a few levels down
        if seen is None:
            break
        if isinstance(seen, socket.gaierror):
            return "dns"
        if isinstance(seen, ConnectionRefusedError):
            return "refused"
        seen = seen.__cause__ or seen.__context__
    return "connection"


def _replayed_failure(kind: str, request: httpx2.Request) -> httpx2.TransportError:
    """The transport error a recorded failure stands for, with the socket's error under it."""
    if kind == "timeout":
        return httpx2.ReadTimeout("timed out (recorded)", request=request)
    said = {"dns": "host name not resolved", "refused": "connection refused"}
    error = httpx2.ConnectError(f"{said.get(kind, 'connection lost')} (recorded)", request=request)
    if kind == "dns":
        error.__cause__ = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    elif kind == "refused":
        error.__cause__ = ConnectionRefusedError(111, "Connection refused")
    return error


def request_hash(body: bytes) -> str:
    """The cassette key of a request body: SHA-256 of its canonical JSON (sorted keys), so
    key order and spacing do not matter; a body that is not JSON is hashed as it is."""
    try:
        canonical = json.dumps(
            json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8")
    except (json.JSONDecodeError, UnicodeDecodeError):
        canonical = body
    return hashlib.sha256(canonical).hexdigest()


def _kept_headers(headers: httpx2.Headers) -> dict[str, str]:
    return {name: headers[name] for name in _KEPT_HEADERS if name in headers}


class CassetteRecorder:
    """Appends answered requests to a cassette file (``mode="w"`` starts it afresh)."""

    def __init__(self, path: str | os.PathLike[str], *, mode: str = "w") -> None:
        if mode not in ("w", "a"):
            raise ConfigError([("--record", f"mode must be 'w' or 'a', not {mode!r}")])
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = self.path.open(mode, encoding="utf-8")

    def session(self, version: int) -> None:
        """Mark where the answers of a process that took the game up at ``version`` begin."""
        self._file.write(json.dumps({"session": version}) + "\n")
        self._file.flush()

    def record(
        self,
        *,
        path: str,
        body: bytes,
        status: int,
        headers: dict[str, str],
        content: bytes,
        latency_ms: float,
        error: str | None = None,
    ) -> None:
        try:
            request: Any = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            request = body.decode("utf-8", errors="replace")
        line = {
            "hash": request_hash(body),
            "path": path,
            "request": request,
            "status": status,
            "headers": headers,
            "response": content.decode("utf-8", errors="replace"),
            "latency_ms": latency_ms,
        }
        if error is not None:
            line["error"] = error
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()  # a crash keeps every answer recorded so far

    def close(self) -> None:
        self._file.close()


class MeteredTransport(httpx2.AsyncBaseTransport):
    """The network, timed per answered request, and recorded when given a recorder."""

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport | None = None,
        recorder: CassetteRecorder | None = None,
    ) -> None:
        self._inner = inner or httpx2.AsyncHTTPTransport()
        self._recorder = recorder

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        started = time.perf_counter()
        try:
            response = await self._inner.handle_async_request(request)
            try:
                content = await response.aread()  # decoded: the headers below say so
            finally:
                await response.aclose()
        except httpx2.TransportError as exc:
            if self._recorder is not None:
                self._recorder.record(
                    path=request.url.path,
                    body=body,
                    status=0,
                    headers={},
                    content=b"",
                    latency_ms=round((time.perf_counter() - started) * 1000, 3),
                    error=_failure_kind(exc),
                )
            raise
        content = _scrub(content, request)
        # rounded as the cassette keeps it, so a replay adds up exactly the same times
        latency_ms = round((time.perf_counter() - started) * 1000, 3)
        note_bill(latency_ms / 1000, body, response.status_code, content)
        headers = {
            k: v
            for k, v in response.headers.items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        }
        if self._recorder is not None:
            self._recorder.record(
                path=request.url.path,
                body=body,
                status=response.status_code,
                headers=_kept_headers(response.headers),
                content=content,
                latency_ms=latency_ms,
            )
        return httpx2.Response(
            response.status_code, headers=headers, content=content, request=request
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def _not_a_line(path: Path, number: int) -> ConfigError:
    return ConfigError([("--replay-llm", f"{path}:{number}: not a cassette line")])


def _cassette_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """Each non-blank line of a cassette, parsed: read as a replay file is (a regular file,
    bounded in line and file size, nesting and numbers), so a wrong file is one line."""
    try:
        for number, raw in bounded_lines(path, file_limit=MAX_CASSETTE_BYTES):
            if raw.strip():
                yield number, parse_json(raw, str(path), number)
    except LimitError as exc:
        problem = "no such cassette" if exc.detail == "no such file" else exc.detail
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ConfigError([("--replay-llm", f"{where}: {problem}")]) from None


class CassetteTransport(httpx2.AsyncBaseTransport):
    """Answers from a cassette file, never from the network."""

    def __init__(self, path: str | os.PathLike[str], *, session: int = 0) -> None:
        self.path = Path(path)
        self._answers: dict[str, deque[dict[str, Any]]] = {}
        parts: dict[int | None, list[tuple[int, Any]]] = {}
        part: int | None = None
        for number, entry in _cassette_lines(self.path):
            if isinstance(entry, dict) and "session" in entry and "hash" not in entry:
                session_of = entry["session"]
                if not isinstance(session_of, int) or isinstance(session_of, bool):
                    raise _not_a_line(self.path, number)
                part = session_of
                continue
            parts.setdefault(part, []).append((number, entry))
        # this process's part; a cassette without (that) session is answered as a whole
        chosen = parts.get(session) or [
            entry for part_lines in parts.values() for entry in part_lines
        ]
        for number, entry in chosen:
            try:
                key, status = str(entry["hash"]), int(entry["status"])
                str(entry["response"])
            except (KeyError, TypeError, ValueError):
                raise _not_a_line(self.path, number) from None
            entry["status"] = status
            self._answers.setdefault(key, deque()).append(entry)

    @property
    def remaining(self) -> int:
        """Recorded answers not served yet."""
        return sum(len(q) for q in self._answers.values())

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        queue = self._answers.get(request_hash(body))
        if not queue:
            message = (
                f"the cassette {self.path} holds no answer for this request: the game "
                "went another way than the recording"
            )
            error = {"error": {"message": message, "type": "cassette_miss", "code": None}}
            return httpx2.Response(
                400,
                headers={"content-type": "application/json", "x-should-retry": "false"},
                content=json.dumps(error).encode("utf-8"),
                request=request,
            )
        entry = queue.popleft()
        if entry.get("error") is not None:
            raise _replayed_failure(str(entry["error"]), request)
        content = str(entry["response"]).encode("utf-8")
        note_bill(float(entry.get("latency_ms", 0.0)) / 1000, body, entry["status"], content)
        headers = {str(k): str(v) for k, v in dict(entry.get("headers") or {}).items()}
        return httpx2.Response(entry["status"], headers=headers, content=content, request=request)
