"""The players' draw plumbing, cheaper: the same generators and the same draws as
``random`` gives, with fewer Python frames (a mock game makes dozens of generators and
draws hundreds of phrasings, a random seat draws for nearly every event;
``tests/werewolf/test_mock_draws.py`` pins both to ``random``)."""

from __future__ import annotations

import _random
from collections.abc import Sequence
from random import Random
from typing import TypeVar

__all__ = ["pick", "seeded"]

T = TypeVar("T")

_C_SEED = _random.Random.seed  # the C seeding ``Random(seed)`` ends in, for an int seed


def seeded(seed: int) -> Random:
    """``Random(seed)``, the same generator, made without the Python frames of
    ``Random.__init__`` and ``Random.seed``."""
    rng = Random.__new__(Random)
    _C_SEED(rng, seed)
    vars(rng)["gauss_next"] = None  # what Random.__init__ sets beside the seed
    return rng


def pick(rng: Random, options: Sequence[T]) -> T:
    """``rng.choice(options)``: the same rejection sampling over ``getrandbits`` (even one
    option draws its bit), in one frame instead of three."""
    n = len(options)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    bits, k = rng.getrandbits, n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return options[r]
