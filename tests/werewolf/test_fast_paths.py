"""The engine's fast paths give what the plain code they stand for gives: the fold's
``records.replace`` and ``dataclasses.replace``, a state's seat lookups and a scan of the
deal, a lazy view and a built one, the next speaker and a count of who spoke, a request
filled slot by slot and a constructed one, an event's meta kept as the phase made it and
its JSON round trip."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulse_core import Event, MemoryEventStore, SQLiteEventStore, WorkflowRule
from pulse_core.events import Draft, meta_json
from tests.strategies import (
    PlayedGame,
    checks_game,
    configs,
    game_settings,
    games,
    identity_configs,
)
from werewolf.boards import BOARDS, board_config
from werewolf.cast import Identity
from werewolf.config import Discussion, GameConfig, Reveal, SeerLearns, TiePolicy, WolfKill
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import uniform_seating
from werewolf.records import replace
from werewolf.rules import next_speaker, speaking_order, speeches_left
from werewolf.state import GameState, Stage
from werewolf.visibility import Observation, SeatView, ViewCache, view


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
        assert type(made) is Request
        assert made == plain
        assert [getattr(made, f.name) for f in fields] == [getattr(plain, f.name) for f in fields]
        assert made.feedback is None


def test_slot_setters_refuse_a_field_list_that_is_not_the_class_s() -> None:
    """A field added to a class and not to its fast fill fails at import."""
    from werewolf.decisions import Request
    from werewolf.records import slot_setters

    with pytest.raises(TypeError, match="fields are not"):
        slot_setters(Request, ("kind", "seat", "view", "key", "options", "witch", "context"))


def test_a_fill_class_refuses_a_field_list_that_is_not_the_class_s() -> None:
    """A field added to a class and not to its fill class fails at import; a class filled
    through one is the frozen class itself, frozen."""
    from werewolf.decisions import Request
    from werewolf.records import fill_class

    with pytest.raises(TypeError, match="fields are not"):
        fill_class(Request, ("kind", "seat", "view", "key", "options", "witch", "context"))
    fill: Any = fill_class(Observation, ("index", "phase", "day", "diff", "detail"))
    made: Any = object.__new__(fill)
    made.index, made.phase, made.day, made.diff, made.detail = 1, "vote", 2, {}, {}
    made.__class__ = Observation
    assert type(made) is Observation
    assert made == Observation(1, "vote", 2, {}, {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.day = 3


def _exactly(a: object, b: object) -> bool:
    """Equal with the same types all the way down and dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_exactly(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_exactly(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _own_round_trips(chain: list[Event]) -> None:
    for event in chain:
        back = json.loads(meta_json(event.meta))
        assert _exactly(event.meta, back), (event.kind, event.meta)


@game_settings(0.2)
@given(game=games(st.one_of(configs(), identity_configs())))
@checks_game
def test_every_event_in_memory_holds_its_meta_as_json_gives_it_back(game: PlayedGame) -> None:
    """The phases' events keep their meta without a JSON copy (RoleResult.canonical): on
    every board and rule variant, with seats that now and then answer illegally, each meta
    a memory store holds is exactly its own JSON round trip (what SQLite gives back)."""
    _own_round_trips(game.chain)


def test_the_phases_metas_are_kept_without_a_copy_and_read_as_sqlite_gives_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same games in memory and in SQLite give exactly the same metas (types, key order),
    and the phases' events did take the path without a copy."""
    taken: list[bool] = []  # each trusted draft: made without a copy?
    plain_trusted = Draft.trusted

    def noting(*args: Any, canonical: bool = False) -> Draft:
        taken.append(canonical)
        return plain_trusted(*args, canonical=canonical)

    monkeypatch.setattr(Draft, "trusted", noting)
    boards = [board_config(name) for name in BOARDS]
    variants = [
        GameConfig(seer_learns=SeerLearns.IDENTITY, reveal_on_death=Reveal.TEAM),
        GameConfig(wolf_kill=WolfKill.VOTE, tie_policy=TiePolicy.RANDOM),
        GameConfig(discussion=Discussion.BIDDING, speech_rounds=2),
    ]
    for number, config in enumerate(boards + variants):
        for kind in ("random", "mock") if number == 0 else ("random",):
            chains = []
            sqlite = SQLiteEventStore(tmp_path / f"{number}-{kind}.sqlite3", durable=False)
            for store in (MemoryEventStore(), sqlite):
                rule = WorkflowRule(werewolf_workflow(uniform_seating(kind)), store)
                game = start_game(rule, seed=number, config=config)
                asyncio.run(rule.run())
                chains.append(store.chain(game))
            sqlite.close()
            memory, on_disk = chains
            _own_round_trips(memory)
            assert [e.hash for e in memory] == [e.hash for e in on_disk]
            for kept, read in zip(memory, on_disk, strict=True):
                assert _exactly(kept.meta, read.meta)
    assert sum(taken) > 0.9 * len(taken) > 100


def test_a_view_is_built_with_its_request_unless_the_player_never_reads_it() -> None:
    """``reads_view = False`` (the random player) gets a view built when first read; any
    other player one built with the request; both are the seat's view."""
    from werewolf.decisions import Answer, DecisionKind, Request, Speech
    from werewolf.phases import PhaseContext
    from werewolf.players.base import Player
    from werewolf.players.random_player import RandomPlayer

    class Reader:
        kind = "reader"

        async def decide(self, request: Request) -> Answer:
            return Speech(str(len(request.view.observations)))

    chain = played(9)[:20]
    players: dict[int, Player] = {seat: RandomPlayer(9) for seat in range(1, 10)}
    players[2] = Reader()
    ctx = PhaseContext(chain, fold_chain(chain), players)
    lazy = ctx.request(DecisionKind.VOTE, 1, "d1.vote.r1.s1").view
    built = ctx.request(DecisionKind.VOTE, 2, "d1.vote.r1.s2").view
    assert type(lazy) is not SeatView
    assert type(built) is SeatView
    assert lazy == view(chain, 1)
    assert built == view(chain, 2)


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(),
        GameConfig(allow_self_vote=True, allow_abstain=False),
        board_config("idiot-12").model_copy(update={"idiot_second_exile": False}),
    ],
)
def test_each_vote_options_equals_asking_seat_by_seat(config: GameConfig) -> None:
    """A vote works out every voter's options at once (``rules.each_vote_options``): the
    same as ``vote_options`` asked for each seat, in PK rounds too."""
    from werewolf.rules import each_vote_options, vote_options

    checked = [s for seed in (10, 11, 12, 13) for s in states(seed, config) if not s.ended]
    assert any(s.pk for s in checked)
    for state in checked:
        seats = tuple(state.seats)
        assert each_vote_options(state, seats) == [vote_options(state, s) for s in seats]


