"""Pinned logs: fixed-seed games write exactly the events they wrote when the pins were made.

The pins (``tests/werewolf/pinned/*.json``) are made by ``scripts/pin_logs.py``, which says
what an event's pin holds. ``standard.json`` (random and scripted players) must not change
with a speed-up or with new identities and boards; ``mock.json`` changes, by a deliberate
``scripts/pin_logs.py mock``, only when the mock players are meant to play differently.
Each game is played in memory and in a durable SQLite file, both must match.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

from pulse_core import Event, IdSource

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).resolve().parent / "pinned"


@pytest.fixture(scope="module")
def pin_logs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pin_logs", ROOT / "scripts" / "pin_logs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pin_logs"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def _first_difference(pinned: dict[str, list[str]], now: dict[str, list[str]]) -> str:
    for name in sorted(set(pinned) | set(now)):
        old, new = pinned.get(name, []), now.get(name, [])
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            if a != b:
                return f"{name}, event {index + 1}: pinned {a!r}, now {b!r}"
        if len(old) != len(new):
            return f"{name}: {len(old)} events pinned, {len(new)} now"
    return "no difference"


@pytest.mark.parametrize("fixture", ["standard", "mock"])
def test_fixed_seed_games_write_the_pinned_logs(pin_logs: ModuleType, fixture: str) -> None:
    pinned = json.loads((PINNED / f"{fixture}.json").read_text(encoding="utf-8"))
    now = json.loads(pin_logs.fixture_text(fixture))
    assert now == pinned, (
        f"{fixture}.json: {_first_difference(pinned, now)}; if the change is deliberate, "
        f"run scripts/pin_logs.py {fixture} and review the diff"
    )


def test_the_standard_fixture_covers_random_and_scripted_games(pin_logs: ModuleType) -> None:
    pinned = json.loads((PINNED / "standard.json").read_text(encoding="utf-8"))
    kinds = {name.split("-")[0] for name in pinned}
    assert kinds == {"random", "scripted"}
    roles = {line.split()[0] for chain in pinned.values() for line in chain}
    assert {"hunter-shot", "witch-action", "seer-check", "vote", "game-end"} <= roles


def _event(version: int, key: str, meta: dict[str, object], ids: IdSource) -> Event:
    moment = datetime(2025, 1, 1, tzinfo=UTC)
    return Event(ids.new(moment), moment, "werewolf.x", key, "ab" * 32, meta, "0", version, version)


def test_a_pin_names_run_time_ids_by_their_place_in_the_chain(pin_logs: ModuleType) -> None:
    def chain(ids: IdSource) -> list[Event]:
        key = ids.new()
        first = _event(1, key, {"game": {"config": {}, "seed": 1}}, ids)
        second = _event(2, key, {"about": first.id, "game": key, "by": {first.id: 1}}, ids)
        return [first, second]

    one, other = chain(IdSource()), chain(IdSource())
    assert one[0].id != other[0].id
    assert pin_logs.pin_chain(one) == pin_logs.pin_chain(other)
    changed = chain(IdSource())
    changed[1].meta["by"] = {changed[0].id: 2}
    assert pin_logs.pin_chain(changed)[1] != pin_logs.pin_chain(one)[1]


def test_check_says_so_when_a_fixture_is_up_to_date(
    pin_logs: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pin_logs.main(["standard", "--check"]) == 0
    assert capsys.readouterr().out == "up to date tests/werewolf/pinned/standard.json\n"
