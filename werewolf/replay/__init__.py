"""Replays of werewolf games: loading logs, drawing them with rich, exports and statistics.

The only part of werewolf that draws. ``load_replay`` reads a replay file (a game exported
as a pulse topic file) or a game in a store; ``render_replay`` draws it for the god, a
spectator or one seat; ``LiveReplay`` draws a game as it is played; ``replay_html`` and
``replay_markdown`` export it. ``docs/replay-format.md`` describes the file.
"""

from typing import TYPE_CHECKING, Any

from ..errors import ReplayOptionError
from .live import LiveReplay, follow
from .load import (
    GameLog,
    check_game,
    import_replay,
    load_game,
    load_replay,
    load_replay_file,
    parse_replay,
)
from .output import plain_console, render_replay, replay_html, replay_markdown, replay_text
from .render import StoryRenderer
from .stats import GameStats, Prices, SeatStats, game_stats
from .views import Entry, ViewKind, ViewSpec, ViewStream

if TYPE_CHECKING:  # typed as eager imports; built on first use (the models take a while)
    from .format import FORMAT_VERSION, META_MODELS, check_meta, replay_schema

_LAZY_FORMAT = frozenset({"FORMAT_VERSION", "META_MODELS", "check_meta", "replay_schema"})


def __getattr__(name: str) -> Any:
    if name not in _LAZY_FORMAT:
        raise AttributeError(f"module 'werewolf.replay' has no attribute {name!r}")
    from . import format as models

    value = getattr(models, name)
    globals()[name] = value
    return value


__all__ = [
    "FORMAT_VERSION",
    "META_MODELS",
    "Entry",
    "GameLog",
    "GameStats",
    "LiveReplay",
    "Prices",
    "ReplayOptionError",
    "SeatStats",
    "StoryRenderer",
    "ViewKind",
    "ViewSpec",
    "ViewStream",
    "check_game",
    "check_meta",
    "follow",
    "game_stats",
    "import_replay",
    "load_game",
    "load_replay",
    "load_replay_file",
    "parse_replay",
    "plain_console",
    "render_replay",
    "replay_html",
    "replay_markdown",
    "replay_schema",
    "replay_text",
]
