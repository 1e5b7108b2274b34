"""The villager (平民): no power but his speech and his vote."""

from __future__ import annotations

from ..cast import Identity, Team
from ..registry import IdentitySpec, Names, register_identity

__all__ = ["SPEC"]

SPEC = register_identity(
    IdentitySpec(
        identity=Identity.VILLAGER,
        names=Names("villager", "平民"),
        team=Team.GOOD,
        god=False,
        order=99,
        unique=False,
    )
)
