"""The docs state what their commands print and name files that exist: the cost of a game
in docs/llm-players.md is measured again (``scripts/game_cost.py``, the same seeded games),
every file a documented command names is there, and every target ``bench_game`` prints a
verdict on is one the README's measured runs reached."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str, folder: str = "scripts") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_cost_of_a_game_in_the_doc_is_measured() -> None:
    game_cost = _script("game_cost")
    cost = game_cost.measure()
    doc = (ROOT / "docs" / "llm-players.md").read_text(encoding="utf-8")
    assert game_cost.stale(cost, doc) == []


def test_a_stale_figure_is_caught() -> None:
    game_cost = _script("game_cost")
    cost = game_cost.Cost(games=2, prompt=189_000, completion=3_400, calls=81)
    doc = (ROOT / "docs" / "llm-players.md").read_text(encoding="utf-8")
    problems = game_cost.stale(cost, doc)
    assert len(problems) == 3
    assert "189,000" in problems[0]


_FILE_OPTION = re.compile(r"--(?:lineup|prices|config) ([^\s`)]+)")
_WRITTEN_BY_THE_READER = {"bigger.toml"}  # "a lineup with a bigger budget": the reader's own


def test_every_file_a_documented_command_names_exists() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = {
        (doc.name, path)
        for doc in docs
        for path in _FILE_OPTION.findall(doc.read_text(encoding="utf-8"))
        if not path.split(".")[0].isupper()  # FILE, LINEUP.toml: placeholders
        and path not in _WRITTEN_BY_THE_READER
    }
    assert named  # the pattern still finds the commands
    assert [(doc, path) for doc, path in sorted(named) if not (ROOT / path).exists()] == []


_README_ROWS = {  # bench_game's target rows, as the README's Speed table names them
    "mock players, SQLite durable, 16 at once": (
        "mock players, durable SQLite, 16 games at once, 2 processes"
    ),
    "fold stored games (CPU time)": "folding stored games back to state",
}


def test_every_benchmark_target_is_one_the_measured_figures_meet() -> None:
    """bench_game prints a verdict per target: each one the README's runs reached at least
    once, so "NOT met" says something about the run, not about an unreachable aim."""
    bench = _script("bench_game", "benchmarks")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = {
        cells[0]: cells[1]
        for line in readme.splitlines()
        if line.startswith("| ")
        and len(cells := [c.strip() for c in line.strip("|").split("|")]) > 1
    }
    assert set(bench.TARGETS) == set(_README_ROWS)
    for key, (_, least) in bench.TARGETS.items():
        figures = [
            float(n.replace(",", "")) for n in re.findall(r"[\d,.]+\d", table[_README_ROWS[key]])
        ]
        assert max(figures) >= least, (key, figures)
