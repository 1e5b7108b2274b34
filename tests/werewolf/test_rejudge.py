"""Re-judging a log: forged events whose hash chain was recomputed are refused because they
do not follow from the rules and the decisions they record, naming the first such line;
every log the engine writes is accepted (shipped replays, pinned games, random and mock
games on every board, games with illegal answers and every rule variant)."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from pulse_core import SQLiteEventStore
from tests.oracle import check_replay
from tests.strategies import PlayedGame, checks_game, game_settings, games, play
from tests.werewolf.forge import rechain, renumber, set_content
from werewolf.boards import BOARDS, board_config
from werewolf.cli import main
from werewolf.decisions import Answer, Choice, DecisionKind, Request
from werewolf.errors import GameFileError
from werewolf.players import Player, make_player
from werewolf.replay import import_replay, load_game, load_replay_file, parse_replay

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"

Record = dict[str, Any]
Records = list[Record]


@cache
def _sample(name: str) -> tuple[Record, ...]:
    text = (REPLAYS / f"{name}.jsonl").read_text(encoding="utf-8")
    return tuple(json.loads(line) for line in text.splitlines())


def _records(name: str) -> Records:
    return copy.deepcopy(list(_sample(name)))


def _line(records: Records, kind: str, day: int, nth: int = 0) -> int:
    """The file line (1-based) of the ``nth`` event of ``kind`` on ``day``."""
    lines = [
        number
        for number, r in enumerate(records, start=1)
        if r.get("kind") == f"werewolf.{kind}" and r["meta"].get("day") == day
    ]
    return lines[nth]


def _first(records: Records, kind: str, field: str | None = None) -> int:
    """The file line of the first event of ``kind`` (with ``field`` in its diff, if named)."""
    return next(
        number
        for number, r in enumerate(records, start=1)
        if r.get("kind") == f"werewolf.{kind}" and (field is None or field in r["meta"]["diff"])
    )


def _meta(records: Records, line: int) -> dict[str, Any]:
    meta: dict[str, Any] = records[line - 1]["meta"]
    return meta


# -- the forgeries: each edits a shipped replay and returns the line that must be named ------
def _changed_death(r: Records) -> int:
    line = _line(r, "dawn", 2)  # good-win: seat 2, the seer, died
    _meta(r, line)["diff"]["died"] = [5]
    set_content(r[line - 1], "Day 2 dawns. Died last night: seat 5 (Eli).")
    return line


def _saved_victim_dies(r: Records) -> int:
    line = _line(r, "dawn", 1)  # good-win: the witch saved seat 3
    _meta(r, line)["diff"]["died"] = [3]
    return line


def _flipped_winner(r: Records) -> int:
    line = _line(r, "game-end", 2)  # wolf-win: the wolves won
    meta = _meta(r, line)
    meta["diff"]["winner"] = "good"
    meta["detail"]["reason"] = "every villager is dead"
    return line


def _changed_reason(r: Records) -> int:
    line = _line(r, "game-end", 2)
    _meta(r, line)["detail"]["reason"] = "every villager is dead"
    return line


def _changed_survivors(r: Records) -> int:
    line = _line(r, "game-end", 2)
    _meta(r, line)["detail"]["alive"] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    return line


def _dead_seat_speaks(r: Records) -> int:
    line = _line(r, "day-speech", 2)  # wolf-win: the seer, seat 9, died on night 2
    meta = _meta(r, line)
    meta["diff"]["speaker"] = 9
    set_content(r[line - 1], f"Speech of seat 9 (Ivo): {meta['detail']['text']}")
    return line


def _speakers_swapped(r: Records) -> int:
    first = _line(r, "day-speech", 1)
    r[first - 1], r[first] = r[first], r[first - 1]
    renumber(r)
    return first


def _exile_against_ballots(r: Records) -> int:
    line = _line(r, "vote", 1)  # good-win: eight ballots... six for seat 8
    _meta(r, line)["diff"]["exiled"] = 1
    return line


def _counts_against_ballots(r: Records) -> int:
    line = _line(r, "vote", 1)
    _meta(r, line)["detail"]["counts"] = [[1, 6], [8, 3]]
    return line


def _dead_seat_votes(r: Records) -> int:
    line = _line(r, "vote", 2)  # good-win: seat 4 died at dawn 2
    ballots = _meta(r, line)["detail"]["ballots"]
    ballots.insert(3, [4, 9])
    return line


def _living_voter_left_out(r: Records) -> int:
    line = _line(r, "vote", 2)
    ballots = _meta(r, line)["detail"]["ballots"]
    _meta(r, line)["detail"]["ballots"] = [b for b in ballots if b[0] != 1]
    _meta(r, line)["detail"]["counts"] = [[7, 1], [9, 4]]
    return line


def _pk_against_counts(r: Records) -> int:
    line = _line(r, "vote", 2)  # pk-and-hunter: seats 3 and 8 tied
    _meta(r, line)["diff"]["pk"] = [3, 8, 2]
    return line


def _random_draw_changed(r: Records) -> int:
    line = _line(r, "vote", 1)  # kaggle-8: a tie between 2 and 3, drawn at random
    meta = _meta(r, line)
    meta["diff"]["exiled"] = 3
    meta["detail"]["draw"]["drawn"] = 3
    return line


def _second_antidote(r: Records) -> int:
    line = _line(r, "witch-action", 2)  # good-win: the antidote was used on night 1
    _meta(r, line)["diff"]["save"] = True
    return line


def _poison_for_the_dead(r: Records) -> int:
    line = _line(r, "witch-action", 3)  # pk-and-hunter: seat 2 was exiled on day 1
    _meta(r, line)["diff"]["poison"] = 2
    return line


def _shooter_not_the_hunter(r: Records) -> int:
    line = _first(r, "hunter-shot")  # good-win: the hunter is seat 8; seat 5 a villager
    _meta(r, line)["diff"].update(shooter=5, target=6)  # a villager "shoots" seat 6
    return line


def _shot_at_the_dead(r: Records) -> int:
    line = _line(r, "hunter-shot", 2)  # wolf-win: seat 9 died on night 2
    _meta(r, line)["diff"]["target"] = 9
    return line


def _wolves_kill_a_dead_seat(r: Records) -> int:
    line = _line(r, "wolf-night", 2)  # good-win: seat 4 was exiled on day 1
    meta = _meta(r, line)
    meta["diff"]["target"] = 4
    meta["detail"]["proposals"] = [[[1, 4], [3, 4]]]
    return line


def _seer_checks_herself(r: Records) -> int:
    line = _line(r, "seer-check", 1)  # good-win: the seer is seat 2
    _meta(r, line)["diff"].update(target=2, wolf=False)
    return line


def _guard_repeats(r: Records) -> int:
    line = _line(r, "guard-protect", 3)  # guard-12: he protected seat 4 on night 2
    _meta(r, line)["diff"]["target"] = 4
    return line


def _idiot_not_revealed(r: Records) -> int:
    line = _first(r, "vote", "revealed")  # idiot-12: the idiot is voted out, shows his card
    del _meta(r, line)["diff"]["revealed"]
    return line


def _lover_not_heartbroken(r: Records) -> int:
    line = _first(r, "vote", "heartbroken")  # cupid-10: an exile's lover dies too
    del _meta(r, line)["diff"]["heartbroken"]
    return line


def _phase_skipped(r: Records) -> int:
    line = _line(r, "seer-check", 1)  # the night goes to dawn without the seer
    del r[line - 1]
    renumber(r)
    return line


def _game_ended_early(r: Records) -> int:
    line = _line(r, "vote", 1) + 1  # good-win: seat 8's last words are due
    end = copy.deepcopy(r[_line(r, "game-end", 3) - 1])
    del r[line - 1 :]
    r.append(end)
    renumber(r)
    return line


def _event_after_the_end(r: Records) -> int:
    r.append(copy.deepcopy(r[_line(r, "day-speech", 2) - 1]))
    r[-1]["id"] = "01JGGVSZZZZZZZZZZZZZZZZZZZ"
    renumber(r)
    return len(r)


def _day_changed(r: Records) -> int:
    line = _line(r, "day-speech", 1)
    _meta(r, line)["day"] = 2
    return line


def _private_made_public(r: Records) -> int:
    line = _line(r, "witch-action", 1)
    _meta(r, line)["visible_to"] = [3, 5]
    return line


def _content_changed(r: Records) -> int:
    line = _line(r, "game-end", 2)  # wolf-win
    set_content(r[line - 1], "Game over: good win (every wolf is dead).")
    return line


Forgery = tuple[str, str, Callable[[Records], int], str]
FORGERIES: list[Forgery] = [
    ("changed-death", "good-win", _changed_death, "meta.diff.died is [5], the rules give [2]"),
    ("saved-victim-dies", "good-win", _saved_victim_dies, "meta.diff.died is [3]"),
    ("flipped-winner", "wolf-win", _flipped_winner, "meta.diff.winner is 'good'"),
    ("changed-reason", "wolf-win", _changed_reason, "meta.detail.reason"),
    ("changed-survivors", "wolf-win", _changed_survivors, "meta.detail.alive"),
    ("dead-seat-speaks", "wolf-win", _dead_seat_speaks, "meta.diff.speaker is 9"),
    ("speakers-swapped", "good-win", _speakers_swapped, "meta.diff.speaker"),
    ("exile-against-ballots", "good-win", _exile_against_ballots, "meta.diff.exiled is 1"),
    ("counts-against-ballots", "good-win", _counts_against_ballots, "meta.detail.counts"),
    ("dead-seat-votes", "good-win", _dead_seat_votes, "meta.detail.ballots"),
    ("voter-left-out", "good-win", _living_voter_left_out, "seat 1 is asked for a vote"),
    ("pk-against-counts", "pk-and-hunter", _pk_against_counts, "meta.diff.pk"),
    ("random-draw-changed", "kaggle-8", _random_draw_changed, "meta.diff.exiled is 3"),
    ("second-antidote", "good-win", _second_antidote, "cannot use the antidote"),
    ("poison-for-the-dead", "pk-and-hunter", _poison_for_the_dead, "cannot poison seat 2"),
    ("shooter-not-hunter", "good-win", _shooter_not_the_hunter, "seat 5 holds the villager card"),
    ("shot-at-the-dead", "wolf-win", _shot_at_the_dead, "seat 9 is not a legal choice"),
    ("wolves-kill-the-dead", "good-win", _wolves_kill_a_dead_seat, "seat 4 is not a legal"),
    ("seer-checks-herself", "good-win", _seer_checks_herself, "seat 2 is not a legal choice"),
    ("guard-repeats", "guard-12", _guard_repeats, "seat 4 is not a legal choice"),
    ("idiot-not-revealed", "idiot-12", _idiot_not_revealed, "meta.diff.revealed is missing"),
    ("lover-not-heartbroken", "cupid-10", _lover_not_heartbroken, "meta.diff.heartbroken"),
    ("phase-skipped", "good-win", _phase_skipped, "rules call for seer-check next"),
    ("game-ended-early", "good-win", _game_ended_early, "rules call for last-words next"),
    (
        "event-after-the-end",
        "good-win",
        _event_after_the_end,
        "event does not follow: the game is over",
    ),
    ("day-changed", "good-win", _day_changed, "meta.day is 2, the rules give 1"),
    ("audience-changed", "good-win", _private_made_public, "meta.visible_to is [3, 5]"),
    ("content-changed", "wolf-win", _content_changed, "its content is not what the phase"),
]


# -- what an event says of how its decisions were reached ------------------------------------
def _fallback_for_a_legal_vote(r: Records) -> int:
    line = _line(r, "vote", 1)  # good-win: seat 1 voted for seat 8, legally
    _meta(r, line)["fallbacks"] = [
        {"seat": 1, "decision": "vote", "key": "d1.vote.r1.s1", "reason": "gibberish"}
    ]
    return line


def _fallback_moved_to_another_seat(r: Records) -> int:
    line = _line(r, "vote", 1)  # unruly-seat: seat 3's day-1 vote fell back
    [record] = _meta(r, line)["fallbacks"]
    record.update(seat=4, key="d1.vote.r1.s4")
    return line


def _fallback_key_changed(r: Records) -> int:
    line = _line(r, "vote", 1)
    _meta(r, line)["fallbacks"][0]["key"] = "d9.vote.r1.s3"
    return line


def _fallback_recorded_twice(r: Records) -> int:
    line = _line(r, "vote", 1)
    fallbacks = _meta(r, line)["fallbacks"]
    fallbacks.append(dict(fallbacks[0]))
    return line


def _reasoning_of_a_dead_seat(r: Records) -> int:
    line = _line(r, "vote", 2)  # good-win: seat 4 died at dawn 2 and does not vote
    text = "I am dead, yet I weighed the vote."
    r[line - 1]["attachments"]["reasoning/4/vote"] = text
    _meta(r, line)["attachments"]["reasoning/4/vote"] = hashlib.sha256(text.encode()).hexdigest()
    return line


def _offer_changed(r: Records) -> int:
    line = _line(r, "vote", 1)  # idiot-12 keeps the referee's record of every offer
    name = next(n for n in r[line - 1]["attachments"] if n.startswith("offered/"))
    text = json.dumps({"key": "d1.vote.r1.s1", "options": [2]}, separators=(",", ":"))
    r[line - 1]["attachments"][name] = text
    _meta(r, line)["attachments"][name] = hashlib.sha256(text.encode()).hexdigest()
    return line


def _usage_of_a_decision_not_asked(r: Records) -> int:
    line = _line(r, "vote", 1)  # good-win: nobody is asked for a shot in a vote
    _meta(r, line)["usage"] = [
        {
            "seat": 1,
            "decision": "hunter",
            "key": "d1.hunter.s1",
            "prompt_tokens": 10,
            "completion_tokens": 5,
            "latency_ms": 1.0,
            "calls": 1,
        }
    ]
    return line


def _failure_invented(r: Records) -> int:
    line = _line(r, "seer-check", 1)  # good-win: a failure of the vote, at night
    error = copy.deepcopy(r[line - 1])
    error.update(id="01JGGVSZZZZZZZZZZZZZZZZZZZ", kind="werewolf.__error__", attachments={})
    error["meta"] = {"role": "vote", "error": "SeatUnavailableError: seat 3 is down"}
    set_content(error, "Traceback: seat 3 is down")
    r.insert(line - 1, error)
    renumber(r)
    return line


FORGERIES += [
    ("fallback-for-a-legal-vote", "good-win", _fallback_for_a_legal_vote, "not the fallback"),
    ("fallback-moved", "unruly-seat", _fallback_moved_to_another_seat, "seat 4's vote decision"),
    ("fallback-key-changed", "unruly-seat", _fallback_key_changed, "(d9.vote.r1.s3) not asked"),
    ("fallback-twice", "unruly-seat", _fallback_recorded_twice, "is recorded twice"),
    ("reasoning-of-the-dead", "good-win", _reasoning_of_a_dead_seat, "reasoning/4/vote is of"),
    ("offer-changed", "idiot-12", _offer_changed, "the rules give"),
    ("usage-not-asked", "good-win", _usage_of_a_decision_not_asked, "hunter usage is of"),
    ("failure-invented", "good-win", _failure_invented, "a failure of vote, but seer-check"),
]


def _forged(tmp_path: Path, sample: str, forge: Callable[[Records], int]) -> tuple[Path, int]:
    records = _records(sample)
    line = forge(records)
    path = tmp_path / f"{sample}-forged.jsonl"
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rechain(records))
    path.write_text(text, encoding="utf-8")
    return path, line


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert len(err.splitlines()) == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("sample", "forge", "problem"), [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES]
)
def test_a_forged_replay_with_a_recomputed_chain_is_refused_at_its_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sample: str,
    forge: Callable[[Records], int],
    problem: str,
) -> None:
    path, line = _forged(tmp_path, sample, forge)
    err = _refused(capsys, "replay", str(path))
    assert err.startswith(f"werewolf: error: {path}:{line}: "), err
    assert problem in err, err


def test_the_forgeries_are_of_many_kinds() -> None:
    assert len(FORGERIES) >= 17
    assert len({f[0] for f in FORGERIES}) == len(FORGERIES)


def test_a_flipped_winner_is_refused_by_the_command_and_drawn_only_on_trust(
    tmp_path: Path,
) -> None:
    path, line = _forged(tmp_path, "wolf-win", _flipped_winner)
    cli = "from werewolf.cli import main; raise SystemExit(main())"
    command = [sys.executable, "-c", cli, "replay", str(path), "--public"]
    refused = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr.splitlines() == [
        f"werewolf: error: {path}:{line}: does not follow from the rules: meta.diff.winner "
        "is 'good', the rules give 'wolves'"
    ]
    trusted = subprocess.run(
        [*command, "--trust"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert trusted.returncode == 0, trusted.stderr
    assert "every villager is dead" in trusted.stdout


def test_a_forged_replay_is_exported_to_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, line = _forged(tmp_path, "good-win", _changed_death)
    page, text = tmp_path / "game.html", tmp_path / "game.md"
    err = _refused(capsys, "replay", str(path), "--html", str(page), "--markdown", str(text))
    assert f"{path}:{line}: does not follow from the rules" in err
    assert not page.exists()
    assert not text.exists()


def test_a_forged_replay_is_not_imported_and_a_trusted_one_is_judged_in_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, line = _forged(tmp_path, "pk-and-hunter", _pk_against_counts)
    store_path = tmp_path / "w.sqlite3"
    with SQLiteEventStore(store_path) as store:
        with pytest.raises(GameFileError, match=rf"{path}:{line}: does not follow"):
            import_replay(store, path)
        assert store.topics() == []  # nothing written
        game = import_replay(store, path, trust=True)
        with pytest.raises(GameFileError, match=rf"#{game} version {line - 1}: does not"):
            load_game(store, game, str(store_path))
        assert load_game(store, game, trust=True).chain[-1].role == "game-end"
    err = _refused(capsys, "replay", game, "--store", str(store_path))
    assert f"#{game} version {line - 1}: does not follow from the rules: meta.diff.pk" in err
    assert main(["replay", game, "--store", str(store_path), "--trust", "--public"]) == 0
    capsys.readouterr()


def test_a_shipped_replay_imports_and_loads() -> None:
    with tempfile.TemporaryDirectory() as tmp, SQLiteEventStore(Path(tmp) / "w.sqlite3") as store:
        game = import_replay(store, REPLAYS / "idiot-12.jsonl")
        assert load_game(store, game).chain[-1].role == "game-end"


# -- no false positives ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    sorted(REPLAYS.glob("*.jsonl")) + sorted(REPLAYS.glob("archive/*/*.jsonl")),
    ids=lambda p: str(p.relative_to(REPLAYS)),
)
def test_every_shipped_replay_follows_from_the_rules(path: Path) -> None:
    log = load_replay_file(path)
    assert log.chain[-1].role == "game-end"
    assert parse_replay(path.read_bytes(), str(path)).chain == log.chain


def test_every_pinned_game_follows_from_the_rules(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import pin_logs
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    with SQLiteEventStore(tmp_path / "pinned.sqlite3") as store:
        pins = pin_logs.play((*pin_logs.STANDARD, *pin_logs.MOCK), store)
        games_ = store.topics()
        assert len(games_) == len(pins) == len(pin_logs.STANDARD) + len(pin_logs.MOCK)
        for game in games_:
            assert load_game(store, game).finished


def _accepted(game: PlayedGame) -> None:
    """The game's log, exported as a replay file, loads with every event re-judged."""
    from pulse_core import export_topic

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        export_topic(game.store, game.game_id, path)
        log = load_replay_file(path)
    assert log.chain[-1].role == "game-end"


