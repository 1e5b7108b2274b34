"""The event kinds (werewolf/events): every kind a game writes is registered, its fold and
its meaning run, and what the meanings tell the table agrees with the god's fold; a kind
and a cause no reader knows are drawn and worded without an edit of any reader."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from pulse_core import START, Event, MemoryEventStore, WorkflowRule
from pulse_core.workflow import is_control
from werewolf.boards import BOARDS, board_config
from werewolf.config import GameConfig
from werewolf.events import cause_label, meaning_of
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.records import replace
from werewolf.registry import _EVENTS, EventSpec, Meaning, Names, event_spec, register_event
from werewolf.replay.page import entry_data
from werewolf.replay.render import StoryRenderer, god_fates, seen_fates
from werewolf.replay.views import Entry, ViewKind, ViewSpec
from werewolf.state import Death, GameState, evolve, initial_state

SEEDS = range(6)


def _games(config: GameConfig) -> list[list[Event]]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    games = [start_game(rule, seed=seed, config=config) for seed in SEEDS]
    asyncio.run(rule.run())
    return [store.chain(game) for game in games]


@pytest.fixture(scope="module")
def played() -> dict[str, list[list[Event]]]:
    """A few mock games of every board, and of one with bidding and death's reveals."""
    games = {name: _games(board_config(name)) for name in BOARDS}
    cupid = board_config("cupid-10").model_dump()
    told = GameConfig.model_validate(
        {**cupid, "discussion": "bidding", "reveal_on_death": "identity"}
    )
    games["cupid-10 bidding"] = _games(told)
    return games


def _phase_events(chain: list[Event]) -> Iterator[Event]:
    return (e for e in chain[1:] if not is_control(e) and e.role != START)


def test_every_kind_a_game_writes_is_registered_and_its_fold_and_meaning_run(
    played: dict[str, list[list[Event]]],
) -> None:
    seen: set[str] = set()
    for chains in played.values():
        for chain in chains:
            state = initial_state(chain[0].meta)
            for event in _phase_events(chain):
                spec = event_spec(event.role)
                assert spec is not None, f"{event.role}: no EventSpec"
                meta = event.meta
                assert isinstance(spec.meaning(meta["diff"], meta["detail"]), Meaning)
                state = evolve(state, event.role, meta["diff"])
                seen.add(event.role)
            assert state.ended
    assert {"dawn", "vote", "day-speech", "floor-bid", "game-end", "cupid-link"} <= seen


def _announced(chain: list[Event]) -> tuple[GameState, list[tuple[int, str | None]]]:
    """The fold's end state, and every death the events' meanings announce (seat, cause)."""
    state = initial_state(chain[0].meta)
    told: list[tuple[int, str | None]] = []
    for event in _phase_events(chain):
        state = evolve(state, event.role, event.meta["diff"])
        told += meaning_of(event.role, event.meta["diff"], event.meta["detail"]).deaths
    return state, told


def test_every_death_of_the_fold_is_announced_once_with_its_cause_when_told(
    played: dict[str, list[list[Event]]],
) -> None:
    causes_seen: set[str] = set()
    for board, chains in played.items():
        for chain in chains:
            state, told = _announced(chain)
            seats = [seat for seat, _ in told]
            assert sorted(seats) == sorted(d.seat for d in state.deaths), board
            causes = dict(told)
            for death in state.deaths:
                cause = causes[death.seat]
                assert cause is None or cause == death.cause, (board, death, cause)
            causes_seen.update(d.cause for d in state.deaths)
    assert {"wolf", "poison", "exile", "heartbreak"} <= causes_seen, causes_seen


def test_an_idiot_who_shows_his_card_is_revealed_not_announced_dead() -> None:
    exiled = {"exiled": 4, "pk": [], "revealed": 4}
    meaning = meaning_of("vote", exiled, {"round": 1, "ballots": [], "counts": []})
    assert meaning.deaths == ()
    assert meaning.revealed == ((4, "idiot"),)
    shot = meaning_of("hunter-shot", {"shooter": 2, "target": 5, "heartbroken": [7]}, {})
    assert shot.deaths == ((5, "shot"), (7, "heartbreak"))
    assert shot.revealed == ((2, "hunter"),)  # a shot shows the hunter's card
    assert meaning_of("dawn", {"died": [3, 6]}, {"revealed": [[3, "good"]]}) == Meaning(
        ((3, None), (6, None)), ((3, "good"),)
    )


# -- a kind and a cause of one's own ---------------------------------------------------------
def _duel(state: GameState, diff: dict[str, Any]) -> GameState:
    loser = int(diff["loser"])
    return replace(
        state,
        alive=state.alive - {loser},
        deaths=(*state.deaths, Death(loser, state.night, "fall")),
    )


def _dueled(diff: dict[str, Any], detail: dict[str, Any]) -> Meaning:
    return Meaning(deaths=((int(diff["loser"]), "fall"),))


@pytest.fixture
def duel() -> Iterator[EventSpec]:
    spec = register_event(
        EventSpec(
            kind="test-duel",
            label=Names("A duel", "决斗"),
            diff=dict,
            detail=dict,
            fold=_duel,
            meaning=_dueled,
            causes={"fall": Names("fell in a duel, day {n}", "第{n}天决斗身亡")},
        )
    )
    yield spec
    del _EVENTS[spec.kind]  # the registry has no way out: a real kind stays registered


def test_a_new_kind_and_cause_are_folded_worded_and_drawn_by_every_reader(
    duel: EventSpec,
) -> None:
    chain = _games(board_config("standard-9"))[0]
    start = initial_state(chain[0].meta)
    state = evolve(start, "test-duel", {"loser": 3})
    assert state.cause_of_death(3) == "fall"
    assert god_fates(state) == {3: "fell in a duel, day 0"}
    entry = Entry(version=7, phase="test-duel", day=2, diff={"loser": 3}, detail={})
    assert seen_fates([entry]) == {3: "fell in a duel, day 2"}
    assert cause_label("fall", "zh") == "第{n}天决斗身亡"
    renderer = StoryRenderer(ViewSpec(ViewKind.PUBLIC), start)
    console = Console(width=80, record=True, color_system=None)
    for renderable in renderer.entry(entry):
        console.print(renderable)
    drawn = console.export_text()
    assert "A duel: 3 Cai: fell in a duel, day 2." in drawn
    data = entry_data(entry, "d2", god=False)
    assert data["meaning"] == {"deaths": [[3, "fall"]], "revealed": []}


def test_a_cause_no_event_declares_is_still_worded() -> None:
    assert cause_label("drowned") == "died (drowned), day {n}"
    assert cause_label(None) == "died, night {n}"
