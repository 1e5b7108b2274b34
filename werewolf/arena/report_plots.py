"""A tournament report's PNG charts (matplotlib, the ``plot`` extra): ratings, rating against cost,
calibration."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .intervals import Estimate
from .metrics import PlayerMetrics
from .report import Report

__all__ = ["CHARTS", "require_matplotlib", "write_plots"]


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
