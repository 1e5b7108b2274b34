"""A tournament's report: rich tables, Markdown, a JSON file with every figure, PNG charts.

Every figure comes from ``TournamentMetrics``; the JSON holds them all with their
intervals (``value``, ``low``, ``high``, ``n`` and, for rates, ``hits``), and nothing that
depends on when or how fast the games were played, so the same games give the same file.
Charts need matplotlib (``pip install 'pulse-werewolf[plot]'``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from pulse_core.redact import public_url

from ..cast import Identity
from ..errors import ConfigError
from ..lineup import Price
from ..pricing import bundled_prices, with_bundled
from .intervals import NONE, Estimate, wilson
from .metrics import ROLES, PlayerMetrics, RoleMetrics, TournamentMetrics
from .results import RunGames, Spent
from .spec import RunSpec

__all__ = [
    "CHARTS",
    "REPORT_FORMAT",
    "Report",
    "render_report",
    "report_json",
    "report_json_text",
    "report_markdown",
    "require_matplotlib",
    "write_json",
    "write_plots",
]

REPORT_FORMAT = 1


@dataclass(frozen=True, slots=True)
class Report:
    spec: RunSpec
    games: RunGames
    metrics: TournamentMetrics

    def ranked(self) -> list[PlayerMetrics]:
        """Players by Bradley-Terry rating, best first (ties by name)."""
        bt = self.metrics.bradley_terry
        return sorted(
            self.metrics.players.values(), key=lambda p: (-(bt[p.name].value or 0.0), p.name)
        )


# -- formatting ---------------------------------------------------------------------------------
def _pct(e: Estimate) -> str:
    if e.value is None:
        return "-"
    if e.low is None or e.high is None:
        return f"{100 * e.value:.1f}"
    return f"{100 * e.value:.1f} [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _num(e: Estimate, digits: int = 0) -> str:
    if e.value is None:
        return "-"
    if e.low is None or e.high is None:
        return f"{e.value:,.{digits}f}"
    return f"{e.value:,.{digits}f} [{e.low:,.{digits}f}, {e.high:,.{digits}f}]"


def _usd(e: Estimate) -> str:
    if e.value is None:
        return "-"
    if e.low is None or e.high is None:
        return f"${e.value:.4f}"
    return f"${e.value:.4f} [{e.low:.4f}, {e.high:.4f}]"


@dataclass(frozen=True, slots=True)
class _Section:
    title: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]]
    note: str = ""


def _role(player: PlayerMetrics, role: str) -> RoleMetrics:
    held = player.roles.get(role)
    return held if held is not None else RoleMetrics(0, wilson(0, 0), wilson(0, 0))


def _sections(report: Report) -> list[_Section]:
    m = report.metrics
    ranked = report.ranked()
    # the roles of the nine-player board the run dealt, then any other identity it dealt
    dealt = {r for p in ranked for r, held in p.roles.items() if held.seats}
    roles = [r.value for r in ROLES if r.value in dealt or not dealt]
    roles += sorted(dealt - set(roles))
    witch = Identity.WITCH.value in dealt or not dealt  # no witch (kaggle-8): no potions
    sections = [
        _Section(
            "Leaderboard (win rates in %, 95% intervals in brackets)",
            ("Player", "Games", "Win rate", "Bradley-Terry", "Elo"),
            [
                (
                    p.name,
                    str(p.games),
                    _pct(p.win),
                    _num(m.bradley_terry[p.name]),
                    _num(m.elo[p.name]),
                )
                for p in ranked
            ],
        ),
        _Section(
            "By team",
            ("Player", "Win as wolves", "Win as good", "Survival", "Draws"),
            [
                (
                    p.name,
                    _pct(p.win_as["wolves"]),
                    _pct(p.win_as["good"]),
                    _pct(p.survival),
                    str(p.draws),
                )
                for p in ranked
            ],
        ),
        _Section(
            "Win rate by role",
            ("Player", *roles),
            [(p.name, *(_pct(_role(p, r).win) for r in roles)) for p in ranked],
        ),
        _Section(
            "Survival by role",
            ("Player", *roles),
            [(p.name, *(_pct(_role(p, r).survival) for r in roles)) for p in ranked],
        ),
        _Section(
            "Judgement",
            ("Player", "Votes on wolves", "Exiles of wolves", "Seer checks on wolves"),
            [
                (
                    p.name,
                    _pct(p.votes_on_wolves),
                    _pct(p.exiles_of_wolves),
                    _pct(p.seer_checks_on_wolves),
                )
                for p in ranked
            ],
            "Votes and exiles: while holding good seats.",
        ),
        _Section(
            "Potions and wolves",
            ("Player", "Witch saves of good", "Witch poisons on wolves", "Wolf days survived"),
            [
                (
                    p.name,
                    _pct(p.witch_saves_of_good),
                    _pct(p.witch_poisons_on_wolves),
                    _num(p.wolf_days, 2),
                )
                for p in ranked
            ],
        )
        if witch
        else _Section(
            "Wolves",
            ("Player", "Wolf days survived"),
            [(p.name, _num(p.wolf_days, 2)) for p in ranked],
        ),
    ]
    decisions, tokens = _cost_sections(ranked, _price_note(report))
    sections += [decisions, tokens] if any(p.calls for p in ranked) else [decisions]
    sections += _belief_sections(report)
    if m.matchups:
        sections.append(
            _Section(
                "Head to head",
                ("Match", "Games", "Wins", "Draws", "First's win rate"),
                [
                    (
                        f"{x.first} vs {x.second}",
                        str(x.games),
                        f"{x.first_wins}-{x.second_wins}",
                        str(x.draws),
                        _pct(x.first_win_rate),
                    )
                    for x in m.matchups
                ],
            )
        )
    return sections


def _belief_sections(report: Report) -> list[_Section]:
    """Detection, deception and calibration, when the games carry belief reports."""
    m, ranked = report.metrics, report.ranked()
    if not m.calibration:
        return []
    roles = [r.value for r in ROLES if r is not Identity.WEREWOLF]
    return [
        _Section(
            "Beliefs: detection (Brier, log-loss: lower is better) and deception",
            ("Player", "Reports", "Brier", "Log-loss", "Deception"),
            [
                (
                    p.name,
                    f"{p.belief_reports:,}",
                    _num(p.brier, 3),
                    _num(p.log_loss, 3),
                    _num(p.deception, 3),
                )
                for p in ranked
            ],
            "Good seats' P(wolf) reports against the truth; deception: how strongly good "
            "seats believed the player's wolves were good (1 - P(wolf)).",
        ),
        _Section(
            "Beliefs: Brier by day",
            ("Player", "Day 1", "Day 2", "Day 3+"),
            [
                (p.name, *(_num(p.brier_by_day.get(d, NONE), 3) for d in ("1", "2", "3+")))
                for p in ranked
            ],
        ),
        _Section(
            "Beliefs: Brier by the believer's identity",
            ("Player", *roles),
            [(p.name, *(_num(p.brier_by_identity.get(r, NONE), 3) for r in roles)) for p in ranked],
        ),
        _Section(
            "Calibration (every good seat's reports)",
            ("P(wolf)", "Reports", "Mean belief", "Wolf rate"),
            [
                (
                    f"{b.low:.1f}-{b.high:.1f}",
                    f"{b.reports:,}",
                    "-" if b.mean_belief is None else f"{100 * b.mean_belief:.1f}",
                    _pct(b.wolf_rate),
                )
                for b in m.calibration
            ],
            "Mean belief and wolf rate in %: calibrated reports have the two agree.",
        ),
    ]


def _price_note(report: Report) -> str:
    """Which models were priced from the bundled table, and its date."""
    bundled = bundled_prices()
    models = sorted(
        {
            p.spec.model
            for p in report.spec.players
            if p.uses_tokens
            and p.spec.model
            and report.spec.prices.get(p.spec.model) == bundled.prices.get(p.spec.model)
            and p.spec.model in bundled.prices
        }
    )
    if not models:
        return ""
    return (
        f"Cost of {', '.join(models)} at the bundled list prices of {bundled.as_of}; "
        "give yours with --prices FILE."
    )


def _cost_sections(ranked: Sequence[PlayerMetrics], price_note: str = "") -> list[_Section]:
    tokens = any(p.calls for p in ranked)
    note = "" if tokens else "No player used tokens: tokens, cost and latency are for LLM players."
    guessed = [p.name for p in ranked if p.estimated_tokens]
    if guessed:  # the endpoint reported no usage: those figures are estimates
        estimated = f"Tokens of {', '.join(guessed)} are estimated (no usage reported)."
        price_note = f"{price_note} {estimated}".strip()
    return [
        _Section(
            "Decisions",
            ("Player", "Decisions", "Fallback rate", "Latency ms"),
            [
                (p.name, f"{p.decisions:,}", _pct(p.fallback_rate), _num(p.latency_ms))
                for p in ranked
            ],
            note,
        ),
        _Section(
            "Tokens and cost",
            ("Player", "Tokens/game", "Tokens/decision", "Cost/game", "Cost/decision"),
            [
                (
                    p.name,
                    _num(p.tokens_per_game),
                    _num(p.tokens_per_decision),
                    _usd(p.cost_per_game),
                    _usd(p.cost_per_decision),
                )
                for p in ranked
            ],
            price_note,
        ),
    ]


def _summary(report: Report) -> list[str]:
    spec, games, m = report.spec, report.games, report.metrics
    names = ", ".join(p.name for p in spec.players)
    lines = [
        f"Arena run {spec.name}: {spec.schedule.value} of {names}; seed {spec.seed}.",
        f"{m.games} of {spec.games} games ended"
        + (f"; {len(games.unfinished)} unfinished" if games.unfinished else "")
        + (f"; {len(games.missing)} not played" if games.missing else "")
        + f". Wolves won {_pct(m.wolves_win).replace(' ', '% ', 1)} of them"
        + (f"; {m.draws} draws." if m.draws else "."),
    ]
    return lines + _spent_lines(report)


def _prices(report: Report) -> dict[str, Price]:
    """The prices the report's costs are at (the run's, then the bundled table)."""
    spec = report.spec
    return with_bundled(spec.prices, (p.spec.model for p in spec.players if p.uses_tokens))


def _spent_json(spent: Spent, prices: Mapping[str, Price]) -> dict[str, Any]:
    return {"tokens": spent.tokens, "estimated_tokens": spent.estimated, "cost": spent.cost(prices)}


def _spent_lines(report: Report) -> list[str]:
    """What the run spent: in all (what its budget counts) and in the ended games (what
    the figures below are of), when they differ; estimated tokens are said so."""
    games = report.games
    spent_all, prices = games.spent, _prices(report)
    if not spent_all.tokens:
        return []

    def figure(spent: Spent) -> str:
        cost = spent.cost(prices)
        return f"{spent.tokens:,} tokens" + ("" if cost is None else f", ${cost:.4f}")

    ended = len(games.records)
    if games.unfinished_spent.tokens:
        line = (
            f"Spent in all: {figure(spent_all)} (what the budget counts, with "
            f"{len(games.unfinished)} unfinished games); in the {ended} ended games: "
            f"{figure(games.ended_spent)}."
        )
    else:
        line = f"Tokens used: {figure(spent_all)}."
    if spent_all.estimated:
        line += (
            f" Of them {spent_all.estimated:,} are estimated from the text: the endpoint "
            "reported no usage."
        )
    return [line]


# -- rich -----------------------------------------------------------------------------------------
_GAP = 2  # columns between table columns: one padding space and the (blank) divider


def render_report(console: Console, report: Report) -> None:
    """Print the report's tables, each fitted to the console's width."""
    parts: list[RenderableType] = [Text(line) for line in _summary(report)]
    for section in _sections(report):
        table = Table(
            title=section.title,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            padding=(0, 0, 0, _GAP - 1),
            pad_edge=False,
        )
        for i, header in enumerate(section.headers):
            table.add_column(header, justify="left" if i == 0 else "right")
        for row in _fitted(section, console.width):
            table.add_row(*row)
        parts.append(table)
        if section.note:
            parts.append(Text(section.note, style="dim"))
        parts.append(Text(""))
    console.print(Group(*parts))


def _fitted(section: _Section, width: int) -> list[tuple[str, ...]]:
    """The rows, fitted to ``width`` without ever breaking an interval inside (``[62.6,``
    then ``70.8]``): first the intervals of the widest columns move under their values,
    then, if it is still too wide, intervals lose the space after their comma."""
    if not section.rows:
        return []
    columns = [list(col) for col in zip(*section.rows, strict=True)]
    header_words = [max(len(w) for w in h.split()) for h in section.headers]

    def column_width(i: int) -> int:
        lines = [line for cell in columns[i] for line in cell.split("\n")]
        return max([header_words[i], *(len(line) for line in lines)])

    def too_wide() -> bool:
        return sum(map(column_width, range(len(columns)))) + _GAP * (len(columns) - 1) > width

    while too_wide():
        splittable = [i for i, col in enumerate(columns) if any(" [" in c for c in col)]
        if not splittable:
            break
        widest = max(splittable, key=column_width)
        columns[widest] = [c.replace(" [", "\n[", 1) for c in columns[widest]]
    if too_wide():
        columns = [[c.replace(", ", ",") if "[" in c else c for c in col] for col in columns]
    return [tuple(row) for row in zip(*columns, strict=True)]


# -- Markdown -------------------------------------------------------------------------------------
def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def report_markdown(report: Report) -> str:
    lines = [f"# Arena run `{report.spec.name}`", ""]
    lines += [line + "  " for line in _summary(report)]
    for section in _sections(report):
        lines += ["", f"## {section.title}", ""]
        lines.append("| " + " | ".join(section.headers) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * (len(section.headers) - 1)) + "|")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in section.rows]
        if section.note:
            lines += ["", f"_{section.note}_"]
    lines += [
        "",
        "Intervals are 95%: Wilson for rates, a bootstrap over games for ratings, means and "
        "ratios. Definitions: docs/arena.md.",
        "",
    ]
    return "\n".join(lines)


# -- JSON -----------------------------------------------------------------------------------------
def _player_json(p: PlayerMetrics) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in p.__slots__:  # a slotted dataclass names its fields here
        value = getattr(p, name)
        if isinstance(value, Estimate):
            out[name] = value.as_dict()
        elif name == "win_as" or name in ("brier_by_day", "brier_by_identity"):
            out[name] = {k: v.as_dict() for k, v in value.items()}
        elif name == "calibration":
            out[name] = [b.as_dict() for b in value]
        elif name == "roles":
            out[name] = {
                k: {"seats": r.seats, "win": r.win.as_dict(), "survival": r.survival.as_dict()}
                for k, r in value.items()
            }
        else:
            out[name] = value
    return out


def _shown_player(player: dict[str, Any]) -> dict[str, Any]:
    """A player of the run as a report (a file meant to be shared) shows it: its endpoint
    without the password or query values a roster's base_url may hold."""
    seat = player.get("spec")
    if isinstance(seat, dict) and isinstance(seat.get("base_url"), str):
        player = {**player, "spec": {**seat, "base_url": public_url(seat["base_url"])}}
    return player


