"""Who has won: a pure function of the deal, the config and who is alive.

It reads a ``GameState`` through ``Table``, the few members it needs, and does not import
``state.py`` at all: ``state`` (which checks the win after every batch of deaths) and
``rules`` both import it, and it imports neither. ``Outcome`` lives here for that reason;
``state`` re-exports it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from .cast import Identity
from .config import GameConfig, WinRule
from .registry import gods as side_gods

__all__ = ["Outcome", "Table", "third_side", "winner"]


class Outcome(StrEnum):
    WOLVES = "wolves"
    GOOD = "good"
    DRAW = "draw"
    LOVERS = "lovers"  # the third side (人狼恋): only cupid and the lovers are left


class Table(Protocol):
    """What the win reads of a game (``state.GameState`` is one)."""

    @property
    def config(self) -> GameConfig: ...
    @property
    def identities(self) -> tuple[Identity, ...]: ...
    @property
    def alive(self) -> frozenset[int]: ...
    @property
    def lovers(self) -> tuple[int, ...]: ...
    @property
    def idiot_revealed(self) -> bool: ...
    @property
    def seats(self) -> range: ...
    def identity(self, seat: int) -> Identity: ...
    def seat_of(self, identity: Identity) -> int | None: ...
    @property
    def wolf_seats(self) -> tuple[int, ...]: ...


def third_side(state: Table) -> frozenset[int]:
    """Cupid and the lovers when the lovers are a wolf and a good player (人狼恋): they play
    for themselves. Empty otherwise (lovers of one side simply play for it)."""
    if len(state.lovers) != 2:
        return frozenset()
    a, b = state.lovers
    if (a in state.wolf_seats) == (b in state.wolf_seats):
        return frozenset()
    cupid = state.seat_of(Identity.CUPID)
    return frozenset(state.lovers) | ({cupid} if cupid is not None else set())


def winner(state: Table) -> Outcome | None:
    """Who has won given who is alive, or None. Both sides at once: wolves (狼刀在先).

    With a third side (人狼恋) its members count for neither camp: it wins when only its
    members are left, and the others win only once the lovers are dead."""
    alive = state.alive
    third = third_side(state)
    couple_alive = bool(third) and all(s in alive for s in state.lovers)
    if couple_alive and alive <= third:
        return Outcome.LOVERS
    wolf_seats = state.wolf_seats  # the werewolves and the wolf kings
    wolves = sum(1 for s in alive if s in wolf_seats and s not in third)
    others = sum(1 for s in alive if s not in third) - wolves
    rule = state.config.win_rule
    if rule is WinRule.SIDE:
        # only categories that existed at the deal count (a board without villagers
        # cannot be won by killing its zero villagers); a third side's seats count for none,
        # and cupid for neither (he is no god: the common online rule)
        start, gods_dealt = state.identities, side_gods()
        villager = Identity.VILLAGER
        villagers = [s for s in state.seats if start[s - 1] is villager and s not in third]
        gods = [s for s in state.seats if start[s - 1] in gods_dealt and s not in third]
        living_gods = [s for s in gods if s in alive]
        if state.idiot_revealed and not state.config.idiot_counts_as_god:
            living_gods = [s for s in living_gods if start[s - 1] is not Identity.IDIOT]
        wolves_win = (bool(villagers) and not any(s in alive for s in villagers)) or (
            bool(gods) and not living_gods
        )
    elif rule is WinRule.TOWN:
        wolves_win = others == 0
    else:
        wolves_win = wolves >= others
    if couple_alive:
        return None  # the lovers live: neither camp has won yet
    if wolves_win:
        return Outcome.WOLVES
    if wolves == 0:
        return Outcome.GOOD
    return None
