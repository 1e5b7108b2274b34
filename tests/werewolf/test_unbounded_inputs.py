"""Input that never ends, never arrives or says something else than it seems: every file
option refuses a FIFO, a device and deep nesting; every number option NaN, infinities,
negative and absurdly large values; every file a loosely typed value. Each is one line on
stderr naming the option or field, exit 2, and nothing created. What could hang runs the
CLI in a subprocess with a timeout, so a regression fails instead of hanging the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "replays" / "good-win.jsonl"
CLI = [
    sys.executable,
    "-c",
    "import sys; from werewolf.cli import main; sys.exit(main(sys.argv[1:]))",
]
HANG = 60  # seconds: far beyond any refusal, reached only by a command that hangs
STORE = "s/w.sqlite3"  # relative to the test's folder: a command that makes it is caught


def _tree(root: Path) -> dict[str, object]:
    """Every entry under ``root``: a file's bytes, or what else it is."""
    tree: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            tree[str(path)] = ("link", os.readlink(path))
        elif path.is_fifo():
            tree[str(path)] = "fifo"
        elif path.is_dir():
            tree[str(path)] = "folder"
        else:
            tree[str(path)] = path.read_bytes()
    return tree


def refused_by_process(root: Path, *argv: str) -> str:
    """Run the CLI in ``root``; assert exit 2, one line on stderr and nothing changed
    under ``root``; return the line."""
    before = _tree(root)
    try:
        done = subprocess.run(
            [*CLI, *argv],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=HANG,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"werewolf {' '.join(argv)} hung")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert _tree(root) == before
    return done.stderr.strip()


def refused(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> str:
    """The same, in this process, for what cannot hang."""
    before = _tree(root)
    cwd = Path.cwd()
    os.chdir(root)
    try:
        code = main(list(argv))
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.splitlines()) == 1, err
    assert _tree(root) == before
    return err.strip()