def report_json(report: Report) -> dict[str, Any]:
    spec, m = report.spec, report.metrics
    return {
        "format": REPORT_FORMAT,
        "run": {
            "name": spec.name,
            "schedule": spec.schedule.value,
            "seed": spec.seed,
            "players": [_shown_player(p.model_dump(mode="json")) for p in spec.players],
            "lineup": list(spec.lineup) if spec.lineup else None,
            "config": spec.config.model_dump(mode="json"),
            "prices": {k: v.model_dump(mode="json") for k, v in spec.prices.items()},
        },
        "games": {
            "planned": spec.games,
            "ended": m.games,
            "unfinished": list(report.games.unfinished),
            "missing": list(report.games.missing),
            "wolves_win": m.wolves_win.as_dict(),
            "draws": m.draws,
        },
        "spent": {  # all: every game, as the budget counts; ended: the games reported on
            "all": _spent_json(report.games.spent, _prices(report)),
            "ended": _spent_json(report.games.ended_spent, _prices(report)),
        },
        "ratings": {
            "bradley_terry": {k: v.as_dict() for k, v in m.bradley_terry.items()},
            "elo": {k: v.as_dict() for k, v in m.elo.items()},
            "wolf_edge": m.wolf_edge.as_dict(),
        },
        "players": {name: _player_json(p) for name, p in m.players.items()},
        "calibration": [b.as_dict() for b in m.calibration],
        "matchups": [
            {
                "first": x.first,
                "second": x.second,
                "games": x.games,
                "first_wins": x.first_wins,
                "second_wins": x.second_wins,
                "draws": x.draws,
                "first_win_rate": x.first_win_rate.as_dict(),
            }
            for x in m.matchups
        ],
    }


