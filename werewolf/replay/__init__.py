"""Replays of werewolf games: loading logs, drawing them with rich, exports and statistics.

The only part of werewolf that draws. ``load_replay`` reads a replay file (a game exported
as a pulse topic file) or a game in a store; ``render_replay`` draws it for the god, a
spectator or one seat; ``LiveReplay`` draws a game as it is played; ``replay_html`` and
``replay_markdown`` export it. ``docs/replay-format.md`` describes the file.
"""

from typing import TYPE_CHECKING

from ..errors import ReplayOptionError
from ..lazy import lazy_names

if TYPE_CHECKING:
    from .format import FORMAT_VERSION, META_MODELS, check_meta, replay_schema
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

_HOMES = {
    # the format's models are built on first use: they take a while
    **dict.fromkeys(("FORMAT_VERSION", "META_MODELS", "check_meta", "replay_schema"), "format"),
    **dict.fromkeys(("LiveReplay", "follow"), "live"),
    **dict.fromkeys(
        (
            "GameLog",
            "check_game",
            "import_replay",
            "load_game",
            "load_replay",
            "load_replay_file",
            "parse_replay",
        ),
        "load",
    ),
    **dict.fromkeys(
        ("plain_console", "render_replay", "replay_html", "replay_markdown", "replay_text"),
        "output",
    ),
    "StoryRenderer": "render",
    **dict.fromkeys(("GameStats", "Prices", "SeatStats", "game_stats"), "stats"),
    **dict.fromkeys(("Entry", "ViewKind", "ViewSpec", "ViewStream"), "views"),
}
"""Where each name of the package is defined: loaded on first use, so that importing one
of the replay's modules loads no other (and no model of the format until one is asked for)."""

__getattr__, __dir__ = lazy_names(__name__, _HOMES)


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
