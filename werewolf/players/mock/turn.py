"""One decision in the making: the request, the table as read, the seat's mind, the draws."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ...cast import Identity
from ...decisions import DecisionKind, Request, Speech
from ..draw import seeded
from ..random_player import decision_seed
from .beliefs import Mind
from .lang import Line, filled, render
from .lang.thoughts import thoughts_in
from .nights import plain
from .table import Table
from .temper import Temper

__all__ = ["Turn", "likeliest_first"]


def likeliest_first(probs: dict[int, float]) -> list[int]:
    """The seats of ``probs`` by falling probability, equal ones in their order in ``probs``
    (what sorting by ``-probs[s]`` gives: a reversed sort keeps equal keys in order, and
    needs no Python call per seat)."""
    return sorted(probs, key=probs.__getitem__, reverse=True)


# made by the thousand: not frozen (a frozen init sets each field through
# object.__setattr__, several times the cost); never written to once made
@dataclass(slots=True, unsafe_hash=True)
class Turn:
    """What a strategy decides from. ``public`` is, for a wolf, what an ordinary villager
    would believe from the public record (None for good seats). ``rng`` is the decision's
    generator, ``decision_rng(game_seed, seat, key, "mock")`` for ``drawn_as`` (game seed,
    seat, key), made (by ``seeded``) when first drawn from (half the decisions draw nothing,
    and the seed's hash and the seeding are the dearest part of a generator)."""

    request: Request
    table: Table
    mind: Mind
    picture: Mind | Callable[[], Mind] | None  # ``public``, or how to weigh it when read
    temper: Temper
    drawn_as: tuple[int, int, str]  # (game seed, seat, decision key)
    lang: str
    _rng: Random | None = field(default=None, init=False, repr=False, compare=False)
    me: int = field(init=False, repr=False, compare=False)  # the seat: read dozens of times

    def __post_init__(self) -> None:
        self.me = self.table.me

    @property
    def rng(self) -> Random:
        if self._rng is None:
            self._rng = seeded(decision_seed(*self.drawn_as, "mock"))
        return self._rng

    @property
    def public(self) -> Mind | None:
        """Weighed when first read: not every decision of a wolf reads it (the kill never)."""
        if callable(self.picture):
            self.picture = self.picture()
        return self.picture

    @property
    def context(self) -> dict[str, Any]:
        return self.request.context

    @property
    def identity(self) -> Identity:
        return self.table.identity

    @property
    def pk_candidates(self) -> list[int]:
        return [int(s) for s in self.context.get("candidates", [])]

    def others_alive(self) -> list[int]:
        return [s for s in self.table.alive if s != self.me]

    def say(self, lines: Sequence[Line], reasoning: str, *, avoid: Sequence[str] = ()) -> Speech:
        """The speech rendered from ``lines``: never one this seat already said (nor one in
        ``avoid``); a repeat is drawn again, then marked with the day."""
        earlier = {*self.table.my_texts(), *avoid}
        lines = plain(lines, self.table)  # "the wolves killed X" only when this seat knows
        voice = self.temper.name
        if self.request.kind is DecisionKind.SPEECH:  # the day's speeches, night talk not
            lines = filled(lines, self.rng, self.lang, voice, self.temper.floor)
        text = render(lines, self.lang, self.rng, voice)
        for _ in range(6):
            if text not in earlier:
                break
            text = render(lines, self.lang, self.rng, voice)
        if text in earlier:
            again = [Line("open.later", n=self.table.day), *lines]
            text = render(again, self.lang, self.rng, voice)
        return Speech(text, reasoning=reasoning)

    def note(self, lines: Sequence[Line]) -> str:
        """Private reasoning in the seat's language (first phrasings, no draw)."""
        return render(lines, self.lang)

    def think(self, key: str, **fields: object) -> str:
        """A private thought in the seat's language (``lang.thoughts``)."""
        return thoughts_in(self.lang)[key].format_map(fields)

    def reported(self, seat: int) -> float:
        """``mind.wolf_probabilities().get(seat, 0.0)``, made for that seat alone."""
        mind = self.mind
        p = mind.probs.get(seat)
        return 0.0 if p is None or seat == mind.me or seat not in mind.alive else round(p, 3)

    def beliefs_note(self, seats: Sequence[int] | None = None) -> str:
        """The top of the seat's beliefs, for the private reasoning."""
        if seats is None:
            probs = self.mind.wolf_probabilities()
            chosen = [(s, probs[s]) for s in likeliest_first(probs)[:3]]
        else:  # a few seats named: their probabilities alone
            chosen = [(s, self.reported(s)) for s in seats]
        thoughts = thoughts_in(self.lang)
        seat = thoughts["p.seat"]
        each = [seat.format(a=s, p=f"{p:.2f}") for s, p in chosen]
        return thoughts["p.wolf"].format(rest=("、" if self.lang == "zh" else ", ").join(each))
