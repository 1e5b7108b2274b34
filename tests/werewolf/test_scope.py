"""``TopicScope``: a rule driving one game (or a run's games) reads only what is new and
only its own topics, and the live view is drawn from the events the rule read."""

from __future__ import annotations

from pathlib import Path

import pytest

from pulse_core import Event, SQLiteEventStore, WorkflowRule
from werewolf.cli import main
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.scope import TopicScope, floor_seq


def _two_games(path: Path) -> tuple[SQLiteEventStore, str, str]:
    store = SQLiteEventStore(path)
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    return store, start_game(rule, seed=1), start_game(rule, seed=2)


def test_a_scope_reads_only_its_topics_and_passes_each_batch_on(tmp_path: Path) -> None:
    store, first, second = _two_games(tmp_path / "w.sqlite3")
    seen: list[list[Event]] = []
    scope = TopicScope(store, [second], batch=1, on_read=lambda batch: seen.append(list(batch)))
    with store:
        assert sorted(store.topics()) == sorted([first, second])
        assert scope.topics() == [second]
        floor = floor_seq(store, [second])
        assert floor == store.chain(second)[0].seq - 1
        read = scope.read_after(0)
        assert [e.key for e in read] == [second]
        assert seen == [read]
        assert scope.read_after(read[-1].seq) == []
        assert seen == [read]  # nothing new: nothing passed on
        assert floor_seq(store, ["no-such-game"]) == store.last_seq()


def test_playing_a_game_reads_no_whole_chain_per_tick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    chain = SQLiteEventStore.chain

    def counted(self: SQLiteEventStore, key: str) -> list[Event]:
        calls.append(key)
        return chain(self, key)

    monkeypatch.setattr(SQLiteEventStore, "chain", counted)
    store = tmp_path / "w.sqlite3"
    assert main(["play", "--seed", "5", "--view", "god", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "Cast, revealed" in out  # the live view drew the game to its end
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
        events = s.version(game)
    assert events > 30
    assert len(calls) < 10, f"{len(calls)} chain reads for {events} events"
