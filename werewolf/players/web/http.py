"""Just enough HTTP/1.1 for one page on 127.0.0.1: read a request, write a response.

One request per connection (every response says ``Connection: close``): the page makes
few requests, and a long poll holds its own connection. Limits keep a bad client from
holding memory: a malformed or oversized request is answered with its 4xx status.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["SECURITY_HEADERS", "HttpRequest", "json_body", "read_request", "response"]

MAX_LINE = 8192  # bytes in the request line or one header
MAX_HEADERS = 64
MAX_BODY = 64 * 1024  # a speech is at most 2000 characters: far less than this

SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # the page runs its own script and style files only, and talks to this server only
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
}


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    body: bytes = b""


async def _line(reader: asyncio.StreamReader) -> bytes | None:
    """One CRLF-ended line without its end; None past ``MAX_LINE`` or at the end of input."""
    try:
        line = await reader.readuntil(b"\n")
    except (asyncio.LimitOverrunError, asyncio.IncompleteReadError, ValueError):
        return None
    return line.rstrip(b"\r\n") if len(line) <= MAX_LINE else None


async def read_request(reader: asyncio.StreamReader) -> HttpRequest | HTTPStatus:
    """The request on ``reader``, or the status that refuses it."""
    first = await _line(reader)
    if first is None:
        return HTTPStatus.BAD_REQUEST
    parts = first.decode("latin-1").split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        return HTTPStatus.BAD_REQUEST
    method, target, _ = parts
    headers: dict[str, str] = {}
    for _count in range(MAX_HEADERS + 1):
        line = await _line(reader)
        if line is None:
            return HTTPStatus.BAD_REQUEST
        if not line:
            break
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon:
            return HTTPStatus.BAD_REQUEST
        headers[name.strip().lower()] = value.strip()
    else:
        return HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
    length = headers.get("content-length", "0")
    if not length.isdigit():
        return HTTPStatus.BAD_REQUEST
    if int(length) > MAX_BODY:
        return HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    try:
        body = await reader.readexactly(int(length))
    except asyncio.IncompleteReadError:
        return HTTPStatus.BAD_REQUEST
    url = urlsplit(target)
    return HttpRequest(method, unquote(url.path), parse_qs(url.query), headers, body)


def json_body(request: HttpRequest) -> dict[str, Any] | None:
    """The JSON object a request carries, or None when it carries none."""
    try:
        value = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def response(status: HTTPStatus, body: bytes, content_type: str) -> bytes:
    """A whole response, headers and body."""
    head = [f"HTTP/1.1 {status.value} {status.phrase}"]
    headers = {
        "Content-Type": content_type,
        "Content-Length": str(len(body)),
        "Connection": "close",
        **SECURITY_HEADERS,
    }
    head += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
