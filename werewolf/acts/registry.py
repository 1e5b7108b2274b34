"""``IDENTITY_PHASES``: the phase role of each identity's night action beyond the nine-player
board, which joins the core ``phases.PHASES`` in the workflow (``game.werewolf_workflow``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pulse_core import RoleResult

from ..phases import PhaseContext
from ..state import Phase
from . import cupid, doctor, guard

__all__ = ["IDENTITY_PHASES"]

IDENTITY_PHASES: dict[Phase, Callable[[PhaseContext], Awaitable[RoleResult]]] = {
    Phase.CUPID: cupid.cupid_link,
    Phase.LOVERS: cupid.lovers_told,
    Phase.GUARD: guard.guard_protect,
    Phase.DOCTOR: doctor.doctor_protect,
    Phase.DOCTOR_TOLD: doctor.doctor_told,
}
