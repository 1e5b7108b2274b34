"""The public API is pinned: a change to ``__all__`` is a deliberate change of this file.

Also checks the conventions a reader relies on: sorted ``__all__``, every name importable,
and no module-level ``random`` in the packages (randomness is seeded per game or per
decision and recorded, so a replay needs no generator).
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PULSE_CORE = [
    "ATTACHMENTS", "CODE_REV", "END", "ERROR", "RESUME", "START",
    "AgentError", "AgentTimeoutError", "ChatMessage", "Clock", "ConflictError",
    "CorruptObjectError", "Decision", "Draft", "Event", "EventStore", "FileObjectStore",
    "GraphError", "IdSource", "ImmutableLogError", "InvalidEventError", "JSONValue",
    "LLMError", "LLMExchange", "LLMRequestError", "LLMToolsRefusedError",
    "LLMUnavailableError", "LLMUsage",
    "MemoryEventStore", "MemoryObjectStore", "Meta", "ObjectNotFoundError", "ObjectStore",
    "Problem", "PulseError", "RetryPolicy", "Role", "RoleResult", "SQLiteEventStore", "StatusGraph",
    "StoreLockedError", "Target", "TemplateError", "ToolCallOutcome", "TopicFile", "TopicFileError",
    "TopicStatus", "WorkflowError", "WorkflowRule", "WorkflowType", "agent_role",
    "call_tool", "check_kind", "digest_of", "export_topic", "export_topic_lines",
    "import_topic", "is_ulid", "llm_role", "load_topic_file", "parse_topic",
    "read_attachment", "read_content", "render_template", "run_agent", "split_kind",
    "system_clock", "template_references", "tool_role", "validate_graph",
]  # fmt: skip

WEREWOLF = [
    "GODS", "Answer", "Cause", "Choice", "ConfigError", "DecisionKind", "GameConfig",
    "GameFileError", "GameResult", "GameState", "GameStateError", "Identity",
    "IllegalDecisionError", "Observation", "Outcome", "Phase", "Player", "PlayerProtocolError",
    "PlayerSource",
    "Request", "SeatChoice", "SeatView", "SelfSave", "Speech", "Stage", "Team", "TiePolicy",
    "UnknownSeatError", "Usage", "WerewolfError", "WinRule", "WitchChoice", "arena_report",
    "check_player",
    "evolve", "export_replay", "fold_chain", "fold_to", "initial_state", "load_log",
    "next_phase", "parse_config", "play_arena", "play_game", "resume_game", "rules_text",
    "start_game", "team_of", "view", "werewolf_workflow",
]  # fmt: skip

WEREWOLF_APP = [
    "GameInterrupted", "GameResult", "PlayerSource", "PreparedRun", "PythonSeating",
    "ReportFiles", "Resumption", "RunInterrupted", "RunOptions", "RunRow", "SeatChoice",
    "Seats", "Table", "View", "Watch", "arena_report", "build_report", "export_replay",
    "finish_game", "fold_to", "follow_game", "game_config", "list_runs", "list_saved_games",
    "load_log", "open_game_store", "open_resume", "play_arena", "play_game", "prepare_run",
    "remove_run", "replay_file_path", "replay_prices", "resume_command", "resume_game",
    "run_arena", "run_hint", "seat_specs", "view_spec", "write_report",
]  # fmt: skip

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("package", "pinned"),
    [("pulse_core", PULSE_CORE), ("werewolf", WEREWOLF), ("werewolf.app", WEREWOLF_APP)],
)
def test_public_api_is_pinned_sorted_and_importable(package: str, pinned: list[str]) -> None:
    module = importlib.import_module(package)
    assert module.__all__ == pinned
    constants = [n for n in pinned if n.isupper()]
    rest = [n for n in pinned if not n.isupper()]
    assert constants == sorted(constants)
    assert rest == sorted(rest)
    for name in pinned:
        assert getattr(module, name) is not None, name


def test_the_application_layer_is_the_packages_own() -> None:
    """``werewolf.play_game`` and the rest are the application layer's functions, not
    copies: the docs' ``from werewolf import ...`` and ``from werewolf.app import ...`` agree."""
    import werewolf
    import werewolf.app

    shared = sorted(set(WEREWOLF) & set(WEREWOLF_APP))
    assert shared == [
        "GameResult", "PlayerSource", "SeatChoice", "arena_report", "export_replay",
        "fold_to", "load_log", "play_arena", "play_game", "resume_game",
    ]  # fmt: skip
    assert all(getattr(werewolf, n) is getattr(werewolf.app, n) for n in shared)


def _random_calls(path: Path) -> list[str]:
    """Calls of the ``random`` module's functions (``random.Random(seed)`` is allowed)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found += [
                f"{path}:{node.lineno}: from random import {a.name}"
                for a in node.names
                if a.name != "Random"
            ]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "random"
            and node.func.attr != "Random"
        ):
            found.append(f"{path}:{node.lineno}: random.{node.func.attr}()")
    return found


def test_no_module_level_random_in_the_packages() -> None:
    files = sorted((ROOT / "pulse_core").rglob("*.py")) + sorted((ROOT / "werewolf").rglob("*.py"))
    assert len(files) > 20
    assert [hit for f in files for hit in _random_calls(f)] == []


def test_the_random_scan_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import random\nrandom.choice([1, 2])\nrng = random.Random(3)\n")
    assert _random_calls(sample) == [f"{sample}:2: random.choice()"]


def test_the_command_line_starts_without_the_heavy_optional_modules() -> None:
    """`werewolf play` reaches its first request sooner when the CLI imports numpy (the
    arena's statistics), openai (LLM seats) and the web stack only where they are used."""
    heavy = ("numpy", "openai", "starlette", "uvicorn", "playwright")
    probe = f"import sys, werewolf.cli\nprint(','.join(m for m in {heavy!r} if m in sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    assert loaded == ""
