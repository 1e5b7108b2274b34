"""The report's speed and shape: cached records stay right as the store grows, tables fit 80
columns without breaking an interval, and the progress bar tells the time left."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from pulse_core import SQLiteEventStore
from werewolf.app.arena_runs import build_report
from werewolf.arena import load_run, make_run, parse_players, run_games, run_path
from werewolf.arena.cli.progress import ProgressView as _ProgressView
from werewolf.arena.intervals import bootstrap_ratio, resamples
from werewolf.arena.ratings import Match, bradley_terry, bradley_terry_estimates, elo
from werewolf.arena.record_cache import cache_path
from werewolf.arena.report_tables import render_report
from werewolf.arena.tally import RunProgress
from werewolf.cli import main

INTERVAL = re.compile(r"\[[0-9.,-]+, ?[0-9.,-]+\]")


def _play(store: Path, name: str, games: int) -> None:
    argv = ["arena", "run", "--players", "mock,random,mock:bold", "--games", str(games)]
    assert main([*argv, "--name", name, "--store", str(store), "--workers", "1", "-q"]) == 0


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("report") / "s.sqlite3"
    _play(store, "r", 12)
    return store


def _rendered(store: Path, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    render_report(console, build_report(load_run(run_path(store, "r")), store, rounds=200))
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [80, 100, 140])
def test_tables_fit_the_width_and_never_break_an_interval(played: Path, width: int) -> None:
    out = _rendered(played, width)
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= width
    # every opening bracket closes on its own line: no interval is split across lines
    for line in lines:
        assert line.count("[") == line.count("]"), line
    assert INTERVAL.search(out)
    assert "…" not in out  # nothing cut short


def test_at_80_columns_wide_intervals_move_under_their_values(played: Path) -> None:
    wide, narrow = _rendered(played, 200), _rendered(played, 80)
    assert len(narrow.splitlines()) > len(wide.splitlines())
    assert any(line.strip().startswith("[") for line in narrow.splitlines())
    assert not any(line.strip().startswith("[") for line in wide.splitlines())


def test_the_record_cache_follows_the_store(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite3"
    _play(store, "c", 6)
    spec = load_run(run_path(store, "c"))
    cached = cache_path(run_path(store, "c"))
    first = build_report(spec, store)
    assert cached.is_file()
    assert len(json.loads(cached.read_text())["records"]) == 6
    assert build_report(spec, store).metrics == first.metrics  # from the cache
    # more games in the store: the old records stay, the new games are read
    _play(store, "c", 12)
    grown = build_report(load_run(run_path(store, "c")), store)
    assert grown.metrics.games == 12
    assert len(json.loads(cached.read_text())["records"]) == 12
    # a cache that cannot be read is only a lost shortcut
    cached.write_text("{not json", encoding="utf-8")
    assert build_report(load_run(run_path(store, "c")), store).metrics == grown.metrics
    assert main(["arena", "rm", "c", "--store", str(store)]) == 0
    assert not cached.exists()  # removed with its run


def test_a_cached_record_is_dropped_when_its_game_gets_new_events(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite3"
    _play(store, "d", 6)
    spec = load_run(run_path(store, "d"))
    cached = cache_path(run_path(store, "d"))
    build_report(spec, store)
    data = json.loads(cached.read_text())
    with SQLiteEventStore(store) as s:
        key = s.read_after(s.last_seq() - 1)[0].key  # the game that ended last
    data["records"][key]["winner"] = "draw"  # what a stale record would say
    data["seq"] -= 1  # as if the game's last event came after the cache was written
    cached.write_text(json.dumps(data), encoding="utf-8")
    with SQLiteEventStore(store) as s:
        records = run_games(spec, s, cached).records
    assert all(r.winner.value != "draw" for r in records)


def test_a_cache_from_another_store_is_not_used(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "s.sqlite3", tmp_path / "b" / "s.sqlite3"
    _play(first, "e", 6)
    build_report(load_run(run_path(first, "e")), first)
    data = json.loads(cache_path(run_path(first, "e")).read_text())
    for record in data["records"].values():
        record["winner"] = "draw"
    _play(second, "e", 6)
    cache_path(run_path(second, "e")).parent.mkdir(parents=True, exist_ok=True)
    cache_path(run_path(second, "e")).write_text(json.dumps(data), encoding="utf-8")
    report = build_report(load_run(run_path(second, "e")), second)
    assert report.metrics.draws == 0


def test_vectorised_bootstrap_matches_a_loop() -> None:
    nums = [1.0, 0.0, 3.0, 2.0, 5.0, 4.0]
    dens = [1.0, 1.0, 2.0, 1.0, 2.0, 0.0]
    draws = resamples(len(nums), 400, "loop")
    ratios = sorted(
        sum(nums[i] for i in d) / sum(dens[i] for i in d)
        for d in draws.tolist()
        if sum(dens[i] for i in d)
    )
    estimate = bootstrap_ratio(nums, dens, draws)
    assert estimate.low == pytest.approx(float(np.percentile(ratios, 2.5)))
    assert estimate.high == pytest.approx(float(np.percentile(ratios, 97.5)))


def test_vectorised_ratings_match_one_fit_per_resample() -> None:
    ab, ba = (("a", 1.0), ("b", -1.0)), (("a", -1.0), ("b", 1.0))
    matches = [Match(ab, 1.0)] * 6 + [Match(ba, 0.0)] * 3 + [Match(ba, 1.0)] * 3
    matches += [Match(ab, 0.5), Match(ab, 0.0)]
    draws = resamples(len(matches), 50, "bt")
    ratings, _ = bradley_terry_estimates(matches, ["a", "b"], draws)
    one_by_one = [
        bradley_terry([matches[i] for i in d], ["a", "b"]).elo_scale("a") for d in draws.tolist()
    ]
    assert ratings["a"].low == pytest.approx(float(np.percentile(one_by_one, 2.5)), abs=1e-6)
    assert ratings["a"].high == pytest.approx(float(np.percentile(one_by_one, 97.5)), abs=1e-6)
    # Elo by hand: one win of a's wolves moves a up by k * (1 - 1/2)
    assert elo(matches[:1], ["a", "b"]) == {"a": 1508.0, "b": 1492.0}


def test_the_progress_bar_tells_the_time_left_from_this_command_s_games() -> None:
    clock = [0.0]
    console = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=True)
    spec = make_run(
        name="p",
        players=parse_players(["mock,random"]),
        schedule="head-to-head",
        games=40,
        seed=0,
        created_ms=1_700_000_000_000,
    )
    view = _ProgressView(console, spec, get_time=lambda: clock[0])
    progress = RunProgress(total=40, ended=set(range(20)))  # a continued run: 20 done before
    view.update(progress)
    for step in range(1, 11):  # then one game a second
        clock[0] = float(step)
        progress.ended.add(19 + step)
        view.update(progress)
    task = view.progress.tasks[0]
    assert task.completed == 30
    assert task.time_remaining == pytest.approx(10.0, rel=0.2)  # 10 games at 1 a second
    view.progress.refresh()
    shown = view.progress.get_renderable()
    text = Console(width=120, color_system=None, file=io.StringIO())
    text.print(shown)
    out = text.file.getvalue()  # type: ignore[attr-defined]
    assert "30/40" in out
    assert "left 0:00:1" in out


def test_the_readme_sample_is_what_the_baseline_prints() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "readme_sample.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