def test_a_plain_phase_result_equals_a_constructed_one() -> None:
    """Most events' results are filled slot by slot (``phases.context._plain_result``): each equals
    RoleResult(content, meta, canonical=True), field by field, with no attachments."""
    from pulse_core import RoleResult
    from werewolf.phases.context import _plain_result

    meta = {"day": 1, "diff": {"speaker": 3}}
    made, plain = _plain_result("words", meta), RoleResult("words", meta, canonical=True)
    assert made == plain
    for f in dataclasses.fields(RoleResult):
        assert getattr(made, f.name) == getattr(plain, f.name)
    assert made.meta is meta
    assert not made.attachments


@pytest.mark.parametrize("immediate", [True, False])
def test_a_filled_phase_context_equals_a_constructed_one(immediate: bool) -> None:
    """Every event's phase context is filled slot by slot (``phases.context.phase_context``):
    it equals the constructed one, field by field, with fields of its own to write in."""
    from werewolf.phases.context import PhaseContext, phase_context

    chain = played(5)
    state = fold_chain(chain)
    players = uniform_seating("random")("game", state)
    views, ahead = ViewCache(), {"seer": None}
    args = (chain, state, players, views)
    made = phase_context(*args, retries=1, ahead=ahead, immediate=immediate)
    plain = PhaseContext(*args, retries=1, ahead=ahead, immediate=immediate)
    assert made == plain
    for f in dataclasses.fields(PhaseContext):
        assert getattr(made, f.name) == getattr(plain, f.name)
    assert made.ahead is ahead
    assert made.views is views
    other = phase_context(*args, retries=1, ahead=ahead, immediate=immediate)
    assert other.reasoning is not made.reasoning
    assert other._slots is not made._slots
