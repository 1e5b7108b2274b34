"""Nine LLM seats against the project's OpenAI-compatible test server: wall time against the
critical path, startup, and how much of each request a provider's prompt cache could reuse.

``werewolf play`` runs as a user runs it (a fresh process, a lineup, a SQLite store) against
``tests/openai_server.py`` answering legally after ``--latency`` seconds. From the server's
request log:

- critical path: the time at least one request was in flight (the union of the requests'
  intervals: requests that overlap cost one latency), and the number of rounds (groups of
  overlapping requests) that could not overlap;
- game wall time: from the first request's arrival to the last answer; the ratio game wall
  / critical path is what the engine adds between sequential steps (target: at most 1.15);
- startup: from the process's start to the first request (target: under 1 s);
- prefix reuse: for each request of a seat, the share of its bytes (tools array, then the
  messages, as providers lay a prompt out) that equals a prefix of the seat's previous
  request; the mean over a game (target: at least 0.8). Printed for the default (one tools
  array for the whole game) and for ``enum_targets = true``.

    .venv/bin/python benchmarks/bench_llm.py                 # latency 0.3 s, seed 7
    .venv/bin/python benchmarks/bench_llm.py --latency 0.1 --seed 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.openai_server import OpenAIServer, Recorded  # noqa: E402
from tests.werewolf.llm_support import (  # noqa: E402
    KEY_ENV,
    LegalTable,
    realistic_speech,
    seat_of,
)


def _lineup(folder: Path, base_url: str, extra: str) -> Path:
    path = folder / "lineup.toml"
    path.write_text(
        "[defaults]\n"
        'kind = "llm"\n'
        'model = "test-model"\n'
        f'base_url = "{base_url}"\n'
        f'api_key_env = "{KEY_ENV}"\n'
        "timeout = 30\n" + extra,
        encoding="utf-8",
    )
    return path


def busy_time(intervals: Iterable[tuple[float, float]]) -> tuple[float, int]:
    """The length of the union of ``intervals``, and how many disjoint groups it has."""
    total, rounds = 0.0, 0
    end = float("-inf")
    start = 0.0
    for a, b in sorted(intervals):
        if a > end:
            if rounds:
                total += end - start
            start, end, rounds = a, b, rounds + 1
        else:
            end = max(end, b)
    if rounds:
        total += end - start
    return total, rounds


def _laid_out(body: dict[str, Any]) -> str:
    """A request as a provider lays out its prompt: the tools, then the messages."""
    tools = json.dumps(body.get("tools", []), ensure_ascii=False, sort_keys=True)
    return tools + json.dumps(body["messages"], ensure_ascii=False)


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def prefix_reuse(bodies: Sequence[dict[str, Any]]) -> float:
    """The mean share of a request that equals a prefix of its seat's previous request."""
    previous: dict[int, str] = {}
    shares: list[float] = []
    for body in bodies:
        seat, text = seat_of(body), _laid_out(body)
        if seat in previous:
            shares.append(_common_prefix(previous[seat], text) / len(text))
        previous[seat] = text
    return sum(shares) / len(shares) if shares else 0.0


def run_game(latency: float, seed: int, extra: str = "") -> dict[str, Any]:
    table = LegalTable(speech=realistic_speech, witch_saves=False, spread=True)
    with OpenAIServer(table) as server, tempfile.TemporaryDirectory() as tmp:
        server.latency = latency
        folder = Path(tmp)
        lineup = _lineup(folder, server.base_url, extra)
        env = {**os.environ, KEY_ENV: "bench-key-not-secret"}
        command = [
            str(Path(sys.executable).parent / "werewolf"),
            "play",
            "--seed",
            str(seed),
            "--lineup",
            str(lineup),
        ]
        command += ["--store", str(folder / "w.sqlite3"), "-q"]
        started = time.monotonic()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        finished = time.monotonic()
        if done.returncode != 0:
            raise SystemExit(f"the game failed:\n{done.stdout}\n{done.stderr}")
        requests: list[Recorded] = server.completions()
        bodies = server.bodies()
    busy, rounds = busy_time((r.started, r.finished) for r in requests)
    first = min(r.started for r in requests)
    last = max(r.finished for r in requests)
    return {
        "requests": len(requests),
        "rounds": rounds,
        "critical": busy,
        "game_wall": last - first,
        "startup": first - started,
        "process_wall": finished - started,
        "reuse": prefix_reuse(bodies),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per answer")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"nine LLM seats, test server latency {args.latency:.2f} s, seed {args.seed}")
    for label, extra in (("one tools array", ""), ("enum_targets = true", "enum_targets = true\n")):
        r = run_game(args.latency, args.seed, extra)
        ratio = r["game_wall"] / r["critical"]
        print(f"\n{label}:")
        print(f"  requests {r['requests']} in {r['rounds']} rounds that could not overlap")
        print(
            f"  critical path {r['critical']:.2f} s, game wall {r['game_wall']:.2f} s: "
            f"ratio {ratio:.3f} (target <= 1.15)"
        )
        print(
            f"  startup to the first request {r['startup']:.2f} s (target < 1 s); "
            f"whole process {r['process_wall']:.2f} s"
        )
        print(f"  prefix reuse share {r['reuse']:.3f} (target >= 0.8)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
