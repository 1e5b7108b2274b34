"""Scripted games: players that answer from a script keyed by decision key.

Decision keys read like ``n2.witch.s5`` (night 2, the witch, seat 5), ``d1.vote.r1.s3``
(day 1, first vote round, seat 3), ``n1.wolf-kill.r1.s2``. Anything the script does not name
gets a quiet default: a short speech, no potion, no kill (or the first legal target when
no kill is not allowed), an abstention, the seer's first option, a declined shot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pulse_core import Event, EventStore, MemoryEventStore, WorkflowRule
from werewolf.cast import Identity
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.state import GameState

W, SEER, WITCH, HUNTER, V = (
    Identity.WEREWOLF,
    Identity.SEER,
    Identity.WITCH,
    Identity.HUNTER,
    Identity.VILLAGER,
)
DEAL = (W, W, W, SEER, WITCH, HUNTER, V, V, V)
"""Seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers."""


@dataclass
class ScriptedPlayer:
    script: Mapping[str, Answer]
    asked: list[Request] = field(default_factory=list)
    kind: str = "scripted"

    async def decide(self, request: Request) -> Answer:
        self.asked.append(request)
        answer = self.script.get(request.key)
        if answer is not None:
            return answer
        if request.kind.speaks:
            return Speech(f"seat {request.seat} speaks")
        if request.kind is DecisionKind.WITCH:
            return WitchChoice()
        if request.kind is DecisionKind.SEER:
            return Choice(request.options[0])
        return Choice(None if None in request.options else request.options[0])


@dataclass
class Played:
    chain: list[Event]
    state: GameState
    asked: list[Request]
    store: EventStore

    def phases(self) -> list[str]:
        return [e.role for e in self.chain]

    def events(self, phase: str) -> list[Event]:
        return [e for e in self.chain if e.role == phase]

    def asked_for(self, key: str) -> list[Request]:
        return [r for r in self.asked if r.key == key]


def votes(
    day: int, target: int | None, voters: Iterable[int] = range(1, 10), rnd: int = 1
) -> dict[str, Answer]:
    """Every listed voter votes ``target`` (the target itself abstains)."""
    return {f"d{day}.vote.r{rnd}.s{v}": Choice(None if v == target else target) for v in voters}


def kill(night: int, target: int | None, wolves: Iterable[int] = (1, 2, 3)) -> dict[str, Answer]:
    """Every wolf proposes ``target`` in the first round."""
    return {f"n{night}.wolf-kill.r1.s{w}": Choice(target) for w in wolves}


def play(
    script: Mapping[str, Answer],
    *,
    config: GameConfig | None = None,
    deal: tuple[Identity, ...] = DEAL,
    store: EventStore | None = None,
    seed: int = 1,
) -> Played:
    player = ScriptedPlayer(script)
    store = store if store is not None else MemoryEventStore()
    rule = WorkflowRule(
        werewolf_workflow(lambda game, state: {s: player for s in state.seats}), store
    )
    game = start_game(rule, seed=seed, config=config, deal=deal)
    statuses = asyncio.run(rule.run())
    assert statuses[game] == "ended", statuses
    chain = store.chain(game)
    return Played(chain, fold_chain(chain), player.asked, store)
