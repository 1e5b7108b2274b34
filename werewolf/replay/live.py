"""Live drawing: events are drawn as they are appended, for ``play`` and ``--follow``.

``LiveReplay`` is fed a game's events one by one and prints what its viewer sees with the
same ``StoryRenderer`` a replay uses; ``follow`` polls a store for a game's new events and
feeds them until the game ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rich.console import Console

from pulse_core import Event, EventStore, read_attachment

from ..errors import GameFileError
from ..game import fold_chain
from ..scope import TopicScope, floor_seq
from .render import StoryRenderer, god_fates, seen_fates
from .views import Entry, ViewKind, ViewSpec, ViewStream
from .words import game_lang

__all__ = ["LiveReplay", "follow"]


class LiveReplay:
    """Prints one viewer's story of a game as its events arrive."""

    def __init__(
        self,
        console: Console,
        spec: ViewSpec,
        *,
        store: EventStore | None = None,
        game_id: str = "",
    ) -> None:
        self.console = console
        self.spec = spec
        self.game_id = game_id
        reader: Callable[[Event, str], str | None] | None = None
        if store is not None and spec.kind is ViewKind.GOD:
            source = store

            def reader(event: Event, name: str) -> str | None:
                return read_attachment(source, event, name)

        self.stream = ViewStream(spec, reader)
        self.renderer: StoryRenderer | None = None
        self.entries: list[Entry] = []
        self.version = 0  # the last event fed
        self.ended = False

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            if event.version <= self.version:
                continue  # already drawn (a poll may return events seen before)
            fresh = self.stream.feed(event)
            self.version = event.version
            if self.renderer is None:
                self._begin()
            assert self.renderer is not None  # set by _begin
            for entry in fresh:
                self.entries.append(entry)
                self.console.print(*self.renderer.entry(entry))
            if event.role == "game-end":
                self.ended = True
                self._end()

    def _begin(self) -> None:
        state = self.stream.start_state
        assert state is not None  # the first event fed is the start event
        self.renderer = StoryRenderer(
            self.spec,
            state,
            self.stream.seat_view,
            game_id=self.game_id or "",
            lang=game_lang(self.stream.chain),
        )
        self.console.print(self.renderer.header(ended=False))  # it is being played
        self.console.print(self.renderer.cast({}, title="Players"))

    def _end(self) -> None:
        assert self.renderer is not None
        if self.spec.kind is ViewKind.GOD:
            fates = god_fates(fold_chain(self.stream.chain), self.renderer.lang)
        else:
            fates = seen_fates(self.entries, self.renderer.lang)
        self.console.print(self.renderer.cast(fates, title="Cast, revealed"))


def follow(
    store: EventStore,
    game_id: str,
    live: LiveReplay,
    *,
    poll_interval: float = 0.2,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Draw ``game_id``'s events as they are appended to ``store`` until the game ends."""
    if store.version(game_id) == 0:
        raise GameFileError(f"no game {game_id} in the store")
    caught_up = store.chain(game_id)[live.version :]
    if caught_up:
        live.feed(caught_up)
    # then only what is new: a seq cursor over this game's events, never the whole chain
    cursor = caught_up[-1].seq if caught_up else floor_seq(store, [game_id])
    scope = TopicScope(store, [game_id])
    while not live.ended:
        fresh = [e for e in scope.read_after(cursor) if e.version > live.version]
        if fresh:
            live.feed(fresh)
            cursor = fresh[-1].seq
        else:
            sleep(poll_interval)
