"""Discussion formats and what death reveals, as config: one speech each in order (the
default, logged as before), N rounds, a speech budget, bidding for the floor with the bids
logged, and the team or identity of the dead told to everyone. Every game here is also
re-judged by the independent referee (tests/oracle.py)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from pulse_core import Event, MemoryEventStore, WorkflowRule
from tests.oracle import check_log
from werewolf.cast import Identity, team_of
from werewolf.config import GameConfig, parse_config
from werewolf.decisions import Choice, DecisionKind, Request
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.schema import decision_tool
from werewolf.rules import BIDS, floor_winner
from werewolf.ruletext import rules_text
from werewolf.state import GameState, Stage
from werewolf.visibility import view


def play(config: GameConfig, seed: int = 5) -> list[Event]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    game = start_game(rule, seed=seed, config=config)
    assert asyncio.run(rule.run())[game] == "ended"
    chain = store.chain(game)
    records = [{"kind": e.kind, "meta": e.meta} for e in chain]
    assert check_log(records) == []
    return chain


def day_one(chain: list[Event]) -> list[Event]:
    """The events of day 1, from its dawn to its first vote."""
    start = next(i for i, e in enumerate(chain) if e.role == "dawn")
    end = next(i for i, e in enumerate(chain) if e.role == "vote")
    return chain[start : end + 1]


def test_the_default_game_logs_no_discussion_field() -> None:
    chain = play(GameConfig())
    config = chain[0].meta["game"]["config"]
    for name in ("discussion", "speech_rounds", "speech_budget", "reveal_on_death"):
        assert name not in config
    assert not any(e.role == "floor-bid" for e in chain)
    assert all("revealed" not in e.meta.get("detail", {}) for e in chain)
    assert "every living player speaks once in turn" in rules_text(GameConfig())


def test_rounds_give_each_living_player_n_speeches_in_order() -> None:
    chain = play(parse_config({"speech_rounds": 2}))
    assert chain[0].meta["game"]["config"]["speech_rounds"] == 2
    speakers = [e.meta["diff"]["speaker"] for e in day_one(chain) if e.role == "day-speech"]
    living = len(speakers) // 2
    assert speakers[:living] == speakers[living:]  # the same order, twice
    assert Counter(speakers) == dict.fromkeys(speakers, 2)
    assert "speaks 2 times in turn" in rules_text(parse_config({"speech_rounds": 2}))


def test_the_budget_ends_the_discussion() -> None:
    chain = play(parse_config({"speech_rounds": 3, "speech_budget": 4}))
    for day in range(1, 4):
        speeches = [
            e
            for e in chain
            if e.role == "day-speech" and e.meta["day"] == day and not e.meta["detail"]["pk"]
        ]
        if any(e.role == "vote" and e.meta["day"] == day for e in chain):
            assert len(speeches) == 4


def test_bidding_gives_the_floor_to_the_highest_bid_and_logs_every_bid() -> None:
    config = parse_config({"discussion": "bidding", "speech_rounds": 2, "speech_budget": 12})
    chain = play(config)
    day = day_one(chain)
    bids = [e for e in day if e.role == "floor-bid"]
    speeches = [e for e in day if e.role == "day-speech"]
    assert len(bids) == len(speeches) == 12
    for bid, speech in zip(bids, speeches, strict=True):
        assert bid.meta["visible_to"] is None  # the bids are public
        offered = dict(bid.meta["detail"]["bids"])
        assert set(offered.values()) <= set(BIDS)
        assert offered[bid.meta["diff"]["floor"]] == max(offered.values())
        assert speech.meta["diff"]["speaker"] == bid.meta["diff"]["floor"]
    order = [e.role for e in day if e.role in ("floor-bid", "day-speech")]
    assert order == ["floor-bid", "day-speech"] * 12
    assert "bids 0 to 3" in rules_text(config)
    assert "竞价" in rules_text(config, "zh")


def _state(spoken: tuple[int, ...]) -> GameState:
    chain = play(parse_config({"discussion": "bidding"}), seed=1)
    state = fold_chain(chain[:1])  # the deal, before night 1
    return GameState(
        config=state.config,
        names=state.names,
        identities=state.identities,
        seed=state.seed,
        alive=frozenset(range(1, 10)),
        night=1,
        stage=Stage.DISCUSSION,
        spoken=spoken,
    )


def test_a_tied_bid_goes_to_who_spoke_least_then_to_today_s_order() -> None:
    # night 1 without deaths: today's order starts at seat 1
    state = _state(spoken=(1,))
    assert floor_winner(state, {1: 3, 2: 3, 5: 1}) == 2  # 1 spoke already
    assert floor_winner(state, {3: 2, 2: 2, 9: 2}) == 2  # the earliest in today's order
    assert floor_winner(state, {4: 0, 7: 1}) == 7  # the highest bid first


@pytest.mark.parametrize("reveal", ["team", "identity"])
def test_death_reveals_the_team_or_the_identity_to_every_seat(reveal: str) -> None:
    chain = play(parse_config({"reveal_on_death": reveal}))
    deal = [Identity(i) for i in chain[0].meta["deal"]]
    told = 0
    for e in chain:
        for seat, what in e.meta.get("detail", {}).get("revealed", []):
            truth = deal[seat - 1]
            assert what == (team_of(truth).value if reveal == "team" else truth.value)
            assert e.meta["visible_to"] is None
            told += 1
    deaths = sum(len(e.meta["diff"]["died"]) for e in chain if e.role == "dawn")
    deaths += sum(1 for e in chain if e.role == "vote" and e.meta["diff"]["exiled"] is not None)
    assert told >= deaths > 0
    # every seat's view holds it (the LLM prompt and the human seat read views)
    seen = view(chain, 1)
    assert any(o.detail.get("revealed") for o in seen.observations)


def test_an_llm_seat_bids_with_a_number_not_a_seat() -> None:
    chain = play(parse_config({"discussion": "bidding"}), seed=2)
    request = Request(DecisionKind.BID, 3, view(chain[:3], 3), "d1.bid1.s3", options=BIDS)
    tool = decision_tool(request, "en")
    schema = tool.model.model_json_schema()
    assert schema["properties"]["bid"]["enum"] == [0, 1, 2, 3]
    assert "target" not in schema["properties"]
    arguments = tool.model.model_validate_json(json.dumps({"reasoning": "r", "bid": 2}))
    assert tool.answer(arguments) == Choice(2, reasoning="r")
