"""Fast copies and fills of frozen dataclasses, for the engine's hot paths.

``replace``: a frozen dataclass copied by its field dict.

``dataclasses.replace`` runs the class's ``__init__`` (a frozen one sets each field through
``object.__setattr__``), several microseconds for a state of twenty fields, and the fold
makes a few copies per event. A frozen dataclass without slots keeps its fields in
``__dict__``, so a copy is a copy of that dict, updated. No ``__post_init__`` runs: folding never
re-validates, and what ``__post_init__`` derived from fields that did not change is
copied with them.

``slot_setters``: how a frozen slots dataclass made for every decision is filled without its
``__init__``, which sets each field through ``object.__setattr__`` (several times slower).

``fill_class``: cheaper still, a plain class of the same slots, whose instance is filled by
plain slot stores and then given the frozen class (``obj.__class__ = cls``); it is
``pulse_core.events.fill_class``, which fills every event, here beside the others.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from pulse_core.events import fill_class

__all__ = ["fill_class", "replace", "slot_setters"]

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """``obj`` with ``changes``, like ``dataclasses.replace`` (which it uses for slots)."""
    fields = getattr(obj, "__dict__", None)
    if fields is None:  # a slots dataclass has no field dict to copy
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    copy = fields.copy()  # a dict's own copy: ~5x faster than filling a new instance's dict
    copy.update(changes)
    if len(copy) != len(fields):  # a name that is no field added an entry
        names = {f.name for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    cls = type(obj)
    set_dict = _DICT_SETTERS.get(cls)
    if set_dict is None:
        set_dict = _DICT_SETTERS[cls] = _dict_setter(cls)
    new: T = object.__new__(cls)
    set_dict(new, copy)  # past the frozen class's __setattr__
    return new


# by class, the ``__set__`` of its ``__dict__`` descriptor: a fifth cheaper than
# ``object.__setattr__(new, "__dict__", copy)``, which looks the descriptor up on every call
_DICT_SETTERS: dict[type, Any] = {}


def _dict_setter(cls: type) -> Any:
    for klass in cls.__mro__:
        descriptor = vars(klass).get("__dict__")
        if descriptor is not None and hasattr(descriptor, "__set__"):
            return descriptor.__set__
    raise TypeError(f"{cls.__name__} instances have no field dict")


def slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The ``__set__`` of each field's slot of the slots dataclass ``cls``, in ``names``
    order; ``names`` must be all its fields, in their order (raises TypeError otherwise), so
    a field added to the class and not to a fast fill fails at import, not silently."""
    if names != tuple(f.name for f in dataclasses.fields(cls)):
        raise TypeError(f"{cls.__name__}'s fields are not {names}")
    return tuple(getattr(cls, name).__set__ for name in names)
