"""What a new user met: one spelling of a view in every command (``--view public|god|seat:N``,
``replay``'s ``--seat N`` and ``--public`` kept as aliases), and usage errors that point to
the command's own help."""

from __future__ import annotations

from pathlib import Path

import pytest

from werewolf.cli import main

REPLAY = str(Path(__file__).parents[2] / "replays" / "pk-and-hunter.jsonl")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("view", "old"),
    [
        (["--view", "seat:3"], ["--seat", "3"]),
        (["--view", "public"], ["--public"]),
        (["--view", "god"], []),
    ],
)
def test_replay_takes_the_view_as_play_spells_it(
    capsys: pytest.CaptureFixture[str], view: list[str], old: list[str]
) -> None:
    code, new_out, err = run(capsys, "replay", REPLAY, "--width", "90", *view)
    assert code == 0, err
    code, old_out, err = run(capsys, "replay", REPLAY, "--width", "90", *old)
    assert code == 0, err
    assert new_out == old_out  # the older spellings stay, as aliases


def test_a_replay_view_is_checked_like_plays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", REPLAY, "--view", "seat:30")
    assert (code, out) == (2, "")
    assert err == "werewolf: error: --view: no seat 30: seats are 1 to 9\n"
    code, _, err = run(capsys, "replay", REPLAY, "--view", "seat:3", "--public")
    assert code == 2
    assert "not allowed with" in err


@pytest.mark.parametrize(
    ("argv", "command"),
    [(["play", "--bogus"], "werewolf play"), (["arena", "run", "--bogus"], "werewolf arena run")],
)
def test_an_unknown_option_points_to_its_commands_help(
    capsys: pytest.CaptureFixture[str], argv: list[str], command: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"{command}: error: unrecognized arguments: --bogus (see {command} --help)\n"
