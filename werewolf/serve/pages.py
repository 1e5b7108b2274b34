"""The server's own pages: the list of games and the arena reports, as plain HTML.

Pure functions from data to a page: every text goes through ``html.escape`` after
``werewolf.text.one_line`` (names, players, run names all come from logs and files), and
the charts are inline SVG drawn here, so the pages need nothing from the network. The
games themselves open in the replay viewer (``werewolf.replay.page``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from importlib import resources
from typing import Any
from urllib.parse import quote, urlencode

from ..replay.catalog import UNFINISHED, GameSummary
from ..text import one_line

__all__ = [
    "arena_list_page",
    "arena_report_page",
    "game_row",
    "games_page",
    "markdown_html",
    "svg_chart",
]

WINNERS = ("wolves", "good", "lovers", "draw", UNFINISHED)
LIST_LIMIT = 500  # rows of the games list: an arena store holds thousands of games
LIVE_WITHIN = timedelta(minutes=10)  # an unfinished game written to this recently is live


def esc(text: object) -> str:
    return html.escape(one_line(str(text)), quote=True)


def _style() -> str:
    return resources.files(__package__).joinpath("site.css").read_text(encoding="utf-8")


def _page(title: str, body: str, *, nav: str = "games") -> str:
    links = [("games", "/", "Games"), ("arena", "/arena", "Arena runs")]
    menu = " ".join(
        f'<a href="{href}"{" aria-current=page" if key == nav else ""}>{label}</a>'
        for key, href, label in links
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>\n{_style()}\n</style>\n</head>\n<body>\n"
        f'<header class="top"><strong>Werewolf</strong><nav>{menu}</nav></header>\n'
        f"<main>\n<h1>{esc(title)}</h1>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _select(name: str, label: str, options: Iterable[str], chosen: str | None) -> str:
    items = ['<option value="">any</option>'] + [
        f'<option value="{esc(o)}"{" selected" if o == chosen else ""}>{esc(o)}</option>'
        for o in options
    ]
    return f'<label>{label} <select name="{name}">{"".join(items)}</select></label>'


def games_page(
    games: Sequence[GameSummary],
    *,
    filters: Mapping[str, str | None],
    boards: Sequence[str],
    runs: Sequence[str],
    store: str,
    god: bool,
    now: datetime,
    missing: bool = False,
) -> str:
    """The list of games with its filter form; each game links to the viewer. A game not
    ended is live when an event of it was written within ``LIVE_WITHIN`` of ``now``; the
    list follows the games it shows not ended (``live_list``) and redraws their rows."""
    form = (
        '<form class="filters" method="get" action="/">'
        + _select("board", "Board", boards, filters.get("board"))
        + _select("winner", "Winner", WINNERS, filters.get("winner"))
        + _select("run", "Arena run", runs, filters.get("run"))
        + f'<label>Date <input type="date" name="date" value="{esc(filters.get("date") or "")}">'
        + '</label> <button type="submit">Filter</button> <a href="/">clear</a></form>'
    )
    note = (
        f'<p class="sub">Store <code>{esc(store)}</code>, read-only. '
        + (
            "God and seat views are open for every game (--god)."
            if god
            else "Games in progress show the public view only (start with --god for more)."
        )
        + "</p>"
    )
    if missing:
        return _page(
            "Games",
            note + f"<p>No store at <code>{esc(store)}</code> yet: play a game "
            "(<code>werewolf play</code>) and reload.</p>",
        )
    total = len(games)
    shown = total > LIST_LIMIT
    games = games[:LIST_LIMIT]
    rows = [game_row(g, now) for g in games]
    head = "".join(
        f"<th>{h}</th>"
        for h in ("Game", "Started (UTC)", "Board", "Result", "Arena run", "Players")
    )
    table = (
        f'<div class="scroll"><table class="games"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div><script>{_FOLLOW}</script>"
        if rows
        else '<p class="empty">No game matches.</p>'
    )
    count = f'<p class="sub">{total} game{"s" if total != 1 else ""}'
    count += f", the newest {len(games)} shown: filter to find others.</p>" if shown else ".</p>"
    return _page("Games", note + form + count + table)


def game_row(g: GameSummary, now: datetime) -> str:
    """One game's row of the list (its result marked live or not as of ``now``)."""
    link = f"/game/{quote(g.game_id)}"
    unfinished = g.status == "in progress"
    live = unfinished and g.last is not None and now - g.last <= LIVE_WITHIN
    if live:
        status_class, result = "live", "\u25cf live"
    elif g.status == "stopped":
        status_class, result = "failed", g.result
    elif unfinished:
        status_class, result = "paused", g.result
    else:
        status_class = g.winner or "draw"
        result = f"{g.winner} won" if g.winner in ("wolves", "good", "lovers") else g.result
    marks = f' data-game="{esc(g.game_id)}"' + (" data-unfinished" if unfinished else "")
    return (
        f"<tr{marks}>"
        f'<td class="game"><a href="{link}">{esc(g.game_id)}</a></td>'
        f'<td class="date">{esc(g.started.strftime("%Y-%m-%d %H:%M"))}</td>'
        f'<td class="board">{esc(g.board)}</td>'
        f'<td class="result"><span class="status {esc(status_class)}">{esc(result)}</span></td>'
        f'<td class="run">{esc(g.run or "")}</td>'
        f'<td class="players">{esc(g.players or "?")}</td>'
        "</tr>"
    )


