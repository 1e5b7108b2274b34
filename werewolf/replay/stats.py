"""Summary statistics of one game: per seat and, for LLM seats, tokens and cost.

Per seat: exile votes cast and how many hit a wolf, votes received (a seat that received
any was suspected), and decisions that fell back after refused answers. For the game: the
token usage the phases recorded, and its cost at the prices the caller gives (the log
records tokens, not prices, which change): by model, for the seats whose model the start
event names (``game.players[i].model``), else one default price.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pulse_core import Event

from ..cast import Team
from ..game import fold_chain
from ..lineup import Price
from .render import StoryRenderer
from .words import word

__all__ = ["GameStats", "Prices", "SeatStats", "game_stats", "render_stats"]


@dataclass(frozen=True, slots=True)
class SeatStats:
    seat: int
    votes_cast: int = 0  # ballots for a seat (abstentions not counted), PK rounds included
    votes_on_wolves: int = 0
    votes_received: int = 0
    fallbacks: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    @property
    def suspected(self) -> bool:
        return self.votes_received > 0


@dataclass(frozen=True, slots=True)
class Prices:
    """Token prices: by model name, and a default for seats of other or unknown models."""

    by_model: Mapping[str, Price]
    default: Price | None = None

    def of(self, model: str | None) -> Price | None:
        found = self.by_model.get(model) if model else None
        return found if found is not None else self.default


@dataclass(frozen=True, slots=True)
class GameStats:
    seats: tuple[SeatStats, ...]
    models: Mapping[int, str]  # seat -> model, for the seats the start event names one

    @property
    def prompt_tokens(self) -> int:
        return sum(s.prompt_tokens for s in self.seats)

    @property
    def completion_tokens(self) -> int:
        return sum(s.completion_tokens for s in self.seats)

    @property
    def calls(self) -> int:
        return sum(s.calls for s in self.seats)

    def cost(self, prices: Prices) -> float | None:
        """The game's cost in USD, or None when a seat that used tokens has no price."""
        total = 0.0
        for s in self.seats:
            if s.calls == 0:
                continue
            price = prices.of(self.models.get(s.seat))
            if price is None:
                return None
            total += price.cost(s.prompt_tokens, s.completion_tokens)
        return total


def _models(players: Any) -> dict[int, str]:
    """Seat -> model from the start event's ``game.players`` list, when it has one."""
    if not isinstance(players, list):
        return {}
    return {
        seat: str(p["model"])
        for seat, p in enumerate(players, start=1)
        if isinstance(p, dict) and p.get("model")
    }


def game_stats(chain: Sequence[Event]) -> GameStats:
    """The statistics of a game's full (god) chain."""
    state = fold_chain(chain)
    counts = {s: dict.fromkeys(SeatStats.__slots__[1:], 0) for s in state.seats}
    for event in chain:
        meta = event.meta
        if event.role == "vote":
            for voter, target in meta.get("detail", {}).get("ballots", []):
                if target is None:
                    continue
                counts[voter]["votes_cast"] += 1
                counts[target]["votes_received"] += 1
                if state.team(target) is Team.WOLVES:
                    counts[voter]["votes_on_wolves"] += 1
        for fb in meta.get("fallbacks", []):
            counts[fb["seat"]]["fallbacks"] += 1
        for use in meta.get("usage", []):
            seat = counts[use["seat"]]
            seat["prompt_tokens"] += use["prompt_tokens"]
            seat["completion_tokens"] += use["completion_tokens"]
            seat["calls"] += use["calls"]
    seats = tuple(SeatStats(seat, **values) for seat, values in counts.items())
    return GameStats(seats, _models(chain[0].meta.get("game", {}).get("players")))


def render_stats(
    stats: GameStats, renderer: StoryRenderer, prices: Prices | None = None
) -> RenderableType:
    """The summary table and the game's usage line."""
    w = renderer.w  # in the game's language
    table = Table(title=w("Summary"), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column(w("Seat"))
    table.add_column(w("Votes on wolves"), justify="right")  # hits / votes cast
    table.add_column(w("Suspected"))
    table.add_column(w("Fallbacks"), justify="right")
    tokens = stats.calls > 0
    if tokens:
        table.add_column(w("Tokens"), justify="right")
    for s in stats.seats:
        row = [
            renderer.seat(s.seat, role=True),
            Text(f"{s.votes_on_wolves}/{s.votes_cast}"),
            Text(_suspected(s.votes_received, renderer.lang)),
            Text(str(s.fallbacks)),
        ]
        if tokens:
            row.append(Text(f"{s.prompt_tokens + s.completion_tokens:,}"))
        table.add_row(*row)
    if not tokens:
        usage = Text(w("No LLM seats played: no tokens were used."), style="dim")
    else:
        usage = Text(
            w(
                "LLM usage: {calls} calls, {prompt} prompt and {completion} completion tokens",
                calls=f"{stats.calls:,}",
                prompt=f"{stats.prompt_tokens:,}",
                completion=f"{stats.completion_tokens:,}",
            )
        )
        cost = stats.cost(prices) if prices is not None else None
        if cost is not None:
            usage.append(w(", costing about ${cost}", cost=f"{cost:.4f}"))
        else:
            usage.append(w(" (give prices for a cost: --price or --prices)"))
        usage.append(w("."))
    return Group(Text(""), table, usage)


def _suspected(votes: int, lang: str = "en") -> str:
    if votes == 0:
        return word("no", lang)
    if lang == "zh":
        return word("yes ({votes} votes)", lang, votes=votes)
    return f"yes ({votes} vote{'s' if votes != 1 else ''})"
