"""Answer only requests addressed to this server: the ``Host:`` check against DNS rebinding.

A page on another site can point its own domain name at 127.0.0.1 (DNS rebinding); the
browser then sends that page's requests to the local server with the other domain in
``Host:``, and, the origin being the page's own, lets the page read the answers: the god
view of every game among them. The browser cannot change ``Host:``, so a request is
answered only when it names the server as the machine does: ``127.0.0.1``, ``localhost``
or ``[::1]``, with no port or the port the server listens on. Any other gets 421
(misdirected request) with a one-line plain message.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOCAL_NAMES", "HostCheck", "host_allowed"]

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


def host_allowed(host: str, port: int | None) -> bool:
    """Whether a ``Host:`` value names this machine, with no port or ``port``."""
    name, given = host.lower(), None
    if not name.endswith("]") and ":" in name:  # "[::1]" has colons but no port
        name, _, given = name.rpartition(":")
    if name not in LOCAL_NAMES:
        return False
    return given is None or (port is not None and given == str(port))


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:60] + "...")


class HostCheck:
    """ASGI middleware: a request whose ``Host:`` is missing, repeated or names another
    host is answered 421 and never reaches the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            server = scope.get("server")
            port = server[1] if server else None
            hosts = Headers(scope=scope).getlist("host")
            if len(hosts) != 1 or not host_allowed(hosts[0], port):
                named = _shown(hosts[0]) if len(hosts) == 1 else f"{len(hosts)} Host headers"
                message = (
                    f"refused: this server answers requests for 127.0.0.1, localhost or [::1] "
                    f"only, not {named}\n"
                )
                await PlainTextResponse(message, status_code=421)(scope, receive, send)
                return
        await self.app(scope, receive, send)
