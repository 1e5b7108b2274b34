"""Agent roles: a real subprocess (tests/core/agent_script.py) per test: prompt hand-over,
exit codes, stderr, environment, timeouts that kill the whole process group, and a topic
that fails on a timeout and goes on after resume."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from pulse_core import (
    END,
    START,
    AgentError,
    AgentTimeoutError,
    Event,
    EventStore,
    MemoryEventStore,
    PulseError,
    Role,
    RoleResult,
    WorkflowError,
    WorkflowRule,
    WorkflowType,
    agent_role,
    read_content,
    run_agent,
)

SCRIPT = str(Path(__file__).with_name("agent_script.py"))


def script(*args: str) -> list[str]:
    return [sys.executable, SCRIPT, *args]


def keep_all(stdout: str, stderr: str, exit_code: int) -> RoleResult:
    return RoleResult(stdout, {"stderr": stderr, "code": exit_code})


def fixed_prompt(text: str) -> Callable[[Sequence[Event], EventStore], str]:
    def build(chain: Sequence[Event], store: EventStore) -> str:
        return text

    return build


def call(role: Role) -> RoleResult:
    return asyncio.run(role((), "01J00000000000000000000000", MemoryEventStore()))


def is_gone(pid: int) -> bool:
    """True once ``pid`` no longer runs (gone, or a zombie nobody has reaped yet)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return True
    return fields[0] in ("Z", "X")


def wait_gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if is_gone(pid):
            return True
        time.sleep(0.02)
    return is_gone(pid)


def read_pids(pidfile: Path, within: float = 5.0) -> tuple[int, int]:
    deadline = time.monotonic() + within
    while not pidfile.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{pidfile} never appeared")
        time.sleep(0.02)
    own, child = pidfile.read_text().split()
    return int(own), int(child)


# -- prompt, output and exit codes ------------------------------------------------------------
def test_prompt_goes_in_on_stdin_and_output_comes_back() -> None:
    role = agent_role(
        command=script("echo"),
        build_prompt=fixed_prompt("write a poem\nin two lines"),
        parse_result=keep_all,
        timeout=10,
    )
    result = call(role)
    assert result.content == "got: write a poem\nin two lines\n"
    assert result.meta["stderr"] == "note: echoed\n"
    assert result.meta["code"] == 0
    assert result.meta["agent"]["exit_code"] == 0
    assert isinstance(result.meta["agent"]["latency_ms"], int)


def test_prompt_as_last_argument() -> None:
    role = agent_role(
        command=script("arg"),
        build_prompt=fixed_prompt("do it -- now"),
        parse_result=keep_all,
        timeout=10,
        prompt_via="arg",
    )
    assert call(role).content == "arg: do it -- now\n"


def test_nonzero_exit_goes_to_parse_result_not_an_error() -> None:
    seen: list[tuple[str, str, int]] = []

    def parse(stdout: str, stderr: str, exit_code: int) -> RoleResult:
        seen.append((stdout, stderr, exit_code))
        return RoleResult("failed" if exit_code else "ok", {"status": "fail"})

    role = agent_role(
        command=script("fail", "3"), build_prompt=fixed_prompt(""), parse_result=parse, timeout=10
    )
    result = call(role)
    assert seen == [("", "something went wrong\n", 3)]
    assert result.content == "failed"
    assert result.meta == {"status": "fail", "agent": result.meta["agent"]}
    assert result.meta["agent"]["exit_code"] == 3


def test_env_is_added_to_the_inherited_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PULSE_TEST_INHERITED", "from-parent")
    inherited = asyncio.run(
        run_agent(script("env", "PULSE_TEST_INHERITED"), "", timeout=10, env={"OTHER": "x"})
    )
    added = asyncio.run(
        run_agent(script("env", "PULSE_TEST_ADDED"), "", timeout=10, env={"PULSE_TEST_ADDED": "y"})
    )
    assert inherited == ("from-parent\n", "", 0)
    assert added == ("y\n", "", 0)


def test_cwd(tmp_path: Path) -> None:
    stdout, _, code = asyncio.run(run_agent(script("cwd"), "", timeout=10, cwd=tmp_path))
    assert (Path(stdout.strip()).resolve(), code) == (tmp_path.resolve(), 0)


def test_undecodable_output_is_replaced_not_fatal(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'ok \\xff end')"]
    stdout, _, code = asyncio.run(run_agent(command, "", timeout=10))
    assert (stdout, code) == ("ok \ufffd end", 0)


