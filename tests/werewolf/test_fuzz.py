"""Seeded mutations of every kind of file and option a user hands the command: a replay
(bytes and JSON, with the hash chain left broken or recomputed), a config, a lineup, a
roster and the command line. Whatever the mutation, the command never raises: it exits 0
(the mutation was harmless) or 2 with exactly one short line on stderr, and a refused
command writes nothing.

Each case is one seed, so a failure names the seed that reproduces it; the counts keep the
suite to a few seconds.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.werewolf.forge import rechain
from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "replays" / "pk-and-hunter.jsonl"

HOSTILE: list[Any] = [
    None, True, False, 0, -1, 3, 9, 10, 21, 2**63, -(2**70), 1.5, -0.0, 1e308,
    "", "3", "³", "٣", "x" * 300, "[" * 50, "\x00", "\u2028", "<b>[red]x[/red]</b>",
    [], [None], [[[[[]]]]], {}, {"seat": 1}, {"": None},
]  # fmt: skip
RAW_HOSTILE = [b"1" * 5000, b"[" * 10_000, b"NaN", b"1e999", b"-", b"\xff\xfe", b'"\\ud800"']


def _files(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _one_line_or_ok(capsys: pytest.CaptureFixture[str], root: Path, argv: list[str]) -> int:
    before = _files(root)
    code = main(argv)
    _out, err = capsys.readouterr()
    assert code in (0, 2), (argv[:3], code, err[-500:])
    if code == 2:
        assert len(err.splitlines()) == 1, err[:2000]
        assert len(err) <= 1100, err[:300]
        assert "Traceback" not in err
        assert _files(root) == before, "a refused command wrote a file"
    return code


# -- JSON mutations -------------------------------------------------------------------------
def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*at, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*at, index))
    return found


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return value


def _mutate_json(rng: random.Random, value: Any) -> Any:
    path = rng.choice(_paths(value))
    choice = rng.random()
    if choice < 0.7:
        return _set(value, path, rng.choice(HOSTILE))
    if choice < 0.85 and path and isinstance(value, dict | list):
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "visible_to", "seat", "k" * 100])] = rng.choice(HOSTILE)
            return value
        del parent[path[-1]]
        return value
    return _set(value, path, [rng.choice(HOSTILE)] * rng.randint(0, 3))


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    kind = rng.randrange(6)
    i = rng.randrange(len(lines))
    if kind == 0 and lines[i]:  # flip a byte
        j = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:j] + bytes([rng.randrange(256)]) + lines[i][j + 1 :]
    elif kind == 1:  # drop, duplicate or move a line
        line = lines.pop(i)
        if rng.random() < 0.5:
            lines.insert(rng.randrange(len(lines) + 1), line)
        if rng.random() < 0.5:
            lines.insert(i, line)
    elif kind == 2:  # a hostile token in place of a number
        lines[i] = lines[i].replace(b": 1", b": " + rng.choice(RAW_HOSTILE), 1)
    elif kind == 3:  # cut the file
        return data[: rng.randrange(len(data))]
    elif kind == 4:  # a hostile line
        lines.insert(i, rng.choice(RAW_HOSTILE))
    else:  # a line's text repeated
        lines[i] = lines[i] * rng.randint(2, 4)
    return b"\n".join(lines)


# -- replays ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_a_mutated_replay_is_drawn_or_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    rng = random.Random(seed)
    data = SAMPLE.read_bytes()
    if seed % 2:
        data = _mutate_bytes(rng, data)
    else:
        records = [json.loads(line) for line in data.decode().splitlines()]
        index = rng.randrange(len(records))
        records[index] = _mutate_json(rng, records[index])
        if seed % 4 == 0 and all(isinstance(r, dict) for r in records):
            rechain(records)  # a forger's edit: the type and game checks must refuse it
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    path = tmp_path / "m.jsonl"
    path.write_bytes(data)
    view = rng.choice([[], ["--public"], ["--seat", str(rng.randint(1, 9))]])
    _one_line_or_ok(capsys, tmp_path, ["replay", str(path), "--width", "80", *view])


# -- configs, lineups, rosters ------------------------------------------------------------------
CONFIG = {
    "day_cap": 5,
    "tie_policy": "pk",
    "identities": ["werewolf", "seer", "villager", "villager"],
}
LINEUP = (
    '[defaults]\nkind = "mock"\n[seats.3]\nkind = "random"\n'
    '[seats.5]\nkind = "mock"\npersonality = "bold"\n[budget]\ntokens = 1000\n'
)
ROSTER = '[players.a]\nkind = "mock"\npersonality = "bold"\n[players.b]\nkind = "random"\n'


def _mutate_text(rng: random.Random, text: str) -> str:
    if rng.random() < 0.5:
        i = rng.randrange(len(text))
        return (
            text[:i] + rng.choice(["=", "[", "]", '"', "\n", "³", "1" * 5000, "{", "x"]) + text[i:]
        )
    lines = text.splitlines()
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(
        ["[seats.03]", "[seats.\"³\"]", "x = " + "[" * 1000, 'kind = "human"', "tokens = -1",
         "temperature = nan", "max_tokens = 99999999999999999999999", "[prices.m]"]
    )  # fmt: skip
    return "\n".join(lines) + "\n"


def _config_argv(rng: random.Random, folder: Path) -> list[str]:
    data = _mutate_json(rng, json.loads(json.dumps(CONFIG)))
    path = folder / "c.json"
    path.write_text(json.dumps(data) if rng.random() < 0.8 else json.dumps(data)[:-3])
    return ["play", "--seed", "1", "-q", "--config", str(path)]


def _lineup_argv(rng: random.Random, folder: Path) -> list[str]:
    path = folder / "l.toml"
    path.write_text(_mutate_text(rng, LINEUP), encoding="utf-8")
    return ["play", "--seed", "1", "-q", "--lineup", str(path)]


def _roster_argv(rng: random.Random, folder: Path) -> list[str]:
    path = folder / "r.toml"
    path.write_text(_mutate_text(rng, ROSTER), encoding="utf-8")
    return ["arena", "run", "--roster", str(path), "--games", "2", "-q", "--workers", "1"]


MAKERS: list[Callable[[random.Random, Path], list[str]]] = [
    _config_argv,
    _lineup_argv,
    _roster_argv,
]


@pytest.mark.parametrize("seed", range(30))
def test_a_mutated_config_lineup_or_roster_is_one_line_or_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    rng = random.Random(seed)
    argv = MAKERS[seed % len(MAKERS)](rng, tmp_path)
    store = tmp_path / "s" / "w.sqlite3"
    _one_line_or_ok(capsys, tmp_path, [*argv, "--store", str(store)])


# -- the command line ----------------------------------------------------------------------------
OPTIONS: dict[str, list[str]] = {
    "play": ["--seed", "--seat", "--view", "--day-cap", "--win-rule", "--players", "--lang"],
    "replay": ["--seat", "--day", "--width", "--price", "--view", "--html", "--markdown"],
    "resume": ["--seat", "--view"],
    "arena report": ["--width", "--bootstrap"],
    "arena run": ["--name", "--games", "--players", "--seed", "--budget-usd", "--workers"],
}
VALUES = ["³", "٣", "0", "-1", "9" * 5000, "x" * 5000, "", "1e999", "nan", "3=mock", "³=mock",
          "seat:٣", "../../x", "a.report", "mock,,", "llm:", "9=human", "1,2", "\x00"]  # fmt: skip


@pytest.mark.parametrize("seed", range(30))
def test_mutated_options_are_one_line_or_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    rng = random.Random(seed)
    command = rng.choice(sorted(OPTIONS))
    argv = command.split()
    if command == "replay":
        argv.append(str(SAMPLE))
    elif command == "resume":
        argv.append(rng.choice(["01M8QE0ENXD7GTGJJKTJECQ375", "x" * 3000, "³"]))
    elif command == "arena report":
        argv.append(rng.choice(["r", "../x", "x" * 3000]))
    for option in rng.sample(OPTIONS[command], k=rng.randint(1, 2)):
        value = rng.choice(VALUES)
        if option in ("--html", "--markdown"):
            value = str(rng.choice([SAMPLE, tmp_path / "s" / "w.sqlite3", tmp_path]))
        argv += [option, value]
    if command.startswith("play"):
        argv.append("-q")
    _one_line_or_ok(capsys, tmp_path, [*argv, "--store", str(tmp_path / "s" / "w.sqlite3")])
