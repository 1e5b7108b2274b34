"""The human seat in a browser: ``werewolf play --seat 5=web``.

``server.WebHost`` serves each browser seat's page on 127.0.0.1 (standard library only, on
the game's event loop); ``seat.WebSeat`` is the seat's player, waiting for the answer the
page posts; ``state`` builds what the page shows from the seat's request alone; the page
itself is ``page.html``, ``page.js`` and ``page.css``.
"""

from .seat import WebSeat
from .server import WebHost

__all__ = ["WebHost", "WebSeat"]
