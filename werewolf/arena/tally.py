"""Following a run's games in the store, incrementally: which have ended or failed, who won,
what they cost (``RunProgress``), and whether the budget is spent (``Tally``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pulse_core import Event, EventStore

from ..game import WORKFLOW
from ..scope import TopicScope, floor_seq
from .schedule import GamePlan, game_id, plan_game
from .spec import RunSpec

__all__ = ["END_KIND", "ERROR_KIND", "RunProgress", "Tally"]

ERROR_KIND = f"{WORKFLOW}.__error__"
END_KIND = f"{WORKFLOW}.game-end"


@dataclass
class RunProgress:
    """What a run has done so far, as its log says."""

    total: int
    ended: set[int] = field(default_factory=set)
    failed: set[int] = field(default_factory=set)
    wins: Counter[str] = field(default_factory=Counter)  # games won, per player
    played: Counter[str] = field(default_factory=Counter)  # games played, per player
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0  # USD; None when a seat that used tokens has no price

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def win_rate(self, player: str) -> float | None:
        n = self.played[player]
        return self.wins[player] / n if n else None


class Tally:
    """Follows a run's games in the store (incrementally) for progress and the budget."""

    def __init__(self, spec: RunSpec, store: EventStore) -> None:
        self.spec = spec
        self.store = store
        self.plans = {game_id(spec, i): plan_game(spec, i) for i in range(spec.games)}
        self.scope = TopicScope(store, self.plans)
        self.cursor = floor_seq(store, self.plans)
        self.progress = RunProgress(total=spec.games)

    def update(self) -> RunProgress:
        progress = self.progress
        for event in self.scope.read_after(self.cursor):
            self.cursor = event.seq
            plan = self.plans[event.key]
            if event.kind == ERROR_KIND:
                progress.failed.add(plan.index)
            elif event.kind == f"{WORKFLOW}.__resume__":
                progress.failed.discard(plan.index)
            elif event.kind == END_KIND:
                self._count_end(plan, event)
            for use in event.meta.get("usage", []):
                self._count_usage(plan, use)
        return progress

    def _count_end(self, plan: GamePlan, event: Event) -> None:
        progress = self.progress
        if plan.index in progress.ended:
            return
        progress.ended.add(plan.index)
        winner = event.meta.get("diff", {}).get("winner")
        for team, players in plan.sides().items():
            for player in sorted(set(players)):
                progress.played[player] += 1
                if winner == team.value:
                    progress.wins[player] += 1

    def _count_usage(self, plan: GamePlan, use: dict[str, object]) -> None:
        progress = self.progress
        prompt = int(use.get("prompt_tokens", 0))  # type: ignore[call-overload]
        completion = int(use.get("completion_tokens", 0))  # type: ignore[call-overload]
        progress.prompt_tokens += prompt
        progress.completion_tokens += completion
        if progress.cost is None or prompt + completion == 0:
            return
        seat = int(use["seat"])  # type: ignore[call-overload]
        model = self.spec.player(plan.assignment[seat - 1]).spec.model
        price = self.spec.prices.get(model) if model else None
        progress.cost = None if price is None else progress.cost + price.cost(prompt, completion)

    def over_budget(self) -> str | None:
        """Why the run must stop now, or None while it is within its budget."""
        budget, progress = self.spec.budget, self.progress
        if budget.tokens is not None and progress.tokens >= budget.tokens:
            return f"the budget of {budget.tokens:,} tokens is spent ({progress.tokens:,} used)"
        if budget.usd is not None and progress.cost is not None and progress.cost >= budget.usd:
            return f"the budget of ${budget.usd:.2f} is spent (${progress.cost:.4f} used)"
        return None
