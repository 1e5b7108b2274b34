"""Connections that cannot starve the server: idle and half-sent requests time out, and the
open connections are capped below the file descriptors the process may open.

Without this, a client that connects and sends nothing (or half a request, a byte at a
time) holds a descriptor for ever: a few hundred of them use up the process's limit, every
new client is then refused at ``accept()``, and asyncio logs each refusal (once per socket
of each accept burst, and each retry schedules a burst more).

- A connection waiting for a request (just opened, or after its last answer) must deliver
  the whole request within ``idle_timeout`` seconds, else it is closed. A request being
  answered, a live stream included, has no deadline.
- At most ``cap`` connections are open (``max_connections``, lowered to leave room under
  the descriptor limit for the store and for the sockets accepted and not yet counted,
  a burst of ``ACCEPT_BURST`` per turn of the event loop). A new connection over the
  cap closes the one that has waited longest for its request; if every connection is being
  answered, the new one gets 503 and is closed.

The HTTP side is uvicorn's h11 protocol, extended at the points a connection opens,
finishes an answer and closes; ``h11``'s state tells whether a request is being answered.
"""

from __future__ import annotations

import asyncio
import math
import sys
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "ACCEPT_BURST",
    "connection_cap",
    "guarded_protocol",
    "server_options",
]

ACCEPT_BURST = 16  # the listen backlog: how many connections the loop accepts at a time
_RESERVED_FDS = 32  # the store and its journal, the event loop, standard streams
# an accepted socket is counted (or closed) a few loop turns after accept(), and the loop
# accepts a burst at each turn: room for four bursts in flight
_IN_FLIGHT = 4 * ACCEPT_BURST
_BUSY_TEXT = b"too many connections are being answered: retry\n"
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT)
)


def connection_cap(wanted: int, descriptors: int | None = None) -> int:
    """``wanted`` connections, fewer if the descriptor limit (``RLIMIT_NOFILE``'s soft
    limit unless given) leaves no room for them beside the server's own files and the
    accepted connections not yet counted or not yet closed."""
    if descriptors is None:
        descriptors = _descriptor_limit()
    if descriptors is None:
        return wanted
    return max(1, min(wanted, descriptors - _RESERVED_FDS - _IN_FLIGHT))


def _descriptor_limit() -> int | None:
    if sys.platform == "win32":
        return None  # no RLIMIT_NOFILE: sockets are not counted against a small limit
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def guarded_protocol(idle_timeout: float, cap: int) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the deadline and the cap above; one class per server
    (its connections are counted together)."""
    opened: dict[Guarded, None] = {}  # in order of opening

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _waiting_since = 0.0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(opened) >= cap:
                waiting = [c for c in opened if c.waiting]
                if not waiting:
                    self.transport.write(_BUSY)
                    self.transport.close()
                    return
                longest = min(waiting, key=lambda c: c._waiting_since)
                opened.pop(longest)  # counted out now: its close completes later
                longest.transport.close()
            opened[self] = None
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            opened.pop(self, None)
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request has the same deadline

        def _unsupported_upgrade_warning(self) -> None:
            """Say nothing: the app has no WebSocket, so an ``Upgrade:`` request is answered
            as a plain one (uvicorn logged two lines for each, one telling the user to
            install a WebSocket library)."""

        @property
        def waiting(self) -> bool:
            """Waiting for (the rest of) a request: nothing is being answered."""
            return self.conn.their_state is not h11.DONE

        def _arm(self) -> None:
            self._disarm()
            self._waiting_since = self.loop.time()
            self._deadline = self.loop.call_later(idle_timeout, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.waiting and not self.transport.is_closing():
                self.transport.close()  # idle, or a request still incomplete

    return Guarded


def server_options(idle_timeout: float, max_connections: int) -> dict[str, Any]:
    """The ``uvicorn.Config`` options that put the guard in place."""
    return {
        "http": guarded_protocol(idle_timeout, connection_cap(max_connections)),
        "timeout_keep_alive": math.ceil(idle_timeout),  # uvicorn's own, after an answer
        "backlog": ACCEPT_BURST,
        "ws": "none",  # no WebSocket route: an upgrade is never taken, with a library or not
        # no proxy stands before a server on 127.0.0.1: X-Forwarded-* from a client is not
        # believed (uvicorn took its scheme and address from any local client)
        "proxy_headers": False,
    }
