"""A stand-in agent program for the agent-role tests; its first argument picks the behaviour.

echo              read the prompt on stdin, print "got: PROMPT", note on stderr, exit 0
arg PROMPT        print "arg: PROMPT" (the prompt came as the last argument)
fail CODE         print a complaint on stderr and exit with CODE
env NAME          print the value of the environment variable NAME
cwd               print the working directory
sleep             print "started" (flushed) to both streams, then sleep a long time
stubborn          ignore SIGTERM, print "started", sleep a long time
spawn PIDFILE     start a child that sleeps, write its pid to PIDFILE, then sleep
orphan PIDFILE    start a child that sleeps, write its pid to PIDFILE, exit 0 at once
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

LONG = 60.0  # far past any timeout the tests use; the role must kill us first


def _spawn_sleeper(pidfile: str) -> None:
    child = subprocess.Popen(  # inherits our process group, as an agent's tools would
        [sys.executable, "-c", f"import time; time.sleep({LONG})"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    partial = Path(pidfile + ".partial")
    partial.write_text(f"{os.getpid()} {child.pid}")
    partial.replace(pidfile)  # atomic: a test polling for the file never reads half of it


def main(argv: list[str]) -> int:
    mode = argv[1]
    if mode == "sleep-once" and not Path(argv[2]).exists():
        Path(argv[2]).write_text("slept")
        time.sleep(LONG)
        return 0
    if mode in ("echo", "sleep-once"):
        prompt = sys.stdin.read()
        print(f"got: {prompt}")
        print("note: echoed", file=sys.stderr)
        return 0
    if mode == "arg":
        print(f"arg: {argv[-1]}")
        return 0
    if mode == "fail":
        print("something went wrong", file=sys.stderr)
        return int(argv[2])
    if mode == "env":
        print(os.environ.get(argv[2], "<unset>"))
        return 0
    if mode == "cwd":
        print(Path.cwd())
        return 0
    if mode in ("sleep", "stubborn"):
        if mode == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("started", flush=True)
        print("started on stderr", file=sys.stderr, flush=True)
        time.sleep(LONG)
        return 0
    if mode == "spawn":
        _spawn_sleeper(argv[2])
        print("spawned", flush=True)
        time.sleep(LONG)
        return 0
    if mode == "orphan":
        _spawn_sleeper(argv[2])
        return 0
    print(f"unknown mode {mode}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
