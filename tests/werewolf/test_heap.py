"""The garbage collector's settings (``werewolf.heap``): the installed ``werewolf`` program
sets them for its process; the library, ``main`` called in another program included, leaves
them as that program has them (real interpreters, in subprocesses)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from werewolf.heap import YOUNG_THRESHOLD

ROOT = Path(__file__).resolve().parents[2]


def _collector_after(code: str) -> str:
    report = "\nimport gc\nprint(gc.get_threshold()[0], gc.get_freeze_count() > 0)\n"
    done = subprocess.run(
        [sys.executable, "-c", code + report],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return done.stdout.split("\n")[-2]


def test_the_installed_command_collects_the_young_generation_less_often() -> None:
    code = "import sys\nfrom werewolf.cli import command\nsys.argv = ['werewolf', '--version']\n"
    code += "command()\n"
    assert _collector_after(code) == f"{YOUNG_THRESHOLD} True"


def test_the_library_and_main_leave_the_collector_as_the_program_set_it() -> None:
    code = (
        "import asyncio\n"
        "from pulse_core import MemoryEventStore, WorkflowRule\n"
        "from werewolf.cli import main\n"
        "from werewolf.game import start_game, werewolf_workflow\n"
        "from werewolf.players import uniform_seating\n"
        "main(['--version'])\n"
        "rule = WorkflowRule(werewolf_workflow(uniform_seating('random')), MemoryEventStore())\n"
        "start_game(rule, seed=1)\n"
        "asyncio.run(rule.run())\n"
    )
    assert _collector_after(code) == "700 False"
