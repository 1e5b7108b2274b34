"""The replay's own error: an option that does not fit the game being replayed."""

from __future__ import annotations

from ..errors import WerewolfError

__all__ = ["ReplayOptionError"]


class ReplayOptionError(WerewolfError, ValueError):
    """A replay option the game cannot honour (a day it does not have, a seat it lacks)."""
