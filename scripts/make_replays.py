"""Regenerate the sample replays (replays/*.jsonl) and their golden renderings.

The samples are seeded games played in memory with the mock players, on a fixed clock and
fixed id source, so a run always writes the same bytes; ``tests/werewolf/test_replay.py``
runs ``build_samples`` again and fails on any difference, so a change in the rules, the
players, the log or the drawing shows up as a diff. When such a change is deliberate, run

    .venv/bin/python scripts/make_replays.py          # rewrite the files
    .venv/bin/python scripts/make_replays.py --check  # exit 1 if anything would change

and review the diff. Before regenerating over a released sample whose format changed, keep
the old file under ``replays/archive/`` (every file there must still load, and the tests
load it).

The samples:

- ``good-win``: the good side wins;
- ``wolf-win``: the wolves win;
- ``pk-and-hunter``: a tied vote goes to a PK round, and the hunter shoots on day 1;
- ``unruly-seat``: one seat behaves like a misbehaving LLM seat: a speech full of HTML and
  rich markup (it must show as text), an illegal vote (the fallback is recorded), and
  made-up token counts (so the summary's usage line is exercised);
- one game per named board besides the standard one, each showing its identity at work:
  ``guard-12`` (the guard saves the wolves' victim), ``idiot-12`` (the idiot is exiled and
  shows his card), ``cupid-10`` (a lover dies of heartbreak), ``seer-doctor-8`` (the doctor
  saves the wolves' victim), ``kaggle-8`` (a random draw settles a vote; the seer learns an
  identity), ``knight-12`` (the knight duels a wolf, who dies, and night falls),
  ``wolf-king-12`` (a wolf self-destructs, and the wolf king shoots), ``white-wolf-king-12``
  (the white wolf king self-destructs and takes a seat with him); their seat view is that
  identity's.

Golden renderings (no colour, 80 columns) go to ``tests/werewolf/golden/``: the god view,
the public view and one seat's view of every sample.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pulse_core import IdSource, MemoryEventStore, WorkflowRule, export_topic_lines
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.decisions import Answer, Choice, DecisionKind, Request, Speech, Usage
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import MockPlayer, Player
from werewolf.replay import ViewKind, ViewSpec, parse_replay, replay_text
from werewolf.state import GameState

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
GOLDEN = ROOT / "tests" / "werewolf" / "golden"
WIDTH = 80
EPOCH = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

HOSTILE_SPEECH = (
    '<script>alert("boo")</script> <b>bold?</b> [bold red]not markup[/bold red] '
    ":smile: &amp; ``` end of fence?"
)


@dataclass(frozen=True)
class Sample:
    name: str
    first_seed: int  # the sample is the first seed from here that shows what it is for
    seat: int  # the seat whose view gets a golden file
    check: Callable[[list[dict[str, Any]]], bool]  # the property the sample must show
    unruly: int | None = None  # the seat played by UnrulySeat
    board: str = "standard-9"
    viewer: Identity | None = None  # when set, the golden seat view is this identity's seat


class UnrulySeat:
    """A mock player that, like a bad LLM seat, speaks HTML and markup, casts an illegal
    first vote on day 1 (so the rules fall back), and reports token usage."""

    kind = "scripted"

    def __init__(self, game_seed: int, seat: int) -> None:
        self.inner = MockPlayer(game_seed, seat)

    async def decide(self, request: Request) -> Answer:
        answer = await self.inner.decide(request)
        usage = Usage(prompt_tokens=900, completion_tokens=60, latency_ms=350.0, calls=1)
        if request.kind is DecisionKind.SPEECH and isinstance(answer, Speech):
            text = f"{HOSTILE_SPEECH} {answer.text}"
            return Speech(text, reasoning="</pre><i>reasoning is text too</i>", usage=usage)
        if request.kind is DecisionKind.VOTE and request.key.startswith("d1.vote.r1."):
            return Choice(99, reasoning="an illegal seat", usage=usage)
        return answer


def _clock() -> Callable[[], datetime]:
    """A clock that moves one second per reading, from a fixed moment."""
    ticks = iter(range(1_000_000))
    return lambda: EPOCH + timedelta(seconds=next(ticks))


def _seating(sample: Sample) -> Callable[[str, GameState], Mapping[int, Player]]:
    players: dict[int, Player] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        if not players:
            for seat in state.seats:
                unruly = seat == sample.unruly
                players[seat] = (
                    UnrulySeat(state.seed, seat) if unruly else MockPlayer(state.seed, seat)
                )
        return players

    return seating


Events = list[dict[str, Any]]
Check = Callable[[Events], bool]


def _events(lines: list[str]) -> Events:
    return [json.loads(line) for line in lines[1:]]


def _has(role: str, test: Callable[[dict[str, Any]], bool]) -> Check:
    def check(events: Events) -> bool:
        return any(e["kind"] == f"werewolf.{role}" and test(e["meta"]) for e in events)

    return check


def _winner(side: str) -> Check:
    return _has("game-end", lambda meta: bool(meta["diff"]["winner"] == side))


def _all(*checks: Check) -> Check:
    return lambda events: all(check(events) for check in checks)


SAMPLES = (
    Sample("good-win", first_seed=2, seat=4, check=_winner("good")),
    Sample("wolf-win", first_seed=3, seat=1, check=_winner("wolves")),
    Sample(
        "pk-and-hunter",
        first_seed=4,
        seat=6,
        check=_all(
            _has("vote", lambda meta: bool(meta["diff"]["pk"])),
            # on day 1, so the viewer's tests step through a shot early in the game
            _has("hunter-shot", lambda m: m["diff"]["target"] is not None and m["day"] == 1),
        ),
    ),
    Sample(
        "unruly-seat",
        first_seed=5,
        seat=3,
        unruly=3,
        check=_has("vote", lambda meta: bool(meta.get("fallbacks"))),
    ),
    Sample(
        "guard-12",
        first_seed=1,
        seat=0,
        board="guard-12",
        viewer=Identity.GUARD,
        check=lambda events: _protected_the_victim(events, "guard-protect"),
    ),
    Sample(
        "idiot-12",
        first_seed=1,
        seat=0,
        board="idiot-12",
        viewer=Identity.IDIOT,
        check=_has("vote", lambda meta: meta["diff"].get("revealed") is not None),
    ),
    Sample(
        "cupid-10",
        first_seed=1,
        seat=0,
        board="cupid-10",
        viewer=Identity.CUPID,
        check=lambda events: any(
            e["meta"].get("diff", {}).get("heartbroken") for e in events if "meta" in e
        ),
    ),
    Sample(
        "seer-doctor-8",
        first_seed=1,
        seat=0,
        board="seer-doctor-8",
        viewer=Identity.DOCTOR,
        check=lambda events: _protected_the_victim(events, "doctor-protect"),
    ),
    Sample(
        "kaggle-8",
        first_seed=1,
        seat=0,
        board="kaggle-8",
        viewer=Identity.SEER,
        check=_all(  # a random draw settled a vote, and the seer named an identity
            _has("vote", lambda meta: "draw" in meta["detail"]),
            _has("seer-check", lambda meta: "identity" in meta["diff"]),
        ),
    ),
    Sample(
        "knight-12",
        first_seed=1,
        seat=0,
        board="knight-12",
        viewer=Identity.KNIGHT,
        check=_has("knight-duel", lambda meta: meta["diff"].get("wolf") is True),
    ),
    Sample(
        "wolf-king-12",
        first_seed=1,
        seat=0,
        board="wolf-king-12",
        viewer=Identity.WOLF_KING,
        check=_all(  # a wolf self-destructed, and the wolf king shot
            _has("self-destruct", lambda meta: True),
            _has("hunter-shot", lambda meta: meta["diff"].get("card") == "wolf-king"),
        ),
    ),
    Sample(
        "white-wolf-king-12",
        first_seed=1,
        seat=0,
        board="white-wolf-king-12",
        viewer=Identity.WHITE_WOLF_KING,
        check=_has("self-destruct", lambda meta: meta["diff"].get("target") is not None),
    ),
)


def _protected_the_victim(events: Events, role: str) -> bool:
    """Some night the protector chose the wolves' victim, and nobody died at that dawn."""
    by_night: dict[int, dict[str, dict[str, Any]]] = {}
    for e in events:
        kind = str(e["kind"]).removeprefix("werewolf.")
        if kind in (role, "wolf-night", "dawn"):
            by_night.setdefault(int(e["meta"]["day"]), {})[kind] = e["meta"]
    return any(
        len(night) == 3
        and night["wolf-night"]["diff"]["target"] is not None
        and night[role]["diff"]["target"] == night["wolf-night"]["diff"]["target"]
        and not night["dawn"]["diff"]["died"]
        for night in by_night.values()
    )


