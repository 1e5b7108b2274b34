"""The registry of seat kinds, and the seatings that fill a game with their players.

``make_player(kind, game_seed=..., seat=..., **options)`` builds one seat's player from the
``PLAYER_KINDS`` registry (a kind is added with one line: ``register_player("llm",
factory)``). ``uniform_seating(kind)`` and ``mock_seating()`` return the ``seating(game_id,
state)`` function ``werewolf_workflow`` calls before every phase: players are made once per
game and dropped when the game is decided. ``seating_from_specs(specs)`` seats each seat by
its ``SeatSpec`` (mock, random, llm, human), the seating ``werewolf play`` and ``resume`` use.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import ConfigError, PlayerProtocolError
from ..lineup import PEOPLE, SeatSpec
from ..state import GameState
from .base import Player
from .endpoints import BACKOFF, ClientPool, StatusSink, TokenMeter, TransportFactory
from .human import ConsoleTerminal, HumanPlayer, Terminal
from .llm import LLMPlayer
from .protocol import check_player
from .python import installed_factory, load_factory
from .web import WebHost, WebSeat

if TYPE_CHECKING:
    from ..decisions import Request
    from .bills import Billed
    from .cassette import CassetteRecorder, CassetteTransport
    from .ledger import BillLedger
from .mock import MockPlayer
from .random_player import RandomPlayer

__all__ = [
    "PLAYER_KINDS",
    "REPLAY_KEY",
    "PlayerFactory",
    "Seating",
    "SpecSeating",
    "cached_seating",
    "make_player",
    "mock_seating",
    "register_player",
    "seating_from_specs",
    "uniform_seating",
]


class PlayerFactory(Protocol):
    """Makes the player of one seat of one game."""

    def __call__(self, *, game_seed: int, seat: int, **options: Any) -> Player: ...


def _mock(*, game_seed: int, seat: int, **options: Any) -> Player:
    return MockPlayer(game_seed, seat, **options)


def _random(*, game_seed: int, seat: int, **options: Any) -> Player:
    if options:
        raise ConfigError([("options", f"the random player takes no options: {sorted(options)}")])
    return RandomPlayer(game_seed)


def _llm(*, game_seed: int, seat: int, **options: Any) -> Player:
    return LLMPlayer(game_seed=game_seed, seat=seat, **options)


def _human(*, game_seed: int, seat: int, **options: Any) -> Player:
    return HumanPlayer(seat, **options)


def _web(*, game_seed: int, seat: int, **options: Any) -> Player:
    host, lang = options.pop("host", None), options.pop("lang", "en")
    if options or not (host is None or isinstance(host, WebHost)):
        raise ConfigError([("options", f"the web player takes no options: {sorted(options)}")])
    # without a host (a spec checked before the game), a seat with no page yet
    player = WebSeat(seat, "") if host is None else host.seat(seat)
    player.lang = str(lang)
    return player


def _python(*, game_seed: int, seat: int, **options: Any) -> Player:
    target = options.pop("factory", None)
    if not isinstance(target, str):
        raise ConfigError([("factory", "a py seat names its factory: py:MODULE:FACTORY")])
    made: Player = load_factory(target)(game_seed=game_seed, seat=seat, **options)
    return made


PLAYER_KINDS: dict[str, PlayerFactory] = {
    "mock": _mock,
    "random": _random,
    "llm": _llm,
    "human": _human,
    "web": _web,
    "py": _python,
}
"""Every known seat kind by name; other modules add theirs with ``register_player``."""


_BUILT_IN = frozenset(PLAYER_KINDS) - {"py"}  # the kinds whose players are ours


def register_player(kind: str, factory: PlayerFactory) -> None:
    """Make ``kind`` available to ``make_player`` and the seatings (replaces a previous one)."""
    PLAYER_KINDS[kind] = factory


def make_player(kind: str, *, game_seed: int, seat: int, **options: Any) -> Player:
    """The player of ``seat`` in the game seeded ``game_seed``: a registered kind's, else
    one an installed package offers (``werewolf.players`` entry points). Raises ConfigError
    for an unknown kind or options the kind does not take, PlayerProtocolError when what
    the factory made has no async ``decide``."""
    factory = PLAYER_KINDS.get(kind) or installed_factory(kind)
    if factory is None:
        known = ", ".join(sorted(PLAYER_KINDS))
        raise ConfigError([("kind", f"unknown player kind {kind!r}: use one of {known}")])
    label = f"py:{options['factory']}" if kind == "py" else kind
    try:
        player = factory(game_seed=game_seed, seat=seat, **options)
    except PlayerProtocolError:
        raise
    except TypeError as exc:  # a keyword the factory does not know
        raise ConfigError([("options", f"{label} player: {exc}")]) from None
    if kind not in _BUILT_IN:  # the built-in kinds keep the protocol already
        check_player(player, f"seat {seat} ({label})")
    return player


Seating = Callable[[str, GameState], Mapping[int, Player]]


def cached_seating(make: Callable[[str, GameState, int], Player]) -> Seating:
    """A seating that makes each game's players once, with ``make(game_id, state, seat)``.

    Calling it before every phase then costs a lookup; a game's players are dropped once
    its state is decided (the game-end phase is the last one that asks for them)."""
    games: dict[str, dict[int, Player]] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        players = games.get(game_id)
        if players is None:
            players = games[game_id] = {seat: make(game_id, state, seat) for seat in state.seats}
        if state.winner is not None or state.ended:
            games.pop(game_id, None)
        return players

    return seating


def uniform_seating(kind: str, **options: Any) -> Seating:
    """A seating that puts a ``kind`` player (made with ``options``) in every seat."""
    make_player(kind, game_seed=0, seat=1, **options)  # fail now, not in the first game
    return cached_seating(
        lambda game_id, state, seat: make_player(kind, game_seed=state.seed, seat=seat, **options)
    )


def mock_seating(**options: Any) -> Seating:
    """Mock players in every seat (``options`` go to each, e.g. ``personality="bold"``)."""
    return uniform_seating("mock", **options)


class SpecSeating:
    """The players of one game, seat by seat from resolved ``SeatSpec`` objects.

    LLM seats share the clients of one ``ClientPool`` (endpoint by endpoint) and one
    ``TokenMeter`` (the game's budget, starting from what the log says was ``spent``);
    ``transport`` is the HTTP layer under every client (the network, a recording, a
    cassette). A human seat reads and writes ``terminal``; a browser seat is served by
    ``web`` (a ``WebHost`` on a free port, its URLs told to ``announce``, when not given). Players are made at the game's
    first phase, from its seed; mock personalities are checked at once. ``status`` hears of
    every request an LLM seat tries again after a transient fault (``SeatRetry``).
    """

    def __init__(
        self,
        specs: Mapping[int, SeatSpec],
        *,
        lang: str = "en",
        env: Mapping[str, str] | None = None,
        budget: int | None = None,
        spent: int = 0,
        transport: TransportFactory | None = None,
        terminal: Terminal | None = None,
        recap: bool = True,
        recorder: CassetteRecorder | None = None,
        backoff: tuple[float, float] = BACKOFF,
        waits: bool = True,
        status: StatusSink | None = None,
        ledger: BillLedger | None = None,
        web: WebHost | None = None,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self.specs = dict(specs)
        self.recorder = recorder
        self.ledger = ledger
        self.lang = lang
        self.clients = ClientPool(env, transport, backoff=backoff, waits=waits, status=status)
        self.meter = TokenMeter(budget, spent)
        self._terminal = terminal
        self._recap = recap
        self._games: dict[str, dict[int, Player]] = {}
        for seat, spec in self.specs.items():  # fail now, not in the first phase
            make_player(spec.kind, game_seed=0, seat=seat, **self._options(spec, probe=True))
        browser = sorted(seat for seat, spec in self.specs.items() if spec.kind == "web")
        if browser and web is None:
            web = WebHost()
            for seat in browser:
                (announce or _to_stderr)(f"seat {seat} plays in the browser: {web.url(seat)}")
        self._web = web

    def _options(self, spec: SeatSpec, *, probe: bool = False, game_id: str = "") -> dict[str, Any]:
        if spec.kind == "mock":
            chosen = {} if spec.personality is None else {"personality": spec.personality}
            return {**chosen, "lang": self.lang}
        if spec.kind == "llm":
            options = {"spec": spec, "clients": self.clients, "lang": self.lang}
            # with a human at the table a live warning would tell when a seat is asked (at
            # night, who acts); the totals at the end mark the estimates all the same
            human = any(s.kind in PEOPLE for s in self.specs.values())
            if human:
                options["warn"] = None
            if self.ledger is not None and not probe:
                options["bill"] = partial(_write_bill, self.ledger, game_id)
            return {**options, "meter": self.meter}
        if spec.kind == "web":
            return {"lang": self.lang} | ({} if probe else {"host": self._web})
        if spec.kind == "human":
            terminal = self._terminal
            if terminal is None and not probe:
                terminal = self._terminal = ConsoleTerminal()
            return {"terminal": terminal, "lang": self.lang, "recap": self._recap}
        return spec.factory_options()

    def __call__(self, game_id: str, state: GameState) -> Mapping[int, Player]:
        players = self._games.get(game_id)
        if players is None:
            players = self._games[game_id] = {
                seat: make_player(
                    self.specs[seat].kind,
                    game_seed=state.seed,
                    seat=seat,
                    **self._options(spec, game_id=game_id),
                )
                for seat, spec in sorted(self.specs.items())
                if seat in state.seats
            }
        if self._web is not None:
            self._web.serve()  # the pages are up before the first decision is asked
            if state.winner is not None:
                self._web.finish(state.winner.value)
        return players

    async def aclose(self) -> None:
        """Close the HTTP clients made in the running event loop, and stop serving the
        browser seats' pages there."""
        await self.clients.aclose()
        if self._web is not None:
            await self._web.aclose()

    def close(self) -> None:
        """Close the cassette being recorded, if any (every line is already flushed), and
        the bill ledger."""
        if self.recorder is not None:
            self.recorder.close()
        if self.ledger is not None:
            self.ledger.close()
        if self._web is not None:
            self._web.close()


def _to_stderr(line: str) -> None:
    sys.stderr.write(f"werewolf: {line}\n")
    sys.stderr.flush()


def _write_bill(ledger: BillLedger, game_id: str, request: Request, bill: Billed) -> None:
    ledger.record(game_id, request.seat, request.kind.value, request.key, bill)


REPLAY_KEY = "no-key:replayed-from-a-cassette"
"""The key an LLM client holds while a cassette answers: no secret, and no word of a text."""


def seating_from_specs(
    specs: Mapping[int, SeatSpec],
    *,
    lang: str = "en",
    env: Mapping[str, str] | None = None,
    budget: int | None = None,
    spent: int = 0,
    record: str | None = None,
    replay: str | CassetteTransport | None = None,
    terminal: Terminal | None = None,
    recap: bool = True,
    backoff: tuple[float, float] = BACKOFF,
    session: int = 0,
    status: StatusSink | None = None,
    ledger: BillLedger | None = None,
    web: WebHost | None = None,
    announce: Callable[[str], None] | None = None,
) -> SpecSeating:
    """A seating for ``specs`` (e.g. ``Lineup.check(...)``'s result).

    ``record`` names a cassette file every LLM request and answer is appended to;
    ``replay`` a cassette the answers are served from (its file, or the cassette read
    already), with no network at all; ``session`` is the number of events the game had
    when this process took it up (0 for a new game), which marks the cassette's part of
    each process, so that a game stopped and resumed replays each part from its own answers;
    ``backoff`` is the first and the longest wait between two tries of a request after a
    transient fault (default ``BACKOFF``; replaying, the waits are counted, not waited);
    ``status`` hears of each such retry (not of a replay's); ``ledger`` writes every answer
    down in the store as it arrives (``players.ledger``).
    """
    if record is not None and replay is not None:
        raise ConfigError([("--record", "record or replay a cassette, not both at once")])
    from .cassette import CassetteRecorder, CassetteTransport, MeteredTransport

    transport: TransportFactory | None = None
    recorder: CassetteRecorder | None = None
    if replay is not None:
        cassette = (
            replay
            if isinstance(replay, CassetteTransport)
            else CassetteTransport(replay, session=session)
        )
        # no request leaves the process, so no key is read; a placeholder stands in, one no
        # message holds (redaction masks the key wherever it appears: a word would be mangled)
        base = os.environ if env is None else env
        env = {**base, **{s.key_env(): REPLAY_KEY for s in specs.values() if s.kind == "llm"}}

        def transport() -> CassetteTransport:
            return cassette

    elif record is not None:
        recording = recorder = CassetteRecorder(record, mode="a")
        recorder.session(session)

        def transport() -> MeteredTransport:
            return MeteredTransport(recorder=recording)

    return SpecSeating(
        specs,
        lang=lang,
        env=env,
        budget=budget,
        spent=spent,
        transport=transport,
        terminal=terminal,
        recap=recap,
        recorder=recorder,
        backoff=backoff,
        waits=replay is None,
        status=status,
        ledger=ledger,
        web=web,
        announce=announce,
    )
