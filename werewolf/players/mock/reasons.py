"""Evidence: a reason why a seat looks like a wolf or not, with its weight in log-odds.

A decision weighs dozens of pieces and words only a few of them, so the weigher keeps each
piece as a plain tuple (a ``Found``) and ``Evidence`` objects are made only when read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Evidence", "Found", "Reason", "Weigher", "evidence_of"]

# seat, weight, kind, other, day, role, public: the fields of an Evidence and its Reason
Found = tuple[int, float, str, int | None, int, str, bool]


# made by the thousand: not frozen (a frozen init sets each field through
# object.__setattr__, several times the cost); never written to once made
@dataclass(slots=True, unsafe_hash=True)
class Reason:
    """Why a seat looks like a wolf (or not): ``kind`` names the evidence, rendered by the
    language modules; ``other`` is the second seat involved, ``day`` when it happened."""

    kind: str
    seat: int
    other: int | None = None
    day: int = 0
    role: str = ""  # for role claims


# made by the thousand: not frozen (a frozen init sets each field through
# object.__setattr__, several times the cost); never written to once made
@dataclass(slots=True, unsafe_hash=True)
class Evidence:
    seat: int
    weight: float  # log-likelihood ratio, positive: more likely a wolf
    reason: Reason
    public: bool = True  # the seat may say it aloud


def evidence_of(found: Iterable[Found]) -> list[Evidence]:
    return [Evidence(s, w, Reason(k, s, o, d, r), p) for s, w, k, o, d, r, p in found]


class Weigher:
    """Collects evidence as log-odds per seat; ``fix`` pins a seat known for certain. Each
    piece is about ``seat``; ``other`` is the second seat its reason names."""

    __slots__ = ("fixed", "found", "logit")

    def __init__(self, others: Iterable[int]) -> None:
        self.logit = dict.fromkeys(others, 0.0)
        self.found: list[Found] = []
        self.fixed: dict[int, float] = {}

    def add(
        self,
        seat: int,
        weight: float,
        kind: str,
        other: int | None = None,
        day: int = 0,
        role: str = "",
        public: bool = True,
    ) -> None:
        logit = self.logit
        if seat in logit and weight != 0.0:
            logit[seat] += weight
            self.found.append((seat, weight, kind, other, day, role, public))

    def add_feelings(self, feelings: Iterable[float]) -> None:
        """``add(seat, feeling, "gut", public=False)`` for every seat in seat order, one
        feeling each (the day's gut, a piece per seat: in one loop, not a call each)."""
        logit, found = self.logit, self.found
        for seat, feeling in zip(sorted(logit), feelings, strict=True):
            if feeling != 0.0:
                logit[seat] += feeling
                found.append((seat, feeling, "gut", None, 0, "", False))

    def fix(self, seat: int, prob: float, kind: str, day: int = 0) -> None:
        if seat in self.logit:
            self.fixed[seat] = prob
            self.found.append((seat, 20.0 if prob > 0.5 else -20.0, kind, None, day, "", True))
