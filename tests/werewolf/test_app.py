"""werewolf.app as a Python user calls it: games played in memory and into a SQLite file,
resumed after Ctrl-C, replayed and exported, and a small arena run reported."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pulse_core import Event, SQLiteEventStore, WorkflowRule
from werewolf.app import (
    GameInterrupted,
    RunOptions,
    Table,
    build_report,
    export_replay,
    list_runs,
    load_log,
    play_game,
    prepare_run,
    remove_run,
    resume_game,
    run_arena,
)
from werewolf.arena.spec import run_path
from werewolf.errors import ConfigError
from werewolf.game import fold_chain
from werewolf.win import Outcome


def _moves(chain: Sequence[Event]) -> list[tuple[str, Any]]:
    """What a game did, without the ids and times that differ from one play to the next."""
    return [(e.kind, e.meta.get("diff")) for e in chain]


def test_a_mock_game_is_played_in_memory_in_one_call() -> None:
    result = play_game(seed=3)
    assert result.status == "ended"
    assert result.store_path is None
    assert result.replay_file is None
    assert result.winner in {o.value for o in Outcome}
    assert fold_chain(result.chain).winner == Outcome(result.winner)
    assert result.chain[-1].role == "game-end"
    assert result.reason == result.chain[-1].meta["detail"]["reason"]
    assert result.seed == 3
    # the seed gives the deal and every mock choice: the same seed, the same game
    assert _moves(play_game(seed=3).chain) == _moves(result.chain)
    assert _moves(play_game(seed=4).chain) != _moves(result.chain)


def test_a_result_draws_each_view_of_its_game() -> None:
    result = play_game(board="guard-12", seed=1)
    assert result.state.config.seats == 12
    god, public, seat = result.view("god"), result.view("public"), result.view(2)
    assert "god view" in god
    assert "public view" in public
    assert "seat 2's view" in seat
    assert len(god) > len(seat) > 0
    assert god != public


def test_seats_are_named_by_number_and_a_bad_one_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = play_game(seed=2, seats={3: "random", 4: "mock:bold"})
    players = result.game["players"]
    assert players[2]["kind"] == "random"
    assert players[3] == {"kind": "mock", "personality": "bold"}
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = tmp_path / "w.sqlite3"
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        play_game(seed=2, seats={3: "llm:some-model"}, store=store)
    assert not store.exists()
    with pytest.raises(ConfigError, match="a config or a board"):
        play_game(result.state.config, board="standard-9")


def test_a_game_in_a_sqlite_file_is_exported_to_a_replay_file_with_its_chain(
    tmp_path: Path,
) -> None:
    store = tmp_path / "w.sqlite3"
    seen: list[int] = []

    def watch(_store: object, game_id: str) -> Any:
        return lambda events: seen.extend(e.version for e in events)

    result = play_game(seed=5, store=store, table=Table(watch=watch))
    assert result.replay_file == tmp_path / f"{result.game_id}.jsonl"
    assert seen == list(range(1, len(result.chain) + 1))  # the watcher saw every event once
    with SQLiteEventStore(store, read_only=True) as opened:
        assert tuple(opened.chain(result.game_id)) == result.chain
    from_file = load_log(result.replay_file)
    assert [e.id for e in from_file.chain] == [e.id for e in result.chain]
    assert _moves(from_file.chain) == _moves(result.chain)
    assert load_log(result.game_id, store).chain == from_file.chain
    assert result.log().finished


def test_a_game_interrupted_by_ctrl_c_resumes_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_tick = WorkflowRule.tick
    ticks = 0

    async def tick_then_interrupt(self: WorkflowRule[Any]) -> int:
        nonlocal ticks
        ticks += 1
        if ticks == 12:
            raise KeyboardInterrupt
        return await real_tick(self)

    monkeypatch.setattr(WorkflowRule, "tick", tick_then_interrupt)
    store = tmp_path / "w.sqlite3"
    with pytest.raises(GameInterrupted) as stopped:
        play_game(seed=8, store=store)
    game_id = stopped.value.game_id
    with SQLiteEventStore(store, read_only=True) as opened:
        before = opened.chain(game_id)
    assert not fold_chain(before).ended
    monkeypatch.setattr(WorkflowRule, "tick", real_tick)
    result = resume_game(store, game_id)
    assert result.status == "ended"
    assert result.chain[: len(before)] == tuple(before)  # it went on from where it stopped
    assert fold_chain(result.chain).winner == Outcome(result.winner)
    # played through, the same seed gives the same game
    assert _moves(result.chain) == _moves(play_game(seed=8).chain)
    again = resume_game(store, game_id)  # an ended game: exported again, nothing played
    assert again.chain == result.chain
    assert again.winner == result.winner


def test_a_swapped_seat_is_recorded_when_a_game_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_tick = WorkflowRule.tick

    async def interrupt(self: WorkflowRule[Any]) -> int:
        raise KeyboardInterrupt

    store = tmp_path / "w.sqlite3"
    monkeypatch.setattr(WorkflowRule, "tick", interrupt)
    with pytest.raises(GameInterrupted) as stopped:
        play_game(seed=9, store=store)
    monkeypatch.setattr(WorkflowRule, "tick", real_tick)
    result = resume_game(store, stopped.value.game_id, seats={4: "random"})
    swaps = [e.meta["detail"] for e in result.chain if e.role == "seat-swap"]
    assert [(s["seat"], s["to"]) for s in swaps] == [(4, "random")]
    assert result.ended


def test_a_replay_is_exported_as_html_and_markdown_and_never_over_its_input(
    tmp_path: Path,
) -> None:
    store = tmp_path / "w.sqlite3"
    result = play_game(seed=6, store=store)
    assert result.replay_file is not None
    log = load_log(result.replay_file)
    html, markdown = tmp_path / "g.html", tmp_path / "g.md"
    heard: list[str] = []
    written = export_replay(log, "seat:1", html=html, markdown=markdown, notice=heard.append)
    assert written == [html, markdown]
    assert heard == [f"wrote {html}", f"wrote {markdown}"]
    assert result.game_id in html.read_text(encoding="utf-8")
    assert markdown.read_text(encoding="utf-8").startswith(
        f"### Werewolf game {result.game_id} (seat 1's view)"
    )
    before = result.replay_file.read_bytes()
    with pytest.raises(ConfigError):
        export_replay(log, html=result.replay_file, inputs=[result.replay_file])
    assert result.replay_file.read_bytes() == before


def test_a_tiny_arena_is_run_reported_listed_and_removed(tmp_path: Path) -> None:
    store = tmp_path / "w.sqlite3"
    options = RunOptions(name="tiny", players=["mock,random"], games=2)
    prepared = prepare_run(options, store, workers=1)
    assert prepared.run_file == run_path(store, "tiny")
    assert prepared.run_file.is_file()
    result = run_arena(prepared, store, concurrency=2)
    assert result.progress.ended == {0, 1}
    assert not result.progress.failed
    assert result.progress.played == {"mock": 2, "random": 2}  # both sat in each game
    report = build_report(prepared.spec, store, rounds=20)
    assert len(report.games.records) == 2
    [row] = list_runs(store)
    assert (row.name, row.ended) == ("tiny", 2)
    again = run_arena(prepare_run(options, store, workers=1), store)  # nothing left to play
    assert again.progress.ended == {0, 1}
    assert remove_run(store, "tiny") == 2
    assert not prepared.run_file.exists()
    assert list_runs(store) == []
