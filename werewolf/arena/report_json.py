"""A tournament report as a JSON file: every figure with its interval (``value``, ``low``,
``high``, ``n`` and, for rates, ``hits``), and nothing that depends on when or how fast the games
were played, so the same games give the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pulse_core.redact import public_url

from .intervals import Estimate
from .metrics import PlayerMetrics
from .report import Report, report_prices, spent_json

__all__ = ["REPORT_FORMAT", "report_json", "report_json_text", "write_json"]


REPORT_FORMAT = 1


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
            "all": spent_json(report.games.spent, report_prices(report)),
            "ended": spent_json(report.games.ended_spent, report_prices(report)),
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
