"""What ``werewolf play`` prints when a game stops on an error: a person at a human seat
learns nothing another seat did at night (which seat was being asked, per-seat usage), and
the printed ``werewolf resume`` command carries the options the game was started with.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore, WorkflowRule
from tests.openai_server import TEST_API_KEY, HTTPError, OpenAIServer, Reply
from tests.werewolf.llm_support import (
    KEY_ENV,
    LegalTable,
    game_log,
    tool_of,
    write_lineup,
)
from tests.werewolf.short_waits import short_backoff
from werewolf.cli import main


def _witch_is_down(body: dict[str, Any], table: LegalTable) -> Reply:
    """Legal answers, except that the witch's endpoint stays down: the wolves have spoken
    (and used tokens) when the game stops at night."""
    if tool_of(body)[0] == "witch_action":
        return HTTPError(503, "overloaded", retry_after=0.01)
    return table(body)


@pytest.fixture
def witch_down(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> OpenAIServer:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    short_backoff(monkeypatch)  # the witch's seat waits out its patience in short waits
    table = LegalTable()
    openai_server.handler = lambda body: _witch_is_down(body, table)
    return openai_server


def test_a_human_seat_is_not_told_which_seat_stopped_the_game_nor_who_spent_tokens(
    witch_down: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a villager is not asked at night
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(
        tmp_path, witch_down.base_url, patience=0.5, extra='[seats.5]\nkind = "human"\n'
    )
    code = main(["play", "--seed", "3", "--lineup", str(lineup), "--store", str(store)])
    out, err = capsys.readouterr()
    assert code == 1, err
    game, chain = game_log(store)
    witch = chain[0].meta["deal"].index("witch") + 1
    assert chain[-1].meta["error"].startswith(f"SeatUnavailableError: seat {witch} ")
    assert any(e.meta.get("usage") for e in chain)  # the wolves' tokens are in the log
    assert "The game stopped: an LLM endpoint failed. Continue it with: werewolf resume" in out
    assert "SeatUnavailableError" not in out
    assert f"{witch}=mock" not in out
    assert "Tokens by seat" not in out
    for seat, identity in enumerate(chain[0].meta["deal"], start=1):
        if identity == "werewolf":
            assert f"seat {seat} " not in out
    assert f"Log: {store} (game {game})" in out  # the seed gives the deal
    assert "seed 3" not in out


def test_without_a_human_seat_the_stop_names_the_seat_its_usage_and_the_whole_resume_command(
    witch_down: OpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, witch_down.base_url, patience=0.5)
    argv = ["--seed", "3", "--lineup", str(lineup), "--seat", "5=mock", "--store", str(store)]
    code = main(["play", *argv, "-q"])
    out, err = capsys.readouterr()
    assert code == 1, err
    game, chain = game_log(store)
    witch = chain[0].meta["deal"].index("witch") + 1
    assert f"The game stopped on an error: SeatUnavailableError: seat {witch} " in out
    resume = f"werewolf resume {game} --store {store} --lineup {lineup} --seat 5=mock"
    assert f"Continue it with: {resume}\n" in out
    assert f"Or go on with another player in seat {witch}: {resume} --seat {witch}=mock" in out
    assert "Tokens by seat:" in out
    # the printed command goes on with the game (the witch's endpoint is still down)
    code = main(["resume", game, *resume.split()[3:], "-q"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert f"Continue it with: {resume}\n" in out


def test_ctrl_c_names_the_lineup_and_seats_in_the_resume_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lineup = tmp_path / "lineup.toml"
    lineup.write_text('[defaults]\nkind = "mock"\n', encoding="utf-8")
    store = tmp_path / "w.sqlite3"

    async def interrupted(self: WorkflowRule[Any]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(WorkflowRule, "tick", interrupted)
    argv = ["--lineup", str(lineup), "--seat", "3=random", "--store", str(store)]
    code = main(["play", "--seed", "4", *argv, "-q"])
    _, err = capsys.readouterr()
    game, _ = game_log(store)
    assert code == 130
    assert err == (
        f"werewolf: interrupted. Game {game} is saved; continue it with: "
        f"werewolf resume {game} --store {store} --lineup {lineup} --seat 3=random\n"
    )


def test_the_loser_of_two_resumes_of_a_failed_game_is_told_another_process_resumed_it(
    witch_down: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, witch_down.base_url, patience=0.5)
    argv = ["--seed", "3", "--lineup", str(lineup), "--store", str(store)]
    assert main(["play", *argv, "-q"]) == 1
    capsys.readouterr()
    game, chain = game_log(store)
    import werewolf.app.resume
    from pulse_core import Draft, IdSource

    def resumed_meanwhile(*args: Any) -> None:  # another process wins the race here
        with SQLiteEventStore(store) as other:
            ids = IdSource()
            digest = other.objects.put(b"resume")
            draft = Draft(ids.new(), ids.now(), "werewolf.__resume__", game, digest, {})
            other.append(draft, expected_version=len(chain))

    monkeypatch.setattr(werewolf.app.resume, "check_objects", resumed_meanwhile)
    code = main(["resume", game, "--store", str(store), "--lineup", str(lineup), "-q"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert err == (
        f"werewolf: error: game {game} was resumed by another process meanwhile: watch it "
        f"with werewolf replay {game} --follow --store {store}\n"
    )
