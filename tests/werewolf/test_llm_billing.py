"""What LLM seats cost when the endpoint does not say: answers without ``usage`` are
estimated from the text, marked as estimated wherever the figures go, warned about once per
seat, and counted by the budget."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.openai_server import (
    TEST_API_KEY,
    Empty,
    Hang,
    OpenAIServer,
    Raw,
    Reply,
    Rewritten,
    Text,
    ToolCall,
    Usage,
)
from tests.werewolf.llm_support import (
    KEY_ENV,
    LegalTable,
    game_log,
    run_cli,
    tool_of,
    write_lineup,
)
from tests.werewolf.short_waits import short_backoff
from werewolf.cli import main


def test_answers_without_usage_are_estimated_marked_warned_once_and_budgeted(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    openai_server.handler = LegalTable()
    openai_server.reports_usage = False
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, extra="\n[budget]\ntokens = 30000\n")
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    # the budget stops the game although no answer said what it cost
    assert code == 1, out + err
    assert "BudgetExceededError" in out
    spent = re.search(r"budget is spent \(([\d,]+) of 30,000 tokens\)", out)
    assert spent, out
    assert int(spent.group(1).replace(",", "")) >= 30_000
    # every stored usage record is marked, with tokens in it
    _, chain = game_log(store)
    usage = [u for e in chain for u in e.meta.get("usage", [])]
    assert usage
    assert all(u.get("estimated") is True for u in usage)
    assert all(u["prompt_tokens"] > 0 and u["completion_tokens"] > 0 for u in usage)
    # the estimate is of the right size: the test server counts the messages only (no
    # tools, which real endpoints bill and the estimate counts), at 4 characters a token
    billed = openai_server.billed()
    total = billed.prompt_tokens + billed.completion_tokens
    logged = sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage)
    assert total <= logged < 3 * total
    # the totals say so, for each seat and for the game
    seat_lines = [line for line in out.splitlines() if line.startswith("  seat ")]
    assert seat_lines
    assert all("(estimated)" in line for line in seat_lines)
    assert "estimated in part" in out
    # one warning per seat that was asked, on stderr
    warnings = [line for line in err.splitlines() if "reports no token usage" in line]
    seats = sorted(int(re.search(r"seat (\d+)", w).group(1)) for w in warnings)  # type: ignore[union-attr]
    assert seats == sorted({u["seat"] for u in usage})
    assert all(w.startswith("werewolf: warning: ") for w in warnings)


def test_answers_with_usage_are_not_marked(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    openai_server.handler = LegalTable()
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, extra="\n[budget]\ntokens = 10000\n")
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 1, out + err
    _, chain = game_log(store)
    assert not any(u.get("estimated") for e in chain for u in e.meta.get("usage", []))
    assert "estimated" not in out
    assert "warning" not in err


# -- kill -9 --------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
# the empty answers the game is given are retried after a wait: short ones (short_backoff)
_CLI = (
    "import sys; from tests.werewolf.short_waits import short_backoff; short_backoff(); "
    "from werewolf.cli import main; sys.exit(main(sys.argv[1:]))"
)


class _UntilCut:
    """Legal answers, with a refused answer (plain text) and an empty one (retried) now
    and then, all billed; once ``votes`` more votes were asked, every request hangs, so
    that the game is caught in its concurrent vote with answers received for it."""

    def __init__(self) -> None:
        self.table = LegalTable()
        self.votes: int | None = None  # None: never cut
        self.cut = False
        self.count = 0
        self.lock = threading.Lock()

    def cut_after(self, votes: int | None) -> None:
        with self.lock:
            self.votes, self.cut = votes, False

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.count += 1
            n = self.count
            if self.votes is not None and tool_of(body)[0] == "vote":
                self.cut = self.cut or self.votes <= 0
                self.votes -= 1
            cut = self.cut
        if cut:
            return Hang(600.0)  # released when the server stops
        if n % 7 == 0:
            return Text("I would rather not say.")  # no call: refused, asked again
        if n % 11 == 0:
            return Empty()
        return self.table(body)


def _ledger_rows(store: Path) -> int:
    try:
        with contextlib.closing(sqlite3.connect(store)) as db:
            return int(db.execute("SELECT COUNT(*) FROM werewolf_bills").fetchone()[0])
    except sqlite3.OperationalError:  # no such table (yet)
        return 0


def _answered(server: OpenAIServer) -> int:
    return sum(1 for r in server.completions() if r.usage is not None)


def _logged(store: Path) -> int:
    """Tokens the usage records of every game in ``store`` hold."""
    with SQLiteEventStore(store) as s:
        usage = [u for k in s.topics() for e in s.chain(k) for u in e.meta.get("usage", [])]
    return sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage)


def _start(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), KEY_ENV: TEST_API_KEY}
    return subprocess.Popen(
        [sys.executable, "-c", _CLI, *argv],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill_after(process: subprocess.Popen[str], server: OpenAIServer, store: Path) -> None:
    """SIGKILL ``process`` once it is stuck on a hanging request and every answer the
    server gave has been received and written down (or a guard's time is up)."""
    handler = server.handler
    assert isinstance(handler, _UntilCut)
    deadline = time.monotonic() + 30  # guards against a hang; no timing is asserted
    while time.monotonic() < deadline and process.poll() is None:
        given = [r for r in server.completions() if r.usage is not None]
        if handler.cut and all(r.finished for r in given) and _ledger_rows(store) >= len(given):
            break
        time.sleep(0.02)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_tokens_of_answers_a_killed_game_received_are_counted_once_after_resume(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    handler = _UntilCut()
    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, timeout=120.0, patience=600.0)
    argv = ["--lineup", str(lineup), "--store", str(store), "-q"]
    handler.cut_after(votes=4)
    _kill_after(_start(tmp_path, "play", "--seed", "7", *argv), openai_server, store)
    billed = openai_server.billed()
    # the kill caught answers that no event recorded yet
    assert _logged(store) < billed.prompt_tokens + billed.completion_tokens
    game, _ = game_log(store)
    # taken up and killed again, mid-phase
    handler.cut_after(votes=4)  # the same vote asked again: caught in it once more
    _kill_after(_start(tmp_path, "resume", game, *argv), openai_server, store)
    handler.cut_after(votes=None)
    process = _start(tmp_path, "resume", game, *argv)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, out + err
    billed = openai_server.billed()
    total = billed.prompt_tokens + billed.completion_tokens
    assert _logged(store) == total  # the log counts every billed token once
    found = re.search(r"Game: .* = ([\d,]+) tokens in ([\d,]+) calls", out)
    assert found, out
    assert int(found.group(1).replace(",", "")) == total
    assert int(found.group(2).replace(",", "")) == _answered(openai_server)
    _, chain = game_log(store)
    assert any(u.get("recovered") for e in chain for u in e.meta.get("usage", []))


# -- the arena report ---------------------------------------------------------------------------
def test_the_arena_report_shows_what_the_budget_spent_in_all_and_in_ended_games(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    openai_server.handler = LegalTable()
    openai_server.reports_usage = False  # and the figures are estimates
    roster = tmp_path / "roster.toml"
    lines = []
    for name in ("one", "two"):
        lines += [f"[players.{name}]", 'kind = "llm"', 'model = "test-model"',
                  f'base_url = "{openai_server.base_url}"', f'api_key_env = "{KEY_ENV}"']  # fmt: skip
    lines += ['[prices."test-model"]', "prompt = 1.0", "completion = 2.0"]
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = tmp_path / "s.sqlite3"
    argv = ["arena", "run", "--roster", str(roster), "--games", "4", "--concurrency", "1",
            "--budget-tokens", "150000", "--name", "b", "--store", str(store), "-q"]  # fmt: skip
    main(argv)
    out, err = capsys.readouterr()
    assert "budget of 150,000 tokens is spent" in out + err, out + err
    code = main(["arena", "report", "b", "--store", str(store), "--width", "200"])
    out, err = capsys.readouterr()
    assert code == 0, err
    figures = json.loads((tmp_path / "arena" / "b.report.json").read_text())
    ended = figures["games"]["ended"]
    assert ended >= 1
    assert figures["games"]["unfinished"]
    # every token the run's games recorded, unfinished games included
    with SQLiteEventStore(store, read_only=True) as s:
        usage = [u for k in s.topics() for e in s.chain(k) for u in e.meta.get("usage", [])]
    in_all = sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage)
    cost = sum(u["prompt_tokens"] * 1.0 + u["completion_tokens"] * 2.0 for u in usage) / 1e6
    spent = figures["spent"]
    assert spent["all"]["tokens"] == in_all >= 150_000
    assert spent["all"]["cost"] == pytest.approx(cost)
    assert spent["ended"]["tokens"] == sum(p["tokens"] for p in figures["players"].values())
    assert 0 < spent["ended"]["tokens"] < in_all
    assert spent["all"]["estimated_tokens"] == in_all
    summary = " ".join(out.split())
    assert f"Spent in all: {in_all:,} tokens, ${cost:.4f}" in summary
    assert f"in the {ended} ended games: {spent['ended']['tokens']:,} tokens" in summary
    assert "estimated" in summary


def test_an_arena_run_killed_mid_game_and_continued_counts_every_billed_token_once(
    openai_server: OpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    handler = _UntilCut()
    openai_server.handler = handler
    roster = tmp_path / "roster.toml"
    lines = []
    for name in ("one", "two"):
        lines += [f"[players.{name}]", 'kind = "llm"', 'model = "test-model"',
                  f'base_url = "{openai_server.base_url}"', f'api_key_env = "{KEY_ENV}"',
                  "timeout = 120.0", "patience = 600.0"]  # fmt: skip
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = tmp_path / "s.sqlite3"
    argv = ["arena", "run", "--roster", str(roster), "--games", "2", "--concurrency", "2",
            "--name", "k", "--store", str(store), "-q"]  # fmt: skip
    handler.cut_after(votes=4)
    _kill_after(_start(tmp_path, *argv), openai_server, store)
    billed = openai_server.billed()
    assert _logged(store) < billed.prompt_tokens + billed.completion_tokens
    handler.cut_after(votes=None)
    process = _start(tmp_path, *argv)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, out + err
    assert main(["arena", "report", "k", "--store", str(store)]) == 0
    capsys.readouterr()
    figures = json.loads((tmp_path / "arena" / "k.report.json").read_text())
    billed = openai_server.billed()
    total = billed.prompt_tokens + billed.completion_tokens
    assert figures["games"]["ended"] == 2
    assert _logged(store) == total
    assert figures["spent"]["all"]["tokens"] == figures["spent"]["ended"]["tokens"] == total


# -- usage that is no count of tokens -----------------------------------------------------------
class _BadCounts:
    """Legal answers whose ``usage`` is, in turn, negative, past any bill, a string, and
    sound: a broken or hostile endpoint's counts."""

    def __init__(self) -> None:
        self.table = LegalTable()
        self.lock = threading.Lock()
        self.n = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.n += 1
            n = self.n
        answer = self.table(body)
        assert isinstance(answer, ToolCall)
        if n % 4 == 1:
            return replace(answer, usage=Usage(-50, -7))
        if n % 4 == 2:
            return replace(answer, usage=Usage(10**20, 10**20))
        if n % 4 == 3:
            return Rewritten(
                answer, lambda t: re.sub(r'"prompt_tokens": \d+', '"prompt_tokens": "12"', t)
            )
        return answer


def test_usage_counts_that_are_no_token_counts_are_estimated_and_the_game_replays(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    openai_server.handler = _BadCounts()
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url)
    argv = ["--lineup", str(lineup), "--store", str(store), "-q"]
    code, out, err = run_cli(capsys, "play", "--seed", "7", *argv)
    assert code == 0, out + err
    game, chain = game_log(store)
    usage = [u for e in chain for u in e.meta.get("usage", [])]
    assert any(u.get("estimated") for u in usage)
    assert any(not u.get("estimated") for u in usage)
    assert all(
        0 <= u["prompt_tokens"] < 2**53 and 0 <= u["completion_tokens"] < 2**53 for u in usage
    )
    assert "estimated in part" in out
    # the log is read back: the replay, its views and the game list
    for view_args in ([], ["--public"], ["--markdown", str(tmp_path / "g.md")]):
        code, _text, err = run_cli(capsys, "replay", game, "--store", str(store), *view_args)
        assert code == 0, err
    code, _text, err = run_cli(capsys, "games", "--store", str(store))
    assert code == 0, err


def test_answers_cut_off_on_their_way_have_their_prompt_estimated(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chat completion cut off mid-body (its ``usage`` at the end never arrives) was
    billed; it is retried, and its prompt is counted, estimated, so that the totals and the
    budget do not fall short of the bill. A proxy's HTML page bills nothing."""
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    short_backoff(monkeypatch)  # every fault is retried after a wait
    table = LegalTable()
    count = iter(range(10**6))

    def handler(body: dict[str, Any]) -> Reply:
        n = next(count)
        if n >= 25:  # the first night's answers are enough
            return table(body)
        if n % 5 == 1:
            return Rewritten(table(body), lambda t: t[: len(t) // 2])
        if n % 5 == 3:
            return Raw("<html><body>502 Bad Gateway</body></html>")
        return table(body)

    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, patience=120.0)
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 0, out + err
    cut = [r for r in openai_server.completions() if isinstance(r.reply, Rewritten)]
    assert cut
    billed = openai_server.billed()
    _, chain = game_log(store)
    usage = [u for e in chain for u in e.meta.get("usage", [])]
    logged = sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage)
    # the estimate counts the tools too, which the test server does not: at least the bill
    assert logged >= billed.prompt_tokens + billed.completion_tokens
    assert any(u.get("estimated") for u in usage)
    assert "estimated in part" in out
