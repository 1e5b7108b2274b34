"""Regenerate the pinned logs: what fixed-seed games on the standard board write, event by event.

Each pinned game is played in one rule with the others (so they interleave as concurrent
games do), once in memory and once in a durable SQLite file; both must give the pin. An
event's pin is its role, its content hash and a digest of its meta, with the ids made
at run time replaced by their place in the chain (the topic key by ``<game>``, an event
id by ``<event N>``) and the start event's config dump left out (it grows with every new
config field, which changes no game). Clocks, ids and ``code_rev`` are not pinned.

Two fixtures in ``tests/werewolf/pinned/``, compared exactly by
``tests/werewolf/test_pinned_logs.py``:

- ``standard.json``: random players and scripted players. The primary guard: a change that
  is only meant to make the engine faster, or to add identities and boards, must leave it
  byte for byte as it is.
- ``mock.json``: mock players. Their play is meant to change when the mock minds change;
  such a change regenerates this file (and only this one) on purpose.

    .venv/bin/python scripts/pin_logs.py               # rewrite both fixtures
    .venv/bin/python scripts/pin_logs.py mock          # rewrite only mock.json
    .venv/bin/python scripts/pin_logs.py --check       # exit 1 if a fixture would change

Review the diff of a regenerated fixture: a changed line names the game and the event.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.werewolf.scripted when run as a script

from pulse_core import Event, EventStore, MemoryEventStore, SQLiteEventStore, WorkflowRule  # noqa: E402
from tests.werewolf.scripted import DEAL, ScriptedPlayer, kill, votes  # noqa: E402
from werewolf.cast import Identity  # noqa: E402
from werewolf.decisions import Answer, Choice, WitchChoice  # noqa: E402
from werewolf.game import start_game, werewolf_workflow  # noqa: E402
from werewolf.players import Player, make_player  # noqa: E402
from werewolf.state import GameState  # noqa: E402

PINNED = ROOT / "tests" / "werewolf" / "pinned"
FIXTURES = ("standard", "mock")


@dataclass(frozen=True)
class Game:
    """One pinned game: its name, seed, seat kind, and for scripted seats the script."""

    name: str
    seed: int
    kind: str  # "random", "mock" or "scripted"
    script: Mapping[str, Answer] = field(default_factory=dict)
    deal: tuple[Identity, ...] | None = None


def _pk_tie() -> dict[str, Answer]:
    """Day 1 ties 7 against 8, the PK round ties again: nobody is exiled; later the knifed
    hunter shoots, and the game runs quietly on to the day cap."""
    first: dict[str, Answer] = {
        f"d1.vote.r1.s{v}": Choice(None if v in (7, 8, 9) else 7 if v % 2 else 8)
        for v in range(1, 10)
    }
    pk = {f"d1.vote.r2.s{v}": Choice(7 if v <= 3 else 8) for v in (1, 2, 3, 4, 5, 6)}
    return {**first, **pk, **kill(2, 4), **votes(2, 1), **kill(3, 6), "d3.hunter.s6": Choice(2)}


SCRIPTS: dict[str, dict[str, Answer]] = {
    # the knifed hunter shoots a wolf; the witch saves on night 2 and poisons on night 3
    "scripted-hunter-witch": {
        **kill(1, 6),
        "d1.hunter.s6": Choice(1),
        **votes(1, 2),
        **kill(2, 7, (3,)),
        "n2.witch.s5": WitchChoice(save=True),
        **kill(3, 8, (3,)),
        "n3.witch.s5": WitchChoice(poison=3),
    },
    # villagers die, wolves are exiled, and the last knife lands as the last wolf is poisoned
    "scripted-knife-first": {
        **kill(1, 7),
        **votes(1, 1),
        **kill(2, 8, (2, 3)),
        **votes(2, 2),
        **kill(3, 9, (3,)),
        "n3.witch.s5": WitchChoice(poison=3),
    },
    "scripted-pk-tie": _pk_tie(),
    # nobody is ever killed or exiled: the game runs to the day cap (a draw)
    "scripted-quiet": {},
}

STANDARD = (
    *(Game(f"random-seed-{seed}", seed, "random") for seed in range(6)),
    *(Game(name, 1, "scripted", script, DEAL) for name, script in SCRIPTS.items()),
)
MOCK = tuple(Game(f"mock-seed-{seed}", seed, "mock") for seed in range(4))


def _keys_free(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with every id made at run time replaced by its name in ``names``."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_keys_free(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _keys_free(v, names) for k, v in value.items()}
    return value


def pin_chain(chain: list[Event]) -> list[str]:
    """One line per event: ``role content-hash meta-digest`` (16 hex digits each)."""
    names = {chain[0].key: "<game>"} if chain else {}
    names.update({e.id: f"<event {e.version}>" for e in chain})
    lines = []
    for event in chain:
        meta = _keys_free(event.meta, names)
        if event.version == 1:
            meta["game"] = {k: v for k, v in meta["game"].items() if k != "config"}
        text = json.dumps(meta, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        lines.append(f"{event.role} {event.hash[:16]} {digest[:16]}")
    return lines


def _seating(games: Mapping[str, Game]) -> Callable[[str, GameState], Mapping[int, Player]]:
    players: dict[str, dict[int, Player]] = {}

    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        seats = players.get(game_id)
        if seats is None:
            game = games[game_id]
            if game.kind == "scripted":
                scripted = ScriptedPlayer(game.script)
                seats = dict.fromkeys(state.seats, scripted)
            else:
                seats = {
                    s: make_player(game.kind, game_seed=state.seed, seat=s) for s in state.seats
                }
            players[game_id] = seats
        return seats

    return seating


def play(games: tuple[Game, ...], store: EventStore) -> dict[str, list[str]]:
    """Play ``games`` together in one rule over ``store``; their pins by game name."""
    by_id: dict[str, Game] = {}
    rule = WorkflowRule(werewolf_workflow(_seating(by_id)), store)
    for game in games:
        by_id[start_game(rule, seed=game.seed, deal=game.deal)] = game
    statuses = asyncio.run(rule.run())
    ended = [by_id[k].name for k, status in statuses.items() if status != "ended"]
    if ended:
        raise RuntimeError(f"pinned games that did not end: {ended}")
    return {by_id[k].name: pin_chain(store.chain(k)) for k in by_id}


def play_everywhere(games: tuple[Game, ...]) -> dict[str, list[str]]:
    """The pins of ``games`` in memory; raises if a durable SQLite store gives others."""
    pins = play(games, MemoryEventStore())
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "pinned.sqlite3")
        try:
            on_disk = play(games, store)
        finally:
            store.close()
    if on_disk != pins:
        differ = sorted(name for name in pins if pins[name] != on_disk.get(name))
        raise RuntimeError(f"SQLite and memory logs differ for {differ}")
    return pins


def fixture_text(fixture: str) -> str:
    games = STANDARD if fixture == "standard" else MOCK
    return json.dumps(play_everywhere(games), indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", nargs="*", metavar="FIXTURE", help="standard, mock (all)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a fixture would change")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.fixtures) - set(FIXTURES))
    if unknown:
        parser.error(f"unknown fixture {unknown[0]!r}: use {' or '.join(FIXTURES)}")
    stale = []
    for fixture in args.fixtures or FIXTURES:
        path = PINNED / f"{fixture}.json"
        text = fixture_text(fixture)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            print(f"up to date {path.relative_to(ROOT)}")  # a silent success looks like no run
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
