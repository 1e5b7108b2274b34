"""The werewolf workflow on pulse_core: fold, moderator, phase roles and game starts.

``werewolf_workflow(seating)`` is the ``WorkflowType``; ``seating(game_id, state)`` says who
plays each seat of a game (mock, random, LLM, human), so one workflow drives many games
with any mix of players. ``start_game`` deals the cards from the game's seed and appends the
start event, which records the deal: a replay needs no random generator.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pulse_core import START, Event, EventStore, RoleResult, WorkflowRule, WorkflowType
from pulse_core.workflow import Role

from .cast import Identity
from .config import GameConfig
from .errors import GameStateError, PlayerProtocolError
from .moderator import next_phase
from .phases import phase_roles
from .phases.context import phase_context
from .players.base import Player
from .players.ledger import ASKING_GAME
from .players.protocol import check_seating
from .registry import PhaseRole
from .state import GameState, evolve, initial_state
from .visibility import ViewCache

__all__ = [
    "DEFAULT_NAMES",
    "WORKFLOW",
    "ZH_NAMES",
    "Seating",
    "fold_chain",
    "fold_event",
    "start_game",
    "start_meta",
    "werewolf_workflow",
]

WORKFLOW = "werewolf"
DEFAULT_NAMES = (
    "Ada", "Ben", "Cai", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo",
    "Kai", "Lea", "Max", "Nia", "Oto", "Pia", "Quin", "Rae", "Sol", "Tom",
)  # fmt: skip
ZH_NAMES = (
    "小明", "小红", "小刚", "小丽", "小军", "小芳", "小华", "小强", "小梅", "小龙",
    "小燕", "小杰", "小雪", "小涛", "小玲", "小峰", "小婷", "小宇", "小静", "小波",
)  # fmt: skip
"""The seats' names in a game played in Chinese (``lang="zh"``), as many as DEFAULT_NAMES."""

Seating = Callable[[str, GameState], Mapping[int, Player]]

_PHASE_NAMES: set[str] = set()  # every phase role's name: filled on first use


def _phase_names() -> set[str]:
    _PHASE_NAMES.update(phase_roles())
    return _PHASE_NAMES


def fold_event(state: GameState | None, event: Event) -> GameState | None:
    """Apply one event: the start event makes the state, a phase event evolves it."""
    if event.role == START:
        return initial_state(event.meta)
    if state is None or event.role not in (_PHASE_NAMES or _phase_names()):
        return state
    return evolve(state, event.role, event.meta.get("diff", {}))


def fold_chain(chain: Sequence[Event]) -> GameState:
    """The state after the whole chain."""
    state: GameState | None = None
    for event in chain:
        state = fold_event(state, event)
    if state is None:
        raise GameStateError("the chain has no start event")
    return state


def start_meta(
    config: GameConfig,
    seed: int,
    names: Sequence[str] | None = None,
    *,
    deal: Sequence[Identity] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The start event's meta: the public game description and the recorded deal (drawn
    from ``seed`` unless ``deal`` gives it, as scripted tests and seat rotations do)."""
    if deal is None:
        deck = list(config.identities)
        random.Random(seed).shuffle(deck)
    else:
        deck = [Identity(i) for i in deal]
        if sorted(deck) != sorted(config.identities):
            raise GameStateError("the deal must use exactly the config's identities")
    if names is None:  # a zh game's table has Chinese names; the log records either
        names = (ZH_NAMES if extra.get("lang") == "zh" else DEFAULT_NAMES)[: config.seats]
    names = list(names)
    if len(names) != config.seats:
        raise GameStateError(f"{len(names)} names for {config.seats} seats")
    game = {"config": config.dump(), "names": names, "seed": seed, **extra}
    return {"game": game, "deal": [i.value for i in deck], "visible_to": []}


def start_game(
    rule: WorkflowRule[GameState | None],
    *,
    seed: int,
    config: GameConfig | None = None,
    names: Sequence[str] | None = None,
    deal: Sequence[Identity] | None = None,
    topic_id: str | None = None,
    **extra: Any,
) -> str:
    """Deal and append a new game's start event; returns the game id (``topic_id`` when
    given: a rule scoped to its games knows their ids before it starts them)."""
    config = config or GameConfig()
    meta = start_meta(config, seed, names, deal=deal, **extra)
    return rule.start(
        f"A {config.seats}-player werewolf game, seed {seed}.", meta, topic_id=topic_id
    )


class _Game:
    """One game's cached pieces: the state last folded (the chain's version and last id it
    is the state of), its view cache, decisions asked ahead, and its players."""

    __slots__ = ("ahead", "folded", "immediate", "players", "views")

    def __init__(self) -> None:
        self.folded: tuple[int, str, GameState] | None = None
        self.views = ViewCache()
        self.ahead: dict[str, Any] = {}  # decisions asked ahead of their phase (the seer's)
        self.players: Mapping[int, Player] | None = None
        self.immediate = False  # every player answers at once (Player.immediate)

    def seat(self, players: Mapping[int, Player]) -> None:
        """Note the players of a game's phase (called when they change)."""
        self.players = players
        self.immediate = all(getattr(p, "immediate", False) for p in players.values())


