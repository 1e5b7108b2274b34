"""The random player: uniform over the legal options, seeded per decision."""

from __future__ import annotations

import hashlib
import random

from ..decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice

__all__ = ["RandomPlayer", "decision_rng"]


def decision_rng(game_seed: int, seat: int, key: str, salt: str = "") -> random.Random:
    """A generator that depends only on the game seed, the seat and the decision, so a
    resumed game draws exactly what the uninterrupted one drew."""
    digest = hashlib.sha256(f"{game_seed}|{seat}|{key}|{salt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class RandomPlayer:
    """Picks uniformly among legal answers. For property tests and baselines."""

    kind = "random"
    immediate = True  # decide never waits (see Player)

    def __init__(self, game_seed: int) -> None:
        self.game_seed = game_seed

    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:  # a speech draws nothing: no generator to seed
            return Speech(f"Seat {request.seat} has nothing to add.")
        rng = decision_rng(self.game_seed, request.seat, request.key, "random")
        if request.kind is DecisionKind.WITCH:
            options = request.witch
            assert options is not None  # the witch phase always sends her options
            answers = [WitchChoice()]
            if options.can_save:
                answers.append(WitchChoice(save=True))
            answers += [WitchChoice(poison=t) for t in options.poison_targets]
            if options.can_save and options.both_allowed:
                answers += [WitchChoice(save=True, poison=t) for t in options.poison_targets]
            return rng.choice(answers)
        return Choice(rng.choice(request.options))
