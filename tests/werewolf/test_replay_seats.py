"""A damaged replay file whose events name a seat the game does not have is refused with
one line naming ``file:line`` and the field (exit code 2), never drawn into a traceback.

Each test tampers with one seat-valued field of a checked-in replay (meta is not covered by
the content hashes, so the file stays otherwise valid) and runs ``werewolf replay`` on it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.werewolf.forge import rechain
from werewolf.cli import main

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
Meta = dict[str, Any]


def _set(*path: str | int) -> Callable[[Meta], None]:
    """A tamperer that puts seat 15 at ``path`` inside the meta."""

    def tamper(meta: Meta) -> None:
        node: Any = meta
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = 15

    return tamper


# (replay, event kind, tamperer, the field as the message names it)
CASES: list[tuple[str, str, Callable[[Meta], None], str]] = [
    ("good-win", "day-speech", _set("diff", "speaker"), "diff.speaker"),
    ("good-win", "last-words", _set("diff", "speaker"), "diff.speaker"),
    ("good-win", "vote", lambda m: m["diff"].update(pk=[15]), "diff.pk.0"),
    ("good-win", "vote", _set("diff", "exiled"), "diff.exiled"),
    ("good-win", "vote", lambda m: m["detail"]["ballots"][0].__setitem__(0, 15), "ballots.0.0"),
    ("good-win", "vote", lambda m: m["detail"]["ballots"][0].__setitem__(1, 15), "ballots.0.1"),
    ("good-win", "vote", lambda m: m["detail"]["counts"][0].__setitem__(0, 15), "counts.0.0"),
    ("pk-and-hunter", "hunter-shot", _set("diff", "shooter"), "diff.shooter"),
    ("pk-and-hunter", "hunter-shot", _set("diff", "target"), "diff.target"),
    ("good-win", "witch-action", _set("diff", "poison"), "diff.poison"),
    ("good-win", "witch-action", _set("detail", "told_target"), "detail.told_target"),
    ("good-win", "seer-check", _set("diff", "target"), "diff.target"),
    ("good-win", "wolf-night", _set("diff", "target"), "diff.target"),
    (
        "good-win",
        "wolf-night",
        lambda m: m["detail"]["proposals"][0][0].__setitem__(1, 15),
        "detail.proposals.0.0.1",
    ),
    (
        "good-win",
        "wolf-night",
        lambda m: m["detail"]["proposals"][0][0].__setitem__(0, 15),
        "detail.proposals.0.0.0",
    ),
    ("good-win", "wolf-night", _set("detail", "discussion", 0, "seat"), "discussion.0.seat"),
    ("good-win", "dawn", lambda m: m["diff"].update(died=[15]), "diff.died.0"),
    ("good-win", "game-end", lambda m: m["detail"].update(alive=[15]), "detail.alive.0"),
    ("good-win", "dawn", lambda m: m.update(visible_to=[15]), "visible_to.0"),
]


def _lines(name: str) -> list[dict[str, Any]]:
    text = (REPLAYS / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    rechain(lines)  # the edit is forged well: the meta checks must refuse it
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["replay", str(path), "--width", "100"])
    out, err = capsys.readouterr()
    assert out == ""
    return code, err


@pytest.mark.parametrize(
    ("replay", "kind", "tamper", "field"), CASES, ids=[f"{c[1]}:{c[3]}" for c in CASES]
)
def test_a_seat_the_game_does_not_have_is_refused_with_file_line_and_field(
    replay: str,
    kind: str,
    tamper: Callable[[Meta], None],
    field: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _lines(replay)
    index = next(i for i, line in enumerate(lines) if line.get("kind") == f"werewolf.{kind}")
    tamper(lines[index]["meta"])
    path = _write(tmp_path / "damaged.jsonl", lines)
    code, err = _replay(path, capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"werewolf: error: {path}:{index + 1}: werewolf.{kind} meta.")
    assert f"{field}: no seat 15: the game has 9 seats" in err


def test_a_seat_swap_of_a_seat_the_game_does_not_have_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines("good-win")
    last = lines[-1]
    content = "Seat 15 is now played by mock (was mock)."
    lines.append(
        {
            **last,
            "id": "01JGGVZZZZZZZZZZZZZZZZZZZZ",
            "kind": "werewolf.seat-swap",
            "version": last["version"] + 1,
            "hash": hashlib.sha256(content.encode()).hexdigest(),
            "meta": {
                "phase": "seat-swap",
                "day": 1,
                "visible_to": None,
                "diff": {},
                "detail": {"seat": 15, "from": "mock", "to": "mock", "player": {"kind": "mock"}},
            },
            "content": content,
        }
    )
    lines[-1].pop("attachments", None)
    lines[0]["events"] += 1
    path = _write(tmp_path / "swap.jsonl", lines)
    code, err = _replay(path, capsys)
    assert code == 2
    assert err == (
        f"werewolf: error: {path}:{len(lines)}: werewolf.seat-swap meta.detail.seat: "
        "no seat 15: the game has 9 seats\n"
    )


@pytest.mark.parametrize("field", ["deal", "names"])
def test_a_start_whose_deal_or_names_do_not_fit_the_seats_is_refused(
    field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines("good-win")
    start = lines[1]["meta"]
    values = start["deal"] if field == "deal" else start["game"]["names"]
    del values[-1]
    path = _write(tmp_path / "short.jsonl", lines)
    code, err = _replay(path, capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert f"{path}:2: werewolf.__start__ meta." in err
    assert "8 entries for 9 seats" in err


class _DownOnTheFirstVote:
    """A random seat whose endpoint is down when the first vote is asked."""

    kind = "random"

    def __init__(self, seat: int) -> None:
        from werewolf.players import make_player

        self.seat = seat
        self.inner = make_player("random", game_seed=5, seat=seat)

    async def decide(self, request: Any) -> Any:
        from werewolf.errors import SeatUnavailableError

        if request.key.startswith("d1.vote"):
            raise SeatUnavailableError(self.seat, "the endpoint is down")
        return await self.inner.decide(request)


def test_a_game_whose_start_names_its_players_by_kind_resumes_with_a_swap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The start event may record a seat's player as its kind alone ("random"): resuming
    such a game, with another player in a seat, ends it (the summary read the specs as
    mappings and stopped on a traceback), and its log, with the swap, follows the rules."""
    import asyncio

    from pulse_core import SQLiteEventStore, WorkflowRule
    from werewolf.game import start_game, werewolf_workflow
    from werewolf.replay import load_game

    store_path = tmp_path / "w.sqlite3"
    with SQLiteEventStore(store_path) as store:
        seated = {seat: _DownOnTheFirstVote(seat) for seat in range(1, 10)}
        rule = WorkflowRule(werewolf_workflow(lambda game, state: seated), store)
        game = start_game(rule, seed=5, players=["random"] * 9)
        assert asyncio.run(rule.run()) == {game: "failed"}
    code = main(["resume", game, "--store", str(store_path), "-q", "--seat", "2=mock"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    with SQLiteEventStore(store_path) as store:
        log = load_game(store, game)
    assert log.finished
    swaps = [e.meta["detail"] for e in log.chain if e.role == "seat-swap"]
    assert swaps == [{"seat": 2, "from": "random", "to": "mock", "player": {"kind": "mock"}}]
