"""The engine's fast paths give what the plain code they stand for gives: the fold's
``records.replace`` and ``dataclasses.replace``, a state's seat lookups and a scan of the
deal, a lazy view and a built one, the next speaker and a count of who spoke."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter

import pytest

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.cast import Identity
from werewolf.config import GameConfig
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import uniform_seating
from werewolf.records import replace
from werewolf.rules import next_speaker, speaking_order, speeches_left
from werewolf.state import GameState, Stage
from werewolf.visibility import SeatView, ViewCache, view


def played(seed: int, config: GameConfig | None = None) -> list[Event]:
    """The log of one random-player game."""
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(uniform_seating("random")), store)
    game = start_game(rule, seed=seed, config=config)
    asyncio.run(rule.run())
    return store.chain(game)


def states(seed: int, config: GameConfig | None = None) -> list[GameState]:
    """The state after every event of one random-player game."""
    chain = played(seed, config)
    return [fold_chain(chain[:n]) for n in range(1, len(chain) + 1)]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_folds_copy_equals_dataclasses_replace(seed: int) -> None:
    for state in states(seed):
        changes = {"night": state.night + 1, "spoken": (*state.spoken, 1), "floor": None}
        fast, plain = replace(state, **changes), dataclasses.replace(state, **changes)
        assert fast == plain
        assert fast.by_identity == plain.by_identity
    with pytest.raises(TypeError, match="no field 'nights'"):
        replace(state, nights=3)


def test_seat_lookups_equal_a_scan_of_the_deal() -> None:
    for state in states(3):
        for identity in Identity:
            scan = tuple(s for s in state.seats if state.identities[s - 1] is identity)
            assert state.seats_of(identity) == scan
            assert state.seat_of(identity) == (scan[0] if scan else None)


def _counted_next_speaker(state: GameState) -> int | None:
    """``next_speaker`` as it read before: a Counter of who spoke, round after round."""
    if speeches_left(state) == 0:
        return None
    spoken = Counter(state.spoken)
    for round_no in range(1, state.config.speech_rounds + 1):
        for seat in speaking_order(state):
            if spoken[seat] < round_no:
                return seat
    return None


@pytest.mark.parametrize("rounds", [1, 2])
def test_the_next_speaker_equals_a_count_of_who_spoke(rounds: int) -> None:
    config = GameConfig(speech_rounds=rounds)
    day = [s for seed in (4, 5) for s in states(seed, config) if s.stage is not Stage.NIGHT]
    assert any(s.spoken for s in day)
    for state in day:
        assert next_speaker(state) == _counted_next_speaker(state)


def test_a_lazy_view_equals_the_built_one() -> None:
    chain = played(6)
    cache = ViewCache()
    for n in (1, 5, len(chain) // 2, len(chain)):
        for seat in range(1, 10):
            built = view(chain[:n], seat)
            assert cache.lazy(chain[:n], seat) == built
            assert built.alive == tuple(s for s in range(1, 10) if s not in built.dead)


def test_a_cached_view_equals_one_constructed_from_its_fields() -> None:
    """A view is filled slot by slot, its living seats kept until the next death: it
    equals SeatView(...) of the same fields, whose __post_init__ derives the living."""
    chain = played(7)
    cache = ViewCache()
    deaths = set()
    for n in range(1, len(chain) + 1):
        for seat in range(1, 10):
            built = cache.view(chain[:n], seat)
            init = {f.name: getattr(built, f.name) for f in dataclasses.fields(built) if f.init}
            plain = SeatView(**init)
            assert type(built) is SeatView
            assert built == plain
            assert built.alive == plain.alive
            deaths.add(built.dead)
    assert len(deaths) > 3  # views before and after several deaths


def test_a_numbered_observation_equals_a_constructed_one() -> None:
    from werewolf.visibility import Observation, _numbered

    seen = Observation(0, "vote", 2, {"exiled": 3}, {"round": 1})
    assert _numbered(seen, 4) == Observation(4, "vote", 2, {"exiled": 3}, {"round": 1})


def test_a_made_request_equals_a_constructed_one() -> None:
    """A phase's requests are filled slot by slot (``make_request``): each equals the
    Request(...) of the same fields, and reads the same (no slot left unset)."""
    from werewolf.decisions import DecisionKind, Request, make_request
    from werewolf.rules import WitchOptions

    chain = played(8)
    seat_view = view(chain, 3)
    witch = WitchOptions(
        witch=3, told_target=5, can_save=True, poison_targets=(1, 2), both_allowed=False
    )
    fields = dataclasses.fields(Request)
    for args in [
        (DecisionKind.VOTE, 3, seat_view, "d1.vote.r1.s3", (1, 2, None), None, {"day": 1}),
        (DecisionKind.WITCH, 3, seat_view, "n1.witch.s3", (), witch, {}),
    ]:
        made, plain = make_request(*args), Request(*args)
        assert made == plain
        assert [getattr(made, f.name) for f in fields] == [getattr(plain, f.name) for f in fields]
        assert made.feedback is None


def test_slot_setters_refuse_a_field_list_that_is_not_the_class_s() -> None:
    """A field added to a class and not to its fast fill fails at import."""
    from werewolf.decisions import Request
    from werewolf.records import slot_setters

    with pytest.raises(TypeError, match="fields are not"):
        slot_setters(Request, ("kind", "seat", "view", "key", "options", "witch", "context"))
