"""The package's shape: what importing the rules loads, import circles, module sizes and the
one exception tree.

- Importing the rules, the state or the moderator loads no player, replay or arena module,
  nor the LLM client or rich (a real interpreter, in a subprocess).
- The import graph of werewolf has no cycle (tests/structure.py says how it is read).
- No module is over 400 lines, but for tables of content (phrases, rules text).
- Every exception werewolf defines is defined in ``werewolf/errors.py``, under
  ``WerewolfError``, but for the Ctrl-C interrupts (``INTERRUPTS``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import werewolf
import werewolf.errors
from tests.structure import (
    Package,
    cycles,
    exceptions_outside_errors,
    import_graph,
    long_modules,
    modules,
    outside_the_root,
)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Package.of(werewolf)

TABLES_OF_CONTENT = frozenset(
    {
        "werewolf.players.mock.lang.en",  # the mock players' phrases
        "werewolf.players.mock.lang.zh",
        "werewolf.players.mock.lang.thoughts",
    }
)
"""Modules that are tables of content (phrases, rules text), allowed past ``MAX_LINES``."""

INTERRUPTS = frozenset(
    {"werewolf.app.arena: RunInterrupted", "werewolf.app.session: GameInterrupted"}
)
"""Ctrl-C carrying what was saved: a ``KeyboardInterrupt``, which no ``except WerewolfError``
may catch, defined beside the loop it stops."""


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
    graph = import_graph(PACKAGE)
    assert "werewolf.errors" in graph["werewolf.config"]  # the graph is read
    assert cycles(graph) == []


def test_no_module_is_over_400_lines_but_tables_of_content() -> None:
    long = long_modules(PACKAGE)
    assert {name: n for name, n in long.items() if name not in TABLES_OF_CONTENT} == {}
    assert TABLES_OF_CONTENT - modules(PACKAGE).keys() == set()  # no name left stale


def test_every_exception_of_werewolf_is_defined_in_errors_py() -> None:
    assert set(exceptions_outside_errors(PACKAGE)) == INTERRUPTS  # none more, none stale
    assert outside_the_root(werewolf.errors, werewolf.errors.WerewolfError) == []
    defined = [getattr(werewolf.errors, name) for name in werewolf.errors.__all__]
    assert all(issubclass(cls, werewolf.errors.WerewolfError) for cls in defined)
