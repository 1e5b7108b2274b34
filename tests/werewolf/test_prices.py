"""The bundled price table: dated, read by every command that shows a cost, and beaten by
the user's own prices; and the example files the docs point to."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.openai_server import TEST_API_KEY, OpenAIServer
from werewolf.arena.report import Report
from werewolf.arena.report_plots import write_plots
from werewolf.cli import main
from werewolf.lineup import Price, load_lineup
from werewolf.pricing import bundled_prices, with_bundled

from .test_arena_llm import handler

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "PRICES_TEST_KEY"


def test_the_bundled_table_is_dated_and_prices_common_models() -> None:
    table = bundled_prices()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", table.as_of)
    assert table.prices["gpt-4o-mini"] == Price(prompt=0.15, completion=0.60)
    assert {"gpt-4o", "deepseek-chat", "gemini-2.5-flash"} <= set(table.prices)


def test_own_prices_win_over_the_bundled_ones() -> None:
    mine = {"gpt-4o-mini": Price(prompt=1.0, completion=2.0)}
    prices = with_bundled(mine, ["gpt-4o-mini", "gpt-4o", "my-local-model", None])
    assert prices["gpt-4o-mini"] == mine["gpt-4o-mini"]
    assert prices["gpt-4o"] == bundled_prices().prices["gpt-4o"]
    assert "my-local-model" not in prices


@pytest.mark.parametrize("name", ["lineup.toml", "prices.toml"])
def test_the_examples_load(name: str) -> None:
    lineup = load_lineup(ROOT / "examples" / name)
    assert lineup.prices
    if name == "lineup.toml":
        kinds = [spec.kind for spec in lineup.resolve(9).values()]
        assert "llm" in kinds
        assert "human" not in kinds  # it can seat an arena run too


def _run(tmp_path: Path, server: OpenAIServer, *extra: str) -> dict[str, object]:
    store = tmp_path / "s.sqlite3"
    argv = ["arena", "run", "--players", "llm:gpt-4o-mini,mock", "--games", "2",
            "--name", "m", "--store", str(store), "-q", *extra]  # fmt: skip
    assert main(argv) == 0
    assert main(["arena", "report", "m", "--store", str(store), "--width", "160"]) == 0
    return json.loads((tmp_path / "arena" / "m.report.json").read_text())  # type: ignore[no-any-return]


def test_an_arena_model_has_a_cost_without_a_prices_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    with OpenAIServer(handler, models=["gpt-4o-mini"]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        figures = _run(tmp_path, server)
        out = capsys.readouterr().out
        mini = figures["players"]["llm:gpt-4o-mini"]  # type: ignore[index]
        assert mini["tokens"] > 0
        bundled = bundled_prices().prices["gpt-4o-mini"]
        assert figures["run"]["prices"]["gpt-4o-mini"] == bundled.model_dump()  # type: ignore[index]
        assert mini["cost"] > 0
        assert f"bundled list prices of {bundled_prices().as_of}" in out
        # a prices file of one's own wins, on a new run and on the report
        mine = tmp_path / "mine.toml"
        mine.write_text('[prices."gpt-4o-mini"]\nprompt = 100.0\ncompletion = 100.0\n')
        again = _run(tmp_path, server, "--prices", str(mine))
        assert again["run"]["prices"]["gpt-4o-mini"] == {"prompt": 100.0, "completion": 100.0}  # type: ignore[index]
        assert again["players"]["llm:gpt-4o-mini"]["cost"] > mini["cost"]  # type: ignore[index]


def test_the_cost_chart_needs_two_players_who_used_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    from werewolf.app.arena_runs import build_report
    from werewolf.arena.spec import load_run, run_path

    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    with OpenAIServer(handler, models=["gpt-4o-mini"]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        _run(tmp_path, server)
    store = tmp_path / "s.sqlite3"
    report: Report = build_report(load_run(run_path(store, "m")), store, rounds=20)
    written = write_plots(report, tmp_path / "charts")
    assert [p.name for p in written] == ["ratings.png"]  # one spender: nothing to compare
