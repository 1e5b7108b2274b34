"""The command line as a new user meets it: help with no command, the list of saved games,
one-word views, help on every option, resume hints without repeated options, and a god
view that a human seat must agree to."""

from __future__ import annotations

import os
import select
import shlex
import time
from pathlib import Path

import pytest

from pulse_core import SQLiteEventStore
from werewolf.cli import build_parser, main
from werewolf.cli.seats import resume_command as _resume_command
from werewolf.players.setup import command_with, failure_hint
from werewolf.replay.catalog import list_games

from .test_human_seat import Terminal


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_werewolf_alone_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0
    assert out.startswith("usage: werewolf")
    for command in ("play", "resume", "replay", "games", "arena"):
        assert f"    {command} " in out
    assert err == ""


def test_games_lists_the_saved_games_newest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.sqlite3")
    code, out, _ = run(capsys, "games", "--store", store)
    assert code == 2  # no store yet: one line
    ids = []
    for seed, extra in ((3, []), (4, ["--seat", "2=random"])):
        code, out, _ = run(capsys, "play", "--seed", str(seed), "-q", "--store", store, *extra)
        assert code == 0
        ids.append(out.split("(game ")[1].split(",")[0])
    code, out, _ = run(capsys, "games", "--store", store, "--width", "80")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    assert out.index(ids[1]) < out.index(ids[0])  # newest first
    assert "standard-9" in out
    assert "mock×8, random" in out
    assert "mock×9" in out
    code, out, _ = run(capsys, "games", "--store", store, "--limit", "1")
    assert ids[1] in out
    assert ids[0] not in out
    assert "The newest 1 of 2 games; --all lists every one." in out
    with SQLiteEventStore(Path(store)) as s:
        games = list_games(s)
    assert [g.game_id for g in games] == ids[::-1]
    assert {g.status for g in games} == {"ended"}
    assert all(g.winner in ("wolves", "good") and g.seats == 9 for g in games)
    assert games[0].seed == 4


def test_view_is_one_word_so_it_never_takes_the_game_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.sqlite3")
    code, out, _ = run(capsys, "play", "--seed", "5", "-q", "--store", store)
    game = out.split("(game ")[1].split(",")[0]
    code, out, err = run(capsys, "resume", "--view", "god", game, "--store", store)
    assert code == 0, err
    assert "win" in out
    code, out, err = run(capsys, "resume", game, "--view", "seat:3", "--store", store)
    assert code == 0, err
    code, _, err = run(capsys, "resume", game, "--view", "seat 3", "--store", store)
    assert code == 2
    assert "use public, god or seat:N" in err


def test_every_option_has_help() -> None:
    bare = []
    parser = build_parser()
    stack = [("werewolf", parser)]
    while stack:
        name, p = stack.pop()
        for action in p._actions:
            choices = getattr(action, "choices", None)
            if isinstance(choices, dict):  # subcommands
                stack += [(f"{name} {k}", v) for k, v in choices.items()]
            elif action.option_strings and not action.help:
                bare.append(f"{name} {action.option_strings[-1]}")
    assert bare == []


def test_day_help_says_day(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", "--help")
    assert code == 0
    assert "start at day K" in " ".join(out.split())


def test_resume_hints_never_repeat_an_option() -> None:
    words = ["werewolf", "resume", "G", "--store", "s.db", "--lineup", "a b.toml"]
    resume = shlex.join([*words, "--seat", "3=llm:gpt-4o", "--seat", "5=human"])
    hint = failure_hint("SeatUnavailableError: seat 3 (llm:gpt-4o) failed", resume)
    assert hint is not None
    words = shlex.split(hint.split(": ", 1)[1])
    assert words.count("--seat") == 2
    assert "3=mock" in words
    assert "5=human" in words
    assert "3=llm:gpt-4o" not in words
    budget = failure_hint("BudgetExceededError: 900 of 800 tokens", resume)
    assert budget is not None
    assert budget.count("--lineup") == 1
    assert command_with("werewolf resume G", "--seat", "2=mock") == (
        "werewolf resume G --seat 2=mock"
    )


def test_the_play_resume_command_names_each_seat_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.sqlite3")
    argv = ["play", "--seed", "1", "--store", store, "--seat", "2=random", "--seat", "2=mock"]
    code, _out, _ = run(capsys, *argv, "--day-cap", "1", "-q")
    assert code == 0

    args = build_parser().parse_args(argv)
    assert _resume_command("G", args).count("--seat") == 1
    assert "2=mock" in _resume_command("G", args)


def test_god_view_with_a_human_seat_is_refused_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.sqlite3")
    for view in ("god", "seat:2"):
        code, _, err = run(capsys, "play", "--seat", "5=human", "--view", view, "--store", store)
        assert code == 2
        assert "seat 5" in err
        assert "leave out --view, or use public" in err
    assert not Path(store).exists()  # refused before anything was played


def _read_until(term: Terminal, text: str, seconds: float = 30.0) -> str:
    deadline = time.monotonic() + seconds
    while text not in term.output:
        if time.monotonic() > deadline:
            raise AssertionError(f"no {text!r} in time:\n{term.output[-2000:]}")
        ready, _, _ = select.select([term.master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(term.master, 65536)
            except OSError:
                break
            term.output += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return term.output


def test_god_view_with_a_human_seat_asks_at_a_terminal(tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite3")
    term = Terminal.spawn("play", "--seat", "5=human", "--view", "god", "--store", store)
    try:
        _read_until(term, "Show it anyway? [y/N]")
        term.type("n")
        assert term.process.wait(timeout=30) == 2
        assert "leave out --view, or use public" in _read_until(term, "use public")
    finally:
        if term.process.poll() is None:
            term.process.kill()
        os.close(term.master)
    term = Terminal.spawn("play", "--seat", "5=human", "--view", "god", "--store", store)
    try:
        _read_until(term, "Show it anyway? [y/N]")
        term.type("y")
        _read_until(term, "seat 5 > ")  # the game goes on, and asks seat 5
    finally:
        term.process.kill()
        term.process.wait(timeout=10)
        os.close(term.master)
