"""Crash and resume, and two runners on one store, with real processes and a real SQLite file.

A driver process (``crash_driver.py``) runs a multi-step workflow over several topics and
is killed with SIGKILL at seeded random points, then started again, until every topic has
ended. The log must then hold every step of every topic exactly once, in order, with sound
objects and a sound database, and equal what an uninterrupted run records.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from pulse_core import START, EventStore, FileObjectStore, SQLiteEventStore, WorkflowRule
from tests.core import crash_driver
from tests.core.crash_driver import WORKFLOW, drive, make_workflow, step_names, topic_ids

DRIVER = Path(crash_driver.__file__)
TOPICS = 6
# enough steps, and kills soon enough after the calls, that a run is killed again and again
# before it ends, now that a tick commits its contents and events in one short transaction
STEPS = 8
SEED = 7
KILL_ROUNDS = 20

Record = tuple[str, dict[str, object], str]  # (kind, meta, content hash) of one event


def records(store: EventStore, key: str) -> list[Record]:
    return [(e.kind, e.meta, e.hash) for e in store.chain(key)]


def expected_kinds() -> list[str]:
    return [f"{WORKFLOW}.{START}", *(f"{WORKFLOW}.{s}" for s in step_names(STEPS))]


def assert_topics_complete(store: SQLiteEventStore, keys: list[str]) -> None:
    """Every step once and in order, versions 1..n, every object present and sound."""
    for key in keys:
        chain = store.chain(key)
        assert [e.kind for e in chain] == expected_kinds(), key
        assert [e.version for e in chain] == list(range(1, len(chain) + 1))
        for event in chain:
            store.objects.get(event.hash)  # raises when missing or corrupt
        workflow = make_workflow(STEPS)
        assert workflow.replay_check(chain, finished=True) == []
    assert store.integrity_check() == "ok"
    seqs = [e.seq for e in store.read_after(0)]
    assert seqs == sorted(seqs)
    assert len(seqs) == len(set(seqs)) == len(keys) * (STEPS + 1)


def leftover_temp_files(root: Path) -> list[Path]:
    return sorted((root / "objects").glob("*/*.tmp"))


# -- killed at random points, restarted until done ----------------------------------------
class Server:
    """The driver in ``serve`` mode: it forks one child per round, which a test may kill."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(DRIVER), "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert self._line() == "ready"

    def _line(self) -> str:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            raise AssertionError(f"driver server ended (code {self.proc.poll()})")
        # a child killed in the middle of a line leaves it without its end, and the
        # server's "exit" line follows on the same line
        cut = line.find("exit ")
        return line[max(cut, 0) :].strip()

    def round(self, db: Path, rng: random.Random | None) -> int:
        """One child run; with ``rng``, kill it at a random point. Returns its exit code."""
        stdin = self.proc.stdin
        assert stdin is not None
        job = {"db": str(db), "topics": TOPICS, "steps": STEPS, "seed": SEED}
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        first = self._line()
        assert first.startswith("child "), first
        pid = int(first.split()[1])
        if rng is not None:
            # a quarter of the kills land while it opens the store and starts the topics;
            # the rest once roles are running, a moment later: in a role, in an append,
            # or between ticks
            calls = 0 if rng.random() < 0.25 else rng.randint(1, TOPICS + 2)
            for _ in range(calls):
                line = self._line()
                if line.startswith("exit "):
                    return int(line.split()[1])
            time.sleep(rng.uniform(0, 0.003 if calls == 0 else 0.005))
            with contextlib.suppress(ProcessLookupError):  # it may have finished first
                os.kill(pid, signal.SIGKILL)
        while True:
            line = self._line()
            if line.startswith("exit "):
                return int(line.split()[1])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@dataclass
class CrashRun:
    root: Path
    kills: int
    rounds: int


@pytest.fixture(scope="module")
def crash_run(tmp_path_factory: pytest.TempPathFactory) -> CrashRun:
    root = tmp_path_factory.mktemp("crash")
    db = root / "events.db"
    rng = random.Random(20240601)
    server = Server()
    kills = rounds = 0
    try:
        while True:
            rounds += 1
            code = server.round(db, rng if kills < KILL_ROUNDS else None)
            if code == -signal.SIGKILL:
                kills += 1
                continue
            assert code == 0, f"round {rounds}: driver exited {code}"
            break
    finally:
        server.close()
    return CrashRun(root, kills, rounds)


