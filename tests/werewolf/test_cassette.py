"""Cassettes: ``werewolf play --record FILE`` keeps every LLM request and answer, and
``--replay-llm FILE`` plays the game again from it with no endpoint at all, giving the very
same log; a game that goes another way than the recording stops cleanly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pulse_core import Event
from tests.openai_server import TEST_API_KEY, HTTPError, OpenAIServer, Reply
from tests.werewolf.llm_support import KEY_ENV, LegalTable, game_log, seat_of, write_lineup
from werewolf.cli import main
from werewolf.players.cassette import request_hash

SEAT_2_MOCK = '[seats.2]\nkind = "mock"\n'


def _same(chain: list[Event]) -> list[tuple[str, str, str]]:
    """What must match between a game and its replay: kinds, contents, meta (every
    attachment by hash: reasoning and model exchanges too). Ids and times differ."""
    return [(e.kind, e.hash, json.dumps(e.meta, sort_keys=True)) for e in chain]


def test_a_recorded_game_replays_to_the_same_log_without_the_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    cassette = tmp_path / "game.cassette.jsonl"
    table = LegalTable(witch_saves=False)
    first_429: set[int] = set()

    def handler(body: dict[str, Any]) -> Reply:
        seat = seat_of(body)
        if seat == 3 and seat not in first_429:  # a retried request is recorded too
            first_429.add(seat)
            return HTTPError(429, "slow down", retry_after=0.01)
        return table(body)

    with OpenAIServer(handler) as server:
        lineup = write_lineup(tmp_path, server.base_url, patience=None, extra=SEAT_2_MOCK)
        recorded = tmp_path / "recorded" / "w.sqlite3"
        argv = ["play", "--seed", "12", "--lineup", str(lineup), "-q"]
        code = main([*argv, "--store", str(recorded), "--record", str(cassette)])
        requests = len(server.bodies())
    assert code == 0, capsys.readouterr()
    lines = [json.loads(line) for line in cassette.read_text(encoding="utf-8").splitlines()]
    assert lines.pop(0) == {"session": 0}  # a new game's process
    assert len(lines) == requests  # the 429 and every answer
    assert [line["status"] for line in lines].count(429) == 1
    assert all(line["hash"] == request_hash(json.dumps(line["request"]).encode()) for line in lines)
    assert TEST_API_KEY not in cassette.read_text(encoding="utf-8")

    # the server is gone and no key is set: the cassette answers everything
    monkeypatch.delenv(KEY_ENV)
    replayed = tmp_path / "replayed" / "w.sqlite3"
    code = main([*argv, "--store", str(replayed), "--replay-llm", str(cassette)])
    out = capsys.readouterr().out
    assert code == 0, out
    _, original = game_log(recorded)
    _, again = game_log(replayed)
    assert original[-1].role == "game-end"
    assert _same(again) == _same(original)
    assert any(e.meta.get("usage") for e in again)


def test_a_game_that_leaves_the_recording_stops_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    cassette = tmp_path / "c.jsonl"
    with OpenAIServer(LegalTable()) as server:
        lineup = write_lineup(tmp_path, server.base_url, patience=None, extra=SEAT_2_MOCK)
        argv = ["play", "--lineup", str(lineup), "-q", "--store", str(tmp_path / "a.sqlite3")]
        assert main([*argv, "--seed", "1", "--record", str(cassette)]) == 0
    capsys.readouterr()
    store = tmp_path / "b.sqlite3"
    argv = ["play", "--lineup", str(lineup), "-q", "--store", str(store)]
    code = main([*argv, "--seed", "2", "--replay-llm", str(cassette)])  # another deal
    out = capsys.readouterr().out
    assert code == 1
    assert "holds no answer for this request" in out
    assert "Continue it with: werewolf resume" in out
    _, chain = game_log(store)
    assert chain[-1].role == "__error__"


def test_a_missing_or_broken_cassette_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lineup = write_lineup(tmp_path, "http://127.0.0.1:9/v1", patience=None, extra=SEAT_2_MOCK)
    argv = ["play", "--lineup", str(lineup), "-q", "--store", str(tmp_path / "s.sqlite3")]
    assert main([*argv, "--replay-llm", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such cassette" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"hash": "x"}\n', encoding="utf-8")
    assert main([*argv, "--replay-llm", str(broken)]) == 2
    err = capsys.readouterr().err
    assert f"{broken}:1: not a cassette line" in err
    assert main([*argv, "--replay-llm", str(broken), "--record", str(broken)]) == 2