def play_game(sample: Sample, seed: int) -> list[str]:
    """The replay file lines (without line ends) of the sample's game with ``seed``."""
    store = MemoryEventStore()
    ids = IdSource(clock=_clock(), rng=random.Random(seed))
    rule = WorkflowRule(werewolf_workflow(_seating(sample)), store, ids=ids)
    config = board_config(sample.board)
    players = [
        {"kind": "scripted" if s == sample.unruly else "mock"} for s in range(1, config.seats + 1)
    ]
    game = start_game(rule, seed=seed, config=config, players=players)
    statuses = asyncio.run(rule.run())
    if statuses[game] != "ended":
        raise SystemExit(f"sample {sample.name}, seed {seed}: the game {statuses[game]}")
    return export_topic_lines(store, game)


def play_sample(sample: Sample, tries: int = 200) -> list[str]:
    """The first game from ``sample.first_seed`` on that shows what the sample is for."""
    for seed in range(sample.first_seed, sample.first_seed + tries):
        lines = play_game(sample, seed)
        if sample.check(_events(lines)):
            return lines
    raise SystemExit(f"sample {sample.name}: no seed of {tries} shows what it is for")


def build_samples() -> dict[Path, str]:
    """Every file this script writes, by path, with its text."""
    files: dict[Path, str] = {}
    for sample in SAMPLES:
        lines = play_sample(sample)
        text = "\n".join(lines) + "\n"
        path = REPLAYS / f"{sample.name}.jsonl"
        files[path] = text
        log = parse_replay(text.encode("utf-8"), f"replays/{path.name}")
        files[GOLDEN / f"{sample.name}.god.txt"] = replay_text(log, width=WIDTH)
        public = ViewSpec(ViewKind.PUBLIC)
        files[GOLDEN / f"{sample.name}.public.txt"] = replay_text(log, public, width=WIDTH)
        seat = sample.seat
        if sample.viewer is not None:
            seat = log.state.identities.index(sample.viewer) + 1
        seat_view = ViewSpec.of_seat(seat)
        files[GOLDEN / f"{sample.name}.seat{seat}.txt"] = replay_text(log, seat_view, width=WIDTH)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    args = parser.parse_args(argv)
    stale = []
    files = build_samples()
    for path, text in files.items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
    verb = "would change" if args.check else "written"
    for path in stale:
        print(f"{verb}: {path.relative_to(ROOT)}")
    # a sample's seat view follows its viewer's seat: the view of a seat it no longer
    # draws is left behind, and would pass for a golden of nothing
    left = sorted(
        path
        for sample in SAMPLES
        for path in GOLDEN.glob(f"{sample.name}.seat*.txt")
        if path not in files
    )
    for path in left:
        print(f"{'would remove' if args.check else 'removed'}: {path.relative_to(ROOT)}")
        if not args.check:
            path.unlink()
    stale += left
    if not stale:
        print("all samples and goldens are up to date")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
