"""Identities and teams: the fixed vocabulary of the board."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["GODS", "Identity", "Team", "team_of"]  # noqa: F822 (GODS: __getattr__)


class Team(StrEnum):
    WOLVES = "wolves"
    GOOD = "good"


class Identity(StrEnum):
    WEREWOLF = "werewolf"
    SEER = "seer"
    WITCH = "witch"
    HUNTER = "hunter"
    VILLAGER = "villager"
    GUARD = "guard"
    IDIOT = "idiot"
    CUPID = "cupid"
    DOCTOR = "doctor"
    KNIGHT = "knight"
    WOLF_KING = "wolf-king"
    WHITE_WOLF_KING = "white-wolf-king"


def team_of(identity: Identity) -> Team:
    """The identity's team (``IdentitySpec.team``), read from the registry once."""
    team = _TEAMS.get(identity)
    if team is None:
        from .registry import identity_specs  # the registry imports this module

        _TEAMS.update({spec.identity: spec.team for spec in identity_specs()})
        team = _TEAMS[identity]
    return team


_TEAMS: dict[Identity, Team] = {}


def __getattr__(name: str) -> frozenset[Identity]:
    """``GODS``: the special good roles (神职), read from the registry (``registry.gods``)
    when first asked for, since the identities' modules import this one."""
    if name == "GODS":
        from .registry import gods

        return gods()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
