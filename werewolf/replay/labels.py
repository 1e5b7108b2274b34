"""The words the HTML viewer shows for what the registry declares: event kinds, causes of
death and identities, in en and zh, handed to the page as data (the page's script holds
no table of its own, so a new kind, cause or identity needs no edit of the script)."""

from __future__ import annotations

from typing import Any

from ..cast import Identity, team_of
from ..events import cause_labels
from ..registry import Names, event_specs, identity_specs

__all__ = ["identity_names", "page_labels"]


def identity_names() -> dict[str, Names]:
    """Each identity's name, from its ``IdentitySpec``."""
    return {str(spec.identity): spec.names for spec in identity_specs()}


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
