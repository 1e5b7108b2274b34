"""The bundled price table: list prices of common models, dated, for cost figures without a
prices file.

``werewolf/prices.toml`` holds USD per million tokens by model name (exact names, as a seat
spec gives them) and the date they were read. ``with_bundled(prices, models)`` is what
every command uses: the caller's own prices (``--prices``, a lineup's or roster's
``[prices]``) win; a model they do not price takes the bundled price, if it has one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from .filemodels import from_file
from .lineup import Price

__all__ = ["PRICES_FILE", "BundledPrices", "bundled_prices", "with_bundled"]

PRICES_FILE = Path(__file__).with_name("prices.toml")


@dataclass(frozen=True, slots=True)
class BundledPrices:
    as_of: str  # the date the prices were read, YYYY-MM-DD
    prices: Mapping[str, Price]


@cache
def bundled_prices() -> BundledPrices:
    """The bundled table (read once). A broken table is a bug in the package: it raises."""
    data = tomllib.loads(PRICES_FILE.read_text(encoding="utf-8"))
    try:
        prices = {str(m): from_file(Price, p) for m, p in data["prices"].items()}
    except (KeyError, ValidationError) as exc:
        raise RuntimeError(f"{PRICES_FILE}: not a price table: {exc}") from exc
    return BundledPrices(str(data["as_of"]), prices)


def with_bundled(prices: Mapping[str, Price], models: Iterable[str | None]) -> dict[str, Price]:
    """``prices``, plus the bundled price of each of ``models`` that ``prices`` lacks."""
    table = bundled_prices().prices
    out = dict(prices)
    for model in models:
        if model and model not in out and model in table:
            out[model] = table[model]
    return out
