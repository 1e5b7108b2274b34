"""``--seat N=mock:PERSONALITY`` in play and resume, and mock speech in the game's language."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pulse_core import Event, SQLiteEventStore, WorkflowRule
from werewolf.cli import main
from werewolf.game import start_game, werewolf_workflow
from werewolf.lineup import SeatSpec
from werewolf.players import mock_seating
from werewolf.players.mock import parse_speech
from werewolf.players.swaps import recorded_specs


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _chain(path: Path) -> list[Event]:
    with SQLiteEventStore(path) as store:
        [game] = store.topics()
        return store.chain(game)


def test_play_seats_a_mock_personality_and_records_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    code, _, err = run(
        capsys, "play", "-q", "--seed", "5", "--store", str(path), "--seat", "3=mock:bold"
    )
    assert code == 0, err
    players = _chain(path)[0].meta["game"]["players"]
    assert players[2] == {"kind": "mock", "personality": "bold"}
    assert players[0] == {"kind": "mock"}


def test_an_unknown_mock_personality_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    code, _, err = run(capsys, "play", "-q", "--store", str(path), "--seat", "3=mock:grumpy")
    assert code == 2
    [line] = err.strip().splitlines()
    assert "unknown personality 'grumpy'" in line


def test_resume_can_hand_a_seat_to_a_mock_personality(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        seating = mock_seating()
        rule = WorkflowRule(werewolf_workflow(seating), store)
        game = start_game(rule, seed=8, players=[{"kind": "mock"}] * 9)
        while not any(e.role == "day-speech" for e in store.chain(game)):
            asyncio.run(rule.tick())  # stop during day 1
    code, out, err = run(capsys, "resume", game, "--store", str(path), "--seat", "2=mock:cautious")
    assert code == 0, err
    assert "Result, day" in out
    with SQLiteEventStore(path) as store:
        assert recorded_specs(store.chain(game))[2] == SeatSpec(kind="mock", personality="cautious")


def test_mock_speeches_follow_the_game_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    assert run(capsys, "play", "-q", "--seed", "4", "--lang", "zh", "--store", str(path))[0] == 0
    texts = [
        e.meta["detail"]["text"] for e in _chain(path) if e.role in ("day-speech", "last-words")
    ]
    assert texts
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in texts), texts
    assert any(parse_speech(t).accuses or parse_speech(t).roles for t in texts)