def test_killed_runs_resume_to_every_step_exactly_once(crash_run: CrashRun) -> None:
    assert crash_run.kills >= KILL_ROUNDS // 2  # it was really killed, again and again
    with SQLiteEventStore(crash_run.root / "events.db") as store:
        keys = topic_ids(TOPICS, SEED)
        assert store.topics() == keys
        assert_topics_complete(store, keys)
    assert leftover_temp_files(crash_run.root) == []


def test_killed_and_resumed_records_what_an_uninterrupted_run_does(
    crash_run: CrashRun, tmp_path: Path
) -> None:
    with SQLiteEventStore(tmp_path / "events.db") as reference:
        statuses = asyncio.run(drive(reference, TOPICS, STEPS, SEED))
        assert set(statuses.values()) == {"ended"}
        with SQLiteEventStore(crash_run.root / "events.db") as crashed:
            for key in topic_ids(TOPICS, SEED):
                assert records(crashed, key) == records(reference, key)


def test_a_fresh_process_killed_mid_run_resumes(tmp_path: Path) -> None:
    """The same with a plain ``run`` process (no fork), killed once it is at work."""
    db = tmp_path / "events.db"
    command = [sys.executable, str(DRIVER), "run", str(db)]
    command += ["--topics", str(TOPICS), "--steps", str(STEPS), "--seed", str(SEED)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for _ in range(TOPICS + 2):  # into the second tick
        assert proc.stdout.readline().startswith("call ")
    proc.kill()
    assert proc.wait() == -signal.SIGKILL
    proc.stdout.close()

    with SQLiteEventStore(db) as store:
        keys = topic_ids(TOPICS, SEED)
        assert any(len(store.chain(k)) < STEPS + 1 for k in keys)  # it was cut short
        statuses = asyncio.run(drive(store, TOPICS, STEPS, SEED))  # carry on here
        assert statuses == dict.fromkeys(keys, "ended")
        assert_topics_complete(store, keys)
    assert leftover_temp_files(tmp_path) == []


# -- two runners on one store at once -----------------------------------------------------
def test_two_rules_in_two_threads_never_duplicate_a_step(tmp_path: Path) -> None:
    db = tmp_path / "events.db"
    keys = topic_ids(TOPICS, SEED)
    calls: Counter[tuple[str, str]] = Counter()
    lock = threading.Lock()
    # both runners meet before every first step: each computes it, only one may record it
    first_step = {key: threading.Barrier(2, timeout=30) for key in keys}

    def on_call(topic_id: str, role: str) -> None:
        with lock:
            calls[topic_id, role] += 1
        if role == "s1":
            first_step[topic_id].wait()

    # one object store for both connections: two FileObjectStore instances in one
    # process name their temp files alike (pid and a per-instance counter)
    objects = FileObjectStore(tmp_path / "objects")
    with SQLiteEventStore(db, objects=objects) as setup:
        crash_driver.start_topics(WorkflowRule(make_workflow(STEPS), setup), keys)

    results: list[dict[str, str]] = []
    errors: list[BaseException] = []

    def runner() -> None:
        try:
            with SQLiteEventStore(db, objects=objects) as store:
                results.append(asyncio.run(drive(store, TOPICS, STEPS, SEED, on_call)))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread to fail it
            errors.append(exc)

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert results == [dict.fromkeys(keys, "ended")] * 2
    # every first step ran in both runners, and the version race let one of each through
    assert all(calls[key, "s1"] == 2 for key in keys)
    with SQLiteEventStore(db, objects=objects) as store:
        assert_topics_complete(store, keys)


def test_two_processes_on_one_store_never_duplicate_a_step(tmp_path: Path) -> None:
    db = tmp_path / "events.db"
    command = [sys.executable, str(DRIVER), "run", str(db)]
    command += ["--topics", str(TOPICS), "--steps", str(STEPS), "--seed", str(SEED)]
    procs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert out.splitlines()[-1].startswith("done ")

    calls = Counter(
        (topic, role)
        for out, _ in outputs
        for kind, topic, role in (line.split()[:3] for line in out.splitlines())
        if kind == "call"
    )
    with SQLiteEventStore(db) as store:
        keys = topic_ids(TOPICS, SEED)
        assert_topics_complete(store, keys)
        recorded = Counter((e.key, e.role) for k in keys for e in store.chain(k))
    # a step may be computed by both processes, never recorded twice
    assert all(recorded[key, step] == 1 for key in keys for step in step_names(STEPS))
    assert sum(calls[key, step] for key in keys for step in step_names(STEPS)) >= TOPICS * STEPS
