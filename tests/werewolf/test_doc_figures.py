"""The figures the docs state are the ones their commands print: the cost of a game in
docs/llm-players.md is measured again (``scripts/game_cost.py``, the same seeded games)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
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
