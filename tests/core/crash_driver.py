"""A driver for the crash and concurrency tests: a multi-step workflow on a SQLite store.

``python crash_driver.py run DB --topics N --steps N --seed S`` starts the topics (unless
they exist) and ticks until every one has ended; it prints ``call <topic> <role>`` as
each role begins and ``done <statuses as JSON>`` at the end, and exits 0 when all ended.

``python crash_driver.py serve`` imports pulse_core once and then, for every JSON line
``{"db": ..., "topics": ..., "steps": ..., "seed": ...}`` on stdin, forks a child that
does what ``run`` does. The child prints ``child <pid>`` first, so a test can SIGKILL it
mid-work; the server prints ``exit <code>`` when the child is gone (``-9`` when killed).
Forking spares each round the package import, which costs far more than the work itself.

Roles are deterministic: a role's content depends only on the contents of the chain it
receives, so a run that was killed and resumed must record what an uninterrupted run does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from pulse_core import (
    END,
    ConflictError,
    Event,
    EventStore,
    IdSource,
    RoleResult,
    SQLiteEventStore,
    WorkflowRule,
    WorkflowType,
    read_content,
)
from pulse_core.workflow import Role, is_control

WORKFLOW = "crash"

OnCall = Callable[[str, str], None]
"""Called with (topic id, role name) as each role begins, before it awaits anything."""


def step_names(steps: int) -> list[str]:
    return [f"s{i}" for i in range(1, steps + 1)]


def topic_ids(count: int, seed: int) -> list[str]:
    """The same ULIDs for the same seed, so every run and every runner names one topic set."""
    ids = IdSource(clock=lambda: datetime(2024, 6, 1, tzinfo=UTC), rng=random.Random(seed))
    return [ids.new() for _ in range(count)]


def _role(name: str, on_call: OnCall | None) -> Role:
    async def role(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        if on_call is not None:
            on_call(topic_id, name)
        seen = hashlib.sha256(name.encode())
        for event in chain:
            if not is_control(event):
                seen.update(read_content(store, event).encode())
        digest = seen.hexdigest()
        await asyncio.sleep(0)
        if int(digest[:2], 16) % 3 == 0:  # some steps take a moment, so kills land mid-step
            await asyncio.sleep(0.002)
        return RoleResult(f"{name} after {len(chain)} events: {digest}", {"step": name})

    return role


def make_workflow(steps: int, on_call: OnCall | None = None) -> WorkflowType[int]:
    """START -> s1 -> ... -> sN -> END, decided from a fold that counts workflow events."""
    names = step_names(steps)

    def count(seen: int, event: Event) -> int:
        return seen + 1

    def moderator(last: Event, seen: int) -> str:
        # ``seen`` counts START too: after START it is 1 and s1 is next
        return names[seen - 1] if seen <= steps else END

    return WorkflowType(
        WORKFLOW,
        {name: _role(name, on_call) for name in names},
        moderator,
        fold=count,
        initial=0,
    )


def start_topics(rule: WorkflowRule[int], keys: Sequence[str]) -> None:
    """Start the topics that do not exist yet; another runner may be starting them too."""
    for index, key in enumerate(keys):
        if rule.store.version(key) == 0:
            with contextlib.suppress(ConflictError):  # another runner started it first
                rule.start(f"topic {index}", {"index": index}, topic_id=key)


async def drive(
    store: EventStore, topics: int, steps: int, seed: int, on_call: OnCall | None = None
) -> dict[str, str]:
    """Start (if needed) and run every topic to its end; returns their statuses."""
    rule = WorkflowRule(make_workflow(steps, on_call), store)
    keys = topic_ids(topics, seed)
    start_topics(rule, keys)
    return dict(await rule.run(keys, poll_interval=0.005))


def _print_call(topic_id: str, role: str) -> None:
    # one write for the whole line: a kill never leaves half of it
    os.write(sys.stdout.fileno(), f"call {topic_id} {role}\n".encode())


def run_once(db: str, topics: int, steps: int, seed: int) -> int:
    """What ``run`` does; returns the exit code."""
    store = SQLiteEventStore(db)
    try:
        statuses = asyncio.run(drive(store, topics, steps, seed, _print_call))
    finally:
        store.close()
    print(f"done {json.dumps(statuses, sort_keys=True)}", flush=True)
    return 0 if set(statuses.values()) == {"ended"} else 1


def serve() -> int:
    """Fork a child per JSON line on stdin; report each child's exit."""
    print("ready", flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:  # the child: run, then leave without running the server's code
            code = 1
            try:
                print(f"child {os.getpid()}", flush=True)
                code = run_once(job["db"], job["topics"], job["steps"], job["seed"])
            finally:
                sys.stdout.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("db")
    run.add_argument("--topics", type=int, required=True)
    run.add_argument("--steps", type=int, required=True)
    run.add_argument("--seed", type=int, required=True)
    sub.add_parser("serve")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve()
    return run_once(args.db, args.topics, args.steps, args.seed)


if __name__ == "__main__":
    sys.exit(main())
