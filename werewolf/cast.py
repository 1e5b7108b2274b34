"""Identities and teams: the fixed vocabulary of the board."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["GODS", "Identity", "Team", "team_of"]


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


GODS = frozenset(
    {
        Identity.SEER,
        Identity.WITCH,
        Identity.HUNTER,
        Identity.GUARD,
        Identity.IDIOT,
        Identity.CUPID,
        Identity.DOCTOR,
    }
)
"""The special good roles (神职): every identity but the werewolf and the villager."""


def team_of(identity: Identity) -> Team:
    return Team.WOLVES if identity is Identity.WEREWOLF else Team.GOOD
