"""The prompts ``werewolf serve`` answers one by one: a game's god view prompt nodes
(``replay.prompts``), built once for the last games asked (a game is read and judged
once, not at each fold the page opens)."""

from __future__ import annotations

import threading
from typing import Any

from pulse_core import SQLiteEventStore

from ..errors import PageRefusedError
from ..replay.load import load_game
from ..replay.page import page_data
from ..replay.prompts import prompt_text
from ..replay.views import ViewKind, ViewSpec

__all__ = ["PromptCache"]


class PromptCache:
    """The god view's prompt nodes of the last games asked, built once a game (again when a
    game in progress is asked a node it did not have yet)."""

    KEPT = 8

    def __init__(self, *, live: bool) -> None:
        self.live = live  # whether the prompts of a game in progress are open (--god)
        self._games: dict[str, tuple[bool, list[Any]]] = {}  # game -> (ended, nodes)
        self._lock = threading.Lock()  # pages keep nodes on the event loop, folds in threads

    def keep(self, game_id: str, ended: bool, nodes: list[Any]) -> None:
        """The nodes of a god page just built: its folds' texts come without a new read."""
        with self._lock:
            self._games.pop(game_id, None)  # the newest last: the oldest goes first
            self._games[game_id] = (ended, nodes)
            while len(self._games) > self.KEPT:
                del self._games[next(iter(self._games))]

    def text(self, store: SQLiteEventStore, source: str, game_id: str, node: int) -> str | None:
        """The text of prompt ``node`` of the game, None if it has none such;
        PageRefusedError for a game in progress unless ``live``."""
        ended, nodes = self._games.get(game_id, (False, []))
        if game_id not in self._games or (node >= len(nodes) and not ended):
            log = load_game(store, game_id, source)
            ended = log.state.ended
            if not (ended or self.live):
                raise PageRefusedError(403, f"game {game_id} is in progress: no prompt is open")
            nodes = list(page_data(log, ViewSpec(ViewKind.GOD)).get("prompts", []))
            self.keep(game_id, ended, nodes)
        return prompt_text(nodes, node) if 0 <= node < len(nodes) else None
