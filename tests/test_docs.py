"""The docs stay inside the repository: every file path they name is one of its files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a backticked or linked path into the repository's own folders, or out of it
PATH = re.compile(
    r"(?:`|\]\()((?:\.\./|/)?(?:\.\./)*(?:docs|werewolf|pulse_core|tests|benchmarks|scripts|"
    r"examples|replays|shared)/[\w./-]+\.\w+)"
)


def _paths(doc: Path) -> list[str]:
    return PATH.findall(doc.read_text(encoding="utf-8"))


def test_docs_name_no_file_outside_the_repository() -> None:
    outside = [
        (doc.name, path)
        for doc in DOCS
        for path in _paths(doc)
        if path.startswith(("../", "/")) or path.startswith("shared/")
    ]
    assert outside == []


def test_every_file_the_docs_name_exists() -> None:
    missing = [
        (doc.name, path)
        for doc in DOCS
        for path in _paths(doc)
        if not (ROOT / path).exists() and not (doc.parent / path).exists()
    ]
    assert missing == []


def test_the_checker_sees_a_path_outside() -> None:
    assert PATH.findall("see `../shared/werewolf-rules.md` and [x](docs/arena.md)") == [
        "../shared/werewolf-rules.md",
        "docs/arena.md",
    ]


PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_every_code_block_of_the_python_api_page_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/python-api.md's blocks, in order, in one namespace, in a fresh folder: what
    the page shows is what the API does (its stores and exports land in ``tmp_path``)."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    blocks = PYTHON_BLOCK.findall(page)
    assert len(blocks) >= 8
    assert page.count("```") == 2 * len(blocks)  # every block is a Python one: none is skipped
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))  # tests.strategies, tests.oracle, as in a checkout
    namespace: dict[str, object] = {"__name__": "python_api_page"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"docs/python-api.md block {number}", "exec"), namespace)
    assert (tmp_path / "games.sqlite3").is_file()
    assert (tmp_path / "seat3.html").is_file()
    assert (tmp_path / "seat3.md").is_file()


def test_the_readmes_python_block_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's "From Python" block plays the game it says."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    (block,) = PYTHON_BLOCK.findall(section)
    exec(compile(block, "README.md From Python", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out
    assert printed.split()[0] in ("wolves", "good")
    assert "Shown: seat 3" in printed
