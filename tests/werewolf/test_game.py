"""Whole games: determinism, rebuilding from SQLite, resuming, and the fold at every step."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import pytest

from pulse_core import Event, EventStore, MemoryEventStore, SQLiteEventStore, WorkflowRule
from pulse_core.events import meta_json
from pulse_core.workflow import WorkflowType
from werewolf.errors import UnknownSeatError
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players.base import Player
from werewolf.players.random_player import RandomPlayer
from werewolf.state import GameState
from werewolf.visibility import view


def random_seating(game: str, state: GameState) -> Mapping[int, Player]:
    return {s: RandomPlayer(state.seed) for s in state.seats}


def run_game(store: EventStore, seed: int) -> tuple[str, WorkflowRule[GameState | None]]:
    rule = WorkflowRule(werewolf_workflow(random_seating), store)
    game = start_game(rule, seed=seed)
    assert asyncio.run(rule.run())[game] == "ended"
    return game, rule


def fingerprint(store: EventStore, game: str) -> list[tuple[int, str, str, str]]:
    """Everything of a log but ids and times: version, kind, meta JSON, content hash."""
    return [(e.version, e.kind, meta_json(e.meta), e.hash) for e in store.chain(game)]


def test_same_seed_gives_the_same_log_in_every_store(tmp_path: Path) -> None:
    first, _ = run_game(memory := MemoryEventStore(), seed=7)
    second, _ = run_game(again := MemoryEventStore(), seed=7)
    on_disk, _ = run_game(sqlite := SQLiteEventStore(tmp_path / "g.sqlite3"), seed=7)
    assert fingerprint(memory, first) == fingerprint(again, second)
    assert fingerprint(memory, first) == fingerprint(sqlite, on_disk)
    other, _ = run_game(different := MemoryEventStore(), seed=8)
    assert fingerprint(memory, first) != fingerprint(different, other)


def test_a_game_rebuilt_from_the_sqlite_file_equals_the_live_one(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    store = SQLiteEventStore(path)
    game, rule = run_game(store, seed=3)
    live = rule.state(game)
    store.close()
    reopened = SQLiteEventStore(path)
    assert fold_chain(reopened.chain(game)) == live
    assert live is not None
    assert live.ended


def test_the_fold_equals_the_live_state_at_every_step() -> None:
    seen: list[tuple[int, GameState | None]] = []
    base = werewolf_workflow(random_seating)

    def watching(last: Event, state: GameState | None) -> str:
        seen.append((last.version, state))
        return base.moderator(last, state)

    workflow = WorkflowType(base.name, base.roles, watching, base.fold, base.initial)
    store = MemoryEventStore()
    rule = WorkflowRule(workflow, store)
    game = start_game(rule, seed=11)
    asyncio.run(rule.run())
    chain = store.chain(game)
    assert len(seen) == len(chain)
    for version, live in seen:
        assert fold_chain(chain[:version]) == live


@pytest.mark.parametrize("stop_at", [2, 6, 9, 17, 25])
def test_a_game_stopped_at_any_event_resumes_to_the_same_end(stop_at: int) -> None:
    whole, _ = run_game(full := MemoryEventStore(), seed=5)
    chain = full.chain(whole)
    partial = MemoryEventStore()
    for event in chain[:stop_at]:  # the store as a crash after event `stop_at` left it
        partial.objects.put(full.objects.get(event.hash))
        for digest in event.meta.get("attachments", {}).values():
            partial.objects.put(full.objects.get(digest))
        partial.append(event.draft(), event.version - 1)
    rule = WorkflowRule(werewolf_workflow(random_seating), partial)
    assert asyncio.run(rule.run())[whole] == "ended"
    assert fingerprint(partial, whole) == fingerprint(full, whole)


def test_view_of_a_seat_the_game_does_not_have_raises() -> None:
    game, _ = run_game(store := MemoryEventStore(), seed=2)
    chain = store.chain(game)
    with pytest.raises(UnknownSeatError, match="no seat 10"):
        view(chain, 10)
    with pytest.raises(UnknownSeatError):
        view(chain, 0)
    assert view(chain, 9).seat == 9


@pytest.mark.parametrize(
    "replay", sorted(Path(__file__).parents[2].joinpath("replays").glob("*.jsonl"))
)
def test_the_moderator_still_names_every_recorded_step(replay: Path) -> None:
    """A changed moderator or fold shows up against the recorded sample games."""
    from pulse_core.transfer import load_topic_file

    chain = load_topic_file(replay).chain
    workflow = werewolf_workflow(random_seating)
    assert workflow.replay_check(chain, finished=True) == []
