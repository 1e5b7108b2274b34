"""Agent roles: an external program (a coding agent, a script) as a role; seed 000's executor.

``agent_role`` builds a prompt from the topic, runs ``command`` with asyncio's subprocesses,
hands the prompt over on standard input or as the last argument, and lets
``parse_result(stdout, stderr, exit_code)`` turn what came back into the ``RoleResult``. A
non-zero exit code is not an error here: ``parse_result`` decides what it means.

The program runs in a process group of its own. Past ``timeout`` seconds the whole group
gets SIGTERM, then SIGKILL after ``kill_grace`` seconds, and the role raises
``AgentTimeoutError`` (carrying the output read so far). It raises rather than calling
``parse_result`` with a marker because a timed-out agent has usually done half its work: the
adapter records the failure, and resuming the topic runs the role again from the start. A
program that cannot be started raises ``AgentError``. When the program ends, whatever it
left running in its group is killed too, and so is everything when the role is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, TypeAlias

from .errors import AgentError, AgentTimeoutError, WorkflowError
from .events import Event
from .store import EventStore
from .workflow import Role, RoleResult

__all__ = ["AgentOutput", "PromptVia", "agent_role", "run_agent"]

PromptVia: TypeAlias = Literal["stdin", "arg"]
AgentOutput: TypeAlias = tuple[str, str, int]
"""``(stdout, stderr, exit_code)``; a negative exit code -N means killed by signal N."""

_READ_CHUNK = 65_536
_DRAIN_AFTER_KILL = 1.0  # seconds to collect output once the group is dead
_TAIL_CHARS = 500  # how much of stderr a timeout error quotes


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


async def _collect(stream: asyncio.StreamReader | None, sink: bytearray) -> None:
    if stream is None:
        return
    while chunk := await stream.read(_READ_CHUNK):
        sink.extend(chunk)


async def _feed(stream: asyncio.StreamWriter | None, data: bytes) -> None:
    if stream is None:
        return
    try:
        stream.write(data)
        await stream.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the program exited without reading all of its prompt: its exit code tells
    finally:
        stream.close()


async def _stop_group(process: asyncio.subprocess.Process, grace: float) -> None:
    """SIGTERM the process group, wait up to ``grace`` seconds, then SIGKILL what is left."""
    _signal_group(process.pid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(grace):
            await process.wait()
    _signal_group(process.pid, signal.SIGKILL)
    await process.wait()


async def _settle(tasks: Sequence[asyncio.Task[None]], seconds: float) -> None:
    """Give the output readers ``seconds`` to reach end of file, then cancel them."""
    _done, pending = await asyncio.wait(tasks, timeout=seconds)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def run_agent(
    command: Sequence[str],
    prompt: str,
    *,
    timeout: float,
    prompt_via: PromptVia = "stdin",
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    kill_grace: float = 2.0,
) -> AgentOutput:
    """Run ``command`` with ``prompt``; return ``(stdout, stderr, exit_code)``.

    ``env`` entries are added to (and override) the inherited environment. Output is
    decoded as UTF-8, undecodable bytes replaced. Raises ``AgentTimeoutError`` past
    ``timeout`` seconds and ``AgentError`` when the program cannot be started.
    """
    argv = [*command, prompt] if prompt_via == "arg" else list(command)
    full_env = None if env is None else {**os.environ, **env}
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE if prompt_via == "stdin" else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=full_env,
            cwd=cwd,
            start_new_session=True,  # its own process group, so a timeout kills its children
        )
    except OSError as exc:
        raise AgentError(f"cannot start agent {argv[0]!r}: {exc.strerror or exc}") from exc

    out, err = bytearray(), bytearray()
    io = [
        asyncio.create_task(_collect(process.stdout, out)),
        asyncio.create_task(_collect(process.stderr, err)),
    ]
    if prompt_via == "stdin":
        io.append(asyncio.create_task(_feed(process.stdin, prompt.encode("utf-8"))))
    try:
        try:
            async with asyncio.timeout(timeout):
                await process.wait()
                await asyncio.gather(*io)  # a child still holding the pipes keeps us here
        except TimeoutError:
            await _stop_group(process, kill_grace)
            await _settle(io, _DRAIN_AFTER_KILL)
            stderr = err.decode("utf-8", errors="replace")
            message = f"agent {argv[0]!r} ran past its {timeout:g} s timeout and was killed"
            if stderr.strip():
                message += f"; stderr ends: {stderr[-_TAIL_CHARS:]}"
            stdout = out.decode("utf-8", errors="replace")
            raise AgentTimeoutError(message, stdout=stdout, stderr=stderr) from None
    finally:
        # Normal end, timeout or cancellation: nothing of the program outlives the role.
        _signal_group(process.pid, signal.SIGKILL)
        for task in io:
            task.cancel()
        if process.returncode is None:  # cancelled: reap it, or its transport leaks
            await process.wait()
    exit_code = process.returncode if process.returncode is not None else -int(signal.SIGKILL)
    return (
        out.decode("utf-8", errors="replace"),
        err.decode("utf-8", errors="replace"),
        exit_code,
    )


def agent_role(
    *,
    command: Sequence[str],
    build_prompt: Callable[[Sequence[Event], EventStore], str],
    parse_result: Callable[[str, str, int], RoleResult],
    timeout: float,
    prompt_via: PromptVia = "stdin",
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    kill_grace: float = 2.0,
) -> Role:
    """A role that runs an external program; see the module docstring.

    ``build_prompt(chain, store)`` makes the prompt (``read_content(store, event)`` reads an
    earlier event's content). The result's meta gets ``meta["agent"] = {"exit_code",
    "latency_ms"}`` next to what ``parse_result`` put there.
    """
    if not command:
        raise WorkflowError("an agent role needs a command")
    if prompt_via not in ("stdin", "arg"):
        raise WorkflowError(f"prompt_via must be 'stdin' or 'arg', not {prompt_via!r}")
    if timeout <= 0:
        raise WorkflowError(f"timeout must be positive, not {timeout}")
    command = tuple(command)

    async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        started = time.perf_counter()
        stdout, stderr, exit_code = await run_agent(
            command,
            build_prompt(chain, store),
            timeout=timeout,
            prompt_via=prompt_via,
            env=env,
            cwd=cwd,
            kill_grace=kill_grace,
        )
        result = parse_result(stdout, stderr, exit_code)
        latency_ms = round((time.perf_counter() - started) * 1000)
        meta = {**result.meta, "agent": {"exit_code": exit_code, "latency_ms": latency_ms}}
        return RoleResult(result.content, meta, result.attachments)

    return role
