"""The docs stay inside the repository: every file path they name is one of its files."""

from __future__ import annotations

import re
from pathlib import Path

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