def test_a_program_that_cannot_start_raises_agent_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-agent")
    role = agent_role(
        command=[missing], build_prompt=fixed_prompt("x"), parse_result=keep_all, timeout=5
    )
    with pytest.raises(AgentError, match="cannot start agent") as info:
        call(role)
    assert missing in str(info.value)
    assert isinstance(info.value, PulseError)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"command": []}, "needs a command"),
        ({"prompt_via": "file"}, "prompt_via"),
        ({"timeout": 0}, "timeout must be positive"),
    ],
)
def test_bad_definitions_are_refused(kwargs: dict[str, object], message: str) -> None:
    options: dict[str, object] = {
        "command": script("echo"),
        "build_prompt": fixed_prompt(""),
        "parse_result": keep_all,
        "timeout": 5,
    }
    options.update(kwargs)
    with pytest.raises(WorkflowError, match=message):
        agent_role(**options)  # type: ignore[arg-type]


# -- timeouts and process groups -------------------------------------------------------------
def test_timeout_kills_and_raises_with_the_output_so_far() -> None:
    role = agent_role(
        command=script("sleep"),
        build_prompt=fixed_prompt(""),
        parse_result=keep_all,
        timeout=0.5,
        kill_grace=0.2,
    )
    with pytest.raises(
        AgentTimeoutError, match=r"ran past its 0.5 s timeout and was killed"
    ) as info:
        call(role)
    error = info.value
    assert error.stdout == "started\n"
    assert error.stderr == "started on stderr\n"
    assert "started on stderr" in str(error)
    assert isinstance(error, TimeoutError)
    assert isinstance(error, AgentError)


def test_a_program_ignoring_sigterm_is_killed_after_the_grace() -> None:
    with pytest.raises(AgentTimeoutError) as info:
        asyncio.run(run_agent(script("stubborn"), "", timeout=0.5, kill_grace=0.2))
    assert info.value.stdout == "started\n"


def test_timeout_kills_the_programs_children_too(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"

    async def run() -> None:
        await run_agent(script("spawn", str(pidfile)), "", timeout=1.0, kill_grace=0.2)

    with pytest.raises(AgentTimeoutError):
        asyncio.run(run())
    own, child = read_pids(pidfile)
    assert wait_gone(own)
    assert wait_gone(child)


def test_children_left_behind_are_killed_when_the_program_ends(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    _stdout, _, code = asyncio.run(run_agent(script("orphan", str(pidfile)), "", timeout=10))
    assert code == 0
    _own, child = read_pids(pidfile)
    assert wait_gone(child)


def test_cancelling_the_role_kills_the_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"

    async def run() -> None:
        task = asyncio.create_task(run_agent(script("spawn", str(pidfile)), "", timeout=30))
        while not pidfile.exists():
            await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    own, child = read_pids(pidfile)
    assert wait_gone(own)
    assert wait_gone(child)


# -- in a workflow ----------------------------------------------------------------------------
def test_a_timed_out_agent_fails_its_topic_and_resume_runs_it_again(tmp_path: Path) -> None:
    flag = tmp_path / "slept"
    store = MemoryEventStore()

    def prompt_from_input(chain: Sequence[Event], store: EventStore) -> str:
        return read_content(store, chain[0])

    coder = agent_role(
        command=script("sleep-once", str(flag)),
        build_prompt=prompt_from_input,
        parse_result=keep_all,
        timeout=0.5,
        kill_grace=0.2,
    )

    def moderator(last: Event, state: object) -> str:
        return "coder" if last.role == START else END

    workflow: WorkflowType[None] = WorkflowType("build", {"coder": coder}, moderator)
    rule = WorkflowRule(workflow, store)
    topic = rule.start("add a button")
    assert asyncio.run(rule.run([topic])) == {topic: "failed"}
    failure = store.chain(topic)[-1]
    assert failure.meta["role"] == "coder"
    assert failure.meta["error"].startswith("AgentTimeoutError: agent ")

    rule.resume(topic)
    assert asyncio.run(rule.run([topic])) == {topic: "ended"}
    done = store.chain(topic)[-1]
    assert done.kind == "build.coder"
    assert read_content(store, done) == "got: add a button\n"
    assert done.meta["agent"]["exit_code"] == 0
    assert os.path.exists(flag)
