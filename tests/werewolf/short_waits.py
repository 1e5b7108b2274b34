"""Short waits between the tries of a request, for tests (``short_backoff``); it imports
little, so that a test's subprocess can call it before it runs the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

__all__ = ["SHORT_BACKOFF", "short_backoff"]

# The seats wait BACKOFF (0.5 s, doubling) before they try a request again after a transient
# fault, as they must with a real endpoint. A test whose endpoint faults often, and whose
# assertions are not about those waits, makes them short: they still count against the
# patience, so a seat whose endpoint stays down still gives up where its patience ends.
SHORT_BACKOFF = (0.01, 0.1)


def short_backoff(
    monkeypatch: pytest.MonkeyPatch | None = None, backoff: tuple[float, float] = SHORT_BACKOFF
) -> None:
    """Make ``backoff`` the default of every seating made from now on: the command line's
    (``seating_from_specs``) and an arena run's (``ClientPool``); undone after the test with
    ``monkeypatch``, for the rest of the process without (a subprocess)."""
    from werewolf.players import SpecSeating, seating_from_specs
    from werewolf.players.endpoints import ClientPool

    for function in (seating_from_specs, SpecSeating.__init__, ClientPool.__init__):
        defaults = function.__kwdefaults__
        if defaults is None or "backoff" not in defaults:
            raise AssertionError(f"{function.__qualname__} has no backoff keyword any more")
        if monkeypatch is None:
            defaults["backoff"] = backoff
        else:
            monkeypatch.setitem(defaults, "backoff", backoff)
