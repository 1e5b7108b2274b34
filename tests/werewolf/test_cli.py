"""The werewolf command: play, resume, replay; exit codes and one-line errors.

Runs ``main(argv)`` in process against real SQLite stores in tmp_path (and the installed
console script once, as a subprocess).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore, WorkflowRule
from werewolf.cli import main
from werewolf.decisions import Answer, Request
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import make_player
from werewolf.replay import load_game, load_replay_file
from werewolf.state import GameState

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "replays" / "pk-and-hunter.jsonl"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _games(store_path: Path) -> list[str]:
    with SQLiteEventStore(store_path) as store:
        return store.topics()


def _phases(store_path: Path, game: str) -> list[tuple[str, Any]]:
    """The game's workflow events as (kind, meta), control events left out."""
    with SQLiteEventStore(store_path) as store:
        return [
            (e.kind, e.meta)
            for e in store.chain(game)
            if not e.role.startswith("__") or e.version == 1
        ]


# -- play ------------------------------------------------------------------------------------
def test_a_fresh_seed_is_too_many_to_search_and_exact_in_the_viewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seed gives the deal, and mock seats play it out from the seed: a fresh seed drawn
    from a million values could be found by playing each one's first day and comparing it
    with what a seat or a spectator saw. Drawn from 2**53 values, it is not, and the HTML
    viewer (JavaScript numbers) still shows it exactly."""
    store = tmp_path / "werewolf.sqlite3"
    seeds = []
    for _ in range(3):
        code, out, err = run(capsys, "play", "-q", "--store", str(store))
        assert code == 0, err
        seeds.append(int(out.split(", seed ")[1].split(")")[0]))
    assert all(1_000_000 <= seed < 2**53 for seed in seeds), seeds
    assert len(set(seeds)) == 3


def test_play_draws_the_game_saves_the_log_and_exports_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "games" / "werewolf.sqlite3"
    code, out, err = run(capsys, "play", "--seed", "4", "--store", str(store))
    assert code == 0, err
    [game] = _games(store)
    replay_file = tmp_path / "games" / f"{game}.jsonl"
    assert f"Replay file: {replay_file}" in out
    assert f"Log: {store} (game {game}, seed 4)" in out
    log = load_replay_file(replay_file)
    assert log.finished
    assert any(k in out for k in ("The good side wins:", "The wolves win:", "A draw"))
    assert "─ Night 1 ─" not in out  # the spectator does not see the night's actions
    assert "The wolves (" not in out
    assert "Day 1" in out
    assert "Cast, revealed" in out
    assert "thinks (" not in out
    # the replay file carries the attachments, so its god view shows the reasoning
    code, out, _ = run(capsys, "replay", str(replay_file))
    assert code == 0
    assert "thinks (" in out


def test_play_with_the_same_seed_plays_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    for _ in range(2):
        assert run(capsys, "play", "--seed", "11", "--store", str(store), "-q")[0] == 0
    first, second = _games(store)
    assert _phases(store, first) == _phases(store, second)


def test_play_quiet_prints_only_the_result_and_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "play", "--fast", "--seed", "2", "--store", str(tmp_path / "s"))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3, out
    assert lines[0].endswith(".")
    assert lines[0].startswith(("The good side wins: ", "The wolves win: ", "A draw: "))
    assert lines[1].startswith("Log: ")
    assert lines[2].startswith("Replay file: ")
    assert err == ""


def test_play_god_and_seat_views(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "s.sqlite3")
    code, god, _ = run(capsys, "play", "--seed", "3", "--store", store, "--view", "god")
    assert code == 0
    assert "─ Night 1 ─" in god
    assert "thinks (" in god
    assert "The wolves (" in god
    code, seat, _ = run(capsys, "play", "--seed", "3", "--store", store, "--view", "seat:2")
    assert code == 0
    assert "seat 2's view" in seat
    assert "thinks (" not in seat


def test_play_rule_variants_reach_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    config = tmp_path / "rules.toml"
    config.write_text('win_rule = "town"\nday_cap = 7\n', encoding="utf-8")
    argv = ["play", "-q", "--seed", "1", "--store", str(store), "--config", str(config)]
    argv += ["--tie-policy", "none", "--no-self-knife", "--witch-both-potions", "--day-cap", "9"]
    argv += ["--wolf-split", "plurality"]
    assert run(capsys, *argv)[0] == 0
    [game] = _games(store)
    with SQLiteEventStore(store) as s:
        config_used = s.chain(game)[0].meta["game"]["config"]
    assert config_used["win_rule"] == "town"  # from the file
    assert config_used["day_cap"] == 9  # the flag wins over the file
    assert config_used["tie_policy"] == "none"
    assert config_used["wolf_self_knife"] is False
    assert config_used["witch_both_potions"] is True
    assert config_used["wolf_split"] == "plurality"


# -- bad input: one line, exit 2 -------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--view", "seat:12"], "no seat 12: seats are 1 to 9"),
        (["play", "--view", "wolves"], "use public, god or seat:N"),
        (["play", "--win-rule", "nope"], "invalid choice: 'nope'"),
        (["play", "--day-cap", "0"], "argument --day-cap: 0 is out of range: use 1 to 200"),
        (["play", "--seed", "x"], "'x' is not a whole number"),
        (["play", "--config", "{tmp}/missing.toml"], "missing.toml: no such file"),
        (["play", "--config", "{tmp}/bad.toml"], "win_rule"),
        (["play", "--config", "{tmp}/broken.toml"], "not valid TOML"),
        (["replay", "{tmp}/missing.jsonl"], "missing.jsonl: no such file"),
        (["replay", "{tmp}/truncated.jsonl"], "truncated.jsonl:"),
        (["replay", str(SAMPLE), "--day", "99"], "no day 99"),
        (["replay", str(SAMPLE), "--seat", "10"], "no seat 10"),
        (["replay", str(SAMPLE), "--seat", "1", "--public"], "not allowed with argument"),
        (["replay", str(SAMPLE), "--price", "cheap"], "--price"),
        (["replay", "01JGGVSAG0BVSA1CKC3K7VPFH2", "--store", "{tmp}/none.sqlite3"], "no such"),
        (["replay", "01JGGVSAG0BVSA1CKC3K7VPFH2", "--follow", "--day", "1"], "--follow"),
        (["resume", "01JGGVSAG0BVSA1CKC3K7VPFH2", "--store", "{tmp}/none.sqlite3"], "no such"),
        (["resume", "01JGGVSAG0BVSA1CKC3K7VPFH2", "--store", "{tmp}/empty.sqlite3"], "no game"),
        (["fly"], "invalid choice: 'fly'"),
        (["arena"], "required: COMMAND"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (tmp_path / "bad.toml").write_text('win_rule = "chess"\n', encoding="utf-8")
    (tmp_path / "broken.toml").write_text("win_rule = \n", encoding="utf-8")
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    (tmp_path / "truncated.jsonl").write_text("\n".join(lines[:9]) + "\n", encoding="utf-8")
    SQLiteEventStore(tmp_path / "empty.sqlite3").close()
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[:1] == ["play"]:
        argv += ["--store", str(tmp_path / "play.sqlite3")]
    code, _out, err = run(capsys, *argv)
    assert code == 2
    line = _one_line_error(err)
    assert line.startswith("werewolf"), line
    assert message in line
    if argv[:1] == ["play"]:
        assert not (tmp_path / "play.sqlite3").exists() or not _games(tmp_path / "play.sqlite3")


def test_a_damaged_replay_names_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[6])
    record["content"] += " (edited)"
    lines[6] = json.dumps(record, ensure_ascii=False)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert f"{path}:7: content does not match its hash" in _one_line_error(err)


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "play" in out
    assert "resume" in out
    assert "replay" in out
    code, out, _ = run(capsys, "replay", "--help")
    assert code == 0
    assert "--seat N" in out
    assert "--html FILE" in out
    assert run(capsys, "--version")[0] == 0


# -- replay ----------------------------------------------------------------------------------
def test_replay_views_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, god, _ = run(capsys, "replay", str(SAMPLE))
    assert code == 0
    assert "Cast" in god
    assert "Summary" in god
    assert "PK re-vote" in god
    code, public, _ = run(capsys, "replay", str(SAMPLE), "--public")
    assert code == 0
    assert "public view" in public
    assert "The wolves (" not in public
    code, seat, _ = run(capsys, "replay", str(SAMPLE), "--seat", "6", "--day", "2")
    assert code == 0
    assert "seat 6's view" in seat
    assert "─ Night 1 ─" not in seat
    assert "jumped to night 2" in seat
    code, plain, _ = run(capsys, "replay", str(SAMPLE), "--no-stats", "--width", "100")
    assert code == 0
    assert "Summary" not in plain


def test_replay_a_game_by_id_from_the_store_and_follow_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    assert run(capsys, "play", "-q", "--seed", "6", "--store", str(store))[0] == 0
    [game] = _games(store)
    code, by_id, _ = run(capsys, "replay", game, "--store", str(store))
    assert code == 0
    assert f"game {game}" in by_id
    assert "Summary" in by_id
    code, followed, _ = run(capsys, "replay", game, "--store", str(store), "--follow", "--public")
    assert code == 0  # a finished game: drawn whole, then follow stops
    assert "Result, day" in followed
    assert "Cast, revealed" in followed


def test_replay_exports_html_and_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "game.html"
    code, _, err = run(capsys, "replay", str(SAMPLE), "--html", str(page))
    assert code == 0
    assert f"wrote {page}" in err
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    code, out, _ = run(capsys, "replay", str(SAMPLE), "--markdown")
    assert code == 0
    assert out.startswith("### Werewolf game")
    assert "```text" in out
    md = tmp_path / "game.md"
    assert run(capsys, "replay", str(SAMPLE), "--public", "--markdown", str(md))[0] == 0
    assert "(public view)" in md.read_text(encoding="utf-8")


def test_replay_prices_put_a_cost_on_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unruly = ROOT / "replays" / "unruly-seat.jsonl"
    code, out, _ = run(capsys, "replay", str(unruly), "--price", "1,2", "--width", "120")
    assert code == 0
    assert "costing about $" in out


# -- resume ----------------------------------------------------------------------------------
def _mock_rule(store: SQLiteEventStore) -> WorkflowRule[GameState | None]:
    def seating(game: str, state: GameState) -> dict[int, Any]:
        return {s: make_player("mock", game_seed=state.seed, seat=s) for s in state.seats}

    return WorkflowRule(werewolf_workflow(seating), store)


def _start(store: SQLiteEventStore, rule: WorkflowRule[GameState | None], seed: int) -> str:
    return start_game(rule, seed=seed, players=[{"kind": "mock"}] * 9)


def test_resume_finishes_a_game_interrupted_mid_day_as_if_never_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        rule = _mock_rule(store)
        game = _start(store, rule, seed=7)
        while not any(e.role == "day-speech" for e in store.chain(game)):
            asyncio.run(rule.tick())  # stops after the first speech of day 1
        speeches = sum(1 for e in store.chain(game) if e.role == "day-speech")
    assert speeches == 1
    code, out, err = run(capsys, "resume", game, "--store", str(path))
    assert code == 0, err
    assert "Dawn." in out
    assert "Result, day" in out
    reference = tmp_path / "ref.sqlite3"
    assert run(capsys, "play", "-q", "--seed", "7", "--store", str(reference))[0] == 0
    [ref_game] = _games(reference)
    resumed = _phases(path, game)
    played = _phases(reference, ref_game)
    assert [k for k, _ in resumed] == [k for k, _ in played]
    assert [m for _, m in resumed][1:] == [m for _, m in played][1:]
    assert (tmp_path / f"{game}.jsonl").is_file()


class _Failing:
    """A seat that fails at its first day speech, as an unreachable endpoint would."""

    kind = "failing"

    def __init__(self, seed: int, seat: int) -> None:
        self.inner = make_player("mock", game_seed=seed, seat=seat)

    async def decide(self, request: Request) -> Answer:
        if request.kind.value == "speech":
            raise ConnectionError("the endpoint is down")
        return await self.inner.decide(request)


def test_resume_retries_a_game_that_stopped_on_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        rule = WorkflowRule(
            werewolf_workflow(lambda g, st: {s: _Failing(st.seed, s) for s in st.seats}), store
        )
        game = _start(store, rule, seed=9)
        assert asyncio.run(rule.run())[game] == "failed"
    code, out, err = run(capsys, "resume", game, "--store", str(path), "--view", "god")
    assert code == 0, err
    assert "The game stopped: phase day-speech failed" in out
    assert "The game was resumed." in out
    with SQLiteEventStore(path) as store:
        log = load_game(store, game)
    assert log.finished
    assert [e.role for e in log.chain].count("__resume__") == 1


def test_resume_of_a_finished_game_only_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.sqlite3"
    assert run(capsys, "play", "-q", "--seed", "5", "--store", str(path))[0] == 0
    [game] = _games(path)
    before = len(_phases(path, game))
    code, out, _ = run(capsys, "resume", game, "--store", str(path), "-q")
    assert code == 0
    assert len(_phases(path, game)) == before
    assert "has ended: there is nothing to resume" in out.splitlines()[0]
    assert "win" in out.splitlines()[1] or "draw" in out.splitlines()[1]


def test_ctrl_c_exits_130_and_says_how_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = 0
    real_tick = WorkflowRule.tick

    async def tick_then_interrupt(self: WorkflowRule[Any]) -> int:
        nonlocal ticks
        ticks += 1
        if ticks == 12:
            raise KeyboardInterrupt
        return await real_tick(self)

    monkeypatch.setattr(WorkflowRule, "tick", tick_then_interrupt)
    path = tmp_path / "s.sqlite3"
    code, _, err = run(capsys, "play", "-q", "--seed", "8", "--store", str(path))
    assert code == 130
    [game] = _games(path)
    assert f"werewolf resume {game} --store {path}" in _one_line_error(err)
    monkeypatch.setattr(WorkflowRule, "tick", real_tick)
    assert run(capsys, "resume", game, "--store", str(path), "-q")[0] == 0
    with SQLiteEventStore(path) as store:
        assert load_game(store, game).finished


def test_resume_refuses_seats_it_cannot_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = tmp_path / "s.sqlite3"
    with SQLiteEventStore(path) as store:
        rule = _mock_rule(store)
        players = [{"kind": "mock"}] * 8 + [{"kind": "llm", "model": "some-model"}]
        game = start_game(rule, seed=1, players=players)
    code, _, err = run(capsys, "resume", game, "--store", str(path))
    assert code == 2
    assert (
        "seat 9 needs an API key: the environment variable OPENAI_API_KEY is not set"
        in _one_line_error(err)
    )


# -- the installed command -------------------------------------------------------------------
def test_the_console_script_plays_a_game(tmp_path: Path) -> None:
    script = shutil.which("werewolf", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the werewolf console script is not installed in this environment")
    done = subprocess.run(
        [script, "play", "--seed", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "games" / "werewolf.sqlite3").is_file()
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 1
    assert "Replay file: games/" in done.stdout
