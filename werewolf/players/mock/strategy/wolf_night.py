"""The wolves' night: the first wolf names a victim and why, and on night 1 the plan (one of
us fakes the seer, or nobody does); the others agree in their own words or, now and then,
argue for another seat. The victim is whoever threatens the pack most: a seer claimer, a
seat the table trusts, a witch, a seat that hunts us; never a hunter who would shoot back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ....decisions import Answer, Choice
from ..grammar import parse_speech
from ..lang import Line
from ..turn import Turn

__all__ = ["active_fake_seer", "night_agenda", "wolf_kill", "wolf_talk"]


def night_agenda(turn: Turn) -> tuple[dict[int, float], dict[int, Line]]:
    """How much the pack wants each living good seat dead, with the line that says why."""
    score = _luck(turn)
    return score, _weigh(turn, score)


def _luck(turn: Turn) -> dict[int, float]:
    """Where each living good seat's score starts: a draw each, in seat order."""
    table = turn.table
    draw = turn.rng.random  # uniform(0.0, 1.0) is 0.0 + 1.0 * random(): that very number
    return {s: draw() for s in table.alive if s not in table.wolves}


def _weigh(turn: Turn, score: dict[int, float]) -> dict[int, Line]:
    """Adds the pack's reasons to ``score``, and gives the line that says why for the seats
    that have one (the lines do not depend on the draws)."""
    table, public = turn.table, turn.public
    goods = list(score)
    why: dict[int, Line] = {}

    def add(seat: int, points: float, key: str = "") -> None:
        """``points`` for ``seat``; ``key``: the line that says why (about that seat)."""
        if seat in score:
            score[seat] += points
            if key and points > 0 and (seat not in why or points >= 2):
                why[seat] = Line(key, seat)

    # a claimed seer is the prize, unless a protector who may repeat will be on her; but
    # while our own seer duels her, her death at night would prove her and expose ours
    fake = active_fake_seer(turn)
    duel = fake is not None and table.claims_seer(fake)
    prize = 3.0 if table.shield_repeats else 10.0
    for seat in table.seer_claims:
        add(seat, -4.0 if duel else prize, "night.seer")
    if table.shield_repeats:  # a seat our knife could not reach is guarded night after night
        for seat, times in table.blocked.items():
            add(seat, -12.0 * times)
    for seat in table.role_claims.get("witch", ()):
        add(seat, 4.0, "night.witch")
    for seat in table.role_claims.get("hunter", ()):
        add(seat, -8.0)
    for claimer, found in table.reports.items():
        for seat, wolf in found.items():
            if claimer in table.wolves:  # a seat our seer called a wolf must not die at night
                add(seat, -6.0 if wolf else 0.0)
            elif not wolf:  # the rival's cleared seat dying would bear her out
                add(seat, -2.0 if duel else 2.5, "night.cleared")
    for u in table.utterances:
        for seat in u.said.accuses:
            if seat in table.wolves and table.is_alive(u.speaker):
                add(u.speaker, 1.2, "night.hunts")
    if public is not None:
        for seat in goods:
            trust = 0.5 - public.p(seat)  # kill the trusted; leave the suspected to the day
            add(seat, 3.0 * trust, "night.trusted")
    return why


def _first_proposal(discussion: Sequence[dict[str, Any]]) -> tuple[bool, int | None, int]:
    for line in discussion:
        said = parse_speech(str(line.get("text", "")))
        if said.kill_said:
            return True, said.kill, int(line.get("seat", 0))
    return False, None, 0


def active_fake_seer(turn: Turn) -> int | None:
    """The wolf who plays (or is to play) the seer: claimed already, or planned."""
    table = turn.table
    for seat in sorted(table.seer_claims, key=lambda s: table.seer_claims[s]):
        if seat in table.wolves and table.is_alive(seat):
            return seat
    if table.fake_seer is not None and table.is_alive(table.fake_seer):
        return table.fake_seer
    return None


