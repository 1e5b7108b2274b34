"""The self-destruct (自爆, config ``self_destruct``): a wolf's speech may be a self-destruct
(``rules.destruct_options``, offered in the speech's own decision, so no wolf is asked
anything more than his speech); this phase then carries it out, asking nobody."""

from __future__ import annotations

from typing import Any

from pulse_core import RoleResult

from ..rules import heartbroken
from ..state import Phase
from .context import PhaseContext, heartbreak_text, in_key_order, reveal_dead, seat_text

__all__ = ["self_destruct"]


async def self_destruct(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    due = state.destruct_due
    assert due is not None  # the moderator runs this phase only after a self-destruct
    wolf, target = due
    dying = {wolf} if target is None else {wolf, target}
    diff: dict[str, Any] = {"target": target, "wolf": wolf}
    text = f"Day {state.night}: {seat_text(state, wolf)} reveals himself a wolf and self-destructs"
    if target is not None:
        text += f", the white wolf king, taking {seat_text(state, target)} with him"
    text += "; the day ends without a vote."
    broken = heartbroken(state, dying)
    if broken:  # written only when a lover dies, as the hunter's shot does
        diff = in_key_order(diff | {"heartbroken": list(broken)})
        text += heartbreak_text(state, broken)
    shown, detail = reveal_dead(state, sorted([*dying, *broken]))
    return ctx.result(Phase.SELF_DESTRUCT, text + shown, diff=diff, detail=detail)
