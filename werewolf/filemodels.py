"""Models filled from a file a user wrote (a config, lineup, roster, price table or run file):
strict types, as JSON has them.

pydantic's lax mode reads ``day_cap = true`` as 1 and ``allow_abstain = "yes"`` as true: a
typo plays another game than the one written. ``from_file`` validates in strict mode, on the
values as JSON would carry them, so a bool is ``true`` or ``false``, a whole number an integer
(not ``true``, ``1.0`` or ``"3"``), a number an integer or a float, text a string; a choice is
its string, a list fills a tuple and a table's number keys fill an ``int``-keyed mapping.
"""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel

__all__ = ["from_file"]

M = TypeVar("M", bound=BaseModel)


def _no_value(value: object) -> object:
    """What a TOML date or time becomes: a table no field takes, so the problem is reported
    at the field that holds it (``str()`` would let it pass as text)."""
    return {"a date or time": str(value)}


def from_file(model: type[M], data: object) -> M:
    """``data`` (parsed from a file) as a ``model``, strictly; raises pydantic's
    ValidationError, each problem with its field path."""
    text = json.dumps(data, ensure_ascii=False, default=_no_value)
    return model.model_validate_json(text, strict=True)
