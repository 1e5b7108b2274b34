"""Players written in Python: ``py:package.module:factory`` seats, and installed players.

A ``py:`` seat names a factory by its import path; it is called as every seat kind's
factory is, ``factory(game_seed=..., seat=..., **options)``, and must return an object with
an async ``decide(request)`` (``werewolf.players.Player``). An installed package may offer
players under the entry-point group ``werewolf.players``::

    [project.entry-points."werewolf.players"]
    cautious = "mypackage.players:make_cautious"

after which ``--seat 3=cautious`` seats it (``werewolf players`` lists them).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..errors import ConfigError

__all__ = [
    "ENTRY_POINT_GROUP",
    "installed_factory",
    "installed_players",
    "load_factory",
    "split_target",
]

ENTRY_POINT_GROUP = "werewolf.players"


def split_target(target: str, where: str = "--seat") -> tuple[str, str]:
    """``"pkg.mod:make"`` -> ``("pkg.mod", "make")``; raises ConfigError naming it."""
    module, sep, attr = target.strip().partition(":")
    names = [*module.split("."), *attr.split(".")]
    if not sep or not all(name.isidentifier() for name in names):
        raise ConfigError(
            [(where, f"{target!r}: a Python player is py:MODULE:FACTORY, e.g. py:mypkg.bots:make")]
        )
    return module, attr


def load_factory(target: str, where: str = "--seat") -> Callable[..., Any]:
    """The callable ``target`` (``module.path:factory``) names, imported; a ConfigError
    naming the spec when the module cannot be imported or the name is missing or not
    callable."""
    module_name, attr = split_target(target, where)
    spec = f"py:{target}"
    here = os.getcwd()  # a module beside the command, as ``python -m`` finds it (last, so
    if here not in sys.path and "" not in sys.path:  # it never hides an installed one)
        sys.path.append(here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError([(where, f"{spec}: cannot import {module_name}: {exc}")]) from None
    found: Any = module
    for name in attr.split("."):
        if not hasattr(found, name):
            raise ConfigError([(where, f"{spec}: {module_name} has no {attr}")])
        found = getattr(found, name)
    if not callable(found):
        raise ConfigError(
            [(where, f"{spec}: {attr} is a {type(found).__name__}, not a callable factory")]
        )
    return found  # type: ignore[no-any-return]


def installed_players() -> dict[str, EntryPoint]:
    """The players installed packages offer (group ``werewolf.players``), by name."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


def installed_factory(name: str) -> Callable[..., Any] | None:
    """The factory an installed package offers as ``name``, loaded; None when none does."""
    point = installed_players().get(name)
    if point is None:
        return None
    try:
        found = point.load()
    except (ImportError, AttributeError) as exc:
        raise ConfigError([("kind", f"{name}: cannot load {point.value}: {exc}")]) from None
    if not callable(found):
        raise ConfigError([("kind", f"{name}: {point.value} is not a callable factory")])
    return found  # type: ignore[no-any-return]