@pytest.fixture
def ended_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A finished mock game in ``tmp_path/g/w.sqlite3``; its id."""
    assert main(["play", "--seed", "1", "--store", str(tmp_path / "g" / "w.sqlite3"), "-q"]) == 0
    out = capsys.readouterr().out
    return out.split("(game ")[1].split(",")[0]


# -- every input file: a FIFO, a device, deep nesting ---------------------------------------------
# (argv with {bad} where the file goes, the format a deep file is written in)
FILE_OPTIONS: dict[str, tuple[list[str], str]] = {
    "replay FILE": (["replay", "{bad}"], "json"),
    "replay --prices": (["replay", str(SAMPLE), "--prices", "{bad}"], "toml"),
    "play --config": (["play", "--config", "{bad}", "--store", STORE, "-q"], "toml"),
    "play --lineup": (["play", "--lineup", "{bad}", "--store", STORE, "-q"], "toml"),
    "play --replay-llm": (
        ["play", "--seat", "3=llm:m", "--replay-llm", "{bad}", "--store", STORE, "-q"],
        "json",
    ),
    "resume --lineup": (
        ["resume", "{game}", "--lineup", "{bad}", "--store", "g/w.sqlite3"],
        "toml",
    ),
    "resume --replay-llm": (
        ["resume", "{game}", "--replay-llm", "{bad}", "--store", "g/w.sqlite3", "-q"],
        "json",
    ),
    "arena run --roster": (["arena", "run", "--roster", "{bad}", "--store", STORE], "toml"),
    "arena run --lineup": (["arena", "run", "--lineup", "{bad}", "--store", STORE], "toml"),
    "arena run --config": (
        ["arena", "run", "--players", "mock,random", "--config", "{bad}", "--store", STORE],
        "toml",
    ),
    "arena run --prices": (
        ["arena", "run", "--players", "mock,random", "--prices", "{bad}", "--store", STORE],
        "toml",
    ),
}


def _argv(option: str, bad: str, game: str) -> list[str]:
    return [a.replace("{bad}", bad).replace("{game}", game) for a in FILE_OPTIONS[option][0]]


@pytest.mark.parametrize("option", sorted(FILE_OPTIONS))
def test_a_fifo_is_refused_not_waited_on(tmp_path: Path, ended_game: str, option: str) -> None:
    os.mkfifo(tmp_path / "pipe")
    line = refused_by_process(tmp_path, *_argv(option, "pipe", ended_game))
    assert line.endswith("pipe: a FIFO (named pipe), not a regular file"), line


@pytest.mark.parametrize("option", sorted(FILE_OPTIONS))
def test_a_device_is_refused_not_read_for_ever(
    tmp_path: Path, ended_game: str, option: str
) -> None:
    line = refused_by_process(tmp_path, *_argv(option, "/dev/zero", ended_game))
    assert line.endswith("/dev/zero: a device, not a regular file"), line


@pytest.mark.parametrize("option", sorted(FILE_OPTIONS))
def test_a_deeply_nested_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ended_game: str, option: str
) -> None:
    kind = FILE_OPTIONS[option][1]
    deep = tmp_path / f"deep.{kind}"
    deep.write_text(("" if kind == "json" else "x = ") + "[" * 100_000 + "\n")
    line = refused(capsys, tmp_path, *_argv(option, deep.name, ended_game))
    assert "deep." + kind in line
    assert "nested deeper than 32" in line


@pytest.mark.parametrize("target", ["pipe", "/dev/zero"])
def test_a_run_file_that_is_no_file_is_refused(tmp_path: Path, target: str) -> None:
    arena = tmp_path / "s" / "arena"
    arena.mkdir(parents=True)
    if target == "pipe":
        os.mkfifo(arena / "r.json")
    else:
        (arena / "r.json").symlink_to(target)
    for argv in (["arena", "report", "r"], ["arena", "run", "--name", "r"]):
        line = refused_by_process(tmp_path, *argv, "--store", STORE)
        assert "r.json" in line  # read as a run, or refused as the run's output
        assert "not a regular file" in line


def test_a_cassette_that_is_not_one_creates_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassette = tmp_path / "c.jsonl"
    cassette.write_text('{"session": 0}\nnot json\n')
    line = refused(
        capsys, tmp_path, "play", "--seat", "3=llm:m", "--replay-llm", "c.jsonl", "--store", STORE
    )
    assert line.startswith("werewolf: error: --replay-llm: c.jsonl:2: not JSON"), line


# -- every number option -------------------------------------------------------------------------
NUMBER_OPTIONS: dict[str, tuple[list[str], str]] = {  # the command, the range it names
    "--pace": (["play", "-q"], "a number above 0 and at most 60 (seconds)"),
    "--seed": (["play", "-q"], "0 to 9223372036854775807"),
    "--day-cap": (["play", "-q"], "1 to 200"),
    "--speech-rounds": (["play", "-q"], "1 to 5"),
    "--speech-budget": (["play", "-q"], "1 to 100"),
    "replay --seat": (["replay", str(SAMPLE)], "1 to 20"),
    "replay --day": (["replay", str(SAMPLE)], "1 to 200"),
    "replay --width": (["replay", str(SAMPLE)], "1 to 1000 (columns)"),
    "replay --price": (["replay", str(SAMPLE)], "each from 0 to 1,000,000"),
    "games --limit": (["games"], "1 to 1000000"),
    "arena run --games": (["arena", "run"], "1 to 1000000"),
    "arena run --concurrency": (["arena", "run"], "1 to 1024"),
    "arena run --workers": (["arena", "run"], "1 to 256"),
    "arena run --seed": (["arena", "run"], "0 to 9223372036854775807"),
    "arena run --budget-tokens": (["arena", "run"], "1 to 1000000000000000"),
    "arena run --budget-usd": (
        ["arena", "run"],
        "a number above 0 and at most 1,000,000,000 (USD)",
    ),
    "arena report --bootstrap": (["arena", "report", "r"], "1 to 100000"),
    "arena baseline --games": (["arena", "baseline"], "1 to 1000000"),
    "serve --port": (["serve"], "0 to 65535"),
    "serve --idle-timeout": (["serve"], "a number above 0 and at most 3,600 (seconds)"),
    "serve --max-connections": (["serve"], "1 to 100000"),
    "--lock-timeout": (["play", "-q"], "a number above 0 and at most 86,400 (seconds)"),
    "arena run --lock-timeout": (
        ["arena", "run"],
        "a number above 0 and at most 86,400 (seconds)",
    ),
}
OUT_OF_RANGE = ["nan", "inf", "-1", "1e308", "9" * 40]


@pytest.mark.parametrize("value", OUT_OF_RANGE)
@pytest.mark.parametrize("option", sorted(NUMBER_OPTIONS))
def test_a_number_out_of_range_names_the_option_and_its_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    command, allowed = NUMBER_OPTIONS[option]
    flag = option.split()[-1]
    if flag == "--price":
        value = f"1,{value}"
    argv = [*command, f"{flag}={value}", "--store", STORE]
    # play --pace is what slept for ever: in a process of its own
    line = (
        refused_by_process(tmp_path, *argv)
        if flag == "--pace"
        else refused(capsys, tmp_path, *argv)
    )
    assert f"argument {flag}: " in line
    assert f"use {allowed}" in line or f"use PROMPT,COMPLETION, {allowed}" in line, line


@pytest.mark.parametrize("value", ["٣", "１", "1_0"])
@pytest.mark.parametrize(
    "option",
    [
        "--pace",
        "--lock-timeout",
        "arena run --budget-usd",
        "serve --idle-timeout",
        "replay --price",
    ],
)
def test_a_number_in_other_digits_or_with_separators_is_not_a_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    """``float`` reads ``٣`` as 3 and ``1_0`` as 10: a whole-number option refuses both."""
    command, _allowed = NUMBER_OPTIONS[option]
    flag = option.split()[-1]
    if flag == "--price":
        value = f"1,{value}"
    line = refused(capsys, tmp_path, *command, f"{flag}={value}", "--store", STORE)
    assert f"argument {flag}: " in line, line
    assert "is not a number" in line or "is not two numbers" in line, line


def test_numbers_in_range_are_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "w.sqlite3")
    assert (
        main(["play", "--seed", "0", "--day-cap", "200", "--pace", "0.001", "--store", store, "-q"])
        == 0
    )
    assert main(["replay", str(SAMPLE), "--price", "0,1000000", "--seat", "1", "--day", "1"]) == 0
    assert main(["replay", str(SAMPLE), "--price", "0.5, 2", "--public"]) == 0
    capsys.readouterr()


# -- strict types in files -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text", "field"),
    [
        ("c.toml", "day_cap = true\n", "c.toml: day_cap: Input should be a valid integer"),
        (
            "c.toml",
            'allow_abstain = "yes"\n',
            "c.toml: allow_abstain: Input should be a valid boolean",
        ),
        (
            "c.toml",
            "speech_rounds = 2.0\n",
            "c.toml: speech_rounds: Input should be a valid integer",
        ),
        ("c.json", '{"day_cap": "3"}', "c.json: day_cap: Input should be a valid integer"),
        ("c.json", '{"last_words": 1}', "c.json: last_words: Input should be a valid boolean"),
        ("c.toml", "win_rule = 1979-05-27\n", "c.toml: win_rule: Input should be"),
    ],
)
def test_a_config_value_of_another_type_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, field: str
) -> None:
    (tmp_path / name).write_text(text)
    for argv in (
        ["play", "--config", name, "-q"],
        ["arena", "run", "--players", "mock,random", "--config", name],
    ):
        line = refused(capsys, tmp_path, *argv, "--store", STORE)
        assert field in line, line


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('beliefs = "yes"\n', "beliefs: Input should be a valid boolean"),
        ("[budget]\ntokens = true\n", "budget.tokens: Input should be a valid integer"),
        (
            '[seats.3]\nkind = "mock"\nenum_targets = 1\n',
            "seats.3.enum_targets: Input should be a valid boolean",
        ),
        (
            '[defaults]\ntemperature = "0.7"\n',
            "defaults.temperature: Input should be a valid number",
        ),
        (
            '[prices.m]\nprompt = "1"\ncompletion = 2\n',
            "prices.m.prompt: Input should be a valid number",
        ),
    ],
)
def test_a_lineup_value_of_another_type_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, field: str
) -> None:
    (tmp_path / "l.toml").write_text(text)
    line = refused(capsys, tmp_path, "play", "--lineup", "l.toml", "-q", "--store", STORE)
    assert f"l.toml: {field}" in line, line
    if "prices" in text:  # a prices file is a lineup file
        line = refused(capsys, tmp_path, "replay", str(SAMPLE), "--prices", "l.toml")
        assert f"l.toml: {field}" in line, line


def test_a_roster_value_of_another_type_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r.toml").write_text("[budget]\nusd = true\n")
    line = refused(capsys, tmp_path, "arena", "run", "--roster", "r.toml", "--store", STORE)
    assert "r.toml: budget.usd: Input should be a valid number" in line, line


def test_a_run_file_value_of_another_type_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s" / "w.sqlite3"
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "r", "-q"]
    assert main([*argv, "--store", str(store)]) == 0
    capsys.readouterr()
    run_file = tmp_path / "s" / "arena" / "r.json"
    spec = json.loads(run_file.read_text())
    spec["seed"] = False  # lax mode read it as seed 0: the same run
    run_file.write_text(json.dumps(spec))
    line = refused(capsys, tmp_path, "arena", "report", "r", "--store", STORE)
    assert "r.json: seed: Input should be a valid integer" in line, line


def test_arena_list_shows_a_run_file_that_is_no_file_as_unreadable(tmp_path: Path) -> None:
    arena = tmp_path / "s" / "arena"
    arena.mkdir(parents=True)
    os.mkfifo(arena / "r.json")
    try:
        done = subprocess.run(
            [*CLI, "arena", "list", "--store", STORE, "--width", "200"],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=HANG,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("werewolf arena list hung")
    assert done.returncode == 0, done.stderr
    assert "unreadable: s/arena/r.json: a FIFO (named pipe), not a regular file" in done.stdout
