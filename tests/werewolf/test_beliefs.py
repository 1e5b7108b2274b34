"""Belief reports: seats report P(wolf) with each vote when the game asks (config beliefs),
privately (god view only); the arena scores them: Brier and log-loss by day and identity,
deception, calibration. Figures are checked against values worked out by hand."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

import pytest

from pulse_core import MemoryEventStore, WorkflowRule
from pulse_core.workflow import read_attachment
from werewolf.arena.beliefs import BeliefRecord, belief_records
from werewolf.arena.game_records import GameRecord, SeatRecord
from werewolf.arena.metrics import tournament_metrics
from werewolf.cast import Identity
from werewolf.cli import main
from werewolf.config import parse_config
from werewolf.decisions import Choice, DecisionKind, Request, problem
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.schema import decision_tool
from werewolf.replay import ViewKind, ViewSpec, load_replay, replay_text
from werewolf.state import Outcome
from werewolf.visibility import view

W, V = Identity.WEREWOLF, Identity.VILLAGER


def _seat(seat: int, player: str, identity: Identity) -> SeatRecord:
    return SeatRecord(seat, player, identity, None, won=False, alive=True, last_day=2)


def _game(index: int, beliefs: tuple[BeliefRecord, ...]) -> GameRecord:
    # seats 1-2 wolves of "b", seats 3-5 good seats of "a" (4: the seer)
    seats = (
        _seat(1, "b", W),
        _seat(2, "b", W),
        _seat(3, "a", V),
        _seat(4, "a", Identity.SEER),
        _seat(5, "a", V),
    )
    return GameRecord(index, Outcome.GOOD, seats, (), beliefs)


def test_brier_log_loss_deception_and_calibration_by_hand() -> None:
    reports = (
        BeliefRecord(1, 4, 1, 0.8, True),  # the seer: seat 1 is a wolf, 0.8
        BeliefRecord(1, 4, 5, 0.2, False),
        BeliefRecord(2, 4, 1, 0.9, True),
        BeliefRecord(1, 3, 2, 0.5, True),  # a villager shrugs about seat 2
        BeliefRecord(1, 1, 3, 0.01, False),  # a wolf's report: it knows, it scores nothing
    )
    m = tournament_metrics([_game(0, reports)], ["a", "b"], rounds=50)
    a, b = m.players["a"], m.players["b"]
    assert a.belief_reports == 4
    assert a.brier.value == pytest.approx((0.04 + 0.04 + 0.01 + 0.25) / 4)
    expected_loss = -(math.log(0.8) + math.log(0.8) + math.log(0.9) + math.log(0.5)) / 4
    assert a.log_loss.value == pytest.approx(expected_loss)
    assert a.brier_by_day["1"].value == pytest.approx((0.04 + 0.04 + 0.25) / 3)
    assert a.brier_by_day["2"].value == pytest.approx(0.01)
    assert a.brier_by_day["3+"].value is None
    assert a.brier_by_identity["seer"].value == pytest.approx(0.03)
    assert a.brier_by_identity["villager"].value == pytest.approx(0.25)
    assert a.brier_by_identity["witch"].value is None
    # b's wolves: good seats gave seat 1 0.8 and 0.9, seat 2 0.5: believed good 0.2, 0.1, 0.5
    assert b.deception.value == pytest.approx((0.2 + 0.1 + 0.5) / 3)
    assert b.belief_reports == 0  # its seats were all wolves
    bins = {round(x.low, 1): x for x in m.calibration}
    assert bins[0.2].reports == 1
    assert bins[0.2].wolf_rate.value == 0.0
    assert bins[0.8].reports == 1
    assert bins[0.8].mean_belief == pytest.approx(0.8)
    assert bins[0.9].wolf_rate.value == 1.0
    assert sum(x.reports for x in m.calibration) == 4  # the wolf's report is left out


def test_log_loss_stays_finite_for_a_certain_mistake() -> None:
    reports = (BeliefRecord(1, 4, 1, 0.0, True),)
    m = tournament_metrics([_game(0, reports)], ["a", "b"], rounds=10)
    assert m.players["a"].log_loss.value == pytest.approx(-math.log(0.01))


def test_no_reports_no_belief_figures() -> None:
    m = tournament_metrics([_game(0, ())], ["a", "b"], rounds=10)
    assert m.calibration == []
    assert m.players["a"].brier.value is None


def _played(beliefs: bool) -> tuple[MemoryEventStore, str]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    game = start_game(rule, seed=11, config=parse_config({"beliefs": beliefs}))
    assert asyncio.run(rule.run())[game] == "ended"
    return store, game


def test_mock_seats_report_beliefs_privately_with_each_vote() -> None:
    store, game = _played(beliefs=True)
    chain = store.chain(game)
    votes = [e for e in chain if e.role == "vote"]
    deal = [Identity(i) for i in chain[0].meta["deal"]]
    for vote in votes:
        voters = [v for v, _ in vote.meta["detail"]["ballots"]]
        names = {f"beliefs/{v}/vote" for v in voters}
        assert names <= set(vote.meta["attachments"])
        for voter in voters:
            told = json.loads(read_attachment(store, vote, f"beliefs/{voter}/vote") or "{}")
            assert str(voter) not in told
            assert all(0.0 <= p <= 1.0 for p in told.values())
            if deal[voter - 1] is W:  # a wolf knows
                assert all((p > 0.5) == (deal[int(s) - 1] is W) for s, p in told.items())
        assert "beliefs" not in json.dumps(vote.meta["detail"])
    records = belief_records(chain, lambda e, n: read_attachment(store, e, n))
    assert records
    assert all(r.wolf == (deal[r.target - 1] is W) for r in records)
    # no seat's view holds a report, its own included
    for seat in range(1, 10):
        assert "beliefs" not in json.dumps([o.detail for o in view(chain, seat).observations])
    # without the config nobody is asked
    plain, plain_game = _played(beliefs=False)
    assert not any(
        n.startswith("beliefs/")
        for e in plain.chain(plain_game)
        for n in e.meta.get("attachments", {})
    )


def test_the_god_view_draws_the_belief_trajectory_and_a_seat_view_does_not(
    tmp_path: Path,
) -> None:
    store = tmp_path / "s.sqlite3"
    config = tmp_path / "beliefs.toml"
    config.write_text("beliefs = true\n")
    argv = ["play", "--seed", "11", "-q", "--store", str(store), "--config", str(config)]
    assert main(argv) == 0
    replay = next(tmp_path.glob("*.jsonl"))
    log = load_replay(str(replay), store)
    god = replay_text(log, ViewSpec(ViewKind.GOD), width=140)
    assert "Day 1 beliefs: P(wolf) reported with the vote" in god
    assert "P(wolf)" not in replay_text(log, ViewSpec.of_seat(3), width=140)
    assert "P(wolf)" not in replay_text(log, ViewSpec(ViewKind.PUBLIC), width=140)


def test_an_llm_vote_carries_beliefs_only_when_asked_and_only_about_the_living() -> None:
    store, game = _played(beliefs=True)
    chain = store.chain(game)
    seen = view(chain[:6], 3)
    request = Request(
        DecisionKind.VOTE, 3, seen, "d1.vote.r1.s3", options=(1, 2, None), context={"beliefs": True}
    )
    tool = decision_tool(request, "en")
    props = tool.model.model_json_schema()["properties"]
    assert "beliefs" in props
    args = tool.model.model_validate_json(
        json.dumps({"reasoning": "r", "target": 1, "beliefs": {"1": 0.7, "2": 0.2}})
    )
    answer = tool.answer(args)
    assert answer == Choice(1, reasoning="r", beliefs={1: 0.7, 2: 0.2})
    assert problem(request, answer) is None
    assert problem(request, Choice(1, beliefs={3: 0.5})) is not None  # about itself
    assert problem(request, Choice(1, beliefs={1: 1.5})) is not None
    unasked = Request(DecisionKind.VOTE, 3, seen, "k", options=(1, 2, None))
    assert "beliefs" not in decision_tool(unasked, "en").model.model_json_schema()["properties"]
    assert problem(unasked, Choice(1, beliefs={1: 0.5})) is not None


def test_an_arena_run_with_beliefs_reports_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "s.sqlite3")
    argv = ["arena", "run", "--players", "mock,random", "--games", "4", "--beliefs"]
    assert main([*argv, "--name", "b", "--store", store, "-q", "--workers", "1"]) == 0
    assert main(["arena", "report", "b", "--store", store, "--width", "80"]) == 0
    out = capsys.readouterr().out
    assert "Beliefs: detection" in out
    assert "Calibration (every good seat's reports)" in out
    figures = json.loads((tmp_path / "arena" / "b.report.json").read_text())
    mock = figures["players"]["mock"]
    assert mock["belief_reports"] > 0
    assert 0 <= mock["brier"]["value"] <= 1
    assert set(mock["brier_by_day"]) == {"1", "2", "3+"}
    assert len(figures["calibration"]) == 10
    assert figures["run"]["config"]["beliefs"] is True


def test_the_stable_tools_offer_bids_and_beliefs_only_when_the_config_asks() -> None:
    from werewolf.players.schema import stable_tools

    def functions(**options: bool) -> dict[str, dict[str, object]]:
        return {t["function"]["name"]: t["function"] for t in stable_tools("en", **options)}

    plain = functions()
    assert "bid" not in plain
    assert "beliefs" not in plain["vote"]["parameters"]["properties"]  # type: ignore[index]
    asked = functions(bidding=True, beliefs=True)
    assert asked["bid"]["parameters"]["properties"]["bid"]["maximum"] == 3  # type: ignore[index]
    assert "beliefs" in asked["vote"]["parameters"]["properties"]  # type: ignore[index]
    assert list(asked)[: len(plain)] == list(plain)  # the same functions first, in order
