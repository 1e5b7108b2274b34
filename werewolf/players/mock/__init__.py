"""The mock player: a mind per seat that reasons from its own view and talks like a person.

Every decision reads the request only: ``reader`` gathers the seat's view into a ``table``
(claims, reports, votes, deaths, last words, and its private knowledge), ``beliefs`` turns
it into a probability per seat of being a wolf with the evidence behind each (for a wolf:
the pack, and what the table believes), ``strategy`` decides by identity from those beliefs, and
``lang`` says it in English or Chinese (``grammar`` reads every speech back, mock or not).
Every draw comes from ``decision_rng(game_seed, seat, key)`` (the day's gut feeling from
the seed, the seat and the day), so a resumed game plays exactly as an uninterrupted one.
The personality (``cautious``, ``steady``, ``bold``) moves thresholds and style only.
"""

from typing import TYPE_CHECKING

from ...lazy import lazy_names

if TYPE_CHECKING:
    from .beliefs import Mind
    from .grammar import Said, parse_speech
    from .player import MockPlayer
    from .reader import read_table
    from .strategy import register
    from .table import Table
    from .temper import PERSONALITIES, Temper, pick_personality

_HOMES = {
    "Mind": "beliefs",
    **dict.fromkeys(("Said", "parse_speech"), "grammar"),
    "MockPlayer": "player",
    "read_table": "reader",
    "register": "strategy",
    "Table": "table",
    **dict.fromkeys(("PERSONALITIES", "Temper", "pick_personality"), "temper"),
}
"""Where each name of the package is defined: loaded on first use, so that importing one
of its modules (a phrase table, the grammar) loads no other."""

__getattr__, __dir__ = lazy_names(__name__, _HOMES)

__all__ = [
    "PERSONALITIES",
    "Mind",
    "MockPlayer",
    "Said",
    "Table",
    "Temper",
    "parse_speech",
    "pick_personality",
    "read_table",
    "register",
]
