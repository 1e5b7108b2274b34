"""pulse_core's shape: modules of at most 400 lines, no import cycle between its modules, and
one exception tree, rooted in ``PulseError``, all of it in ``pulse_core/errors.py``.

The checks are tests/structure.py's (shared with werewolf); they are tried here on small
packages written for them, to see each one fail when it should.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import pulse_core
import pulse_core.errors
from pulse_core.errors import PulseError
from tests.structure import (
    MAX_LINES,
    Package,
    cycles,
    exception_classes,
    exceptions_outside_errors,
    import_graph,
    long_modules,
    outside_the_root,
)

PACKAGE = Package.of(pulse_core)


def test_no_module_is_over_400_lines() -> None:
    assert long_modules(PACKAGE) == {}


def test_no_import_cycle_between_modules() -> None:
    graph = import_graph(PACKAGE)
    assert "pulse_core.errors" in graph["pulse_core.store"]  # the graph is read
    assert cycles(graph) == []


def test_every_exception_class_is_in_errors_py() -> None:
    assert ("pulse_core.errors", "PulseError") in exception_classes(PACKAGE)
    assert exceptions_outside_errors(PACKAGE) == []


def test_the_exception_tree_has_one_root() -> None:
    assert "ConflictError" in outside_the_root(pulse_core.errors, ValueError)  # it reads
    assert outside_the_root(pulse_core.errors, PulseError) == []


# -- the checks themselves, on a package written for them ---------------------------------------
def _package(root: Path, files: dict[str, str]) -> Package:
    package = root / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    return Package(package, "pkg")


@pytest.mark.parametrize(
    ("b_source", "found"),
    [
        ("from .a import A\n", [["pkg.a", "pkg.b"]]),
        ("from . import a\n", [["pkg.a", "pkg.b"]]),
        ("import pkg.a\n", [["pkg.a", "pkg.b"]]),
        ("try:\n    from .a import A\nexcept ImportError:\n    pass\n", [["pkg.a", "pkg.b"]]),
        ("class B:\n    from .a import A\n", [["pkg.a", "pkg.b"]]),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n", []),
        (
            "import typing\nif typing.TYPE_CHECKING:\n    pass\nelse:\n    from .a import A\n",
            [["pkg.a", "pkg.b"]],
        ),
        ("def later():\n    from .a import A\n", []),
        ("from .sub.c import C\n", [["pkg.b", "pkg.sub.c"]]),
    ],
)
def test_the_cycle_check_finds_import_cycles_that_run(
    tmp_path: Path, b_source: str, found: list[list[str]]
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
    assert cycles(import_graph(package)) == found


def test_the_cycle_check_follows_a_subpackage_back_up(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "a.py": "from .sub.c import C\nA = 1\n",
            "sub/__init__.py": "",
            "sub/c.py": "from .. import a\nC = 3\n",
        },
    )
    assert cycles(import_graph(package)) == [["pkg.a", "pkg.sub.c"]]


@pytest.mark.parametrize(
    ("files", "found"),
    [
        # importing a module of another package runs that package's __init__ first
        (
            {"x.py": "import pkg.sub.c\nX = 1\n", "sub/__init__.py": "from ..x import X\n"},
            [["pkg.sub", "pkg.x"]],
        ),
        # a sibling's import does not run the package under way again ...
        ({"sub/__init__.py": "from .c import C\n", "sub/c.py": "from .d import D\n"}, []),
        # ... but ``from . import name`` reads its package's __init__
        (
            {"sub/__init__.py": "from .c import C\n", "sub/c.py": "from . import d\n"},
            [["pkg.sub", "pkg.sub.c"]],
        ),
    ],
)
def test_the_cycle_check_counts_the_packages_an_import_runs(
    tmp_path: Path, files: dict[str, str], found: list[list[str]]
) -> None:
    package = _package(tmp_path, {"sub/c.py": "C = 3\n", "sub/d.py": "D = 4\n", **files})
    assert cycles(import_graph(package)) == found


def test_the_cycle_finder_returns_every_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d", "f"}, "f": set()}
    assert cycles(graph) == [["d", "e"], ["a", "b", "c"]]  # in the order they close


def test_the_length_check_finds_a_long_module(tmp_path: Path) -> None:
    package = _package(
        tmp_path, {"short.py": "x = 1\n" * MAX_LINES, "sub/long.py": "x = 1\n" * (MAX_LINES + 1)}
    )
    assert long_modules(package) == {"pkg.sub.long": MAX_LINES + 1}


def test_the_exception_check_finds_exceptions_outside_errors_py(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "errors.py": "class PkgError(Exception):\n    pass\n\n\nclass Odd(PkgError):\n    pass\n",
            "a.py": (
                "from . import errors\nfrom .errors import Odd\n\n\n"
                "class Plain:\n    pass\n\n\n"
                "class Special(errors.PkgError):\n    pass\n\n\n"
                "class Odder(Odd):\n    pass\n\n\n"
                "class Later(Odder):\n    pass\n\n\n"
                "def f():\n    class Local(LookupError):\n        pass\n"
            ),
            "sub/b.py": "class Warned(UserWarning):\n    pass\n",
        },
    )
    assert exceptions_outside_errors(package) == [
        "pkg.a: Special",
        "pkg.a: Odder",
        "pkg.a: Later",
        "pkg.a: Local",
        "pkg.sub.b: Warned",
    ]


def test_the_root_check_finds_an_exception_outside_the_tree() -> None:
    errors = ModuleType("pkg.errors")
    source = (
        "class PkgError(Exception): ...\nclass Inside(PkgError): ...\nclass Stray(KeyError): ..."
    )
    exec(source, vars(errors))
    root = vars(errors)["PkgError"]
    assert outside_the_root(errors, root) == ["Stray"]
    assert outside_the_root(errors, Exception) == []
