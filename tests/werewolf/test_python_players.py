"""Python players: ``py:MODULE:FACTORY`` seats in play, resume, lineups and arena runs,
installed players, the protocol errors raised at once, and ``check-player``.

The players are ``tests/players_fixture.py``: ``make`` keeps the protocol (its speeches say
"hello from seat N"), the others break it each in one way. The command runs as a real
subprocess from the repository's root, where ``tests.players_fixture`` is found as a user's
module beside the command would be.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from pulse_core import MemoryEventStore, SQLiteEventStore, WorkflowRule, read_content
from werewolf import PlayerProtocolError, check_player, start_game, werewolf_workflow
from werewolf.app import play_game
from werewolf.errors import ConfigError
from werewolf.lineup import SeatSpec, parse_seat_arg
from werewolf.players import Player, mock_seating
from werewolf.state import GameState

ROOT = Path(__file__).resolve().parents[2]
GOOD = "py:tests.players_fixture:make"


def werewolf(*argv: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script = shutil.which("werewolf", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the werewolf console script is not installed in this environment")
    return subprocess.run(
        [script, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=None if env is None else dict(env),
    )


def _game(store: Path) -> str:
    with SQLiteEventStore(store) as opened:
        (game_id,) = opened.topics()
        return game_id


def _speeches(store: Path, game_id: str) -> list[str]:
    with SQLiteEventStore(store) as opened:
        return [
            read_content(opened, e)
            for e in opened.chain(game_id)
            if e.kind == "werewolf.day-speech"
        ]


# -- seats ------------------------------------------------------------------------------------
def test_a_py_seat_arg_names_its_factory_and_the_log_records_it() -> None:
    seat, spec = parse_seat_arg("3=py:mypkg.bots:make")
    assert (seat, spec.kind, spec.factory) == (3, "py", "mypkg.bots:make")
    assert spec.public() == {"kind": "py", "factory": "mypkg.bots:make"}
    assert spec.label() == "py:mypkg.bots:make"
    with pytest.raises(ConfigError, match="py:MODULE:FACTORY"):
        parse_seat_arg("3=py:no-colon")
    with pytest.raises(ValueError, match="names its factory"):
        SeatSpec(kind="py")


def test_play_seats_a_python_player_to_the_end(tmp_path: Path) -> None:
    store = tmp_path / "games.db"
    done = werewolf("play", "--seat", f"3={GOOD}", "--store", str(store), "--quiet", "--seed", "1")
    assert done.returncode == 0, done.stderr
    game_id = _game(store)
    assert any("hello from seat 3" in text for text in _speeches(store, game_id))
    with SQLiteEventStore(store) as opened:
        players = opened.chain(game_id)[0].meta["game"]["players"]
    assert players[2] == {"kind": "py", "factory": "tests.players_fixture:make"}


def test_resume_rebuilds_a_python_seat_from_its_spec(tmp_path: Path) -> None:
    store = tmp_path / "games.db"
    broken = "py:tests.players_fixture:make_int"
    done = werewolf(
        "play", "--seat", f"3={GOOD}", "--seat", f"1={broken}",
        "--store", str(store), "--quiet", "--seed", "5",
    )  # fmt: skip
    assert done.returncode == 2
    game_id = _game(store)
    before = len(_speeches(store, game_id))
    done = werewolf("resume", game_id, "--store", str(store), "--seat", "1=mock", "--quiet")
    assert done.returncode == 0, done.stderr
    after = _speeches(store, game_id)[before:]
    assert any("hello from seat 3" in text for text in after)  # seat 3 is still the py player


def test_a_lineup_seats_a_python_player_with_its_options(tmp_path: Path) -> None:
    lineup = tmp_path / "lineup.toml"
    lineup.write_text(
        '[seats.4]\nkind = "py"\nfactory = "tests.players_fixture:make"\n'
        'options = { word = "howdy" }\n'
    )
    store = tmp_path / "games.db"
    done = werewolf("play", "--lineup", str(lineup), "--store", str(store), "-q", "--seed", "3")
    assert done.returncode == 0, done.stderr
    game_id = _game(store)
    assert any("howdy from seat 4" in text for text in _speeches(store, game_id))
    with SQLiteEventStore(store) as opened:
        players = opened.chain(game_id)[0].meta["game"]["players"]
    assert players[3]["options"] == {"word": "howdy"}


def test_an_arena_run_plays_a_python_player_and_its_report_names_it(tmp_path: Path) -> None:
    store = str(tmp_path / "arena.db")
    done = werewolf(
        "arena", "run", "--players", f"{GOOD},mock", "--games", "2", "--workers", "1",
        "--store", store, "-q", "--name", "py",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = werewolf("arena", "report", "py", "--store", store, "--width", "120")
    assert report.returncode == 0, report.stderr
    assert "head-to-head of steady, mock" in report.stdout  # its kind attribute names it


def test_an_installed_player_is_listed_and_seated(tmp_path: Path) -> None:
    dist = tmp_path / "site" / "steady_bots-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: steady-bots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[werewolf.players]\nsteady = tests.players_fixture:make\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    listed = werewolf("players", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "steady     installed: tests.players_fixture:make" in listed.stdout
    assert "py " in listed.stdout
    store = tmp_path / "games.db"
    done = werewolf(
        "play", "--seed", "1", "--seat", "2=steady", "--store", str(store), "-q", env=env
    )
    assert done.returncode == 0, done.stderr
    assert any("hello from seat 2" in t for t in _speeches(store, _game(store)))


# -- errors at once -----------------------------------------------------------------------------
def test_an_answer_of_the_wrong_type_raises_from_python_naming_seat_and_decision() -> None:
    with pytest.raises(PlayerProtocolError) as raised:
        play_game(seats={3: "py:tests.players_fixture:make_int"}, seed=1)
    message = str(raised.value)
    assert message.startswith("seat 3's ")
    assert "decide returned int 3, expected Choice or NoAnswer" in message
    assert isinstance(raised.value, TypeError)


def test_a_sync_decide_is_refused_before_the_game() -> None:
    with pytest.raises(PlayerProtocolError, match=r"seat 2 .*decide is not a coroutine function"):
        play_game(seats={2: "py:tests.players_fixture:make_sync"}, seed=1)


def _seating_changed(drop: int | None, add: int | None) -> object:
    seating = mock_seating()

    def seated(game_id: str, state: GameState) -> Mapping[int, Player]:
        players = dict(seating(game_id, state))
        if drop is not None:
            players.pop(drop)
        if add is not None:
            players[add] = players[1]
        return players

    return seated


@pytest.mark.parametrize(
    ("drop", "add", "said"),
    [
        (9, None, "the seating gave no player for seat 9"),
        (None, 10, "the seating gave a player for 10, which the game does not have"),
    ],
)
def test_a_seating_missing_or_adding_a_seat_raises_from_rule_run_and_the_log_keeps_it(
    drop: int | None, add: int | None, said: str
) -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(_seating_changed(drop, add)), store)  # type: ignore[arg-type]
    game_id = start_game(rule, seed=1)
    with pytest.raises(PlayerProtocolError, match=said):
        asyncio.run(rule.run())
    assert store.chain(game_id)[-1].kind == "werewolf.__error__"  # resumable as before


def test_the_command_says_a_protocol_error_in_one_line(tmp_path: Path) -> None:
    done = werewolf(
        "play", "--seat", "3=py:tests.players_fixture:make_int", "--store",
        str(tmp_path / "g.db"), "-q", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "seat 3's" in done.stderr
    assert "expected Choice or NoAnswer" in done.stderr


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("py:tests.no_such_module:make", "cannot import tests.no_such_module"),
        ("py:tests.players_fixture:nothing", "tests.players_fixture has no nothing"),
        ("py:tests.players_fixture:not_callable", "not_callable is a int, not a callable"),
        ("py:tests.players_fixture:make_sync", "decide is not a coroutine function"),
    ],
)
def test_a_factory_that_cannot_seat_is_one_line_and_nothing_on_disk(
    tmp_path: Path, spec: str, said: str
) -> None:
    store = tmp_path / "g.db"
    done = werewolf("play", "--seat", f"3={spec}", "--store", str(store), "-q")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert said in done.stderr
    assert not store.exists()


# -- check-player -----------------------------------------------------------------------------
def test_check_player_passes_a_good_player() -> None:
    done = werewolf("check-player", GOOD, "--board", "kaggle-8", "--games", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(
        "clean (0 protocol, 0 illegal, 0 exception, 0 slow, 0 leak)"
    )


def test_check_player_flags_illegal_answers_one_line_each() -> None:
    done = werewolf(
        "check-player", "py:tests.players_fixture:make_illegal", "--board", "standard-9",
        "--games", "1",
    )  # fmt: skip
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    faults = [line for line in lines if line.startswith("illegal: standard-9 ")]
    assert faults
    assert len(faults) == len(lines) - 1
    assert any("seat 99 is not a legal choice" in line for line in faults)
    assert any("witch" in line and "you cannot poison seat 99" in line for line in faults)


def test_check_player_flags_the_wrong_type_and_a_sync_decide() -> None:
    report = check_player("py:tests.players_fixture:make_int", boards=["standard-9"], games=1)
    assert report.count("protocol") > 0
    assert report.count("illegal") == 0
    assert any("expected WitchChoice or NoAnswer" in line for line in report.lines())
    report = check_player("py:tests.players_fixture:make_sync", boards=["kaggle-8"], games=1)
    assert {f.kind for f in report.faults} == {"protocol"}


def test_check_player_flags_state_carried_between_games() -> None:
    from tests.players_fixture import make, make_leaky

    leaky = check_player(make_leaky, boards=["kaggle-8"], games=1)
    assert [f.kind for f in leaky.faults] == ["leak"]
    assert "played differently after another game" in leaky.faults[0].message
    assert check_player(make, boards=["kaggle-8"], games=1).ok


def test_check_player_flags_an_exception_and_slow_answers() -> None:
    from tests.players_fixture import make_raising, make_slow

    raising = check_player(make_raising, boards=["kaggle-8"], games=1)
    assert raising.count("exception") > 0
    assert any("RuntimeError: no idea" in f.message for f in raising.faults)
    slow = check_player(make_slow, boards=["kaggle-8"], games=1, slow=0.001)
    assert slow.count("slow") > 0
