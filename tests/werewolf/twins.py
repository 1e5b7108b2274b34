"""Twin games that differ only out of the public's sight: the same seed and the same
public choices, seat 5 knifed on night 1, a witch in one game and a villager in the other
(the other game's witch sits at 7 and does nothing). Night 2 has one hidden event more in
the game whose witch lives; a spectator, and villager 8, must not tell them apart before
the end reveals the cards."""

from __future__ import annotations

from collections.abc import Callable

from pulse_core import EventStore
from tests.strategies import WITCH, PlayedGame, ScriptPlayer, Transcript, V, W, play
from werewolf.cast import Identity
from werewolf.config import GameConfig
from werewolf.decisions import Choice

VILLAGER = 8  # a seat whose card and night are the same in both games

DEALS = (
    (W, W, W, Identity.SEER, WITCH, Identity.HUNTER, V, V, V),
    (W, W, W, Identity.SEER, V, Identity.HUNTER, WITCH, V, V),
)


def twin_games(stores: Callable[[int], EventStore] | None = None) -> tuple[PlayedGame, PlayedGame]:
    """The twins, played into ``stores(0)`` and ``stores(1)`` (default: in memory)."""
    kill = {f"n1.wolf-kill.r1.s{w}": Choice(5) for w in (1, 2, 3)}
    a, b = (
        play(
            GameConfig(day_cap=2),
            1,
            lambda seat: ScriptPlayer(Transcript(), overrides=kill),
            deal=deal,
            store=None if stores is None else stores(i),
        )
        for i, deal in enumerate(DEALS)
    )
    hidden = [sum(e.meta.get("visible_to") is not None for e in g.chain) for g in (a, b)]
    assert hidden[0] != hidden[1], "the twins have as many hidden events: nothing to hide"
    return a, b
