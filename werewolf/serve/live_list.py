"""The list of games, kept current: a server-sent event stream of the rows of the games a
list shows that have not ended, as ``werewolf serve`` follows a game (``app._live_stream``).

The list page opens ``/games/events?game=ID&game=ID...`` with the games it shows not ended;
the stream reads the store's new events (``Catalog.refresh``) every ``poll`` seconds and
sends a ``rows`` message with each of those games' rows that changed (its result, its live
mark, drawn by ``pages.game_row``), then ``done`` in the message that tells the last one
ended, and stops.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime

from starlette.requests import Request

from ..replay.catalog import Catalog
from .pages import LIST_LIMIT, game_row

__all__ = ["list_stream"]

HEARTBEAT_S = 15.0


async def list_stream(
    request: Request, catalog: Catalog, games: Sequence[str], poll: float
) -> AsyncIterator[str]:
    """The rows of ``games`` (those the catalog knows, at most ``LIST_LIMIT``) as they
    change, until every one has ended."""
    watched = list(dict.fromkeys(games))[:LIST_LIMIT]
    sent: dict[str, str] = {}
    quiet = 0.0
    while True:
        catalog.refresh()
        known = [g for game in watched if (g := catalog.game(game)) is not None]
        now = datetime.now(UTC)
        rows = {g.game_id: row for g in known if sent.get(g.game_id) != (row := game_row(g, now))}
        done = all(g.status != "in progress" for g in known)
        if rows or done:
            sent.update(rows)
            message = json.dumps({"rows": rows, "done": done}, ensure_ascii=False)
            yield f"event: rows\ndata: {message}\n\n"
            quiet = 0.0
        if done or await request.is_disconnected():
            return
        await asyncio.sleep(poll)
        quiet += poll
        if quiet >= HEARTBEAT_S:
            yield ": still here\n\n"
            quiet = 0.0
