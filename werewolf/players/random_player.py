"""The random player: uniform over the legal options, seeded per decision."""

from __future__ import annotations

import hashlib
import random

from ..decisions import (
    Answer,
    Choice,
    DecisionKind,
    Request,
    Speech,
    WitchChoice,
)
from .draw import pick

__all__ = ["RandomPlayer", "decision_rng", "decision_seed"]

DESTRUCT_ODDS = 4  # one offered speech in four is a self-destruct: a wolf now and then blows up
_WITCH = DecisionKind.WITCH  # read once: on Python 3.11 an enum member read passes a hook


def decision_seed(game_seed: int, seat: int, key: str, salt: str = "") -> int:
    """The seed of one decision's generator: a function of the game seed, the seat and the
    decision only, so a resumed game draws exactly what the uninterrupted one drew."""
    digest = hashlib.sha256(f"{game_seed}|{seat}|{key}|{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def decision_rng(game_seed: int, seat: int, key: str, salt: str = "") -> random.Random:
    """A generator seeded with ``decision_seed``."""
    return random.Random(decision_seed(game_seed, seat, key, salt))


_C_SEED = super(random.Random, random.Random).seed  # the C seeding Random.seed ends in
_sha256 = hashlib.sha256
# the answers are frozen values, each made once and given again by every random seat (a
# random seat answers nearly every event, and a frozen dataclass is slow to make)
_CHOICES: dict[int | None, Choice] = {}
_WITCH_CHOICES: dict[tuple[bool, int | None], WitchChoice] = {}
_SPEECHES: dict[int, Speech] = {}


class RandomPlayer:
    """Picks uniformly among legal answers. For property tests and baselines."""

    kind = "random"
    immediate = True  # decide never waits (see Player)
    reads_view = False  # draws from the options alone (see Player)

    def __init__(self, game_seed: int) -> None:
        self.game_seed = game_seed
        # one generator reseeded per decision (a random seat draws for nearly every event):
        # the same Mersenne Twister seeding and the same draws as ``decision_rng(...).choice``
        # without a new generator each time (``tests/werewolf/test_random_player.py``)
        self._rng = random.Random(0)  # a seed of its own: every draw reseeds it anyway

    async def decide(self, request: Request) -> Answer:
        if request.kind.speaks:  # a speech draws nothing: no generator to seed
            if request.offers_self_destruct:  # a wolf may blow up
                blast = self._destruct(request)
                if blast is not None:
                    return blast
            speech = _SPEECHES.get(request.seat)
            if speech is None:
                speech = _SPEECHES[request.seat] = Speech(
                    f"Seat {request.seat} has nothing to add."
                )
            return speech
        # decision_seed(game_seed, seat, key, "random"), inline: one draw per decision
        text = f"{self.game_seed}|{request.seat}|{request.key}|random"
        _C_SEED(self._rng, int.from_bytes(_sha256(text.encode()).digest()[:8], "big"))
        if request.kind is _WITCH:
            options = request.witch
            assert options is not None  # the witch phase always sends her options
            answers: list[tuple[bool, int | None]] = [(False, None)]  # (save, poison)
            if options.can_save:
                answers.append((True, None))
            answers += [(False, t) for t in options.poison_targets]
            if options.can_save and options.both_allowed:
                answers += [(True, t) for t in options.poison_targets]
            drawn = pick(self._rng, answers)  # only the drawn answer is made
            witch = _WITCH_CHOICES.get(drawn)
            if witch is None:
                witch = _WITCH_CHOICES[drawn] = WitchChoice(save=drawn[0], poison=drawn[1])
            return witch
        target = pick(self._rng, request.options)
        choice = _CHOICES.get(target)
        if choice is None:
            choice = _CHOICES[target] = Choice(target)
        return choice

    def _destruct(self, request: Request) -> Choice | None:
        """One speech in ``DESTRUCT_ODDS`` offered the self-destruct is one, taking a seat
        drawn among those offered (the white wolf king's); else None: he speaks."""
        rng = decision_rng(self.game_seed, request.seat, request.key, "destruct")
        if rng.randrange(DESTRUCT_ODDS):
            return None
        return Choice(pick(rng, request.options))
