"""``werewolf serve``: a local web app over a store, read-only (Starlette; uvicorn runs it).

Routes:

- ``/``: the games, newest first, filtered by board, winner, arena run and start date
  (``replay.catalog``, refreshed from new events only);
- ``/games/events?game=ID...``: server-sent events, the rows of the listed games not ended
  as they change, until they have all ended (``live_list``);
- ``/game/{id}?view=public|god|seat&seat=N``: a game in the replay viewer
  (``replay.page``); a game in progress follows itself live;
- ``/game/{id}/events?view=...&after=N``: server-sent events, one ``entries`` message per
  batch of new events the view may see, until the game ends (``id`` is the view's own
  number of its last entry, the ``v`` the page holds, so a reconnecting browser resumes
  where it stopped; the public and seat views count only what they saw, so neither the ids
  nor the messages tell how many hidden events came between); the last message, when the
  game ends, brings the views the ended game opens;
- ``/game/{id}/prompt/{n}``: the text of the god view's prompt ``n`` (``replay.prompts``),
  fetched by the page when a model exchange's fold opens, wherever the god view is open;
- ``/arena`` and ``/arena/{name}``: the arena runs beside the store and their reports, with
  charts.

Who sees what: the public view of every game; the god and seat views of ended games; and,
only when the server was started with ``god=True`` (``werewolf serve --god``), the god and
seat views of games in progress too (a live god view would show a player at the table
everything). Only requests naming the server in ``Host:`` are answered (``hosts``: a page
on another site cannot reach it by pointing its domain name at 127.0.0.1). The store is
opened read-only and may not exist yet (a newcomer starts the server before the first
game): it is opened when it appears.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from pulse_core import Event, PulseError, SQLiteEventStore, read_attachment

from ..app import open_game_store
from ..app.arena_runs import BOOTSTRAP_ROUNDS, run_files, run_report
from ..arena.report_json import report_json
from ..arena.report_tables import report_markdown
from ..arena.spec import load_run, run_path
from ..argtypes import is_number
from ..errors import PageRefusedError, StoreUnopenedError, WerewolfError
from ..game import fold_chain
from ..replay.catalog import Catalog
from ..replay.load import load_game
from ..replay.page import PageBuilder, page_data, viewer_page
from ..replay.views import ViewKind, ViewSpec, ViewStream
from ..scope import TopicScope
from .hosts import HostCheck
from .live_list import list_stream
from .pages import arena_list_page, arena_report_page, esc, games_page
from .prompt_cache import PromptCache

__all__ = ["ServeConfig", "make_app"]

HEARTBEAT_S = 15.0


class ServeConfig:
    """What the app serves: the store's path, whether live games open in every view, how
    often a live stream polls (a game's, the list's), and how many bootstrap rounds a web report draws (as many as
    ``werewolf arena report``'s, by default: the same intervals)."""

    def __init__(
        self,
        store: Path,
        *,
        god: bool = False,
        poll: float = 0.25,
        rounds: int = BOOTSTRAP_ROUNDS,
    ) -> None:
        self.store = store
        self.god = god
        self.poll = poll
        self.rounds = rounds


class _Store:
    """The store, opened read-only once it exists; one connection for the app."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store: SQLiteEventStore | None = None
        self.catalog: Catalog | None = None

    def get(self) -> SQLiteEventStore | None:
        if self._store is None and self.path.is_file():
            try:
                self._store = open_game_store(self.path, create=False, read_only=True)
            except (WerewolfError, PulseError) as exc:
                raise StoreUnopenedError(str(exc)) from None
            self.catalog = Catalog(self._store)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _problem(status: int, message: str) -> HTMLResponse:
    body = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Werewolf</title>'
        f'</head><body><p>{esc(message)}</p><p><a href="/">the games</a></p></body></html>'
    )
    return HTMLResponse(body, status_code=status)


def _view(request: Request, seats: int) -> ViewSpec:
    kind = request.query_params.get("view", "public")
    if kind == "public":
        return ViewSpec(ViewKind.PUBLIC)
    if kind == "god":
        return ViewSpec(ViewKind.GOD)
    if kind == "seat":
        seat = request.query_params.get("seat", "")
        if not is_number(seat) or not 1 <= int(seat) <= seats:
            raise PageRefusedError(400, f"no seat {_shown(seat)}: this game has seats 1 to {seats}")
        return ViewSpec.of_seat(int(seat))
    raise PageRefusedError(400, f"no view {_shown(kind)}: public, god or seat")


def _shown(value: str) -> str:
    """A query value as a refusal echoes it: a short prefix, quoted."""
    return repr(value if len(value) <= 24 else value[:24] + "...")


def _query(spec: ViewSpec) -> dict[str, str]:
    if spec.kind is ViewKind.SEAT:
        return {"view": "seat", "seat": str(spec.seat)}
    return {"view": str(spec.kind)}


def _views(spec: ViewSpec, seats: int, allowed: Callable[[ViewSpec], bool]) -> list[dict[str, Any]]:
    """The views of a game the page's menu offers (those ``allowed``), ``spec`` current."""
    every = [
        ViewSpec(ViewKind.PUBLIC),
        ViewSpec(ViewKind.GOD),
        *(ViewSpec.of_seat(s) for s in range(1, seats + 1)),
    ]
    return [
        {
            "kind": str(view.kind),
            "seat": view.seat,
            "href": f"?{urlencode(_query(view))}",
            "current": view == spec,
        }
        for view in every
        if allowed(view)
    ]


def make_app(config: ServeConfig) -> Starlette:
    """The web app over ``config.store``."""
    handle = _Store(config.store)
    prompts = PromptCache(live=config.god)

    def allowed(spec: ViewSpec, ended: bool) -> bool:
        return spec.kind is ViewKind.PUBLIC or ended or config.god

    async def games(request: Request) -> Response:
        store = handle.get()
        filters = {k: request.query_params.get(k) or None for k in ("board", "winner", "run")}
        filters["date"] = request.query_params.get("date") or None
        if store is None or handle.catalog is None:
            page = games_page(
                [], filters=filters, boards=[], runs=[], store=str(config.store),
                god=config.god, now=datetime.now(UTC), missing=True,
            )  # fmt: skip
            return HTMLResponse(page)
        catalog = handle.catalog
        catalog.refresh()
        page = games_page(
            catalog.select(**filters),
            filters=filters,
            boards=catalog.values("board"),
            runs=catalog.values("run"),
            store=str(config.store),
            god=config.god,
            now=datetime.now(UTC),
        )
        return HTMLResponse(page)

    async def games_events(request: Request) -> Response:
        store = handle.get()
        if store is None or handle.catalog is None:
            return _problem(404, f"no store at {config.store}")
        watched = request.query_params.getlist("game")
        stream = list_stream(request, handle.catalog, watched, config.poll)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    async def game(request: Request) -> Response:
        store = handle.get()
        game_id = request.path_params["game_id"]
        if store is None:
            return _problem(404, f"no store at {config.store}")
        try:
            log = load_game(store, game_id, str(config.store))
            seats = len(log.state.identities)
            spec = _view(request, seats)
            ended = log.state.ended
            if not allowed(spec, ended):
                raise PageRefusedError(
                    403,
                    f"game {game_id} is in progress: only its public view is open "
                    "(start werewolf serve with --god to watch it in every view)",
                )
        except PageRefusedError as refused:
            return _problem(refused.status, str(refused))
        except (WerewolfError, PulseError) as exc:
            return _problem(404, str(exc))
        data = page_data(log, spec)
        data["home"] = "/"
        data["views"] = _views(spec, seats, lambda view: allowed(view, ended))
        if spec.kind is ViewKind.GOD:  # each text is fetched when its fold opens
            prompts.keep(game_id, ended, list(data.pop("prompts", [])))
            data["prompts"] = {"url": f"/game/{game_id}/prompt/"}
        if not ended:
            after = data["entries"][-1]["v"] if data["entries"] else 0
            query = urlencode({**_query(spec), "after": after})
            data["live"] = {"stream": f"/game/{game_id}/events?{query}"}
        return HTMLResponse(viewer_page(data, title=f"Werewolf game {game_id} ({spec.label})"))

    async def events(request: Request) -> Response:
        store = handle.get()
        game_id = request.path_params["game_id"]
        if store is None:
            return _problem(404, f"no store at {config.store}")
        try:
            # checked as the page is (a deleted or edited row, a log out of shape): a stream
            # fed such a chain failed once its answer had begun
            log = load_game(store, game_id, str(config.store))
            spec = _view(request, len(log.state.identities))
            last = request.headers.get("last-event-id") or request.query_params.get("after", "0")
            if not is_number(last):
                raise PageRefusedError(
                    400, f"after={_shown(last)}: the number of an entry the page holds"
                )
        except PageRefusedError as refused:
            return _problem(refused.status, str(refused))
        except (WerewolfError, PulseError) as exc:
            return _problem(404, str(exc))
        if not allowed(spec, log.state.ended):
            return _problem(403, f"game {game_id} is in progress: only its public view is open")
        views = _views(spec, len(log.state.identities), lambda view: allowed(view, True))
        stream = _live_stream(request, store, game_id, spec, int(last), config.poll, views)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    async def prompt(request: Request) -> Response:
        store = handle.get()
        game_id, node = request.path_params["game_id"], request.path_params["node"]
        if store is None:
            return _problem(404, f"no store at {config.store}")
        try:
            if not is_number(node):
                raise PageRefusedError(400, f"no prompt {_shown(node)}")
            text = await run_in_threadpool(
                prompts.text, store, str(config.store), game_id, int(node)
            )
        except PageRefusedError as refused:
            return _problem(refused.status, str(refused))
        except (WerewolfError, PulseError) as exc:
            return _problem(404, str(exc))
        if text is None:
            return _problem(404, f"game {game_id} has no prompt {node}")
        # text, never a page a browser could take for HTML
        headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
        return PlainTextResponse(text, headers=headers)

    async def arena(request: Request) -> Response:
        return HTMLResponse(arena_list_page(_runs(config.store)))

    async def arena_run(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in dict(_runs(config.store)):
            return _problem(404, f"no arena run {name}")
        store = handle.get()
        if store is None:
            return _problem(404, f"no store at {config.store}")
        try:
            page = await run_in_threadpool(_report_page, store, config, name)
        except (WerewolfError, PulseError) as exc:
            return _problem(500, f"arena run {name}: {exc}")
        return HTMLResponse(page)

    async def unopened(request: Request, exc: Exception) -> Response:
        sys.stderr.write(f"werewolf: {exc}\n")  # the one line the server's log gets
        return _problem(503, str(exc))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            handle.close()

    return Starlette(
        routes=[
            Route("/", games),
            Route("/games/events", games_events),
            Route("/game/{game_id}", game),
            Route("/game/{game_id}/events", events),
            Route("/game/{game_id}/prompt/{node}", prompt),
            Route("/arena", arena),
            Route("/arena/{name}", arena_run),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
        ],
        middleware=[Middleware(HostCheck)],  # no answer to a rebound domain name
        exception_handlers={StoreUnopenedError: unopened},
        lifespan=lifespan,
    )


def _sse(event: str, data: Any, event_id: int) -> str:
    return f"event: {event}\nid: {event_id}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _live_stream(
    request: Request,
    store: SQLiteEventStore,
    game_id: str,
    spec: ViewSpec,
    after: int,
    poll: float,
    views: list[dict[str, Any]],
) -> AsyncIterator[str]:
    """The view's entries numbered above ``after`` (the view's own numbering), as they land;
    with the game's end, the ``views`` an ended game opens."""
    reader: Callable[[Event, str], str | None] | None = None
    if spec.kind is ViewKind.GOD:

        def reader(event: Event, name: str) -> str | None:
            return read_attachment(store, event, name)

    builder = PageBuilder(spec, ViewStream(spec, reader), game_id)
    pending = store.chain(game_id)  # the page holds the entries up to ``after`` already
    cursor = pending[-1].seq
    scope = TopicScope(store, [game_id])
    quiet = 0.0
    while True:
        if pending:
            entries = [entry for entry in builder.feed(pending) if entry["v"] > after]
            state = fold_chain(builder.stream.chain)
            if entries or state.ended:  # an ended game says so, even with nothing new
                update = {"entries": entries, "fates": builder.fates(state), "ended": state.ended}
                if state.ended:
                    update["views"] = views
                yield _sse("entries", update, builder.last)
                quiet = 0.0
            if state.ended:
                return
        if await request.is_disconnected():
            return
        await asyncio.sleep(poll)
        quiet += poll
        if quiet >= HEARTBEAT_S:
            yield ": still here\n\n"
            quiet = 0.0
        seen = builder.stream.chain[-1].version
        pending = [e for e in scope.read_after(cursor) if e.version > seen]
        if pending:
            cursor = pending[-1].seq


def _runs(store: Path) -> list[tuple[str, int]]:
    """The readable run files beside the store: (name, planned games), by name."""
    runs = []
    for path in run_files(store):
        try:
            runs.append((path.stem, load_run(path).games))
        except (WerewolfError, PulseError):
            continue
    return runs


def _report_page(store: SQLiteEventStore, config: ServeConfig, name: str) -> str:
    # the report ``werewolf arena report`` writes, from the same function (without its
    # record cache: the server writes nothing)
    report = run_report(load_run(run_path(config.store, name)), store, rounds=config.rounds)
    return arena_report_page(name, report_json(report), report_markdown(report))
