"""Evidence: a reason why a seat looks like a wolf or not, with its weight in log-odds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Evidence", "Reason", "Weigher"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a seat looks like a wolf (or not): ``kind`` names the evidence, rendered by the
    language modules; ``other`` is the second seat involved, ``day`` when it happened."""

    kind: str
    seat: int
    other: int | None = None
    day: int = 0
    role: str = ""  # for role claims


@dataclass(frozen=True, slots=True)
class Evidence:
    seat: int
    weight: float  # log-likelihood ratio, positive: more likely a wolf
    reason: Reason
    public: bool = True  # the seat may say it aloud


class Weigher:
    """Collects evidence as log-odds per seat; ``fix`` pins a seat known for certain."""

    def __init__(self, others: Iterable[int]) -> None:
        self.logit = {s: 0.0 for s in others}
        self.evidence: list[Evidence] = []
        self.fixed: dict[int, float] = {}

    def add(self, seat: int, weight: float, reason: Reason, *, public: bool = True) -> None:
        if seat in self.logit and weight != 0.0:
            self.logit[seat] += weight
            self.evidence.append(Evidence(seat, weight, reason, public))

    def fix(self, seat: int, prob: float, reason: Reason) -> None:
        if seat in self.logit:
            self.fixed[seat] = prob
            self.evidence.append(Evidence(seat, 20.0 if prob > 0.5 else -20.0, reason))
