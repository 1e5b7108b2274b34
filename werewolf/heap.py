"""The garbage collector's settings for a process that plays games: called by the entry
points only (the ``werewolf`` command, an arena's worker processes), never by the library,
which leaves process-wide settings to the program that imports it.

A game makes and drops thousands of small objects per second, nearly all freed by their
reference counts; with the default thresholds (a young collection every 700 net
allocations) the collector still ran for 5 to 14% of a run's CPU, mostly scanning objects
that live as long as the process (modules, the registry, the games' events), which no
collection frees. ``gc.freeze()`` moves what exists now out of every later collection, and a
young collection every 50,000 net allocations keeps reference cycles bounded without
walking the young objects hundreds of times a game.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "tune_for_play"]

YOUNG_THRESHOLD = 50_000  # net allocations of tracked objects between young collections


def tune_for_play() -> None:
    """Freeze the heap made so far and collect the young generation less often (for the
    process's whole life: call it from an entry point)."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
