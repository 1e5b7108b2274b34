"""One store for every directory a user plays from: ``WEREWOLF_STORE``, overridden by
``--store``; without either, ``games/werewolf.sqlite3`` under the current directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from werewolf.argtypes import DEFAULT_STORE, default_store


def test_the_default_store_reads_the_variable() -> None:
    assert default_store({}) == DEFAULT_STORE
    assert default_store({"WEREWOLF_STORE": " "}) == DEFAULT_STORE
    assert default_store({"WEREWOLF_STORE": "/data/w.sqlite3"}) == Path("/data/w.sqlite3")
    assert default_store({"WEREWOLF_STORE": "~/w.sqlite3"}) == Path.home() / "w.sqlite3"


def _werewolf(cwd: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "werewolf"), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_werewolf_store_is_one_store_for_every_directory(tmp_path: Path) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    shared = tmp_path / "data" / "werewolf.sqlite3"
    env = {**os.environ, "WEREWOLF_STORE": str(shared)}
    played = _werewolf(here, env, "play", "--seed", "3", "-q")
    assert played.returncode == 0, played.stderr
    game = played.stdout.split("(game ")[1].split(",")[0]
    assert shared.exists()
    assert not (here / "games").exists()  # nothing scattered under the current directory
    listed = _werewolf(elsewhere, env, "games")
    assert listed.returncode == 0, listed.stderr
    assert game in listed.stdout
    # --store still wins over the variable
    own = tmp_path / "own.sqlite3"
    played = _werewolf(elsewhere, env, "play", "--seed", "4", "-q", "--store", str(own))
    assert played.returncode == 0, played.stderr
    assert own.exists()
    listed = _werewolf(elsewhere, env, "games")
    assert played.stdout.split("(game ")[1].split(",")[0] not in listed.stdout
    # without it, the store is games/werewolf.sqlite3 under the current directory
    bare = {k: v for k, v in os.environ.items() if k != "WEREWOLF_STORE"}
    played = _werewolf(elsewhere, bare, "play", "--seed", "5", "-q")
    assert played.returncode == 0, played.stderr
    assert (elsewhere / "games" / "werewolf.sqlite3").exists()
