"""A package's names loaded on first use (PEP 562), so that importing one of its modules
loads none of the others: the package's ``__init__`` imports nothing of its own, and an
import of one of its modules never runs the rest.

``__getattr__, __dir__ = lazy_names(__name__, {"Name": "module", ...})`` in a package's
``__init__``, with the same names imported under ``if TYPE_CHECKING:`` for the type checker.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose name ``N`` is defined in
    its module ``homes[N]`` (relative to the package, dotted for deeper ones)."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)  # loaded once: next time it is found
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
