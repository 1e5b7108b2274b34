"""The legal answers of one decision as a menu a person picks from: each option's code
(what they type or click), its words, and the answer it stands for.

The terminal seat (``human``) and the browser seat (``web``) both show these menus, so
that a person is offered the same options, in the same order and words, wherever they sit.
A speech has no menu: it is typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..decisions import YES_NO, Choice, DecisionKind, Request, WitchChoice
from .promptset import option_order, prompt_set, seat_label

__all__ = ["MenuItem", "decision_menu", "witch_menu"]


@dataclass(frozen=True)
class MenuItem:
    """One legal answer: ``code`` picks it (a seat number, 0 for nobody; a bid; the witch's
    line number), ``label`` says it, ``answer`` is what is played."""

    code: int
    label: str
    answer: Choice | WitchChoice

    def with_note(self, note: str) -> Choice | WitchChoice:
        """The answer, the person's private note kept as its reasoning (god view only)."""
        answer = self.answer
        if isinstance(answer, WitchChoice):
            return WitchChoice(answer.save, answer.poison, reasoning=note)
        return Choice(answer.target, reasoning=note)


def witch_menu(request: Request, lang: str) -> list[tuple[WitchChoice, str]]:
    """Every legal potion use tonight, with its words: no potion first."""
    ps = prompt_set(lang)
    witch, names = request.witch, request.view.names
    menu = [(WitchChoice(), ps.say("human.witch.none"))]
    if witch is None:
        return menu
    told = seat_label(ps, names, witch.told_target)
    if witch.can_save:
        menu.append((WitchChoice(save=True), ps.say("human.witch.save", target=told)))
    for t in sorted(witch.poison_targets):
        target = seat_label(ps, names, t)
        menu.append((WitchChoice(poison=t), ps.say("human.witch.poison", target=target)))
    if witch.can_save and witch.both_allowed:
        for t in sorted(witch.poison_targets):
            poison = seat_label(ps, names, t)
            menu.append(
                (
                    WitchChoice(save=True, poison=t),
                    ps.say("human.witch.both", target=told, poison=poison),
                )
            )
    return menu


def decision_menu(request: Request, lang: str) -> list[MenuItem]:
    """The options of a choice, in the order shown ([] for a speech): the witch's potion
    uses numbered from 1, a bid by its value, a seat by its number (0: nobody)."""
    if request.kind.speaks:
        return []
    if request.kind is DecisionKind.WITCH:
        return [
            MenuItem(number, words, choice)
            for number, (choice, words) in enumerate(witch_menu(request, lang), start=1)
        ]
    ps = prompt_set(lang)
    if request.kind is DecisionKind.BID:  # a bid is a number, not a seat
        bids = [int(o) for o in request.options if o is not None]
        return [MenuItem(bid, ps.say(f"bid.{bid}"), Choice(bid)) for bid in bids]
    if request.kind in YES_NO:  # run, withdraw: yes (1) or no (0), not a seat
        return [
            MenuItem(1 if o else 0, ps.say("option.yes" if o else "option.no"), Choice(o))
            for o in option_order(request.options)
        ]
    names = request.view.names
    return [
        MenuItem(0 if target is None else target, seat_label(ps, names, target), Choice(target))
        for target in option_order(request.options)
    ]
