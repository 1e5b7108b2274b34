"""Every file and option a user hands over is read bounded and typed: a hostile or damaged
one is refused with one line (``FILE[:LINE]: field: problem``) and exit 2, and nothing is
written. Outputs never overwrite what the command reads, nor a log."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from pulse_core.tempfiles import sweep
from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "replays" / "good-win.jsonl"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def refused(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> str:
    """Run the command; assert exit 2, one line on stderr and no file written under
    ``root``; return the line."""
    before = _files(root)
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.splitlines()) == 1, err
    assert len(err) < 1200
    assert _files(root) == before
    return err.strip()


# -- replays ---------------------------------------------------------------------------------
def test_a_deeply_nested_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "d.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    assert refused(capsys, tmp_path, "replay", str(deep)).endswith(
        "d.jsonl:1: nested deeper than 32"
    )


def test_a_huge_number_in_a_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SAMPLE.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"version": 2', b'"version": ' + b"9" * 5000, 1)
    bad = tmp_path / "n.jsonl"
    bad.write_bytes(b"\n".join(lines))
    line = refused(capsys, tmp_path, "replay", str(bad))
    assert "n.jsonl:3: the number 999" in line
    assert "too large" in line


def test_a_store_given_as_a_replay_is_named_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    assert main(["play", "--seed", "1", "--store", str(store), "-q"]) == 0
    capsys.readouterr()
    line = refused(capsys, tmp_path, "replay", str(store))
    assert "an SQLite store, not a JSON file (pass it as --store)" in line


def test_a_missing_replay_is_named_without_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(capsys, tmp_path, "replay", str(tmp_path / "gone.jsonl"))
    assert line.endswith("gone.jsonl: no such file")


def test_a_long_line_or_file_is_refused_before_it_is_read_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = tmp_path / "long.jsonl"
    with open(long, "wb") as fh:
        fh.write(SAMPLE.read_bytes().split(b"\n")[0] + b"\n")
        fh.write(b'{"x": "' + b"a" * (17 << 20) + b'"}\n')
    assert "long.jsonl:2: a line over 16,777,216 bytes" in refused(
        capsys, tmp_path, "replay", str(long)
    )


def test_a_huge_header_key_is_echoed_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SAMPLE.read_text().split("\n")
    header = json.loads(lines[0])
    header["k" * 2_000_000] = 1
    lines[0] = json.dumps(header)
    bad = tmp_path / "h.jsonl"
    bad.write_text("\n".join(lines))
    line = refused(capsys, tmp_path, "replay", str(bad))
    assert "h.jsonl:1: unknown field(s): kkkk" in line
    assert len(line) < 200


# -- configs, lineups, rosters, run files ------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("deep.json", "[" * 100_000, "deep.json: nested deeper than 32"),
        ("big.json", '{"day_cap": ' + "1" * 5000 + "}", "the number 111"),
        ("big.toml", "day_cap = " + "1" * 5000, "big.toml: a number is too large"),
        ("deep.toml", "x = " + "[" * 100_000, "deep.toml: nested deeper than 32"),
        ("inf.json", '{"day_cap": 1e999}', "the number 1e999 is too large"),
        ("key.toml", "day_kap = 3", "key.toml: day_kap: Extra inputs are not permitted"),
        ("list.json", "[1, 2]", "list.json: must hold a table of config fields"),
    ],
)
def test_a_bad_config_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, problem: str
) -> None:
    config = tmp_path / name
    config.write_text(text)
    store = tmp_path / "s" / "w.sqlite3"
    line = refused(capsys, tmp_path, "play", "--config", str(config), "--store", str(store))
    assert problem in line


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[seats."³"]\nkind = "mock"\n', "seats.³: a seat key is a seat number"),
        ('[seats."٣"]\nkind = "mock"\n', "seats.٣: a seat key is a seat number"),
        ('[seats.3]\nkind = "mock"\n[seats.03]\nkind = "random"\n', "seat 3 is given twice"),
        ("x = " + "[" * 50_000 + "\n", "nested deeper than 32"),
        ("[seats.1]\nmax_tokens = " + "9" * 5000 + "\n", "a number is too large"),
        (
            '[seats.3]\nkind = "mock"\npersonality = "nope"\n',
            "seats.3.personality: seat 3: unknown personality 'nope'",
        ),
    ],
)
def test_a_bad_lineup_is_one_line_and_creates_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    lineup = tmp_path / "l.toml"
    lineup.write_text(text, encoding="utf-8")
    store = tmp_path / "s" / "w.sqlite3"
    line = refused(capsys, tmp_path, "play", "--lineup", str(lineup), "--store", str(store), "-q")
    assert problem in line
    assert str(lineup) in line


def test_a_bad_roster_or_run_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "r.toml"
    roster.write_text("[players]\na = " + "{x = " * 40_000 + "\n")
    store = tmp_path / "g" / "s.sqlite3"
    line = refused(capsys, tmp_path, "arena", "run", "--roster", str(roster), "--store", str(store))
    assert "r.toml: nested deeper than 32" in line
    run_file = tmp_path / "g" / "arena" / "deep.json"
    run_file.parent.mkdir(parents=True)
    run_file.write_text("[" * 100_000)
    line = refused(capsys, tmp_path, "arena", "report", "deep", "--store", str(store))
    assert "deep.json: nested deeper than 32" in line


# -- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["play", "--seat", "³=mock"], "--seat: '³=mock': write SEAT=KIND"),
        (["play", "--seat", "٣=mock"], "--seat: '٣=mock': write SEAT=KIND"),
        (["play", "--view", "seat:³"], "--view: 'seat:³'"),
        (["play", "--seed", "9" * 5000], "--seed: '999999999999999999999999...' is out of range"),
        (["replay", str(SAMPLE), "--seat", "٣"], "argument --seat: '٣' is not a whole number"),
        (["replay", str(SAMPLE), "--width", "100000000"], "use 1 to 1000 (columns)"),
        (["arena", "report", "x", "--width", "0"], "0 is out of range: use 1 to 1000"),
        (["play", "--win-rule", "x" * 100_000], "argument --win-rule: invalid choice"),
    ],
)
def test_a_bad_option_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], problem: str
) -> None:
    store = tmp_path / "s" / "w.sqlite3"
    line = refused(capsys, tmp_path, *argv, "--store", str(store))
    assert problem in line
    assert len(line) < 400


def test_a_folder_as_store_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    line = refused(capsys, tmp_path, "replay", "01J00000000000000000000000", "--store", str(folder))
    assert str(folder) in line


@pytest.mark.parametrize(
    "argv",
    [["play", "--seed", "1", "-q"], ["arena", "run", "--players", "mock,random", "--name", "r"]],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_store_path_that_is_not_utf8_is_refused_before_it_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """SQLite names its files in UTF-8: such a store was made, then failed to open."""
    store = tmp_path / os.fsdecode(b"w\xff\xfe.sqlite3")
    line = refused(capsys, tmp_path, *argv, "--store", str(store))
    assert "w\\udcff\\udcfe.sqlite3: the path is not valid UTF-8" in line, line
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "argv",
    [
        ["games", "--store", "{folder}"],
        ["play", "-q", "--view", "\x1b[2J\x07"],
        ["replay", str(SAMPLE), "--html", "{folder}"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_control_characters_in_an_error_line_are_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """A path or value with an escape sequence is shown, not played on the terminal."""
    folder = tmp_path / "a\x1b]0;title\x07\x1b[31m"
    folder.mkdir()
    argv = [word.replace("{folder}", str(folder)) for word in argv]
    if "--store" not in argv:
        argv += ["--store", str(tmp_path / "s" / "w.sqlite3")]
    line = refused(capsys, tmp_path, *argv)
    assert "\x1b" not in line
    assert "\x07" not in line
    assert "\\x1b" in line, line


# -- outputs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["--html", "--markdown"])
def test_an_export_never_overwrites_its_input_or_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    replay = tmp_path / "g.jsonl"
    shutil.copy(SAMPLE, replay)
    line = refused(capsys, tmp_path, "replay", str(replay), option, str(replay))
    assert f"{option}: {replay} is what this command reads" in line
    other = tmp_path / "other.jsonl"
    shutil.copy(SAMPLE, other)
    line = refused(capsys, tmp_path, "replay", str(replay), option, str(other))
    assert "is a replay file" in line
    page = tmp_path / "page.out"
    assert main(["replay", str(replay), option, str(page)]) == 0
    assert page.read_text().strip()
    assert replay.read_bytes() == SAMPLE.read_bytes()


def test_the_temp_file_of_a_killed_export_is_swept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    assert main(["play", "--seed", "2", "--store", str(store), "-q"]) == 0
    capsys.readouterr()
    replay = next(tmp_path.glob("*.jsonl"))
    dead = 2**22 + 12345  # above pid_max's default: no process has it
    stale = replay.with_name(f"{replay.name}.{dead}.tmp")
    stale.write_text("half a repl")
    mine = replay.with_name(f"{replay.name}.{os.getpid()}.tmp")
    assert sweep(replay) == 1
    assert not stale.exists()
    stale.write_text("half a repl")
    assert main(["resume", replay.stem, "--store", str(store), "-q"]) == 0
    assert not stale.exists()
    assert not mine.exists()
