"""``check_player``: play a player through seeded games and report what it does wrong.

Like PettingZoo's ``api_test``: the player is seated, among mock players, on every board of
``werewolf.boards``, for a few seeds, once at a seat of every identity the deal gives, and
its decisions are watched. A fault is one of:

- ``protocol``: no async ``decide``, an answer of the wrong type (``PlayerProtocolError``);
- ``illegal``: an answer the rules refused (the fallbacks its events record);
- ``exception``: ``decide`` (or the factory) raised;
- ``slow``: an answer that took longer than ``slow`` seconds;
- ``leak``: a game played differently after another game than alone (state carried
  between games, or choices not seeded by ``game_seed``).

::

    from werewolf import check_player

    report = check_player("py:mypkg.bots:make")  # or the factory itself
    for fault in report.faults:
        print(fault.line())
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pulse_core import ERROR, MemoryEventStore, WorkflowRule

from ..boards import BOARDS, board_config
from ..config import GameConfig
from ..decisions import Answer, Choice, Request, Speech, WitchChoice
from ..errors import ConfigError, PlayerProtocolError
from ..game import WORKFLOW, start_meta, werewolf_workflow
from ..players import Player, make_player
from ..players.protocol import check_answer_type, check_awaitable
from ..players.protocol import check_player as has_decide
from ..players.python import load_factory
from ..state import GameState

__all__ = ["FAULT_KINDS", "CheckReport", "Fault", "check_player"]

FAULT_KINDS = ("protocol", "illegal", "exception", "slow", "leak")
_ERROR_KIND = f"{WORKFLOW}.{ERROR}"

Factory = Callable[..., Any]


@dataclass(frozen=True)
class Fault:
    """One thing the player did wrong, where: the board, seed and seat of the game."""

    kind: str  # one of FAULT_KINDS
    board: str
    seed: int
    seat: int
    message: str

    def line(self) -> str:
        return f"{self.kind}: {self.board} seed {self.seed} seat {self.seat}: {self.message}"


@dataclass(frozen=True)
class CheckReport:
    """What ``check_player`` found: the player's spec, the games played, the faults."""

    player: str
    games: int
    faults: tuple[Fault, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.faults

    def count(self, kind: str) -> int:
        return sum(f.kind == kind for f in self.faults)

    def lines(self) -> list[str]:
        """One line per fault, the same fault at other seats, seeds or decisions counted
        on its first line rather than repeated."""
        groups: dict[tuple[str, str], list[Fault]] = {}
        for fault in self.faults:
            groups.setdefault((fault.kind, _NUMBERS.sub("N", fault.message)), []).append(fault)
        return [
            found[0].line() + (f" (and {len(found) - 1} more like it)" if len(found) > 1 else "")
            for found in groups.values()
        ]


_NUMBERS = re.compile(r"(\d+|none)(, (\d+|none))*")  # seats, lists, days: the same fault


@dataclass
class _Watch:
    """What one game saw of the checked player: its answers in order and slow ones."""

    slow: float
    answers: list[tuple[str, str]] = field(default_factory=list)  # (key, answer)
    late: list[tuple[str, float]] = field(default_factory=list)  # (key, seconds)


class _Watched:
    """The checked player, timed and its answers kept; the protocol checked as a game
    would check it (so a sync ``decide`` is reported, not a ``TypeError``)."""

    def __init__(self, inner: Any, watch: _Watch) -> None:
        self.inner = inner
        self.watch = watch
        self.kind = str(getattr(inner, "kind", "py"))

    async def decide(self, request: Request) -> Answer:
        started = time.perf_counter()
        pending = self.inner.decide(request)
        check_awaitable(request, pending)
        answer = await pending
        spent = time.perf_counter() - started
        check_answer_type(request, answer)
        if spent > self.watch.slow:
            self.watch.late.append((request.key, spent))
        self.watch.answers.append((request.key, _shown(answer)))
        return answer  # type: ignore[no-any-return]


def _shown(answer: Answer) -> str:
    """An answer as compared between two plays of a game (no usage, no exchange)."""
    if isinstance(answer, Speech):
        return f"speech {answer.text!r}"
    if isinstance(answer, Choice):
        return f"choice {answer.target!r}"
    if isinstance(answer, WitchChoice):
        return f"witch {answer.save!r} {answer.poison!r}"
    return f"none {answer.reason!r}"


def _factory(player: str | Factory, options: Mapping[str, Any]) -> tuple[str, Factory]:
    """The spec shown in the report and the factory: ``py:MODULE:FACTORY``, an installed
    player's name, or a factory itself."""
    if not isinstance(player, str):
        name = f"{getattr(player, '__module__', '?')}:{getattr(player, '__qualname__', '?')}"
        return f"py:{name}", player
    if player.startswith("py:"):
        return player, load_factory(player[3:], "player")

    def installed(*, game_seed: int, seat: int, **more: Any) -> Player:
        return make_player(player, game_seed=game_seed, seat=seat, **more)

    installed(game_seed=0, seat=1, **options)  # an unknown name: refused at once
    return player, installed


@dataclass(frozen=True)
class _Game:
    board: str
    config: GameConfig
    seed: int
    seat: int


def _games(boards: Sequence[str], games: int, seed: int) -> Iterator[_Game]:
    """For each board and seed, one game per identity the deal gives: the checked player
    at the first seat holding it."""
    for board in boards:
        config = board_config(board, "boards")
        for game_seed in range(seed, seed + games):
            deal = start_meta(config, game_seed)["deal"]
            seen: set[str] = set()
            for seat, identity in enumerate(deal, start=1):
                if identity not in seen:
                    seen.add(identity)
                    yield _Game(board, config, game_seed, seat)


def _play(game: _Game, make: Factory, options: Mapping[str, Any], watch: _Watch) -> list[Fault]:
    """Play one game; the faults it shows (protocol, exception, illegal, slow)."""

    def fault(kind: str, message: str) -> Fault:
        return Fault(kind, game.board, game.seed, game.seat, message)

    seats: dict[int, Player] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        if not seats:  # made in the game's first phase: a factory that raises fails it
            inner = make(game_seed=game.seed, seat=game.seat, **options)
            has_decide(inner, f"seat {game.seat}")
            for s in state.seats:
                seats[s] = (
                    _Watched(inner, watch)
                    if s == game.seat
                    else make_player("mock", game_seed=state.seed, seat=s)
                )
        return seats

    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(seating), store)
    meta = start_meta(game.config, game.seed)
    game_id = rule.start(f"A check of seat {game.seat}, seed {game.seed}.", meta)
    try:
        asyncio.run(rule.run([game_id]))
    except PlayerProtocolError as exc:
        return [fault("protocol", str(exc))]
    found: list[Fault] = []
    for event in store.chain(game_id):
        for record in event.meta.get("fallbacks", ()):
            if record.get("seat") == game.seat:
                found.append(
                    fault("illegal", f"{record['decision']} {record['key']}: {record['reason']}")
                )
        if event.kind == _ERROR_KIND:
            found.append(fault("exception", str(event.meta.get("error"))))
    found += [fault("slow", f"{key} took {spent:.2f} s") for key, spent in watch.late]
    return found


