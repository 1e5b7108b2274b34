"""Replays: the format and its schema, loading and bad input, every view, exports, stats.

The sample replays (``replays/``) and golden renderings (``tests/werewolf/golden/``) are
written only by ``scripts/make_replays.py``; these tests regenerate and compare.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import TypeAdapter

from pulse_core import MemoryEventStore, SQLiteEventStore, TopicFileError, WorkflowRule
from tests.werewolf.forge import rechain
from werewolf.boards import BOARDS
from werewolf.cast import Identity
from werewolf.config import GameConfig, TiePolicy, WinRule
from werewolf.errors import GameFileError, UnknownSeatError
from werewolf.game import start_game, werewolf_workflow
from werewolf.lineup import Price
from werewolf.players import RandomPlayer, mock_seating
from werewolf.registry import event_specs
from werewolf.replay import (
    GameLog,
    LiveReplay,
    ReplayOptionError,
    ViewKind,
    ViewSpec,
    ViewStream,
    check_game,
    follow,
    game_stats,
    load_game,
    load_replay_file,
    plain_console,
    replay_html,
    replay_markdown,
    replay_schema,
    replay_text,
)
from werewolf.replay.format import EventLine, HeaderLine
from werewolf.replay.stats import Prices
from werewolf.visibility import view

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"
GOLDEN = Path(__file__).resolve().parent / "golden"
SAMPLES = ("good-win", "wolf-win", "pk-and-hunter", "unruly-seat")
BOARD_SAMPLES = tuple(name for name in BOARDS if name != "standard-9")  # a sample each


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def make_replays() -> ModuleType:
    return _script("make_replays")


@pytest.fixture(scope="module")
def logs() -> dict[str, GameLog]:
    return {
        name: load_replay_file(REPLAYS / f"{name}.jsonl") for name in (*SAMPLES, *BOARD_SAMPLES)
    }


def _without_code_rev(text: str) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        record.pop("code_rev", None)  # the package version: a release must not fail the test
    return records


# -- samples and goldens ---------------------------------------------------------------------
def test_sample_replays_and_goldens_regenerate_identically(make_replays: ModuleType) -> None:
    files: dict[Path, str] = make_replays.build_samples()
    names = {f"{n}.jsonl" for n in (*SAMPLES, *BOARD_SAMPLES)}
    assert {p.name for p in files if p.suffix == ".jsonl"} == names
    stale = []
    for path, text in files.items():
        on_disk = path.read_text(encoding="utf-8")
        same = (
            _without_code_rev(on_disk) == _without_code_rev(text)
            if path.suffix == ".jsonl"
            else on_disk == text
        )
        if not same:
            stale.append(path.relative_to(ROOT))
    assert not stale, f"run scripts/make_replays.py and review the diff: {stale}"


@pytest.mark.parametrize("name", [*SAMPLES, *BOARD_SAMPLES])
def test_golden_god_public_and_seat_views(name: str, logs: dict[str, GameLog]) -> None:
    golden = sorted(GOLDEN.glob(f"{name}.*.txt"))
    assert len(golden) == 3  # the god view, the public view and one seat's view
    for path in golden:
        which = path.name.split(".")[1]
        if which in ("god", "public"):
            spec = ViewSpec(ViewKind(which))
        else:
            spec = ViewSpec.of_seat(int(which.removeprefix("seat")))
        assert replay_text(logs[name], spec, width=80) == path.read_text(encoding="utf-8"), path


def test_samples_show_what_they_are_for(logs: dict[str, GameLog]) -> None:
    assert logs["good-win"].state.winner == "good"
    assert logs["wolf-win"].state.winner == "wolves"
    pk = logs["pk-and-hunter"]
    assert any(e.role == "vote" and e.meta["diff"]["pk"] for e in pk.chain)
    assert any(e.role == "hunter-shot" and e.meta["diff"]["target"] for e in pk.chain)
    god = replay_text(pk, width=80)
    assert "PK re-vote" in god
    assert "shows the hunter card and shoots" in god


def test_board_samples_show_their_identity_at_work(logs: dict[str, GameLog]) -> None:
    guard = replay_text(logs["guard-12"], width=80)
    assert "The guard (" in guard
    idiot = logs["idiot-12"]
    assert any(e.role == "vote" and e.meta["diff"].get("revealed") for e in idiot.chain)
    assert "reveals the idiot card" in replay_text(idiot, ViewSpec(ViewKind.PUBLIC), width=80)
    cupid = replay_text(logs["cupid-10"], ViewSpec(ViewKind.PUBLIC), width=80)
    assert "dies of heartbreak" in cupid
    assert "links" not in cupid  # the link is cupid's secret
    doctor = logs["seer-doctor-8"]
    assert doctor.state.config.win_rule == "parity"
    assert "The doctor (" in replay_text(doctor, width=80)
    kaggle = replay_text(logs["kaggle-8"], width=80)
    assert "drawn at random)" in kaggle
    assert re.search(r"The seer \(.*\) checks .*: the \w+ \((good|a WOLF)\)", kaggle)


def test_every_replay_file_loads_and_renders_in_every_view() -> None:
    files = sorted(REPLAYS.rglob("*.jsonl"))  # archived older files too
    assert len(files) >= len(SAMPLES)
    for path in files:
        log = load_replay_file(path)
        seats = len(log.state.identities)
        specs = [ViewSpec(), ViewSpec(ViewKind.PUBLIC)]
        specs += [ViewSpec.of_seat(s) for s in range(1, seats + 1)]
        for spec in specs:
            text = replay_text(log, spec, width=80)
            assert "Result, day" in text, (path, spec)
            assert max(len(line) for line in text.splitlines()) <= 80


# -- what each view shows --------------------------------------------------------------------
def _entries(log: GameLog, spec: ViewSpec) -> list[Any]:
    stream = ViewStream(spec, log.attachment)
    return [entry for event in log.chain for entry in stream.feed(event)]


@pytest.mark.parametrize("name", [*SAMPLES, *BOARD_SAMPLES])
def test_seat_view_is_exactly_what_visibility_gives_the_seat(
    name: str, logs: dict[str, GameLog]
) -> None:
    log = logs[name]
    for seat in range(1, len(log.state.identities) + 1):
        seen = view(list(log.chain), seat)
        entries = _entries(log, ViewSpec.of_seat(seat))
        assert [(e.version, e.phase, e.diff, e.detail) for e in entries] == [
            (o.index, o.phase, o.diff, o.detail) for o in seen.observations
        ]
        assert all(not e.reasoning and not e.fallbacks for e in entries)


def test_private_things_stay_out_of_other_views(logs: dict[str, GameLog]) -> None:
    log = logs["unruly-seat"]
    state = log.state
    villager = state.seats_of(Identity.VILLAGER)[0]
    god = replay_text(log, width=80)
    public = replay_text(log, ViewSpec(ViewKind.PUBLIC), width=80)
    seat = replay_text(log, ViewSpec.of_seat(villager), width=80)
    wolf_talk = "The wolves ("
    assert wolf_talk in god
    assert wolf_talk not in public
    assert wolf_talk not in seat
    assert "thinks (" in god
    assert "thinks (" not in public
    assert "thinks (" not in seat
    assert "fell back" in god
    assert "fell back" not in public
    assert "The seer (" in god
    assert "The seer (" not in public
    # the spectator never sees a role before the end
    players = public.split("─ Day 1 ─")[0]
    assert "werewolf" not in players
    # the public counts its own events: the log's numbers would show the hidden ones
    public_versions = [e.version for e in _entries(log, ViewSpec(ViewKind.PUBLIC))]
    public_events = [e for e in log.chain if e.meta.get("visible_to") is None and e.version > 1]
    assert public_versions == list(range(1, len(public_events) + 1))


def test_a_seat_the_game_lacks_is_refused(logs: dict[str, GameLog]) -> None:
    with pytest.raises(UnknownSeatError, match="no seat 10"):
        replay_text(logs["good-win"], ViewSpec.of_seat(10))


def test_day_jump_starts_at_that_night(logs: dict[str, GameLog]) -> None:
    log = logs["good-win"]
    text = replay_text(log, width=80, from_day=2)
    assert "─ Night 1 ─" not in text
    assert "Day 1 vote" not in text
    assert text.index("─ Night 2 ─") < text.index("─ Day 2 ─") < text.index("Result, day")
    assert "Cast" in text.split("─ Night 2 ─")[0]
    with pytest.raises(ReplayOptionError, match="no day 9: this game has days 1 to"):
        replay_text(log, from_day=9)


# -- exports ---------------------------------------------------------------------------------
def test_html_export_is_one_self_contained_page(logs: dict[str, GameLog]) -> None:
    log = logs["unruly-seat"]
    page = replay_html(log)
    assert page.startswith("<!DOCTYPE html>")
    assert page.rstrip().endswith("</html>")
    # no network: nothing is loaded from elsewhere, the style and script are inline
    assert not re.search(r"(src|href)=", page)
    assert "<style>" in page
    assert "addEventListener" in page
    assert f"Werewolf game {log.game_id} (god view)" in page
    with pytest.raises(ReplayOptionError, match="no day 9"):
        replay_html(log, from_day=9)


def test_markdown_export_fences_the_story_so_no_speech_closes_it(
    logs: dict[str, GameLog],
) -> None:
    log = logs["unruly-seat"]
    text = replay_markdown(log, ViewSpec.of_seat(3), width=90)
    lines = text.splitlines()
    assert lines[0] == f"### Werewolf game {log.game_id} (seat 3's view)"
    assert lines[2] == "````text"
    assert lines[-1] == "````"
    assert "\n".join(lines[3:-1]) + "\n" == replay_text(log, ViewSpec.of_seat(3), width=90)


def test_rich_markup_in_speeches_is_shown_as_text(logs: dict[str, GameLog]) -> None:
    text = replay_text(logs["unruly-seat"], width=80)
    assert "[bold red]not markup[/bold red]" in text
    assert ":smile:" in text


# -- statistics ------------------------------------------------------------------------------
def test_stats_count_votes_suspicion_fallbacks_and_tokens(logs: dict[str, GameLog]) -> None:
    log = logs["unruly-seat"]
    state = log.state
    stats = game_stats(list(log.chain))
    ballots = [
        (voter, target)
        for e in log.chain
        if e.role == "vote"
        for voter, target in e.meta["detail"]["ballots"]
        if target is not None
    ]
    for s in stats.seats:
        mine = [t for v, t in ballots if v == s.seat]
        assert s.votes_cast == len(mine)
        assert s.votes_on_wolves == sum(1 for t in mine if state.identity(t) is Identity.WEREWOLF)
        assert s.votes_received == sum(1 for _, t in ballots if t == s.seat)
    assert [s.fallbacks for s in stats.seats if s.fallbacks] == [1]
    assert stats.calls > 0
    assert stats.prompt_tokens == 900 * stats.calls
    cost = stats.cost(Prices({}, Price(prompt=1.0, completion=2.0)))
    assert cost == pytest.approx((stats.prompt_tokens + 2 * stats.completion_tokens) / 1e6)
    assert stats.cost(Prices({})) is None  # a seat used tokens, and no price is known


def test_god_view_ends_with_the_summary(logs: dict[str, GameLog]) -> None:
    text = replay_text(logs["unruly-seat"], width=80)
    summary = text.split("Summary", 1)[1]
    assert "LLM usage:" in summary
    assert "Tokens" in summary
    assert "No LLM seats played" in replay_text(logs["good-win"], width=80)
    assert "Summary" not in replay_text(logs["good-win"], width=80, stats=False)


# -- the format: schema, models, real logs -----------------------------------------------------
def test_checked_in_schema_matches_the_models() -> None:
    gen = _script("gen_schema")
    on_disk = json.loads((ROOT / "docs" / "replay-schema.json").read_text(encoding="utf-8"))
    assert on_disk == replay_schema(), "run scripts/gen_schema.py"
    assert gen.schema_text() == (ROOT / "docs" / "replay-schema.json").read_text(encoding="utf-8")


def test_sample_lines_fit_the_line_models() -> None:
    header = TypeAdapter(HeaderLine)
    event: TypeAdapter[Any] = TypeAdapter(EventLine)
    for path in sorted(REPLAYS.rglob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header.validate_json(lines[0])
        for line in lines[1:]:
            event.validate_json(line)


def test_the_schema_names_every_event_kind() -> None:
    schema = replay_schema()
    kinds = {
        d["properties"]["kind"]["const"]
        for d in schema["$defs"].values()
        if "kind" in d.get("properties", {})
    }
    # every registered event kind, and the start and the adapter's control events
    registered = {f"werewolf.{spec.kind}" for spec in event_specs()}
    assert kinds == registered | {"werewolf.__start__", "werewolf.__error__", "werewolf.__resume__"}


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(),
        GameConfig(tie_policy=TiePolicy.NONE, win_rule=WinRule.PARITY),
        GameConfig(win_rule=WinRule.TOWN, allow_empty_kill=False, witch_both_potions=True),
        GameConfig(day_cap=1),
    ],
)
def test_real_game_logs_conform_to_the_models(config: GameConfig) -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(
        werewolf_workflow(lambda game, state: {s: RandomPlayer(state.seed) for s in state.seats}),
        store,
    )
    games = [start_game(rule, seed=seed, config=config) for seed in range(15)]
    asyncio.run(rule.run())
    for game in games:
        log = load_game(store, game)  # check_game: kinds, models, fold
        assert log.finished
        replay_text(log, width=80)


# -- bad input -------------------------------------------------------------------------------
def _damaged(tmp_path: Path, change: Any) -> Path:
    lines = (REPLAYS / "good-win.jsonl").read_text(encoding="utf-8").splitlines()
    lines = change(lines)
    path = tmp_path / "damaged.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _edit(lines: list[str], number: int, edit: Any) -> list[str]:
    """``lines`` with one record edited, and the hash chain recomputed after it, as a forger
    who knows the format would: the checks behind the chain must refuse the edit too."""
    record = json.loads(lines[number - 1])
    edit(record)
    edited = [*lines[: number - 1], json.dumps(record, ensure_ascii=False), *lines[number:]]
    return _rechained(edited)


def _rechained(lines: list[str]) -> list[str]:
    records = rechain([json.loads(line) for line in lines])
    return [json.dumps(record, ensure_ascii=False) for record in records]


def _vote_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines, 1) if '"werewolf.vote"' in line)


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (lambda lines: lines[:-3], 0, "truncated"),
        (lambda lines: [*lines[:4], lines[4][:40], *lines[5:]], 5, "not JSON"),
        (
            lambda lines: _edit(lines, 1, lambda r: r.update(version=7)),
            1,
            "unsupported pulse-topic version 7",
        ),
        (
            lambda lines: _edit(lines, 3, lambda r: r.update(content=r["content"] + "!")),
            3,
            "does not match its hash",
        ),
        (
            lambda lines: _edit(lines, 2, lambda r: r.update(kind="chess.__start__")),
            2,
            "not a werewolf game",
        ),
        (
            lambda lines: _edit(
                lines, _vote_line(lines), lambda r: r["meta"]["detail"].update(round=3)
            ),
            -1,
            "werewolf.vote meta.detail.round",
        ),
        (
            lambda lines: _edit(
                lines, _vote_line(lines), lambda r: r["meta"]["diff"].update(exiled=42)
            ),
            -1,
            "werewolf.vote meta.diff.exiled",
        ),
    ],
)
def test_bad_files_name_the_file_and_line(
    tmp_path: Path, change: Any, line: int, message: str
) -> None:
    path = _damaged(tmp_path, change)
    if line == -1:
        line = _vote_line(path.read_text(encoding="utf-8").splitlines())
    with pytest.raises((TopicFileError, GameFileError)) as caught:
        load_replay_file(path)
    text = str(caught.value)
    assert message in text
    if line:
        assert text.startswith(f"{path}:{line}:"), text
    else:
        assert text.startswith(f"{path}:"), text


def test_a_log_that_does_not_fold_is_refused() -> None:
    log = load_replay_file(REPLAYS / "good-win.jsonl")
    chain = list(log.chain)
    with pytest.raises(GameFileError, match="a second start event"):
        check_game([*chain, chain[0]], lambda e: f"x:{e.version}")
    with pytest.raises(GameFileError, match="x:2: not a werewolf game"):
        check_game(chain[1:], lambda e: f"x:{e.version}")


# -- live and follow -------------------------------------------------------------------------
def test_live_drawing_tells_the_same_story_as_the_replay(logs: dict[str, GameLog]) -> None:
    log = logs["pk-and-hunter"]
    console = plain_console(80)
    live = LiveReplay(console, ViewSpec(ViewKind.PUBLIC), game_id=log.game_id)
    for event in log.chain:
        live.feed([event])
    assert live.ended
    drawn = console.file.getvalue()  # type: ignore[attr-defined]
    replayed = replay_text(log, ViewSpec(ViewKind.PUBLIC), width=80)

    def story(text: str) -> str:
        return text.split("─ Day 1 ─", 1)[1].split("Cast, revealed")[0]

    assert [line.rstrip() for line in story(drawn).splitlines()] == story(replayed).splitlines()


def test_follow_draws_a_game_as_another_connection_plays_it(tmp_path: Path) -> None:
    path = tmp_path / "games" / "werewolf.sqlite3"
    store = SQLiteEventStore(path, durable=False)
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    game = start_game(rule, seed=4)
    started = threading.Event()

    def play() -> None:
        started.set()
        asyncio.run(rule.run())

    player = threading.Thread(target=play)
    watcher = SQLiteEventStore(path, durable=False)
    console = plain_console(80)
    live = LiveReplay(console, ViewSpec(), store=watcher, game_id=game)
    player.start()
    started.wait()
    follow(watcher, game, live, poll_interval=0.01)
    player.join()
    drawn = console.file.getvalue()  # type: ignore[attr-defined]
    log = load_game(watcher, game)
    assert live.ended
    assert live.version == len(log.chain)
    assert "Result, day" in drawn
    assert "thinks (" in drawn
    for event in log.chain:
        if event.role == "day-speech":
            assert event.meta["detail"]["text"][:30] in drawn.replace("\n    ", " ")
    watcher.close()
    store.close()


def test_follow_refuses_an_unknown_game(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "s.sqlite3")
    live = LiveReplay(plain_console(), ViewSpec())
    with pytest.raises(GameFileError, match="no game 01"):
        follow(store, "01JGGVSAG0BVSA1CKC3K7VPFH2", live)
    store.close()
