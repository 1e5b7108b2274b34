"""The witch: saves the wolves' victim on night 1 as a rule and later when the victim is
worth it (the believed seer, a cleared seat), never a seat she thinks a wolf; poisons the
likeliest wolf once her belief passes the personality's bar, a bar that drops night by
night so the poison is not carried to the grave, and only on evidence, never on a hunch;
never poisons a cleared seat, nor a seer claimer only out-argued by a rival (an impression
is not proof)."""

from __future__ import annotations

from ....decisions import Answer, WitchChoice
from ..turn import Turn

__all__ = ["witch_night"]


def witch_night(turn: Turn) -> Answer:
    options = turn.request.witch
    if options is None:
        return WitchChoice(reasoning=turn.think("witch.none"))
    mind, temper, rng = turn.mind, turn.temper, turn.rng
    night = int(turn.context.get("night", turn.table.day))
    told = options.told_target
    if options.can_save and told is not None:
        precious = told in mind.cleared or told == mind.seer.trusted
        chance = temper.save_first_night if night <= 1 else temper.save_later
        if mind.p(told) < 0.7 and (precious or rng.random() < chance):
            why = turn.think(
                "witch.save.cleared" if precious else "witch.save.night", a=told, n=night
            )
            return WitchChoice(save=True, reasoning=why)
    if options.poison_targets:
        barred = set(mind.cleared) | {mind.seer.trusted or 0} | mind.seer.outargued
        if told is not None:
            barred.add(told)
        grounded = [s for s in options.poison_targets if mind.case(s) >= 0.6]  # never a hunch
        if mind.seer.liars and mind.seer.confidence < 0.7:  # an open seer duel proves no side
            grounded = [s for s in grounded if not _only_sided(turn, s)]
        target = mind.likeliest(grounded, exclude=barred)
        bar = max(0.35, temper.poison_at - 0.1 * (night - 1))
        if target is not None and mind.p(target) >= bar:
            why = turn.think("witch.poison", a=target, rest=turn.beliefs_note([target]))
            return WitchChoice(poison=target, reasoning=why)
    return WitchChoice(reasoning=turn.think("witch.keep", rest=turn.beliefs_note()))


# evidence that only says which seer claimer a seat sided with
_SIDING = frozenset({"attacks_seer", "backs_liar", "voted_seer", "shielded", "voted_wolf"})


def _only_sided(turn: Turn, seat: int) -> bool:
    """True when all that speaks against ``seat`` is the side it took in the seer duel."""
    kinds = {e.reason.kind for e in turn.mind.reasons(seat) if e.weight > 0}
    return kinds <= _SIDING
