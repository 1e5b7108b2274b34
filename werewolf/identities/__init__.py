"""The identities beyond the nine-player board, one module each: guard, doctor, idiot, cupid.

Each module holds what the pure rules need of its identity: the legal choices of its night
action (if any) and the lines of the rules text that describe it (en and zh). The module
imports ``GameState`` for typing only, so ``state`` and ``rules`` can import it freely.
How the identity changes the state lives in ``state.evolve`` (one branch per phase), when
its phase runs in ``moderator.NIGHT_ORDER``; docs/architecture.md ("Adding an identity")
lists every place one identity touches.
"""

from __future__ import annotations

from . import cupid, doctor, guard, idiot

__all__ = ["cupid", "doctor", "guard", "idiot"]