def check_player(
    player: str | Factory,
    *,
    boards: Sequence[str] | None = None,
    games: int = 2,
    seed: int = 0,
    slow: float = 1.0,
    options: Mapping[str, Any] | None = None,
) -> CheckReport:
    """Play ``player`` (``py:MODULE:FACTORY``, an installed player's name, or a factory)
    through ``games`` seeded games per board (``boards``: every board unless named), at a
    seat of every identity, the other seats mock players; see the module docstring.
    ``slow`` is the seconds an answer may take; ``options`` go to the factory."""
    options = dict(options or {})
    shown, make = _factory(player, options)
    boards = list(BOARDS) if boards is None else list(boards)
    if games < 1:
        raise ConfigError([("games", "play at least one game per board")])
    faults: list[Fault] = []
    played = 0
    for game in _games(boards, games, seed):
        faults += _play(game, make, options, _Watch(slow))
        played += 1
    faults += _leaks(boards[0] if boards else "standard-9", make, options, seed, slow)
    return CheckReport(shown, played + 3, tuple(faults))


def _leaks(
    board: str, make: Factory, options: Mapping[str, Any], seed: int, slow: float
) -> list[Fault]:
    """Game B alone, then game A, then B again: B's answers must be the same both times."""
    config = board_config(board, "boards")
    b = _Game(board, config, seed + 1000, 1)
    alone, after = _Watch(slow), _Watch(slow)
    if _play(b, make, options, alone):
        return []  # a game that fails is reported already: no leak to compare
    _play(_Game(board, config, seed + 1001, 1), make, options, _Watch(slow))
    _play(b, make, options, after)
    if alone.answers == after.answers:
        return []
    at = next(
        (i for i, (x, y) in enumerate(zip(alone.answers, after.answers, strict=False)) if x != y),
        min(len(alone.answers), len(after.answers)),
    )
    key = (alone.answers[at:] or after.answers[at:])[0][0]
    return [
        Fault(
            "leak",
            board,
            b.seed,
            b.seat,
            f"the game is played differently after another game (first at {key}): state "
            "carried between games, or choices not seeded by game_seed",
        )
    ]
