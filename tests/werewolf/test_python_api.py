"""The Python API: seats played by Python objects, the state at any event, an arena in
one call (``werewolf.play_game``, ``fold_to``, ``play_arena``, ``arena_report``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from werewolf import (
    Choice,
    ConfigError,
    DecisionKind,
    GameStateError,
    Request,
    Speech,
    WitchChoice,
    arena_report,
    fold_chain,
    fold_to,
    play_arena,
    play_game,
    resume_game,
)
from werewolf.decisions import Answer


class Scripted:
    """Says one sentence of its own, takes the last legal option; fails at its
    ``fail_at``-th decision when told to (a Python seat whose code raised)."""

    kind = "scripted"

    def __init__(self, words: str = "seat three speaks", fail_at: int | None = None) -> None:
        self.words = words
        self.fail_at = fail_at
        self.asked: list[Request] = []
        self.closed = 0  # how many times the game closed it

    async def aclose(self) -> None:
        self.closed += 1

    async def decide(self, request: Request) -> Answer:
        self.asked.append(request)
        if len(self.asked) == self.fail_at:
            raise RuntimeError("the agent broke")
        if request.kind.speaks:
            return Speech(self.words)
        if request.kind is DecisionKind.WITCH:
            return WitchChoice()
        return Choice(request.options[-1])


def _speeches(result_chain: tuple[object, ...], seat: int) -> list[str]:
    return [
        e.meta["detail"]["text"]  # type: ignore[attr-defined]
        for e in result_chain
        if e.role == "day-speech" and e.meta["diff"]["speaker"] == seat  # type: ignore[attr-defined]
    ]


def test_a_player_object_plays_its_seat_and_the_log_names_it() -> None:
    agent = Scripted()
    result = play_game(board="standard-9", seed=3, seats={3: agent, 6: "random"})
    assert result.ended
    assert agent.asked
    assert {r.seat for r in agent.asked} == {3}
    assert all(r.view.seat == 3 for r in agent.asked)
    assert set(_speeches(result.chain, 3)) <= {agent.words}
    players = result.game["players"]
    assert players[2] == {"kind": "mock", "name": "python:Scripted"}
    assert players[5] == {"kind": "random"}


def test_a_factory_makes_the_seats_player_from_the_game_seed_and_the_seat() -> None:
    made: list[tuple[int, int]] = []

    def factory(*, game_seed: int, seat: int) -> Scripted:  # keywords only, as the kinds'
        made.append((game_seed, seat))
        return Scripted(words=f"agent of seat {seat}")

    result = play_game(board="guard-12", seed=11, seats={2: factory, 9: factory})
    assert result.ended
    assert sorted(made) == [(11, 2), (11, 9)]  # once per seat, for the whole game
    assert set(_speeches(result.chain, 9)) <= {"agent of seat 9"}
    assert result.game["players"][1]["name"] == "python:factory"


@pytest.mark.parametrize(
    ("seats", "says"),
    [
        ({10: Scripted()}, "seat 10 is not a seat of the game (1-9)"),
        ({3: 42}, "seat 3: int is no player"),
    ],
)
def test_a_seat_that_is_no_player_is_refused_before_the_game(
    seats: dict[int, object], says: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        play_game(board="standard-9", seed=1, seats=seats)  # type: ignore[arg-type]


def test_a_stored_game_with_a_python_seat_resumes_with_it(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    broken = Scripted(fail_at=4)
    stopped = play_game(board="standard-9", seed=5, seats={3: broken}, store=store)
    assert stopped.status == "failed"
    assert "the agent broke" in stopped.error
    again = Scripted()
    resumed = resume_game(store, stopped.game_id, seats={3: again})
    assert resumed.ended
    assert again.asked
    assert broken.closed == 1  # each drive closes the players it made
    assert again.closed >= 1
    assert not any(e.role == "seat-swap" for e in resumed.chain)  # the same seat, again
    assert resumed.replay_file is not None
    assert resumed.replay_file.is_file()


def test_fold_to_gives_the_state_right_after_any_event() -> None:
    result = play_game(board="standard-9", seed=2)
    dawn = next(e for e in result.chain if e.role == "dawn")
    state = fold_to(result.chain, dawn.version)
    assert state == fold_chain(result.chain[: dawn.version])
    assert state != result.state
    assert not state.ended
    assert fold_to(result.chain, result.chain[-1].version) == result.state
    for version in (0, len(result.chain) + 1):
        with pytest.raises(GameStateError, match=f"no event {version} in a log of events"):
            fold_to(result.chain, version)


def test_play_arena_plays_a_run_and_arena_report_reads_it_again(tmp_path: Path) -> None:
    store = tmp_path / "runs.sqlite3"
    report = play_arena(store, players=["mock", "random"], games=2, seed=4, name="duel")
    assert report.metrics.games == 2
    assert sorted(report.metrics.players) == ["mock", "random"]
    again = arena_report(store, "duel", rounds=50)
    assert again.metrics.games == 2
    assert again.metrics.players["mock"].games == report.metrics.players["mock"].games
    with pytest.raises(ConfigError, match="no arena run named 'other'"):
        arena_report(store, "other")


def test_a_python_seat_not_given_again_is_a_recorded_swap_to_a_mock(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    stopped = play_game(board="standard-9", seed=5, seats={3: Scripted(fail_at=4)}, store=store)
    assert stopped.status == "failed"
    resumed = resume_game(store, stopped.game_id)
    assert resumed.ended
    swaps = [e.meta["detail"] for e in resumed.chain if e.role == "seat-swap"]
    assert [(s["seat"], s["player"]) for s in swaps] == [(3, {"kind": "mock"})]
