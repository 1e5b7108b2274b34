"""The browser seats' server: their pages on 127.0.0.1, on the game's own event loop.

``WebHost(port)`` binds the port at once (a port in use is a one-line error before any game
is written) and gives each browser seat a URL with a secret of its own, so that nobody but
the person given the URL reads the seat's page. The server runs on the loop that plays the
game (``serve()`` starts it there, again after a loop is replaced); between two loops,
and while a drive is starting, connections wait in the socket's queue.

Routes under ``/<secret>/``: the page (``page.html``, ``page.js``, ``page.css``), ``state?v=N``
(the seat's state as JSON, once it differs from version N: a long poll) and ``answer``
(POST, a JSON answer: ``players.web.seat.WebSeat.submit``). Anything else is a 4xx.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import socket
from http import HTTPStatus
from importlib import resources
from typing import Any

from ...errors import ConfigError
from .http import HttpRequest, json_body, read_request, response
from .seat import WebSeat

__all__ = ["HOST", "WebHost"]

HOST = "127.0.0.1"  # the seat's page is served to this machine only
POLL_SECONDS = 20.0  # a long poll is answered at the latest after this, unchanged
END_GRACE = 2.0  # seconds an ended game's pages have to fetch the result before it stops
STATIC = {
    "": ("page.html", "text/html; charset=utf-8"),
    "page.js": ("page.js", "text/javascript; charset=utf-8"),
    "page.css": ("page.css", "text/css; charset=utf-8"),
}
JSON_TYPE = "application/json; charset=utf-8"
_VERSION = re.compile(r"-?[0-9]{1,18}")


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


def _json(status: HTTPStatus, value: dict[str, Any]) -> bytes:
    body = json.dumps(value, ensure_ascii=False).encode("utf-8", "replace")
    return response(status, body, JSON_TYPE)


def _error(status: HTTPStatus) -> bytes:
    return _json(status, {"error": status.phrase})


def _redirect(location: str) -> bytes:
    head = response(HTTPStatus.PERMANENT_REDIRECT, b"", "text/plain; charset=utf-8")
    return head.replace(b"\r\n\r\n", f"\r\nLocation: {location}\r\n\r\n".encode(), 1)


class WebHost:
    """The listening socket and the browser seats it serves; see the module docstring."""

    def __init__(self, port: int = 0) -> None:
        try:
            self._socket = socket.create_server((HOST, port))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ConfigError(
                [("--web-port", f"cannot serve the browser seat on {HOST}:{port}: {reason}")]
            ) from None
        self.port: int = self._socket.getsockname()[1]
        self._seats: dict[int, WebSeat] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._starting: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[Any]] = set()

    def seat(self, seat: int) -> WebSeat:
        """The player of ``seat``, made with its URL's secret on first use."""
        found = self._seats.get(seat)
        if found is None:
            found = self._seats[seat] = WebSeat(seat, secrets.token_urlsafe(18), self.serve)
        return found

    def url(self, seat: int) -> str:
        return f"http://{HOST}:{self.port}/{self.seat(seat).token}/"

    def finish(self, winner: str) -> None:
        """The game has ended: every page says who won."""
        for seat in self._seats.values():
            seat.finish(winner)

    def serve(self) -> None:
        """Serve the pages on the running loop, unless they are served there already (no
        loop runs while a game is being set up: the first phase serves them)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._loop is not loop:
            self._loop = loop
            self._starting = loop.create_task(self._start())

    async def _start(self) -> None:
        # a duplicate of the socket: closing this loop's server leaves the port bound
        self._server = await asyncio.start_server(self._handle, sock=self._socket.dup())

    async def aclose(self) -> None:
        """Stop serving on this loop: pages waiting for a change get the last state."""
        for seat in self._seats.values():
            seat.release()
        waited = 0.0  # a page between two polls comes back for the result: a moment for it
        while self._server is not None and waited < END_GRACE:
            if all(seat.told_the_end for seat in self._seats.values()):
                break
            await asyncio.sleep(0.05)
            waited += 0.05
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        if self._server is not None:
            self._server.close()
        if self._handlers:
            await asyncio.wait(self._handlers, timeout=1.0)
        self._loop = self._server = self._starting = None

    def close(self) -> None:
        """Let the port go."""
        self._socket.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            request = await read_request(reader)
            reply = (
                _error(request) if isinstance(request, HTTPStatus) else await self._route(request)
            )
            writer.write(reply)
            await writer.drain()
        except ConnectionError:
            pass  # the page went away: it asks again when it comes back
        finally:
            writer.close()
            if task is not None:
                self._handlers.discard(task)

    def _allowed_host(self, request: HttpRequest) -> bool:
        """Only this machine's own names (a page elsewhere that points a name here is refused)."""
        return request.headers.get("host") in (f"{HOST}:{self.port}", f"localhost:{self.port}")

    async def _route(self, request: HttpRequest) -> bytes:
        if not self._allowed_host(request):
            return _error(HTTPStatus.MISDIRECTED_REQUEST)
        if request.path == "/favicon.ico":  # what every browser asks for: there is none
            return response(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
        secret, slash, rest = request.path.removeprefix("/").partition("/")
        seat = next(
            (s for s in self._seats.values() if secrets.compare_digest(s.token, secret)), None
        )
        if seat is None:
            return _error(HTTPStatus.NOT_FOUND)
        if not slash:  # the page's files are beside it: its address ends with a slash
            return _redirect(f"/{secret}/")
        if rest in STATIC:
            if request.method != "GET":
                return _error(HTTPStatus.METHOD_NOT_ALLOWED)
            name, content_type = STATIC[rest]
            return response(HTTPStatus.OK, _static(name), content_type)
        if rest == "state":
            if request.method != "GET":
                return _error(HTTPStatus.METHOD_NOT_ALLOWED)
            version = request.query.get("v", ["-1"])[0]
            if not _VERSION.fullmatch(version):
                return _error(HTTPStatus.BAD_REQUEST)
            return _json(HTTPStatus.OK, await seat.wait(int(version), POLL_SECONDS))
        if rest == "answer":
            if request.method != "POST":
                return _error(HTTPStatus.METHOD_NOT_ALLOWED)
            if not request.headers.get("content-type", "").startswith("application/json"):
                return _error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
            body = json_body(request)
            if body is None:
                return _json(HTTPStatus.BAD_REQUEST, {"error": "a JSON object expected"})
            status, reply = seat.submit(body)
            return _json(status, reply)
        return _error(HTTPStatus.NOT_FOUND)
