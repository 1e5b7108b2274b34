"""One seat played from a browser tab: the decision it is asked, and the answer posted.

``WebSeat`` is the seat's player. ``decide`` puts the request on the page (a new version of
the page's state, with a fresh request id) and waits, as long as it takes, for ``submit``
to receive a legal answer to that id: a person may close the tab and open the URL again,
the pending decision is served again. An answer is taken once per request id: a second
post of the same id is told it was taken, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

from ...decisions import Answer, Request
from ..promptset import prompt_set
from .state import ask_part, parse_answer, result_text, ui_words, view_part

__all__ = ["WebSeat"]


class WebSeat:
    """A seat answered from its page (``players.web.server`` serves it)."""

    kind = "web"

    def __init__(self, seat: int, token: str, serve: Callable[[], None] | None = None) -> None:
        self.seat = seat
        self.token = token  # the secret part of the page's URL
        self.lang = "en"
        self.version = 0  # the page's state changed this many times
        self.delivered = -1  # the last version a page was sent
        self._serve = serve  # starts the page's server on the running loop, if not yet
        self._view: dict[str, Any] | None = None
        self._ask: dict[str, Any] | None = None
        self._request: Request | None = None
        self._answer: asyncio.Future[Answer] | None = None
        self._ids = itertools.count(1)
        self._taken: set[str] = set()
        self._ended: str | None = None
        self._waiters: list[asyncio.Future[None]] = []

    def state(self) -> dict[str, Any]:
        """What the page shows now: the seat's view, the decision asked, the end."""
        self.delivered = self.version
        return {
            "v": self.version,
            "lang": self.lang,
            "ui": ui_words(self.lang, self.seat),
            "view": self._view,
            "ask": self._ask,
            "ended": self._ended,
        }

    def _changed(self) -> None:
        self.version += 1
        self.release()

    def release(self) -> None:
        """Answer every page waiting for a change (the state changed, or the server stops)."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def decide(self, request: Request) -> Answer:
        if self._serve is not None:
            self._serve()
        rid = str(next(self._ids))
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._request, self._answer = request, answer
        self._view = view_part(request, self.lang)
        self._ask = ask_part(request, self.lang, rid)
        self._changed()
        try:
            return await answer
        finally:  # answered, or the game stopped (Ctrl-C): the form goes either way
            self._request = self._answer = None
            if self._ask is not None and self._ask["rid"] == rid:
                self._ask = None
                self._changed()

    def submit(self, body: Mapping[str, Any]) -> tuple[HTTPStatus, dict[str, Any]]:
        """Take a posted answer: the status and what the page is told."""
        ps = prompt_set(self.lang)
        rid = body.get("rid")
        if not isinstance(rid, str):
            return HTTPStatus.BAD_REQUEST, {"error": "rid: the request id expected"}
        if rid in self._taken:  # a double submit: the first one was played
            return HTTPStatus.OK, {"ok": True, "again": True}
        request, answer = self._request, self._answer
        if self._ask is None or rid != self._ask["rid"] or request is None or answer is None:
            return HTTPStatus.CONFLICT, {"error": ps.say("web.stale")}
        parsed = parse_answer(request, self.lang, body)
        if isinstance(parsed, str):
            return HTTPStatus.UNPROCESSABLE_ENTITY, {"error": ps.say("web.refused", reason=parsed)}
        self._taken.add(rid)
        self._ask = None
        if not answer.done():
            answer.set_result(parsed)
        self._changed()
        return HTTPStatus.OK, {"ok": True}

    async def wait(self, version: int, timeout: float) -> dict[str, Any]:
        """The state once it differs from ``version`` (a long poll), or after ``timeout``
        seconds as it is."""
        if version == self.version and self._ended is None:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters = [w for w in self._waiters if not w.done()] + [waiter]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, timeout)
        return self.state()

    @property
    def told_the_end(self) -> bool:
        """True unless the game has ended and no page has been told yet."""
        return self._ended is None or self.delivered == self.version

    def finish(self, winner: str) -> None:
        """The game has ended: the page says who won, and asks nothing more."""
        if self._ended is None:
            self._ended = result_text(winner, self.lang)
            self._ask = None
            self._changed()
