"""The phase roles of the identities beyond the nine-player board, one module each.

Each module asks its identity's holder for the night's decision (the legal options come
from ``werewolf.identities``) and returns the private event. ``IDENTITY_PHASES``
(``registry``) joins the core ``phases.PHASES`` in the workflow (``game.werewolf_workflow``);
it is loaded on first use, so that importing one of the modules loads no other.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .registry import IDENTITY_PHASES

__getattr__, __dir__ = lazy_names(__name__, {"IDENTITY_PHASES": "registry"})

__all__ = ["IDENTITY_PHASES"]
