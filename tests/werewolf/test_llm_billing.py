"""What LLM seats cost when the endpoint does not say: answers without ``usage`` are
estimated from the text, marked as estimated wherever the figures go, warned about once per
seat, and counted by the budget."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.openai_server import TEST_API_KEY, OpenAIServer
from tests.werewolf.llm_support import KEY_ENV, LegalTable
from tests.werewolf.test_cassette import _log
from tests.werewolf.test_llm_faults import _lineup, _run


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
    lineup = _lineup(tmp_path, openai_server, extra="\n[budget]\ntokens = 30000\n")
    code, out, err = _run(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    # the budget stops the game although no answer said what it cost
    assert code == 1, out + err
    assert "BudgetExceededError" in out
    spent = re.search(r"budget is spent \(([\d,]+) of 30,000 tokens\)", out)
    assert spent, out
    assert int(spent.group(1).replace(",", "")) >= 30_000
    # every stored usage record is marked, with tokens in it
    _, chain = _log(store)
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
    lineup = _lineup(tmp_path, openai_server, extra="\n[budget]\ntokens = 10000\n")
    code, out, err = _run(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 1, out + err
    _, chain = _log(store)
    assert not any(u.get("estimated") for e in chain for u in e.meta.get("usage", []))
    assert "estimated" not in out
    assert "warning" not in err
