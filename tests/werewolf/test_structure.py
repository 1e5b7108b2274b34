"""The package's shape: what importing the rules loads, import circles, module sizes and the
one exception tree.

- Importing the rules, the state or the moderator loads no player, replay or arena module,
  nor the LLM client or rich (a real interpreter, in a subprocess).
- The import graph of werewolf has no cycle. Its nodes are the modules (a package is its
  ``__init__``); its edges are the module-level imports read from the source
  (``if TYPE_CHECKING:`` blocks left out, relative imports resolved). Importing a module
  also counts as importing every package on its path that has not begun loading already,
  as Python runs their ``__init__`` first: the importer's own packages are under way, so a
  sibling's import loads none anew, but ``from . import name`` reads its package's
  ``__init__``, and a module of another package runs that package's ``__init__``.
- No module is over 400 lines, but for tables of content (phrases, rules text).
- Every exception werewolf defines is defined in ``werewolf/errors.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import werewolf.errors

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "werewolf"
MAX_LINES = 400

TABLES_OF_CONTENT = frozenset(
    {
        "werewolf/players/mock/lang/en.py",  # the mock players' phrases
        "werewolf/players/mock/lang/zh.py",
        "werewolf/players/mock/lang/thoughts.py",
    }
)
"""Modules that are tables of content (phrases, rules text), allowed past ``MAX_LINES``."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_imports(body: Sequence[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is loaded (not those of its functions)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _type_checking(node.test):
                yield from _module_imports(node.body)
            yield from _module_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _module_imports(block)
            for handler in node.handlers:
                yield from _module_imports(handler.body)
        elif isinstance(node, ast.With):
            yield from _module_imports(node.body)


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


def import_graph() -> dict[str, set[str]]:
    """Each werewolf module and the werewolf modules (packages included) loading it loads."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        # the packages a module sits in have begun loading before it: importing a sibling
        # loads no package anew, but a package above the target outside them is run first
        loaded = _ancestors(name if path.name == "__init__.py" else name.rpartition(".")[0])
        for node in _module_imports(tree.body):
            for target in _targets(name, path, node):
                parts = target.split(".")  # a.b.c runs a and a.b first
                edges |= {".".join(parts[:i]) for i in range(1, len(parts))} - loaded
                edges.add(target)
        graph[name] = {t for t in edges if t in modules and t != name}
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


def test_importing_the_rules_loads_no_player_replay_or_arena_module() -> None:
    code = (
        "import sys\n"
        "import werewolf.state, werewolf.rules, werewolf.moderator, werewolf.config\n"
        "heavy = ('werewolf.players', 'werewolf.replay', 'werewolf.arena', 'openai', 'rich')\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy\n"
        "    or m.startswith(tuple(h + '.' for h in heavy)) or m in heavy)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.split() == []


def test_the_cycle_finder_finds_a_package_that_imports_a_module_importing_it_back() -> None:
    graph = {"p": {"p.a"}, "p.a": {"p", "p.b"}, "p.b": set(), "q": {"p.b"}}
    assert cycles(graph) == [["p", "p.a"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_package_imports_no_module_that_imports_it_back() -> None:
    found = cycles(import_graph())
    assert found == []


def test_no_module_is_over_400_lines_but_tables_of_content() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _modules().values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert {p: n for p, n in long.items() if p not in TABLES_OF_CONTENT} == {}
    assert all((ROOT / path).is_file() for path in TABLES_OF_CONTENT)  # no name left stale


def _exception_classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    """The classes of a module that derive from an exception (by the names of their bases:
    ``...Error``, ``...Exception``, ``...Fault``, or one of the module's own exceptions)."""
    classes = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    known = {"BaseException", "Exception", *werewolf.errors.__all__}
    grew = True
    while grew:  # a class deriving from one found here is an exception too
        grew = False
        for node in classes:
            bases = {ast.unparse(base).rpartition(".")[2] for base in node.bases}
            exceptional = any(b in known or b.endswith(("Error", "Exception")) for b in bases)
            if exceptional and node.name not in known:
                known.add(node.name)
                grew = True
    return (node for node in classes if node.name in known)


def test_every_exception_of_werewolf_is_defined_in_errors_py() -> None:
    elsewhere = [
        f"{path.relative_to(ROOT)}: {node.name}"
        for path in _modules().values()
        if path != PACKAGE / "errors.py"
        for node in _exception_classes(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert elsewhere == []
    defined = [getattr(werewolf.errors, name) for name in werewolf.errors.__all__]
    assert all(issubclass(cls, werewolf.errors.WerewolfError) for cls in defined)
