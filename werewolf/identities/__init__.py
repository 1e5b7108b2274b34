"""The identities, one module each: everything particular to one identity, declared in its
``SPEC`` (``registry.IdentitySpec``): its names, team, night step or day step, decisions
and their tools, rules line, prompt file, mock strategy, phase roles and events.

Importing this package registers them all (``registry._load`` does it on first use). The
modules import the phase machinery; the rules and the state never import them, so
importing those loads no phase role and no player. docs/architecture.md ("Adding an
identity") walks through adding one.
"""

from __future__ import annotations

from . import cupid, doctor, guard, hunter, idiot, knight, seer, villager, werewolf, witch

__all__ = [
    "cupid",
    "doctor",
    "guard",
    "hunter",
    "idiot",
    "knight",
    "seer",
    "villager",
    "werewolf",
    "witch",
]