class _GameCache:
    """Per game: the state at the chain a role receives, folded incrementally (a role sees
    one more event than last time, so a game folds each event once), its view cache, and
    whether its phases may run inline. A game is forgotten once its state has ended."""

    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}

    def eager(self, game_id: str, state: GameState | None) -> bool:
        """Whether the game's phases may start inline (``WorkflowType.eager``)."""
        game = self._games.get(game_id)
        return game is not None and game.immediate

    def fold(self, state: GameState | None, event: Event) -> GameState | None:
        """The adapter's fold; keeps the state it made, so the next role need not refold."""
        role = event.role
        if state is not None and role in (_PHASE_NAMES or _phase_names()):  # fold_event's, inline
            state = evolve(state, role, event.meta.get("diff", {}))
        else:
            state = fold_event(state, event)
        if state is not None:
            if state.ended:
                self._games.pop(event.key, None)
            else:
                game = self._games.get(event.key)
                if game is None:
                    game = self._games[event.key] = _Game()
                game.folded = (event.version, event.id, state)
        return state

    def state(self, game_id: str, chain: Sequence[Event]) -> tuple[_Game, GameState]:
        """The game's record and its state after ``chain``."""
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = _Game()
        folded = game.folded
        if folded is not None and folded[0] == len(chain) and chain[-1].id == folded[1]:
            return game, folded[2]  # the adapter's fold made it (the usual case): kept as is
        state: GameState | None
        if folded is not None and folded[0] <= len(chain) and chain[folded[0] - 1].id == folded[1]:
            start, state = folded[0], folded[2]
        else:
            start, state = 0, None
        for event in chain[start:]:
            state = fold_event(state, event)
        if state is None:
            raise GameStateError(f"game {game_id} has no start event")
        if state.ended:
            self._games.pop(game_id, None)
        else:
            game.folded = (len(chain), chain[-1].id, state)
        return game, state


async def _abandon_ahead(ahead: dict[str, Any]) -> list[dict[str, Any]]:
    """When a phase fails, a decision asked ahead of its own phase (the seer's check) is
    let finish and dropped (a resumed game asks it again); what it was billed is returned,
    to be recorded with the failure."""
    found = ahead.pop("seer", None)
    if found is None:
        return []
    _, own, task = found
    with contextlib.suppress(Exception):
        await task
    return list(own.usage)


def werewolf_workflow(
    seating: Seating,
    *,
    retries: int = 2,
    carried: Mapping[str, Sequence[dict[str, Any]]] | None = None,
) -> WorkflowType[GameState | None]:
    """The werewolf workflow, its seats filled by ``seating``. ``carried`` holds, by game,
    usage records billed to an earlier process that stopped before recording them (the
    bill ledger's ``unrecorded``): each game's next phase records them with its own."""
    cache = _GameCache()
    pending = dict(carried or {})

    def phase_role(run: PhaseRole) -> Role:

        async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
            game, state = cache.state(topic_id, chain)
            players = seating(topic_id, state)
            if players is not game.players:
                check_seating(players, state.seats)
                game.seat(players)
            ctx = phase_context(
                chain,
                state,
                players,
                game.views,
                retries=retries,
                ahead=game.ahead,
                immediate=game.immediate,
            )
            recovered = pending.pop(topic_id, None)
            if recovered:
                ctx.carry(recovered)
            asking = ASKING_GAME.set(topic_id)  # which game each answer is billed to
            try:
                return await run(ctx)
            except Exception as exc:
                # what the failed phase was billed goes into its __error__ event (the adapter
                # merges failure_meta), so the budget and the totals count every token
                spent = ctx.usage + await _abandon_ahead(ctx.ahead)
                if spent:
                    exc.failure_meta = {"usage": spent}  # type: ignore[attr-defined]
                raise
            finally:
                ASKING_GAME.reset(asking)

        return role

    def moderator(last: Event, state: GameState | None) -> str:
        return next_phase(state)

    return WorkflowType(
        name=WORKFLOW,
        roles={phase: phase_role(run) for phase, run in phase_roles().items()},
        moderator=moderator,
        fold=cache.fold,
        initial=None,
        # a game's phases run inline once its first phase found every seat immediate
        eager=cache.eager,
        raises=(PlayerProtocolError,),  # a player's code is wrong: the caller hears it
    )
