"""Long runs say what they are doing: ``scripts/check`` names each step on stderr as it
starts (and how long the last took), ``benchmarks/mock_quality.py`` each batch of games."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from werewolf.players.mock import PERSONALITIES

ROOT = Path(__file__).resolve().parents[2]


def _stub(path: Path, code: int = 0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "$0 $*" >> "$STUB_LOG"\nexit {code}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _check_tree(tmp_path: Path, failing: str = "") -> tuple[Path, dict[str, str]]:
    """A copy of scripts/check in a tree whose .venv tools (and chromium) are stubs that
    record how they were called: the script itself runs, nothing is installed."""
    tree = tmp_path / "tree"
    (tree / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "check", tree / "scripts" / "check")
    for tool in ("python", "ruff", "mypy"):
        _stub(tree / ".venv" / "bin" / tool, 1 if tool == failing else 0)
    _stub(tmp_path / "path" / "chromium")
    env = {
        **os.environ,
        "PATH": f"{tmp_path / 'path'}{os.pathsep}{os.environ['PATH']}",
        "STUB_LOG": str(tmp_path / "calls.log"),
    }
    return tree, env


def test_check_names_each_step_as_it_starts(tmp_path: Path) -> None:
    tree, env = _check_tree(tmp_path)
    done = subprocess.run(
        ["bash", str(tree / "scripts" / "check"), "-x"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stderr.splitlines() if "] " in line]
    assert [line.split("] ")[0] for line in steps] == [
        f"scripts/check: [{n}/6" for n in range(1, 7)
    ]
    assert "pip install" not in steps[0]
    assert "installing" in steps[0]
    assert "mypy" in steps[4]
    assert "pytest" in steps[5]
    assert done.stderr.rstrip().endswith("every check passed")
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8")
    assert "python -m pytest -n auto -x" in calls  # on every core; the extra arguments reach it


def test_a_failing_step_is_the_last_one_named(tmp_path: Path) -> None:
    tree, env = _check_tree(tmp_path, failing="mypy")
    done = subprocess.run(
        ["bash", str(tree / "scripts" / "check")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith("scripts/check: [5/6] mypy")
    assert "every check passed" not in done.stderr


def test_mock_quality_says_when_each_batch_is_played() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "mock_quality.py"),
            *("--games", "2", "--balance-games", "2", "--personality-games", "1"),
            *("--board", "standard-9"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    progress = done.stderr.splitlines()
    assert progress[0].startswith("  ... board standard-9: playing")
    assert any("2 mock games played" in line for line in progress)
    assert sum("personality " in line for line in progress) == len(PERSONALITIES)
    assert done.stdout.startswith("board standard-9: 2 games")
