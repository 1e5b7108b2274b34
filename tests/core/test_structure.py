"""pulse_core's shape: modules of at most 400 lines, no import cycle between its modules, and
one exception tree, rooted in ``PulseError``, all of it in ``pulse_core/errors.py``.

The import graph is read from the source (the imports a module runs when it is imported):
imports inside functions run later, and those under ``if TYPE_CHECKING:`` never run, so
neither can close a cycle.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import pulse_core
from pulse_core.errors import PulseError

MAX_LINES = 400
PACKAGE = Path(pulse_core.__file__).parent


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package under ``package``, by dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_on_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``body`` that run when the module is imported."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _type_checking(node.test):
                yield from _run_on_import(node.body)
            yield from _run_on_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _run_on_import(block)
            for handler in node.handlers:
                yield from _run_on_import(handler.body)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _run_on_import(node.body)


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports when imported. A module's
    package (its ``__init__``) runs before it whatever it imports, so that edge is left out:
    only an import written in the source can close a cycle."""
    known = modules(package)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _run_on_import(tree.body):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - (node.level - 1)]
                    base = ".".join([*here, *([node.module] if node.module else [])])
                # a submodule by its name, else a name defined in the module ``base``
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in known:  # the nearest module that holds it
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for following in sorted(graph[node]):
            cycle = visit(following)
            if cycle is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start)
        if cycle is not None:
            return cycle
    return None


def _resolve(expr: ast.expr, namespace: dict[str, object]) -> object:
    """What a base-class expression names in a module (None when it cannot tell)."""
    if isinstance(expr, ast.Subscript):  # Generic[M]
        return _resolve(expr.value, namespace)
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id, getattr(builtins, expr.id, None))
    if isinstance(expr, ast.Attribute):
        owner = _resolve(expr.value, namespace)
        return None if owner is None else getattr(owner, expr.attr, None)
    return None


def exception_classes(package: Path) -> list[tuple[str, str]]:
    """(module, class) of every class in the package, at any depth, that derives from
    ``BaseException``."""
    found = []
    for name, path in modules(package).items():
        namespace = vars(importlib.import_module(name))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [_resolve(base, namespace) for base in node.bases]
                if any(isinstance(b, type) and issubclass(b, BaseException) for b in bases):
                    found.append((name, node.name))
    return found


def test_no_module_is_over_400_lines() -> None:
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in modules(PACKAGE).items()
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_no_import_cycle_between_modules() -> None:
    graph = import_graph(PACKAGE)
    assert "pulse_core.errors" in graph["pulse_core.store"]  # the graph is read
    assert find_cycle(graph) is None


def test_every_exception_class_is_in_errors_py() -> None:
    classes = exception_classes(PACKAGE)
    assert ("pulse_core.errors", "PulseError") in classes
    assert [(module, cls) for module, cls in classes if module != "pulse_core.errors"] == []


def test_the_exception_tree_has_one_root() -> None:
    errors = importlib.import_module("pulse_core.errors")
    defined = [
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == errors.__name__
    ]
    assert len(defined) > 1
    assert [cls.__name__ for cls in defined if not issubclass(cls, PulseError)] == []


# -- the checks themselves, on a package written for them ---------------------------------------
def _package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    return package


@pytest.mark.parametrize(
    ("b_source", "cycle"),
    [
        ("from .a import A\n", ["pkg.a", "pkg.b", "pkg.a"]),
        ("from . import a\n", ["pkg.a", "pkg.b", "pkg.a"]),
        ("import pkg.a\n", ["pkg.a", "pkg.b", "pkg.a"]),
        (
            "try:\n    from .a import A\nexcept ImportError:\n    pass\n",
            ["pkg.a", "pkg.b", "pkg.a"],
        ),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n", None),
        ("def later():\n    from .a import A\n", None),
        ("from .sub.c import C\n", ["pkg.b", "pkg.sub.c", "pkg.b"]),
    ],
)
def test_the_cycle_check_finds_import_cycles_that_run(
    tmp_path: Path, b_source: str, cycle: list[str] | None
) -> None:
    package = _package(
        tmp_path,
        {
            "a.py": "from .b import B\nA = 1\n",
            "b.py": b_source + "B = 2\n",
            "sub/__init__.py": "",
            "sub/c.py": "from ..b import B\nC = 3\n",
        },
    )
    assert find_cycle(import_graph(package)) == cycle


def test_the_cycle_check_follows_a_subpackage_back_up(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "a.py": "from .sub.c import C\nA = 1\n",
            "sub/__init__.py": "",
            "sub/c.py": "from .. import a\nC = 3\n",
        },
    )
    assert find_cycle(import_graph(package)) == ["pkg.a", "pkg.sub.c", "pkg.a"]
