"""The words the HTML viewer shows for what the registry declares: event kinds, causes of
death and identities, in en and zh, handed to the page as data (the page's script holds
no table of its own, so a new kind, cause or identity needs no edit of the script)."""

from __future__ import annotations

from typing import Any

from ..cast import Identity, team_of
from ..events import cause_labels
from ..registry import Names, event_specs, identity_specs

__all__ = ["identity_names", "page_labels"]

# the names of the identities until every identity module declares its own (IdentitySpec)
_NAMES = {
    Identity.WEREWOLF: Names("werewolf", "狼人"),
    Identity.VILLAGER: Names("villager", "村民"),
    Identity.SEER: Names("seer", "预言家"),
    Identity.WITCH: Names("witch", "女巫"),
    Identity.HUNTER: Names("hunter", "猎人"),
    Identity.GUARD: Names("guard", "守卫"),
    Identity.IDIOT: Names("idiot", "白痴"),
    Identity.CUPID: Names("cupid", "丘比特"),
    Identity.DOCTOR: Names("doctor", "医生"),
}


def identity_names() -> dict[str, Names]:
    """Each identity's name, from its ``IdentitySpec`` where one is registered."""
    names = {str(identity): n for identity, n in _NAMES.items()}
    names.update({str(spec.identity): spec.names for spec in identity_specs()})
    return names


def page_labels() -> dict[str, Any]:
    """``{lang: {"kinds", "causes", "identities"}}``, and ``teams``: each identity's team
    (a card shown tells its side)."""
    names = identity_names()
    labels: dict[str, Any] = {
        lang: {
            "kinds": {spec.kind: spec.label(lang) for spec in event_specs()},
            "causes": {c: text.replace("{n}", "{0}") for c, text in cause_labels(lang).items()},
            "identities": {identity: n(lang) for identity, n in names.items()},
        }
        for lang in ("en", "zh")
    }
    labels["teams"] = {identity: str(team_of(Identity(identity))) for identity in names}
    return labels
