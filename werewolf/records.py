"""``replace`` for the fold's hot path: a frozen dataclass copied by its field dict.

``dataclasses.replace`` runs the class's ``__init__`` (a frozen one sets each field through
``object.__setattr__``), several microseconds for a state of twenty fields, and the fold
makes a few copies per event. A frozen dataclass without slots keeps its fields in
``__dict__``, so a copy is two dict updates. No ``__post_init__`` runs: folding never
re-validates.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["replace"]

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str]] = {}


def replace(obj: T, **changes: Any) -> T:
    """``obj`` with ``changes``, like ``dataclasses.replace`` (which it uses for slots)."""
    fields = getattr(obj, "__dict__", None)
    if fields is None:  # a slots dataclass has no field dict to copy
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(obj))  # type: ignore[arg-type]
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    new: T = object.__new__(cls)
    copy = new.__dict__
    copy.update(fields)
    copy.update(changes)
    return new
