"""``TopicScope``: a rule driving one game (or a run's games) reads only what is new and
only its own topics, and the live view is drawn from the events the rule read; processes
with rules scoped to their own games share one durable file."""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.queues import SimpleQueue
from pathlib import Path

import pytest

from pulse_core import Event, IdSource, MemoryEventStore, SQLiteEventStore, WorkflowRule
from pulse_core.chain import first_broken
from werewolf.cli import main
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.scope import TopicScope, floor_seq, scoped_rule


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


def test_a_damaged_event_of_another_game_does_not_stop_a_scope(tmp_path: Path) -> None:
    """A scope over a SQLite store never parses the other topics' rows (other processes'
    games, in an arena run)."""
    store, first, second = _two_games(tmp_path / "w.sqlite3")
    with store:
        store.execute_raw(
            "INSERT INTO events (id, occurred_at, kind, key, version, hash, meta, code_rev,"
            " chain) VALUES ('damaged', '2026-01-01T00:00:00+00:00', 'werewolf.vote', ?, 2,"
            " 'x', '{not json', '', 'x')",
            (first,),
        )
    with SQLiteEventStore(tmp_path / "w.sqlite3") as reader:
        read = TopicScope(reader, [second], batch=1).read_after(0)
        assert read == reader.chain(second)


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


def _play_share(path: str, seeds: dict[str, int], failures: SimpleQueue[str]) -> None:
    """One process: its own connection, a rule scoped to its own games (as an arena worker)."""
    try:
        with SQLiteEventStore(path) as store:
            rule = scoped_rule(werewolf_workflow(mock_seating()), store, seeds)
            for key, seed in seeds.items():
                start_game(rule, seed=seed, topic_id=key)
            statuses = asyncio.run(rule.run())
            if statuses != dict.fromkeys(seeds, "ended"):
                failures.put(f"{sorted(statuses.items())} != every one of {sorted(seeds)} ended")
    except BaseException as exc:  # reported to the test, which fails
        failures.put(repr(exc))
        raise


def test_processes_with_scoped_rules_play_every_game_into_one_durable_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite3"
    SQLiteEventStore(path).close()  # made before the processes, as an arena run does
    ids = IdSource()
    seeds = {ids.new(): seed for seed in range(6)}
    keys = list(seeds)
    context = multiprocessing.get_context("fork")
    failures: SimpleQueue[str] = context.SimpleQueue()
    shares = [{k: seeds[k] for k in keys[w::2]} for w in range(2)]
    workers = [context.Process(target=_play_share, args=(str(path), s, failures)) for s in shares]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [w.exitcode for w in workers] == [0, 0]
    assert failures.empty(), failures.get()
    alone = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), alone)
    with SQLiteEventStore(path) as store:
        assert sorted(store.topics()) == sorted(keys)
        assert store.integrity_check() == "ok"
        for key, seed in seeds.items():
            chain = store.chain(key)
            assert chain[-1].kind == "werewolf.game-end", key
            assert first_broken(chain) is None
            for event in chain:  # no event committed without its content
                assert store.objects.get(event.hash)
            # each game as it is when played alone: the other process changed nothing
            start_game(rule, seed=seed, topic_id=key)
            asyncio.run(rule.run([key]))
            assert [(e.kind, e.hash, e.meta) for e in chain] == [
                (e.kind, e.hash, e.meta) for e in alone.chain(key)
            ]
