"""``MockPlayer``: one seat of the mock player, a mind per seat (see ``werewolf.players.mock``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ...cast import Identity
from ...decisions import Answer, Choice, DecisionKind, Request
from ...errors import ConfigError, GameStateError
from ...visibility import SeatView
from ..draw import seeded
from ..random_player import decision_seed
from . import idiot, lovers
from .beliefs import Mind, infer, public_mind
from .gut import Gut
from .lang import LANGS
from .reader import TableReader
from .strategy import handler_for
from .strategy.self_destruct import destruct
from .table import Table
from .temper import PERSONALITIES, Temper, pick_personality
from .turn import Turn

__all__ = ["MockPlayer"]

_WEREWOLF = Identity.WEREWOLF  # read once: on Python 3.11 an enum member read passes a hook
_CALM: dict[Temper, Temper] = {}  # a temper -> the same at noise 0 (a few: one a personality)
_CALM_KEPT = 64


Picture = Mind | Callable[[], Mind] | None  # a wolf's picture of the table, or how to weigh it


def _calm(temper: Temper) -> Temper:
    """``replace(temper, noise=0.0)``, made once a temper (a player is made per seat and
    game, and ``replace`` is half of its making)."""
    calm = _CALM.get(temper)
    if calm is None:
        if len(_CALM) >= _CALM_KEPT:
            _CALM.clear()
        calm = _CALM[temper] = replace(temper, noise=0.0)
    return calm


class MockPlayer:
    """Seeded play from the seat's view; see ``werewolf.players.mock``."""

    kind = "mock"
    immediate = True  # decide never waits (see Player)

    def __init__(
        self, game_seed: int, seat: int, personality: str | None = None, lang: str = "en"
    ) -> None:
        name = personality if personality is not None else pick_personality(game_seed, seat)
        if name not in PERSONALITIES:
            known = ", ".join(sorted(PERSONALITIES))
            raise ConfigError([("personality", f"unknown personality {name!r}: use {known}")])
        if lang not in LANGS:
            raise ConfigError([("lang", f"unknown language {lang!r}: use 'en' or 'zh'")])
        self.game_seed = game_seed
        self.seat = seat
        self.personality = name
        self.temper = PERSONALITIES[name]
        self.lang = lang
        self._calm = _calm(self.temper)
        self._reader = TableReader()  # this seat's table, extended decision by decision
        self._guts: dict[tuple[int, int, float], Gut] = {}  # (day, seats, noise) -> drawn
        self._duel: float | None = None  # seeds the impressions of seer claimers, once drawn
        self._last_minds: tuple[Table, tuple[Mind, Picture]] | None = None
        self._pack: tuple[tuple[object, ...], Mind] | None = None  # a wolf's last certainty

    async def decide(self, request: Request) -> Answer:
        return self.answer(request)

    def mind(self, view: SeatView) -> Mind:
        """What this seat believes from ``view``: ``mind(view).wolf_probabilities()`` is
        P(wolf) of every living other seat."""
        return self._minds(self._reader.read(view))[0]

    def _minds(self, table: Table) -> tuple[Mind, Picture]:
        """The seat's mind (and, for a wolf, the public's, weighed when first read: see
        ``Turn.public``) on ``table``: a function of the table alone, so a second decision
        on the same table reuses the first's."""
        if self._last_minds is not None and self._last_minds[0] is table:
            return self._last_minds[1]
        minds = self._infer(table)
        self._last_minds = table, minds
        return minds

    def _infer(self, table: Table) -> tuple[Mind, Picture]:
        if table.identity is not _WEREWOLF:  # every wolf reads as one (reader)
            gut = self._gut(table.day, table.seat_count - 1, self.temper.noise)
            return infer(table, self.temper, gut), None
        # the table as a whole has no one gut: feelings of spread 0 are 0 whatever is drawn
        return self._pack_mind(table), partial(public_mind, table, self._calm)

    def _pack_mind(self, table: Table) -> Mind:
        """A wolf's beliefs: certain, drawing nothing, a function of who is alive (the
        pack and the seats never change), so made again only when someone has died."""
        key = (table.me, table.alive, table.wolves, table.seat_count)
        if self._pack is None or self._pack[0] != key:
            self._pack = key, infer(table, self.temper, Gut.calm(0))
        return self._pack[1]

    def _gut(self, day: int, seats: int, noise: float) -> Gut:
        """The day's gut feeling (the same for every belief of the day: drawn once), with
        the game's impressions of seer claimers."""
        key = (day, seats, noise)
        gut = self._guts.get(key)
        if gut is None:
            rng = seeded(decision_seed(self.game_seed, self.seat, f"gut.d{day}", "mock"))
            drawn = Gut.draw(rng, seats, noise)
            # the impressions of seer claimers hold from day to day: a seat changes its
            # mind on a duel for what happened, never for a new day's mood (drawn once)
            duel = self._duel
            if duel is None:
                seed = decision_seed(self.game_seed, self.seat, "duel", "mock")
                duel = self._duel = seeded(seed).random()
            gut = self._guts[key] = Gut(duel, drawn.feelings)
        return gut

    def answer(self, request: Request) -> Answer:
        """The decision, synchronously: a function of (game seed, seat, request)."""
        if request.seat != self.seat:
            raise GameStateError(f"the mock of seat {self.seat} was asked for seat {request.seat}")
        table = self._reader.read(request.view)
        mind, public = self._minds(table)
        drawn_as = (self.game_seed, self.seat, request.key)  # see Turn.rng
        request = idiot.spare_the_idiot(request, table.idiot)  # a good voter spares him
        turn = Turn(request, table, mind, public, self.temper, drawn_as, self.lang)
        answer = (request.options and destruct(request.kind, turn)) or handler_for(
            request.view.identity, request.kind
        )(turn)
        answer = lovers.keep_partner(
            request.kind, table.partner, request.options, answer, self.lang
        )
        asked = request.kind is DecisionKind.VOTE and request.context.get("beliefs")
        if asked and isinstance(answer, Choice):  # a belief report rides with the vote
            answer = replace(answer, beliefs=self.beliefs(mind))
        return answer

    def beliefs(self, mind: Mind) -> dict[int, float]:
        """The P(wolf) this seat reports with a vote when the game asks (config
        ``beliefs``): its mind's, for every living other seat."""
        return mind.wolf_probabilities()
