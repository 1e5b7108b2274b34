"""Reading games back: load one, export it, follow one being played, list a store's games.

::

    from werewolf.app import load_log, export_replay

    log = load_log("games/GAME.jsonl")  # or a game id and the store it is in
    export_replay(log, "seat:3", html=Path("seat3.html"))

Drawing and the formats live in ``werewolf.replay``; this module opens what they read and
writes the files they make, refusing a file that is not a new one or an earlier export of
its kind (``werewolf.outputs``) before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path

from rich.console import Console

from ..errors import ConfigError
from ..lineup import Price, load_lineup
from ..outputs import Kind, check_output, one_file, write_output
from ..pricing import bundled_prices, with_bundled
from ..replay import GameLog, LiveReplay, Prices, follow, load_replay, replay_html
from ..replay import replay_markdown as markdown_of
from ..replay.catalog import GameSummary, list_games
from .result import View, view_spec
from .store import Notice, closing, open_game_store

__all__ = [
    "export_replay",
    "follow_game",
    "list_saved_games",
    "load_log",
    "replay_prices",
]


def load_log(
    target: str | PathLike[str], store: str | PathLike[str] | None = None, *, trust: bool = False
) -> GameLog:
    """A replay file, or (``target`` a game id) that game in the store at ``store``;
    checked, and every event re-judged by the rules unless ``trust``."""
    return load_replay(str(target), store, trust=trust)


def replay_prices(
    price: tuple[float, float] | None = None, prices: str | PathLike[str] | None = None
) -> Prices:
    """The prices a replay's cost figure uses: ``price`` (USD per million prompt and
    completion tokens) for every model, or by model from a lineup file ``prices``, and the
    bundled table for models neither names."""
    default = None if price is None else Price(prompt=price[0], completion=price[1])
    by_model: Mapping[str, Price] = load_lineup(prices).prices if prices is not None else {}
    if default is None:  # models neither file nor price names: the bundled table
        by_model = with_bundled(by_model, bundled_prices().prices)
    return Prices(by_model, default)


def export_replay(
    log: GameLog,
    view: View = "god",
    *,
    html: Path | None = None,
    markdown: Path | None = None,
    from_day: int | None = None,
    width: int = 100,
    stats: bool = True,
    prices: Prices | None = None,
    inputs: Sequence[str | Path] = (),
    notice: Notice | None = None,
) -> list[Path]:
    """Write the replay as ``view`` saw it: an interactive HTML page and a Markdown text.
    Both files are checked before either is written (``inputs``, the files read, are never
    written over); ``notice`` hears of each file written. Returns the files written."""
    spec = view_spec(view)
    if html is not None and markdown is not None and one_file(html, markdown):
        raise ConfigError([("--markdown", "names the --html file: name another")])
    exports = (("--html", html, Kind.HTML), ("--markdown", markdown, Kind.MARKDOWN))
    for option, path, kind in exports:
        if path is not None:
            check_output(path, option, kind, inputs)  # both, before either is written
    written: list[Path] = []
    if html is not None:
        write_output(html, replay_html(log, spec, from_day=from_day), "--html", Kind.HTML, inputs)
        written.append(html)
        if notice is not None:
            notice(f"wrote {html}")
    if markdown is not None:
        text = markdown_of(log, spec, width=width, from_day=from_day, stats=stats, prices=prices)
        write_output(markdown, text, "--markdown", Kind.MARKDOWN, inputs)
        written.append(markdown)
        if notice is not None:
            notice(f"wrote {markdown}")
    return written


def follow_game(
    store: str | PathLike[str], game_id: str, console: Console, view: View = "public"
) -> None:
    """Draw a game of ``store`` on ``console`` as ``view`` sees it while it is played,
    until it ends."""
    opened = open_game_store(Path(store), create=False, read_only=True)
    with closing(opened):
        follow(opened, game_id, LiveReplay(console, view_spec(view), store=opened, game_id=game_id))


def list_saved_games(
    store: str | PathLike[str], *, limit: int | None = None
) -> tuple[list[GameSummary], int]:
    """The newest ``limit`` games of ``store`` (every one when None), newest first, and how
    many games the store holds."""
    opened = open_game_store(Path(store), create=False, read_only=True)
    with closing(opened):
        games = list_games(opened, limit=limit)
        total = len(opened.topics()) if limit is not None else len(games)
    return games, total