# the rows of the games not ended are followed over server-sent events (``live_list``);
# each row comes drawn by the server, so the script adds no markup of its own
_FOLLOW = """(function () {
  const table = document.querySelector("table.games");
  const rows = [...table.querySelectorAll("tr[data-unfinished]")];
  if (!rows.length || typeof EventSource === "undefined") return;
  const query = rows.map((r) => "game=" + encodeURIComponent(r.dataset.game)).join("&");
  const source = new EventSource("/games/events?" + query);
  source.addEventListener("rows", (ev) => {
    const update = JSON.parse(ev.data);
    for (const [game, html] of Object.entries(update.rows)) {
      const row = table.querySelector(`tr[data-game="${CSS.escape(game)}"]`);
      const doc = new DOMParser().parseFromString(`<table><tbody>${html}</tbody></table>`, "text/html");
      const fresh = doc.querySelector("tr");
      if (row && fresh) row.replaceWith(document.importNode(fresh, true));
    }
    if (update.done) source.close();
  });
})();"""


def arena_list_page(runs: Sequence[tuple[str, int]]) -> str:
    """The arena runs beside the store, with their planned game counts."""
    if not runs:
        body = "<p>No arena run yet: <code>werewolf arena baseline</code> plays one.</p>"
    else:
        items = "".join(
            f'<li><a href="/arena/{quote(name)}">{esc(name)}</a> '
            f'<span class="sub">{games} games planned</span> · '
            f'<a href="/?{urlencode({"run": name})}">games</a></li>'
            for name, games in runs
        )
        body = f'<ul class="runs">{items}</ul>'
    return _page("Arena runs", body, nav="arena")


# -- arena reports --------------------------------------------------------------------------
def svg_chart(
    title: str,
    rows: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    span: tuple[float, float] | None = None,
    percent: bool = False,
) -> str:
    """A horizontal bar per row (its ``value``) with its 95% interval (``low``..``high``) as
    a whisker, on the axis ``span`` (default: around every interval, for ratings)."""
    if span is None:
        lows = [float(r.get("low") or r.get("value") or 0) for _, r in rows]
        highs = [float(r.get("high") or r.get("value") or 0) for _, r in rows]
        lo, hi = (min(lows), max(highs)) if rows else (0.0, 1.0)
        margin = (hi - lo) * 0.1 or 1.0
        span = (lo - margin, hi + margin)
    lo, hi = span

    def x(v: float) -> float:
        return label_w + bar_w * (min(max(v, lo), hi) - lo) / ((hi - lo) or 1)

    label_w, bar_w, row_h = 120, 180, 26
    height = row_h * len(rows) + 16
    parts = [
        f'<svg class="chart" viewBox="0 0 {label_w + bar_w + 80} {height}" role="img" '
        f'aria-label="{esc(title)}">'
    ]
    for i, (label, est) in enumerate(rows):
        y = 6 + i * row_h
        value = float(est.get("value") or 0)
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{esc(label)}</text>'
            f'<rect class="bar" x="{label_w}" y="{y + 4}" width="{x(value) - label_w:.1f}" '
            'height="14"/>'
        )
        low, high = est.get("low"), est.get("high")
        if low is not None and high is not None:
            x1, x2 = x(float(low)), x(float(high))
            parts.append(
                f'<path class="ci" d="M{x1:.1f} {y + 11}H{x2:.1f}M{x1:.1f} {y + 6}V{y + 16}'
                f'M{x2:.1f} {y + 6}V{y + 16}"/>'
            )
        shown = f"{value * 100:.1f}%" if percent else f"{value:,.0f}"
        parts.append(f'<text x="{label_w + bar_w + 8}" y="{y + 15}">{esc(shown)}</text>')
    parts.append("</svg>")
    return f"<figure><figcaption>{esc(title)}</figcaption>{''.join(parts)}</figure>"


_CELL = re.compile(r"(?<!\\)\|")


def markdown_html(text: str) -> str:
    """The report's Markdown (headings, paragraphs, pipe tables) as HTML, every cell escaped."""
    out: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if not table:
            return
        head, *body = table
        rows = [r for r in body if not all(set(c.strip()) <= set("-: ") for c in r)]
        out.append(
            '<div class="scroll"><table><thead><tr>'
            + "".join(f"<th>{esc(c)}</th>" for c in head)
            + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
            + "</tbody></table></div>"
        )
        table.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in _CELL.split(stripped.strip("|"))]
            table.append(cells)
            continue
        flush()
        plain = stripped.replace("`", "").replace("**", "")
        if plain.startswith("#"):
            level = min(len(plain) - len(plain.lstrip("#")) + 1, 4)
            out.append(f"<h{level}>{esc(plain.lstrip('#').strip())}</h{level}>")
        elif plain:
            emphasis = len(plain) > 2 and plain[0] == plain[-1] == "_"
            out.append(f"<p>{esc(plain[1:-1] if emphasis else plain)}</p>")
    flush()
    return "\n".join(out)


def arena_report_page(name: str, report: Mapping[str, Any], markdown: str) -> str:
    """One run's report: charts of win rates and ratings, then every table of the report."""
    players = report.get("players", {})
    ranked = sorted(players.items(), key=lambda kv: -float(kv[1]["win"].get("value") or 0))
    ratings = report.get("ratings", {})
    charts = [
        svg_chart(
            "Win rate (95% interval)",
            [(n, p["win"]) for n, p in ranked],
            span=(0.0, 1.0),
            percent=True,
        )
    ]
    for key, title in (("elo", "Elo (95% interval)"), ("bradley_terry", "Bradley-Terry (95%)")):
        values = ratings.get(key, {})
        if values:
            rows = [(n, values[n]) for n, _ in ranked if n in values]
            charts.append(svg_chart(title, rows))
    body = (
        f'<p><a href="/?{urlencode({"run": name})}">the games of this run</a></p>'
        f'<div class="charts">{"".join(charts)}</div>'
        f'<section class="report">{markdown_html(markdown)}</section>'
    )
    return _page(f"Arena run {name}", body, nav="arena")
