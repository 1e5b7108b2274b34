"""A package's shape, read from its source: the checks pulse_core's and werewolf's structure
tests share (tests/core/test_structure.py, tests/werewolf/test_structure.py).

- ``modules``: every module of a package by dotted name (a package is its ``__init__``).
- ``import_graph``: module -> the modules of the package that loading it loads. Its edges are
  the imports a module runs when it is loaded: those inside functions run later and those
  under ``if TYPE_CHECKING:`` never run, so neither can close a cycle. Importing ``a.b.c``
  also loads every package on its path that has not begun loading already, as Python runs
  their ``__init__`` first: the importer's own packages are under way, so a sibling's import
  loads none anew, but ``from . import name`` reads its package's ``__init__``, and a module
  of another package runs that package's ``__init__``.
- ``cycles``: every import cycle (a strongly connected component of more than one module).
- ``long_modules``: the modules over ``MAX_LINES`` lines.
- ``exceptions_outside_errors``: the exception classes defined elsewhere than ``errors.py``;
  ``outside_the_root``: the exceptions of ``errors.py`` that do not derive from its root.

Exceptions are told by the names of their bases, so the source is never run: a base that is
a built-in exception, ends in ``Error`` or ``Exception``, or is a class of the package found
to be an exception, at any depth (a class inside a function counts).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

MAX_LINES = 400


@dataclass(frozen=True)
class Package:
    """A package to check: its folder and its dotted name."""

    folder: Path
    name: str

    @classmethod
    def of(cls, package: ModuleType) -> Package:
        return cls(Path(str(package.__file__)).parent, package.__name__)


def modules(package: Package) -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    found = {}
    for path in sorted(package.folder.rglob("*.py")):
        parts = [package.name, *path.relative_to(package.folder).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_on_import(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports under ``node`` that run when its module is loaded (class bodies, ``try``,
    ``with`` and ``if`` blocks included; functions and ``if TYPE_CHECKING:`` left out)."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    elif isinstance(node, ast.If) and _type_checking(node.test):
        for statement in node.orelse:
            yield from run_on_import(statement)
    elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        for child in ast.iter_child_nodes(node):
            yield from run_on_import(child)


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The dotted names an import loads: each module named, or the module a name is from."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    return {source} | {f"{source}.{alias.name}" for alias in node.names}


def _ancestors(package: str) -> set[str]:
    parts = package.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def import_graph(package: Package) -> dict[str, set[str]]:
    """Each module of the package and the modules (packages included) loading it loads."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        # the packages a module sits in have begun loading before it: importing a sibling
        # loads no package anew, but a package above the target outside them is run first
        loaded = _ancestors(name if path.name == "__init__.py" else name.rpartition(".")[0])
        for node in run_on_import(tree):
            for target in _targets(name, path, node):
                parts = target.split(".")  # a.b.c runs a and a.b first
                edges |= {".".join(parts[:i]) for i in range(1, len(parts))} - loaded
                edges.add(target)
        graph[name] = {t for t in edges if t in known and t != name}
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def long_modules(package: Package, max_lines: int = MAX_LINES) -> dict[str, int]:
    """The modules over ``max_lines`` lines, with their lengths."""
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in modules(package).items()
    }
    return {name: n for name, n in lengths.items() if n > max_lines}


def _base_name(base: ast.expr) -> str:
    """The name a base class is written with (``errors.X`` -> ``X``, ``Generic[M]`` ->
    ``Generic``)."""
    if isinstance(base, ast.Subscript):
        return _base_name(base.value)
    return ast.unparse(base).rpartition(".")[2]


BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


def exception_classes(package: Package) -> list[tuple[str, str]]:
    """(module, class) of every class in the package, at any depth, that derives from an
    exception."""
    classes = [
        (name, node)
        for name, path in modules(package).items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    ]
    known = set(BUILTIN_EXCEPTIONS)
    exceptional: set[tuple[str, str]] = set()
    grew = True
    while grew:  # a class deriving from one found here is an exception too
        grew = False
        for name, node in classes:
            bases = {_base_name(base) for base in node.bases}
            if (name, node.name) not in exceptional and any(
                b in known or b.endswith(("Error", "Exception")) for b in bases
            ):
                exceptional.add((name, node.name))
                known.add(node.name)
                grew = True
    return [(name, node.name) for name, node in classes if (name, node.name) in exceptional]


def exceptions_outside_errors(package: Package) -> list[str]:
    """``module: Class`` of every exception class defined elsewhere than ``errors.py``."""
    return [
        f"{module}: {cls}"
        for module, cls in exception_classes(package)
        if module != f"{package.name}.errors"
    ]


def outside_the_root(errors: ModuleType, root: type[BaseException]) -> list[str]:
    """The exception classes ``errors`` defines that do not derive from ``root``."""
    defined = [
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == errors.__name__
    ]
    return [cls.__name__ for cls in defined if not issubclass(cls, root)]
