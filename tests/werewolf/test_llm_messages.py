"""What the commands say when LLM seats or a resume cannot go ahead: the unset key variable
named with the seats that need it (not a field nobody wrote), and a game that has ended
reported the same way (exit 0, nothing played) whatever seats the resume names."""

from __future__ import annotations

from pathlib import Path

import pytest

from pulse_core import SQLiteEventStore
from werewolf.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_unset_default_key_names_the_variable_and_the_seats_not_a_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = tmp_path / "w.sqlite3"
    argv = ["--seat", "1=llm:some-model", "--seat", "2=llm:other", "--store", str(store), "-q"]
    code, _, err = _run(capsys, "play", *argv)
    assert code == 2
    [line] = err.strip().splitlines()
    assert "api_key_env:" not in line  # the user wrote no such field
    assert "seats 1 and 2 need an API key: the environment variable OPENAI_API_KEY is not set" in (
        line
    )
    assert not store.exists()


def test_an_unset_named_key_is_reported_at_the_field_that_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    lineup = tmp_path / "l.toml"
    lineup.write_text('[seats.3]\nkind = "llm"\nmodel = "m"\napi_key_env = "NOPE_KEY"\n')
    code, _, err = _run(capsys, "play", "--lineup", str(lineup), "--store", str(tmp_path / "s"))
    assert code == 2
    assert (
        "seats.3.api_key_env: seat 3 needs an API key: the environment variable NOPE_KEY "
        "is not set" in err
    )


@pytest.mark.parametrize(
    "extra",
    [[], ["--seat", "3=mock"], ["--lineup", "LINEUP"], ["--seat", "3=llm:gone-model"]],
    ids=["plain", "seat", "lineup", "llm-seat-without-key"],
)
def test_resuming_an_ended_game_is_reported_alike_with_or_without_seats(
    extra: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = tmp_path / "w.sqlite3"
    code, _, _ = _run(capsys, "play", "--seed", "3", "--store", str(store), "-q")
    assert code == 0
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
        before = s.last_seq()
    lineup = tmp_path / "l.toml"
    lineup.write_text('[defaults]\nkind = "mock"\n')
    extra = [str(lineup) if a == "LINEUP" else a for a in extra]
    code, out, err = _run(capsys, "resume", game, "--store", str(store), "-q", *extra)
    assert (code, err) == (0, "")
    assert f"Game {game} has ended: there is nothing to resume" in out.splitlines()[0]
    assert "seat to change" not in out
    assert "win" in out or "draw" in out  # the result, as play printed it
    with SQLiteEventStore(store) as s:
        assert s.last_seq() == before  # nothing written
