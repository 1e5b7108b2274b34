"""Every kind of player on the boards with the new identities: the mock plays them sensibly,
the random player and LLM seats are offered exactly the legal targets (forced tool calls on
the real test server), the human seat gets a menu of them, in English and Chinese."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pulse_core import MemoryEventStore, SQLiteEventStore, WorkflowRule
from tests.openai_server import OpenAIServer
from tests.oracle import check_log
from tests.werewolf.llm_support import (
    LegalTable,
    legal,
    llm_specs,
    play,
    seat_of,
    tool_of,
    user_text,
)
from werewolf.boards import BOARDS as NAMED_BOARDS
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.decisions import Choice, DecisionKind, Request
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import MockPlayer, mock_seating
from werewolf.players.base import Player
from werewolf.players.human import HumanPlayer
from werewolf.players.prompting import build_messages
from werewolf.players.random_player import RandomPlayer
from werewolf.state import GameState
from werewolf.visibility import view

BOARDS = tuple(name for name in NAMED_BOARDS if name != "standard-9")  # beyond the nine


def _games(board: str, seating: Any, seeds: range) -> list[list[dict[str, Any]]]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(seating), store)
    games = [start_game(rule, seed=s, config=board_config(board)) for s in seeds]
    statuses = asyncio.run(rule.run())
    assert all(statuses[g] == "ended" for g in games)
    return [[{"kind": e.kind, "meta": e.meta} for e in store.chain(g)] for g in games]


def _random(game: str, state: GameState) -> Mapping[int, Player]:
    return {s: RandomPlayer(state.seed) for s in state.seats}


@pytest.mark.parametrize("board", BOARDS)
def test_mock_and_random_games_on_every_board_are_legal(board: str) -> None:
    for seating in (mock_seating(), _random):
        for records in _games(board, seating, range(4)):
            assert check_log(records) == []
            assert not any("fallbacks" in r["meta"] for r in records)


def test_the_mock_guard_and_doctor_play_sensibly() -> None:
    """The guard keeps night 1 empty (no clash with the witch's antidote); afterwards a
    guard or a doctor protects the seer the table believes."""
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    game = start_game(rule, seed=4, config=board_config("guard-12"))
    asyncio.run(rule.run())
    chain = store.chain(game)
    first = next(e for e in chain if e.role == "guard-protect")
    assert first.meta["diff"]["target"] is None
    state = fold_chain(chain)
    guard = state.seat_of(Identity.GUARD)
    assert guard is not None
    reasons = [e for e in chain if e.role == "guard-protect"]
    assert len(reasons) >= 2
    # a doctor asked with a lone, believed seer claim on the table protects that seer
    doctor_chain = store.chain(start_game(rule, seed=9, config=board_config("seer-doctor-8")))
    doctor_state = fold_chain(doctor_chain)
    doctor = doctor_state.seat_of(Identity.DOCTOR)
    assert doctor is not None
    request = Request(
        DecisionKind.DOCTOR, doctor, view(doctor_chain, doctor), "n1.doctor", options=(1, 2, 3)
    )
    answer = MockPlayer(9, doctor).answer(request)
    assert isinstance(answer, Choice)
    assert answer.target in (1, 2, 3)


def test_a_mock_lover_never_votes_for_the_partner() -> None:
    for records in _games("cupid-10", mock_seating(), range(12)):
        lovers = next(
            r["meta"]["diff"]["lovers"] for r in records if r["kind"].endswith("lovers-told")
        )
        a, b = lovers
        for r in records:
            if r["kind"] == "werewolf.vote":
                for voter, target in r["meta"]["detail"]["ballots"]:
                    assert (voter, target) not in ((a, b), (b, a))


# -- LLM seats --------------------------------------------------------------------------------
@pytest.mark.parametrize("board", ["guard-12", "cupid-10"])
def test_llm_seats_are_offered_only_the_legal_targets(board: str, tmp_path: Path) -> None:
    config = board_config(board)
    with OpenAIServer(LegalTable(witch_saves=False)) as server:
        specs = llm_specs(server, seats=config.seats, personality="terse")
        played = play(specs, seed=2, store_path=tmp_path / "g.sqlite3", config=config)
        bodies = server.bodies()
    assert played.status == "ended"
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    state = fold_chain(played.chain)
    tools = [(seat_of(b), *tool_of(b), b) for b in bodies]
    offered = {t["function"]["name"] for b in bodies for t in b.get("tools", [])}
    assert ("guard_protect" in offered) == (board == "guard-12")
    assert ("cupid_link" in offered) == (board == "cupid-10")
    assert "doctor_protect" not in offered  # a board without a doctor offers no doctor tool
    if board == "guard-12":
        guards = [(s, schema, b) for s, name, schema, b in tools if name == "guard_protect"]
        assert guards
        protected = [e.meta["diff"]["target"] for e in played.chain if e.role == "guard-protect"]
        for (seat, _, body), last in zip(guards[1:], protected, strict=False):
            assert seat == state.seat_of(Identity.GUARD)
            enum = legal(body, "target")
            assert 0 in enum  # nobody (空守)
            if last is not None:
                assert last not in enum, "last night's seat offered again"
            assert "protect tonight" in user_text(body)
    else:
        cupids = [(schema, b) for _, name, schema, b in tools if name == "cupid_link"]
        assert len(cupids) == 2
        first = state.lovers
        second_enum = legal(cupids[1][1], "target")
        assert len(set(second_enum) & set(first)) == 1  # the first lover is not offered again
        told = [b for b in bodies if "cupid made" in user_text(b)]
        assert {seat_of(b) for b in told} <= set(state.lovers)


def test_the_prompts_of_the_new_identities_in_both_languages() -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    chain = store.chain(start_game(rule, seed=1, config=board_config("guard-12")))
    guard = fold_chain(chain).seat_of(Identity.GUARD)
    assert guard is not None
    request = Request(
        DecisionKind.GUARD, guard, view(chain, guard), "n1.guard", options=(1, 2, None),
        context={"night": 1, "last": None},
    )  # fmt: skip
    en = build_messages(request, "calm", "en")
    zh = build_messages(request, "冷静", "zh")
    assert "Your card: the Guard." in en[0]["content"]
    assert "Guard: each night, before the wolves" in en[0]["content"]
    assert "守卫" in zh[0]["content"]
    assert "选择今晚守护的玩家" in zh[1]["content"]
    assert re.search(r"Options: .*0 = nobody", en[1]["content"])


# -- the human seat ---------------------------------------------------------------------------
class ScriptedTerminal:
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.shown: list[str] = []

    def show(self, text: str) -> None:
        self.shown.append(text)

    def read_line(self, prompt: str) -> str:
        self.shown.append(prompt)
        return self.lines.pop(0)


def test_a_human_guard_picks_from_a_menu_of_the_legal_seats() -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    chain = store.chain(start_game(rule, seed=1, config=board_config("guard-12")))
    guard = fold_chain(chain).seat_of(Identity.GUARD)
    assert guard is not None
    request = Request(
        DecisionKind.GUARD, guard, view(chain, guard), "n2.guard", options=(2, 5, None),
        context={"night": 2, "last": 3},
    )  # fmt: skip
    terminal = ScriptedTerminal("3", "0 keep it empty")
    answer = asyncio.run(HumanPlayer(guard, terminal=terminal).decide(request))
    shown = "\n".join(terminal.shown)
    assert "Each night, before the wolves, you protect" in shown
    assert "Last night you protected seat 3 (Cai): not that player again tonight." in shown
    assert "  [0] nobody" in shown
    assert "'3' is not one of the options: type one of 2, 5, 0." in shown
    assert answer == Choice(None, reasoning="keep it empty")


def test_good_mock_voters_spare_a_revealed_idiot() -> None:
    revealed_games = 0
    for records in _games("idiot-12", mock_seating(), range(16)):
        deal = records[0]["meta"]["deal"]
        idiot: int | None = None
        for r in records:
            if r["kind"] != "werewolf.vote":
                continue
            if idiot is not None:
                for voter, target in r["meta"]["detail"]["ballots"]:
                    assert not (target == idiot and deal[voter - 1] != "werewolf")
            if r["meta"]["diff"].get("revealed") is not None:
                idiot = r["meta"]["diff"]["revealed"]
                revealed_games += 1
    assert revealed_games


# -- the command line -------------------------------------------------------------------------
def test_a_board_comes_from_the_option_or_the_config_file_and_flags_change_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from werewolf.cli import main

    store = tmp_path / "s.sqlite3"
    config = tmp_path / "rules.toml"
    config.write_text('board = "guard-12"\nguard_repeat = true\n', encoding="utf-8")
    assert main(["play", "-q", "--seed", "1", "--store", str(store), "--config", str(config)]) == 0
    argv = ["play", "-q", "--seed", "2", "--store", str(store), "--board", "seer-doctor-8"]
    assert main([*argv, "--win-rule", "side"]) == 0
    with SQLiteEventStore(store) as s:
        starts = sorted(
            (s.chain(g)[0].meta["game"] for g in s.topics()), key=lambda game: game["seed"]
        )
    guard, doctor = (game["config"] for game in starts)
    assert guard["identities"].count("werewolf") == 4
    assert "guard" in guard["identities"]
    assert guard["guard_repeat"] is True
    assert guard["referee_record"] is True
    assert "doctor" in doctor["identities"]
    assert doctor["win_rule"] == "side"  # the flag over the board's parity
    bad = tmp_path / "bad.toml"
    bad.write_text('board = "nine"\n', encoding="utf-8")
    assert main(["play", "-q", "--store", str(store), "--config", str(bad)]) == 2
    assert "unknown board 'nine'" in capsys.readouterr().err