def _seated(kind: str, seed: int) -> Callable[[int], Player]:
    return lambda seat: make_player(kind, game_seed=seed, seat=seat)


@pytest.mark.parametrize("kind", ["mock", "random"])
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_mock_and_random_games_on_every_board_follow_from_the_rules(board: str, kind: str) -> None:
    config = board_config(board)
    for seed in range(20):
        game = play(config, seed, _seated(kind, seed))
        _accepted(game)


@given(game=games())
@game_settings(0.5)
@checks_game
def test_every_drawn_game_follows_from_the_rules(game: PlayedGame) -> None:
    """Every rule variant, and seats that answer illegally now and then (their fallbacks
    are recorded, and the recorded fallback is what the rules give)."""
    _accepted(game)


def test_a_forged_game_in_a_store_is_not_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unfinished game whose store chain was recomputed over a forged exile: ``resume``
    names the version and plays nothing on."""
    records = _records("good-win")
    line = _exile_against_ballots(records)
    del records[line + 3 :]  # unfinished: a few events after the forged vote
    path = tmp_path / "unfinished.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in rechain(renumber(records)))
    path.write_text(text, encoding="utf-8")
    store_path = tmp_path / "w.sqlite3"
    with SQLiteEventStore(store_path) as store:
        game = import_replay(store, path, trust=True)
        version = store.version(game)
    err = _refused(capsys, "resume", game, "--store", str(store_path), "-q")
    assert f"game {game} version {line - 1}: does not follow from the rules" in err
    with SQLiteEventStore(store_path) as store:
        assert store.version(game) == version


# -- seat swaps: made when a game is resumed with other players -------------------------------
def _swapped_records(tmp_path: Path) -> Records:
    """good-win as a game resumed after its day-1 vote with seat 2 played by a random
    player: the swap written by the code that resumes games, then the rest of the game."""
    from pulse_core import export_topic_lines
    from werewolf.lineup import SeatSpec
    from werewolf.players.swaps import append_swaps

    records = _records("good-win")
    cut = _line(records, "vote", 1)
    head = tmp_path / "head.jsonl"
    lines = rechain(renumber(copy.deepcopy(records[:cut])))
    head.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    with SQLiteEventStore(tmp_path / "swap.sqlite3") as store:
        game = import_replay(store, head)
        append_swaps(store, game, {2: SeatSpec(kind="random")})
        swapped = [json.loads(line) for line in export_topic_lines(store, game)]
    return rechain(renumber(swapped + records[cut:]))


def _write(tmp_path: Path, records: Records) -> Path:
    path = tmp_path / "swapped.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rechain(records)), encoding="utf-8")
    return path


def test_a_resumed_game_with_a_seat_swap_follows_from_the_rules(tmp_path: Path) -> None:
    records = _swapped_records(tmp_path)
    [swap] = [r for r in records if r.get("kind") == "werewolf.seat-swap"]
    assert swap["meta"]["detail"] == {
        "seat": 2,
        "from": "mock",
        "to": "random",
        "player": {"kind": "random"},
    }
    path = _write(tmp_path, records)
    assert load_replay_file(path).chain[-1].role == "game-end"
    assert check_replay(path) == []  # the independent referee reads it too


def _swap_from(r: Records, i: int) -> None:
    r[i]["meta"]["detail"]["from"] = "llm:gpt-4o"
    set_content(r[i], "Seat 2 is now played by random (was llm:gpt-4o).")


def _swap_player(r: Records, i: int) -> None:  # the label says random, the spec an LLM
    r[i]["meta"]["detail"]["player"] = {"kind": "llm", "model": "gpt-4o"}


def _swap_day(r: Records, i: int) -> None:
    r[i]["meta"]["day"] = 3


def _swap_content(r: Records, i: int) -> None:
    set_content(r[i], "Seat 2 is now played by human (was mock).")


def _swap_after_the_end(r: Records, i: int) -> None:
    r.append(r.pop(i))
    renumber(r)


def _swap_made_twice(r: Records, i: int) -> None:
    twin = copy.deepcopy(r[i])
    twin["id"] = "01JGGVSZZZZZZZZZZZZZZZZZZZ"
    r.insert(i + 1, twin)
    renumber(r)


def _swap_of_an_earlier_start(r: Records, i: int) -> None:
    r[1]["meta"]["game"]["players"][1] = {"kind": "llm", "model": "gpt-4o"}


SWAP = "werewolf.seat-swap"
SWAP_FORGERIES: list[tuple[str, Callable[[Records, int], None], str]] = [
    ("from-changed", _swap_from, "seat 2 was played by mock"),
    ("player-changed", _swap_player, "does not follow the seating recorded before it"),
    ("day-changed", _swap_day, "a seat swap on night 3, made on night 1"),
    ("content-changed", _swap_content, "the seat swap's content is not what a swap writes"),
    ("after-the-end", _swap_after_the_end, "a seat swap after the game is over"),
    ("made-twice", _swap_made_twice, "seat 2 was played by random"),
    ("start-seating-changed", _swap_of_an_earlier_start, "seat 2 was played by llm:gpt-4o"),
]


@pytest.mark.parametrize(
    ("forge", "problem"), [f[1:] for f in SWAP_FORGERIES], ids=[f[0] for f in SWAP_FORGERIES]
)
def test_a_forged_seat_swap_is_refused(
    tmp_path: Path, forge: Callable[[Records, int], None], problem: str
) -> None:
    records = _swapped_records(tmp_path)
    forge(records, next(i for i, r in enumerate(records) if r.get("kind") == SWAP))
    with pytest.raises(GameFileError, match=r"seat swap|seat 2") as refused:
        load_replay_file(_write(tmp_path, records))
    assert problem in str(refused.value)


def test_a_failure_is_followed_only_by_its_resume(tmp_path: Path) -> None:
    """A resume with no failure before it, and a phase right after a failure, are refused."""
    records = _records("good-win")
    line = _line(records, "seer-check", 1)
    resume = copy.deepcopy(records[line - 1])
    resume.update(id="01JGGVSZZZZZZZZZZZZZZZZZZZ", kind="werewolf.__resume__", attachments={})
    resume["meta"] = {}
    set_content(resume, "resume")
    records.insert(line - 1, resume)
    with pytest.raises(GameFileError, match=f":{line}: a resume that follows no failure"):
        load_replay_file(_write(tmp_path, renumber(records)))
    error = copy.deepcopy(resume)
    error.update(id="01JGGVSYYYYYYYYYYYYYYYYYYY", kind="werewolf.__error__")
    error["meta"] = {"role": "seer-check", "error": "SeatUnavailableError: down"}
    records[line - 1] = error
    with pytest.raises(GameFileError, match=f":{line + 1}: a seer-check event after a failure"):
        load_replay_file(_write(tmp_path, records))
    del records[line - 1]
    records.insert(line - 1, copy.deepcopy(error))
    records.insert(line, resume)  # a failure, its resume, then the phase: as the game writes
    assert load_replay_file(_write(tmp_path, renumber(records))).chain[-1].role == "game-end"


def _exported(game: PlayedGame, tmp_path: Path) -> Records:
    from pulse_core import export_topic_lines

    return [json.loads(line) for line in export_topic_lines(game.store, game.game_id)]


def test_cupid_naming_the_higher_seat_first_follows_from_the_rules(tmp_path: Path) -> None:
    """The cupid event's diff sorts the lovers; the offers recorded for the referee show the
    order he named them in (the second ask leaves out the first), and the judge follows it."""
    game = play(board_config("cupid-10"), 7, _seated("random", 7))
    records = _exported(game, tmp_path)
    [cupid] = [r for r in records if r.get("kind") == "werewolf.cupid-link"]
    low, high = cupid["meta"]["diff"]["lovers"]
    second = json.loads(next(iter(cupid["attachments"].values())).splitlines()[1])
    assert high not in second["options"]  # he named the higher seat first
    assert low in second["options"]
    path = _write(tmp_path, records)
    assert load_replay_file(path).chain[-1].role == "game-end"


@pytest.mark.parametrize(
    ("told", "problem"),
    [
        ({"99": 0.5}, "seat 1's vote decision is not legal: beliefs about seats"),
        ({"2": 1.5}, "seat 1's vote decision is not legal: a belief is a probability"),
        ("not beliefs", "a vote's beliefs are not seats and numbers"),
    ],
)
def test_beliefs_a_vote_may_not_carry_are_refused(
    tmp_path: Path, told: object, problem: str
) -> None:
    config = board_config("standard-9").model_copy(update={"beliefs": True})
    game = play(config, 0, _seated("mock", 0))
    records = _exported(game, tmp_path)
    path = _write(tmp_path, records)
    assert load_replay_file(path).chain[-1].role == "game-end"  # as the game wrote them
    line = _line(records, "vote", 1)
    text = json.dumps(told)
    records[line - 1]["attachments"]["beliefs/1/vote"] = text
    _meta(records, line)["attachments"]["beliefs/1/vote"] = hashlib.sha256(
        text.encode()
    ).hexdigest()
    with pytest.raises(GameFileError, match=f":{line}: ") as refused:
        load_replay_file(_write(tmp_path, records))
    assert problem in str(refused.value)


class _CupidFailsHisSecondPick:
    """Cupid names the highest seat, then keeps answering illegally (his fallback: the
    lowest seat left); every other decision is a random player's."""

    kind = "scripted"

    def __init__(self, seat: int) -> None:
        self.inner = make_player("random", game_seed=3, seat=seat)

    async def decide(self, request: Request) -> Answer:
        if request.kind is DecisionKind.CUPID:
            first = ".a." in request.key
            return Choice(max(o for o in request.options if o is not None) if first else 0)
        return await self.inner.decide(request)


def test_cupid_whose_second_pick_fell_back_follows_from_the_rules(tmp_path: Path) -> None:
    """Without the referee's record nothing but the fallback tells the order he named the
    lovers in (the diff sorts them): the judge reads them either way round."""
    config = board_config("cupid-10").model_copy(update={"referee_record": False})
    game = play(config, 3, _CupidFailsHisSecondPick)
    records = _exported(game, tmp_path)
    [cupid] = [r for r in records if r.get("kind") == "werewolf.cupid-link"]
    assert [f["decision"] for f in cupid["meta"]["fallbacks"]] == ["cupid"]
    assert load_replay_file(_write(tmp_path, records)).chain[-1].role == "game-end"
