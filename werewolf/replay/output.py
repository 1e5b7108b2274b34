"""A whole replay on a console, and its exports: plain text, HTML and Markdown.

``render_replay`` draws a finished (or interrupted) game for one viewer: the header, the
cast, every night and day, the result, then (god view) the summary statistics or (other
views) the cast as the end revealed it. The exports draw the same story on a recording
console: ``replay_text`` without colour at a fixed width (what the golden tests compare),
``replay_html`` the interactive page (``page``: a self-contained file built from the
view's own entries),
``replay_markdown`` the text in a fenced block for pasting into an issue.
"""

from __future__ import annotations

import io
import re

from rich.console import Console
from rich.text import Text
from rich.theme import Theme

from ..errors import ReplayOptionError
from .load import GameLog
from .page import page_data, viewer_page
from .render import StoryRenderer, god_fates, seen_fates
from .stats import Prices, game_stats, render_stats
from .views import ViewKind, ViewSpec, ViewStream
from .words import game_lang

__all__ = ["plain_console", "render_replay", "replay_html", "replay_markdown", "replay_text"]


def plain_console(width: int = 80) -> Console:
    """A console that records into memory: no colour, no terminal, a fixed width."""
    return Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        force_terminal=False,
        force_jupyter=False,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        theme=Theme(),
    )


def render_replay(
    console: Console,
    log: GameLog,
    spec: ViewSpec | None = None,
    *,
    from_day: int | None = None,
    stats: bool = True,
    prices: Prices | None = None,
) -> None:
    """Draw ``log`` as ``spec`` saw it (default: the god view) on ``console``.

    ``from_day`` jumps to night ``from_day`` (the cast is still shown first); ``stats``
    adds the summary to a god view; ``prices`` put a cost on the tokens LLM seats used.
    """
    spec = spec or ViewSpec()
    god = spec.kind is ViewKind.GOD
    stream = ViewStream(spec, log.attachment if god else None)
    entries = [entry for event in log.chain for entry in stream.feed(event)]
    state = log.state
    if from_day is not None and not 1 <= from_day <= max(state.night, 1):
        raise ReplayOptionError(
            f"{log.source}: no day {from_day}: this game has days 1 to {max(state.night, 1)}"
        )
    assert stream.start_state is not None  # check_game made sure the log starts a game
    lang = game_lang(log.chain)
    renderer = StoryRenderer(
        spec, stream.start_state, stream.seat_view, game_id=log.game_id, lang=lang
    )
    console.print(renderer.header(ended=state.ended))
    console.print(
        renderer.cast(god_fates(state, lang) if god else {}, title="Cast" if god else "Players")
    )
    if from_day is not None and from_day > 1:
        jumped = renderer.w("(jumped to night {n}: earlier events are not shown)", n=from_day)
        console.print(Text(jumped, "dim"))
    for entry in entries:
        if from_day is None or entry.day >= from_day:
            console.print(*renderer.entry(entry))
    if not state.ended:
        console.print(
            Text(
                renderer.w(
                    "\nThe log ends here: the game is not over (werewolf resume {id}).",
                    id=log.game_id,
                ),
                style="bold",
            )
        )
    if god and stats:
        console.print(render_stats(game_stats(log.chain), renderer, prices))
    elif not god and state.ended:
        console.print(renderer.cast(seen_fates(entries, lang), title="Cast, revealed"))


def _console_text(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)  # plain_console writes to memory
    lines = file.getvalue().splitlines()
    return "\n".join(line.rstrip() for line in lines) + "\n"


def replay_text(
    log: GameLog, spec: ViewSpec | None = None, *, width: int = 80, **options: object
) -> str:
    """The replay as plain text at ``width`` columns (trailing spaces trimmed)."""
    console = plain_console(width)
    render_replay(console, log, spec, **options)  # type: ignore[arg-type]
    return _console_text(console)


def replay_html(log: GameLog, spec: ViewSpec | None = None, *, from_day: int | None = None) -> str:
    """The interactive page of the replay (``page.viewer_page``): one self-contained file
    holding only what ``spec`` saw; ``from_day`` opens it at night ``from_day``."""
    spec = spec or ViewSpec()
    data = page_data(log, spec)
    if from_day is not None:
        if not 1 <= from_day <= max(log.state.night, 1):
            raise ReplayOptionError(
                f"{log.source}: no day {from_day}: this game has days 1 to {max(log.state.night, 1)}"
            )
        data["start_day"] = from_day
    return viewer_page(data, title=f"Werewolf game {log.game_id} ({spec.label})")


def replay_markdown(
    log: GameLog, spec: ViewSpec | None = None, *, width: int = 100, **options: object
) -> str:
    """The replay as Markdown: a heading and the plain text in a fenced block (the fence is
    longer than any run of backticks in the text, so no speech can close it)."""
    spec = spec or ViewSpec()
    text = replay_text(log, spec, width=width, **options)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"### Werewolf game {log.game_id} ({spec.label})\n\n{fence}text\n{text}{fence}\n"
