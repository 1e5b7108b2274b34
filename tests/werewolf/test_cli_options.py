"""Bad options on the ``werewolf`` command line: each is one line on stderr naming the
option actually given (exit code 2), never a silent no-op or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from pulse_core import SQLiteEventStore
from werewolf.cli import main

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOOD_WIN = REPLAYS / "good-win.jsonl"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("width", ["0", "-3", "wide"])
@pytest.mark.parametrize("command", [["replay", str(GOOD_WIN)], ["arena", "report", "x"]])
def test_a_width_that_is_not_a_positive_number_is_a_usage_error(
    command: list[str], width: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, *command, "--width", width)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "argument --width: " in err


def test_a_bad_deck_in_the_config_names_the_identities_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "game.toml"
    config.write_text('identities = ["werewolf", "seer", "villager"]\n', encoding="utf-8")
    store = tmp_path / "w.sqlite3"
    code, _, err = _run(capsys, "play", "--config", str(config), "--store", str(store), "-q")
    assert code == 2
    assert err == f"werewolf: error: {config}: identities: a game needs 4 to 20 seats\n"


def test_replay_of_a_seat_the_game_does_not_have_names_the_seat_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, "replay", str(GOOD_WIN), "--seat", "10")
    assert code == 2
    assert out == ""
    assert err == "werewolf: error: --seat: no seat 10: seats are 1 to 9\n"


def test_a_game_id_typed_in_lower_case_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    assert _run(capsys, "play", "--seed", "5", "--store", str(store), "-q")[0] == 0
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
    code, out, err = _run(capsys, "replay", game.lower(), "--store", str(store), "--width", "90")
    assert code == 0, err
    assert f"game {game}" in out
    code, out, err = _run(capsys, "resume", game.lower(), "--store", str(store), "-q")
    assert code == 0, err
    assert f"(game {game}, seed 5)" in out


def test_the_arena_help_shows_a_percent_sign_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "arena", "--help")
    assert code == 0
    assert "95% intervals" in " ".join(out.split())
    assert "%%" not in out