def _target(turn: Turn) -> tuple[int | None, list[Line], dict[int, Line] | None]:
    """The seat this wolf would kill, the line that says why, and the lines of the night
    agenda it was chosen from (None when the wolf offers itself: no agenda is made)."""
    options = turn.request.options
    night = int(turn.context.get("night", turn.table.day + 1))
    if night == 1 and turn.me in options and turn.rng.random() < turn.temper.self_knife:
        return turn.me, [Line("night.bait")], None
    score, why = night_agenda(turn)
    seats = [s for s in options if s is not None and s in score]
    if not seats:
        return None, [], why
    target = max(seats, key=lambda s: (score[s], -s))
    return target, [why[target]] if target in why else [], why


def _plan(turn: Turn) -> list[Line]:
    table = turn.table
    fake = active_fake_seer(turn)
    if fake is not None:
        return [Line("plan.keep", fake)] if table.claims_seer(fake) else []
    if turn.context.get("night", 1) != 1:
        return []
    # where death shows the card, the first claimer to die would unmask a fake seer
    if table.death_shows or turn.rng.random() >= turn.temper.fake_claim:
        return [Line("plan.none")]
    living = [w for w in table.wolves if table.is_alive(w)]
    return [Line("plan.fake", turn.rng.choice(living))]


def wolf_talk(turn: Turn) -> Answer:
    said, proposed, by = _first_proposal(turn.context.get("discussion", []))
    if said and proposed in turn.request.options:
        mine, why, made = _target(turn)
        if mine is not None and mine != proposed and why and turn.rng.random() < 0.15:
            lines = [*why, Line("kill.counter", mine)]
            return turn.say(lines, turn.think("night.prefer", a=mine, b=proposed))
        if proposed is None:
            return turn.say(
                [Line("kill.none"), *_tomorrow(turn)], turn.think("night.follow_none", a=by)
            )
        _, reasons = night_agenda(turn) if made is None else (_luck(turn), made)
        lines = [Line("kill.agree", proposed)]
        if proposed in reasons and turn.rng.random() < 0.5:
            lines.append(reasons[proposed])
        lines += _tomorrow(turn)
        return turn.say(lines, turn.think("night.follow", a=by, b=proposed))
    target, why, _ = _target(turn)
    kill = Line("kill.none") if target is None else Line("kill.propose", target)
    lines = [kill, *why, *_plan(turn)]
    # the reasoning is the god view's: worded apart from the line the pack hears
    return turn.say(lines, turn.think("night.proposal", rest=turn.note(lines)))


def _tomorrow(turn: Turn) -> list[Line]:
    """Now and then, what this wolf means to do by day: push the table's suspect, or lie low."""
    if turn.rng.random() < 0.5:
        return []
    table, public = turn.table, turn.public
    goods = [s for s in table.alive if s not in table.wolves]
    if public is None or not goods or turn.rng.random() < 0.3:
        return [Line("night.quiet")]
    return [Line("night.push", max(goods, key=lambda s: (public.p(s), -s)))]


def wolf_kill(turn: Turn) -> Answer:
    options = turn.request.options
    proposals = turn.context.get("proposals") or []
    if proposals:  # a second round: join the lowest wolf's proposal
        target = proposals[0][1]
        if target in options:
            join = "night.join_ballot" if turn.context.get("ballot") else "night.join"
            return Choice(target, reasoning=turn.think(join, a=proposals[0][0]))
    discussion = turn.context.get("discussion", [])
    said, _, _ = _first_proposal(discussion)
    if said:  # the last word in the discussion wins: a counter-proposal if there was one
        named = [
            (h.kill, int(line.get("seat", 0)))
            for line in discussion
            if (h := parse_speech(str(line.get("text", "")))).kill_said
        ]
        final = next((kill for kill, _ in reversed(named) if kill in options), None)
        if final is not None:  # credit the seat that first named it, not the last to agree
            by = next(seat for kill, seat in named if kill == final)
            return Choice(final, reasoning=turn.think("night.as_said", a=by, b=final))
    target, _, _ = _target(turn)
    return Choice(target, reasoning=turn.think("night.own"))
