"""A tournament's report: what it says, as titled sections of rows, from ``TournamentMetrics``.

``report_tables`` draws the sections as rich tables and Markdown, ``report_json`` writes
every figure with its interval to a JSON file, ``report_plots`` draws PNG charts (they need
matplotlib: ``pip install 'pulse-werewolf[plot]'``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cast import Identity
from ..lineup import Price
from ..pricing import bundled_prices, with_bundled
from .intervals import NONE, Estimate, wilson
from .metrics import ROLES, PlayerMetrics, RoleMetrics, TournamentMetrics
from .results import RunGames, Spent
from .spec import RunSpec

__all__ = ["Report", "Section", "report_prices", "sections", "spent_json", "summary"]


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
class Section:
    title: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]]
    note: str = ""


def _role(player: PlayerMetrics, role: str) -> RoleMetrics:
    held = player.roles.get(role)
    return held if held is not None else RoleMetrics(0, wilson(0, 0), wilson(0, 0))


def sections(report: Report) -> list[Section]:
    m = report.metrics
    ranked = report.ranked()
    # the roles of the nine-player board the run dealt, then any other identity it dealt
    dealt = {r for p in ranked for r, held in p.roles.items() if held.seats}
    roles = [r.value for r in ROLES if r.value in dealt or not dealt]
    roles += sorted(dealt - set(roles))
    witch = Identity.WITCH.value in dealt or not dealt  # no witch (kaggle-8): no potions
    sections = [
        Section(
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
        Section(
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
        Section(
            "Win rate by role",
            ("Player", *roles),
            [(p.name, *(_pct(_role(p, r).win) for r in roles)) for p in ranked],
        ),
        Section(
            "Survival by role",
            ("Player", *roles),
            [(p.name, *(_pct(_role(p, r).survival) for r in roles)) for p in ranked],
        ),
        Section(
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
        Section(
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
        else Section(
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
            Section(
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


def _belief_sections(report: Report) -> list[Section]:
    """Detection, deception and calibration, when the games carry belief reports."""
    m, ranked = report.metrics, report.ranked()
    if not m.calibration:
        return []
    roles = [r.value for r in ROLES if r is not Identity.WEREWOLF]
    return [
        Section(
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
        Section(
            "Beliefs: Brier by day",
            ("Player", "Day 1", "Day 2", "Day 3+"),
            [
                (p.name, *(_num(p.brier_by_day.get(d, NONE), 3) for d in ("1", "2", "3+")))
                for p in ranked
            ],
        ),
        Section(
            "Beliefs: Brier by the believer's identity",
            ("Player", *roles),
            [(p.name, *(_num(p.brier_by_identity.get(r, NONE), 3) for r in roles)) for p in ranked],
        ),
        Section(
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


def _cost_sections(ranked: Sequence[PlayerMetrics], price_note: str = "") -> list[Section]:
    tokens = any(p.calls for p in ranked)
    note = "" if tokens else "No player used tokens: tokens, cost and latency are for LLM players."
    guessed = [p.name for p in ranked if p.estimated_tokens]
    if guessed:  # the endpoint reported no usage: those figures are estimates
        estimated = f"Tokens of {', '.join(guessed)} are estimated (no usage reported)."
        price_note = f"{price_note} {estimated}".strip()
    return [
        Section(
            "Decisions",
            ("Player", "Decisions", "Fallback rate", "Latency ms"),
            [
                (p.name, f"{p.decisions:,}", _pct(p.fallback_rate), _num(p.latency_ms))
                for p in ranked
            ],
            note,
        ),
        Section(
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


def summary(report: Report) -> list[str]:
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


def report_prices(report: Report) -> dict[str, Price]:
    """The prices the report's costs are at (the run's, then the bundled table)."""
    spec = report.spec
    return with_bundled(spec.prices, (p.spec.model for p in spec.players if p.uses_tokens))


def spent_json(spent: Spent, prices: Mapping[str, Price]) -> dict[str, Any]:
    return {"tokens": spent.tokens, "estimated_tokens": spent.estimated, "cost": spent.cost(prices)}


def _spent_lines(report: Report) -> list[str]:
    """What the run spent: in all (what its budget counts) and in the ended games (what
    the figures below are of), when they differ; estimated tokens are said so."""
    games = report.games
    spent_all, prices = games.spent, report_prices(report)
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
