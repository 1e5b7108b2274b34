"""Driving a run's games in one process: each game started with its planned seed, deal and
seating under a fixed id (so a restart never duplicates it), then ticked by a ``WorkflowRule``
scoped to the run's games until they end or the budget is spent."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from pulse_core import ConflictError, EventStore, WorkflowRule

from ..game import start_meta, werewolf_workflow
from ..players.ledger import BillLedger
from ..scope import scoped_rule
from ..state import GameState
from .schedule import GamePlan, game_id, plan_game
from .seating import SeatFactory, run_seating, seat_player
from .spec import RunSpec
from .tally import ERROR_KIND, Tally

__all__ = ["drive"]


def _start(rule: WorkflowRule[GameState | None], spec: RunSpec, plan: GamePlan) -> None:
    players = [spec.player(name).spec.public() | {"player": name} for name in plan.assignment]
    arena = {"run": spec.name, "index": plan.index, "assignment": list(plan.assignment)}
    meta = start_meta(spec.config, plan.seed, deal=plan.deal, players=players, arena=arena)
    content = f"Game {plan.index + 1} of arena run {spec.name}, seed {plan.seed}."
    # a conflict: another runner of the same run started it meanwhile; it is in the store
    with contextlib.suppress(ConflictError):
        rule.start(content, meta, topic_id=game_id(spec, plan.index))


async def drive(
    spec: RunSpec,
    store: EventStore,
    indices: Sequence[int],
    *,
    concurrency: int,
    factory: SeatFactory = seat_player,
    tally: Tally | None = None,
    on_tick: Callable[[], None] | None = None,
) -> str | None:
    """Play games ``indices`` of the run until each has ended or failed, at most
    ``concurrency`` at once; returns why it stopped early (the budget), else None."""
    plans = {game_id(spec, i): plan_game(spec, i) for i in indices}
    specs = {p.name: p.spec for p in spec.players}
    ledger: BillLedger | None = getattr(factory, "ledger", None)  # LLM seats write one
    chains = {key: store.chain(key) for key in plans}
    # answers a stopped process received but never recorded: with each game's next event
    carried = {
        key: ledger.unrecorded(key, chain)
        for key, chain in chains.items()
        if chain and ledger is not None
    }
    seating = run_seating(plans, specs, factory)
    rule = scoped_rule(werewolf_workflow(seating, carried=carried), store, plans)
    pending: list[GamePlan] = []
    for key, plan in plans.items():
        chain = chains[key]
        if not chain:
            pending.append(plan)
        elif chain[-1].kind == ERROR_KIND:
            rule.resume(key)  # a failed game is tried again where it stopped
    pending.reverse()  # popped from the end: lowest index first
    try:
        return await _drive(rule, spec, pending, concurrency, tally, on_tick)
    finally:
        aclose = getattr(factory, "aclose", None)  # a factory holding HTTP clients
        if aclose is not None:
            await aclose()


async def _drive(
    rule: WorkflowRule[GameState | None],
    spec: RunSpec,
    pending: list[GamePlan],
    concurrency: int,
    tally: Tally | None,
    on_tick: Callable[[], None] | None,
) -> str | None:
    await rule.tick()  # learn the games already in the store
    while True:
        reason = tally.over_budget() if tally is not None else None
        if reason is not None:
            return reason
        fresh = 0  # started since the last tick, which has not read them yet
        while pending and len(rule.active()) + fresh < concurrency:
            _start(rule, spec, pending.pop())
            fresh += 1
        if not rule.active() and not fresh:
            return None
        appended = await rule.tick()
        if tally is not None:
            tally.update()
        if on_tick is not None:
            on_tick()
        if appended == 0 and rule.active():
            await asyncio.sleep(0.05)  # another runner holds the next step: wait for it
