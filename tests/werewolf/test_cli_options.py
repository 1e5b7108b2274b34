"""Bad options on the ``werewolf`` command line: each is one line on stderr naming the
option actually given (exit code 2), never a silent no-op or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

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