def report_json_text(report: Report) -> str:
    """The JSON file's text."""
    return json.dumps(report_json(report), indent=2) + "\n"


def write_json(report: Report, path: Path) -> None:
    path.write_text(report_json_text(report), encoding="utf-8")


# -- charts ---------------------------------------------------------------------------------------
def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` (drawing to files), or a ConfigError saying how to install it."""
    try:  # imported by name: matplotlib is an optional extra, typed or not installed
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")  # files only: never open a window
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise ConfigError(
            [("--plot", "charts need matplotlib: pip install 'pulse-werewolf[plot]'")]
        ) from None
    return plt


CHARTS = ("ratings.png", "rating-vs-cost.png", "calibration.png")
"""The files ``write_plots`` may write into its folder."""


def write_plots(report: Report, folder: Path) -> list[Path]:
    """``ratings.png`` (Bradley-Terry and Elo with intervals, per player); when two or more
    players used tokens (something to compare), ``rating-vs-cost.png``; with belief reports,
    ``calibration.png``; returns the files written."""
    plt = require_matplotlib()
    folder.mkdir(parents=True, exist_ok=True)
    ranked = list(reversed(report.ranked()))  # best at the top of a horizontal chart
    m = report.metrics
    written = [folder / CHARTS[0]]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(ranked)))
    for offset, (label, ratings) in (
        (-0.15, ("Bradley-Terry", m.bradley_terry)),
        (0.15, ("Elo", m.elo)),
    ):
        _errorbars(ax, ranked, ratings, offset, label, horizontal=True)
    ax.set_yticks(range(len(ranked)), [p.name for p in ranked])
    ax.set_xlabel("rating (95% interval)")
    ax.set_title(f"Arena run {report.spec.name}: {m.games} games")
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(written[0], dpi=120)
    plt.close(fig)
    spenders = [p for p in ranked if p.calls]
    if len(spenders) >= 2:  # one point has nothing to be compared with
        priced = all(p.cost_per_game.value is not None for p in spenders)
        cost: Callable[[PlayerMetrics], float] = (
            (lambda p: p.cost_per_game.value or 0.0)
            if priced
            else (lambda p: p.tokens_per_game.value or 0.0)
        )
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for p in spenders:
            e = m.bradley_terry[p.name]
            assert e.value is not None  # ratings are always defined
            low, high = e.low if e.low is not None else e.value, e.high or e.value
            ax.errorbar([cost(p)], [e.value], yerr=[[e.value - low], [high - e.value]], fmt="o")
            ax.annotate(p.name, (cost(p), e.value), textcoords="offset points", xytext=(6, 4))
        ax.set_xlabel("USD per game" if priced else "tokens per game")
        ax.set_ylabel("Bradley-Terry rating (95% interval)")
        ax.set_title("Rating against cost")
        fig.tight_layout()
        written.append(folder / CHARTS[1])
        fig.savefig(written[-1], dpi=120)
        plt.close(fig)
    if m.calibration:
        written.append(_calibration_chart(plt, report, folder / CHARTS[2]))
    return written


def _calibration_chart(plt: Any, report: Report, path: Path) -> Path:
    """The reliability diagram: per player, the wolf rate of its reports against their mean
    belief, bin by bin (a calibrated player lies on the diagonal)."""
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="calibrated")
    for p in report.ranked():
        points = [
            (b.mean_belief, b.wolf_rate.value)
            for b in p.calibration
            if b.mean_belief is not None and b.wolf_rate.value is not None
        ]
        if points:
            xs, ys = zip(*points, strict=True)
            ax.plot(xs, ys, marker="o", label=p.name)
    ax.set_xlabel("mean P(wolf) reported (bin)")
    ax.set_ylabel("share that were wolves")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title("Calibration of good seats' beliefs")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _errorbars(
    ax: Any,
    players: Sequence[PlayerMetrics],
    ratings: dict[str, Estimate],
    offset: float,
    label: str,
    *,
    horizontal: bool,
) -> None:
    values = [ratings[p.name].value or 0.0 for p in players]
    lows = [v - (ratings[p.name].low or v) for p, v in zip(players, values, strict=True)]
    highs = [(ratings[p.name].high or v) - v for p, v in zip(players, values, strict=True)]
    positions = [i + offset for i in range(len(players))]
    if horizontal:
        ax.errorbar(values, positions, xerr=[lows, highs], fmt="o", capsize=3, label=label)
    else:
        ax.errorbar(positions, values, yerr=[lows, highs], fmt="o", capsize=3, label=label)
