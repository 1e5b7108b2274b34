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

Request headers are not recorded: the API key never reaches the file.

Latency comes from here too. ``measured()`` opens a sink in the current task's context;
each answered request adds its time to it (a replay adds the recorded time), so a seat's
latency is the time its endpoint took to answer, the same in a recording and its replay,
and client back-off waits are not counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

import httpx2

from ..errors import ConfigError

__all__ = [
    "CassetteRecorder",
    "CassetteTransport",
    "MeteredTransport",
    "measured",
    "request_hash",
]

_KEPT_HEADERS = ("content-type", "retry-after", "retry-after-ms", "x-should-retry")
_SINK: ContextVar[list[float] | None] = ContextVar("werewolf_endpoint_seconds", default=None)


@contextmanager
def measured() -> Iterator[list[float]]:
    """A list that collects, in seconds, the time of every request answered inside the
    block (in this task)."""
    seconds: list[float] = []
    token = _SINK.set(seconds)
    try:
        yield seconds
    finally:
        _SINK.reset(token)


def _note(seconds: float) -> None:
    sink = _SINK.get()
    if sink is not None:
        sink.append(seconds)


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

    def record(
        self,
        *,
        path: str,
        body: bytes,
        status: int,
        headers: dict[str, str],
        content: bytes,
        latency_ms: float,
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
        response = await self._inner.handle_async_request(request)
        try:
            content = await response.aread()  # decoded: the headers below say so
        finally:
            await response.aclose()
        # rounded as the cassette keeps it, so a replay adds up exactly the same times
        latency_ms = round((time.perf_counter() - started) * 1000, 3)
        _note(latency_ms / 1000)
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


class CassetteTransport(httpx2.AsyncBaseTransport):
    """Answers from a cassette file, never from the network."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._answers: dict[str, deque[dict[str, Any]]] = {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise ConfigError([("--replay-llm", f"{self.path}: no such cassette")]) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError([("--replay-llm", f"{self.path}: cannot read: {exc}")]) from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key, status = str(entry["hash"]), int(entry["status"])
                str(entry["response"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise ConfigError(
                    [("--replay-llm", f"{self.path}:{number}: not a cassette line")]
                ) from None
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
        _note(float(entry.get("latency_ms", 0.0)) / 1000)
        headers = {str(k): str(v) for k, v in dict(entry.get("headers") or {}).items()}
        return httpx2.Response(
            entry["status"],
            headers=headers,
            content=str(entry["response"]).encode("utf-8"),
            request=request,
        )
