"""The arena's edges: run names stay inside the store's arena folder, a refused run writes
nothing, runs are listed and removed, and worker processes end with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pulse_core import SQLiteEventStore
from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# -- names -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../../../outside", "a/b", "x.report", "..", "", "_x", "é"])
@pytest.mark.parametrize("command", ["run", "report", "rm"])
def test_a_name_that_is_not_a_plain_identifier_is_refused_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: str
) -> None:
    store = tmp_path / "games" / "s.sqlite3"
    outside = tmp_path / "outside.json"
    outside.write_text('{"mine": true}\n')
    before = _files(tmp_path)
    argv = {
        "run": ["arena", "run", "--players", "mock,random", "--games", "2", f"--name={name}"],
        "report": ["arena", "report", name],
        "rm": ["arena", "rm", name],
    }[command]
    code, _out, err = run(capsys, *argv, "--store", str(store))
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "is not a run name" in err
    assert _files(tmp_path) == before


def test_a_long_name_is_echoed_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "arena", "report", "x" * 10_000 + "/", "--store", str(tmp_path))
    assert code == 2
    assert len(err) < 300


# -- a refused run writes nothing --------------------------------------------------------------
def test_a_run_refused_for_a_missing_key_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = tmp_path / "g" / "s.sqlite3"
    argv = ["arena", "run", "--players", "llm:gpt-4o-mini,mock", "--games", "2", "--name", "k"]
    code, _out, err = run(capsys, *argv, "--store", str(store))
    assert code == 2
    assert "OPENAI_API_KEY" in err
    assert not (tmp_path / "g").exists()
    # the same name with other players is a new run, not a clash with a saved one
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "k", "-q"]
    assert run(capsys, *argv, "--store", str(store))[0] == 0


def test_a_run_refused_for_a_bad_store_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "g" / "store"
    store.mkdir(parents=True)
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "k"]
    code, _out, err = run(capsys, *argv, "--store", str(store))
    assert code == 2, err
    assert len(err.splitlines()) == 1, err
    assert "--store" in err, err
    assert list((tmp_path / "g").iterdir()) == [store]


# -- list and rm -------------------------------------------------------------------------------
def test_runs_are_listed_and_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "g" / "s.sqlite3")
    code, out, _err = run(capsys, "arena", "list", "--store", store)
    assert code == 0
    assert "No runs beside" in out
    for name, players in (("duel", "mock,random"), ("trio", "mock,random,mock:bold")):
        argv = ["arena", "run", "--players", players, "--games", "6", "--name", name, "-q"]
        assert run(capsys, *argv, "--workers", "1", "--store", store)[0] == 0
    assert run(capsys, "arena", "report", "duel", "--store", store, "--bootstrap", "5")[0] == 0
    code, out, _err = run(capsys, "arena", "list", "--store", store, "--width", "120")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "6 of 6" in rows["duel"]
    assert "mock, random" in rows["duel"]
    assert "6 of 6" in rows["trio"]
    code, out, err = run(capsys, "arena", "rm", "duel", "--store", store)
    assert code == 0
    arena = tmp_path / "g" / "arena"
    assert sorted(p.name for p in arena.iterdir()) == ["trio.json"]
    assert "6 games stay in the store" in out
    code, _out, err = run(capsys, "arena", "rm", "duel", "--store", store)
    assert code == 2
    assert "no such run" in err
    # the name is free again, for other players
    argv = ["arena", "run", "--players", "mock:bold,random", "--games", "2", "--name", "duel"]
    assert run(capsys, *argv, "-q", "--workers", "1", "--store", store)[0] == 0


# -- workers die with their parent -------------------------------------------------------------
def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text()
        found += [int(p) for p in text.split()]
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # a zombie plays no more


def _events(store: Path) -> int:
    if not store.exists():
        return 0
    with SQLiteEventStore(store, durable=False) as s:
        return s.last_seq()


def _ended(store: Path) -> int:
    with SQLiteEventStore(store, durable=False) as s:
        return sum(1 for e in s.read_after(0) if e.kind == "werewolf.game-end")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_kill_9_of_the_parent_leaves_no_worker_playing(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite3"
    argv = ["arena", "run", "--players", "mock:cautious,mock:steady,mock:bold,random",
            "--games", "96", "--name", "o", "-q", "--workers", "2", "--store", str(store)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from werewolf.cli import main; sys.exit(main(sys.argv[1:]))",
         *argv],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60  # guards against a hang; no timing is asserted
    workers: list[int] = []
    while time.monotonic() < deadline and process.poll() is None:
        workers = _children(process.pid)
        if len(workers) == 2 and _events(store) > 20:
            break
        time.sleep(0.02)
    assert process.poll() is None, "the workers never started"
    assert len(workers) == 2, "the workers never started"
    os.kill(process.pid, signal.SIGKILL)  # the parent alone, as a crash or an OOM kill
    process.wait()
    try:
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        # orphaned workers would play the run to its end (96 games) and then exit
        assert _ended(store) < 96
        assert not any(_alive(w) for w in workers)
        played = _events(store)
        time.sleep(0.5)
        assert _events(store) == played
    finally:
        for worker in workers:
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)
