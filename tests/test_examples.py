"""The examples play: the rule-based agent whole games on two boards, the reflective LLM
agent a whole game against the local OpenAI-compatible server (its notes carried from one
decision to the next), and the arena between them and the mock players."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.openai_server import TEST_API_KEY, OpenAIServer
from werewolf import (
    Choice,
    DecisionKind,
    GameResult,
    Identity,
    Request,
    Speech,
    check_player,
    play_game,
    view,
)
from werewolf.boards import BOARDS
from werewolf.decisions import NoAnswer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
WEREWOLF = str(Path(sys.executable).parent / "werewolf")  # the installed command


@pytest.fixture(scope="module", autouse=True)
def _examples_importable() -> Iterator[None]:
    sys.path.insert(0, str(EXAMPLES))
    yield
    sys.path.remove(str(EXAMPLES))


def _fallbacks(result: GameResult, seats: set[int]) -> list[dict[str, Any]]:
    return [f for e in result.chain for f in e.meta.get("fallbacks", []) if f["seat"] in seats]


@pytest.mark.parametrize(("board", "seed"), [("standard-9", 4), ("guard-12", 6)])
def test_the_rule_based_agent_plays_whole_games_and_never_falls_back(board: str, seed: int) -> None:
    from rule_based_agent import RuleBasedAgent, make_agent

    made: list[RuleBasedAgent] = []

    def factory(game_seed: int, seat: int) -> RuleBasedAgent:
        made.append(make_agent(game_seed, seat))
        return made[-1]

    result = play_game(board=board, seed=seed, seats=dict.fromkeys(range(1, 10), factory))
    assert result.ended
    assert len(made) == 9
    assert all(agent.decisions > 0 for agent in made)
    assert _fallbacks(result, set(range(1, 10))) == []


def test_the_rule_based_witch_saves_on_the_first_night_and_the_seer_tells_her_checks() -> None:
    from rule_based_agent import make_agent

    result = play_game(board="standard-9", seed=4, seats=dict.fromkeys(range(1, 10), make_agent))
    deal = result.chain[0].meta["deal"]
    witch_night = next(e for e in result.chain if e.role == "witch-action")
    assert witch_night.meta["detail"]["told_target"] is not None
    assert witch_night.meta["diff"]["save"] is True
    seer = deal.index(Identity.SEER.value) + 1
    check = next(e for e in result.chain if e.role == "seer-check")
    said = [
        e.meta["detail"]["text"]
        for e in result.chain
        if e.role == "day-speech" and e.meta["diff"]["speaker"] == seer
    ]
    verdict = "a wolf" if check.meta["diff"]["wolf"] else "good"
    assert said
    assert f"seat {check.meta['diff']['target']} is {verdict}" in said[0]


def test_the_reflective_agent_plays_a_whole_game_and_carries_its_notes() -> None:
    from reflective_llm_agent import LegalModel, ReflectiveLLMAgent

    with OpenAIServer(LegalModel()) as server:
        agent = ReflectiveLLMAgent("test-model", base_url=server.base_url, api_key=TEST_API_KEY)
        result = play_game(board="standard-9", seed=7, seats={3: agent})
        prompts = [str(body["messages"][-1]["content"]) for body in server.bodies()]
    assert result.ended
    assert _fallbacks(result, {3}) == []
    decisions = [p for p in prompts if '{"notes"' not in p]
    assert len(decisions) == len(agent.decided) >= 2
    assert agent._client is None  # closed when the game stopped
    usage = [u for e in result.chain for u in e.meta.get("usage", []) if u["seat"] == 3]
    assert sum(u["calls"] for u in usage) == len(prompts)  # each answer's cost, recorded
    assert sum(u["prompt_tokens"] for u in usage) == server.billed().prompt_tokens
    assert len(prompts) == 2 * len(decisions)  # one reflection after every decision
    assert "Your notes: (none yet)" in decisions[0]
    for taken, prompt in enumerate(decisions[1:], start=1):
        assert f"Your notes: notes after {taken} decisions" in prompt
    assert agent.notes == f"notes after {len(decisions)} decisions"
    assert all(p.startswith(("You are seat 3 ", "You are seat 3,")) for p in prompts)


def test_the_reflective_agent_hands_the_models_json_to_the_rules() -> None:
    from reflective_llm_agent import read_answer

    result = play_game(seed=1)
    seen = view(result.chain, 2)
    vote = Request(DecisionKind.VOTE, 2, seen, "d1.vote.s2", (1, 3, None))
    assert read_answer(vote, {"target": 3, "reasoning": "r"}) == Choice(3, reasoning="r")
    wrong = read_answer(vote, {"target": "3"})  # no seat number: the rules refuse it
    assert wrong == Choice(None)
    assert isinstance(read_answer(vote, None), NoAnswer)
    speech = Request(DecisionKind.SPEECH, 2, seen, "d1.speech.s2")
    assert read_answer(speech, {"text": "hi"}) == Speech("hi")


def test_the_arena_example_plays_its_games() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "arena.py"), "--games", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert sorted(rows) == ["mock", "reflective-llm", "rule-based"]
    for line in rows.values():  # two games each, on one side or the other
        counts = [part.split("/") for part in line.split() if "/" in part]
        assert sum(int(total) for _won, total in counts) == 2


def test_the_rule_based_example_runs_as_a_script() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "rule_based_agent.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("winner: ")
    assert "Shown: seat 3" in done.stdout  # the replay as seat 3 saw it


def test_the_rule_based_village_votes_for_the_wolf_its_seer_named() -> None:
    from rule_based_agent import make_agent

    result = play_game(board="standard-9", seed=7, seats=dict.fromkeys(range(1, 10), make_agent))
    deal = result.chain[0].meta["deal"]
    check = next(e for e in result.chain if e.role == "seer-check").meta["diff"]
    assert check["wolf"] is True  # night 1: the seer found a wolf
    vote = next(e for e in result.chain if e.role == "vote")
    good = {v: t for v, t in vote.meta["detail"]["ballots"] if deal[v - 1] != "werewolf"}
    assert len(good) >= 5
    assert set(good.values()) == {check["target"]}
    assert vote.meta["diff"]["exiled"] == check["target"]


def test_the_rule_based_agent_passes_the_player_check() -> None:
    from rule_based_agent import make_agent

    report = check_player(make_agent, games=1)
    assert report.lines() == []
    assert report.games >= len(BOARDS)  # a game a board, and the check of leaks


def test_the_reflective_agent_passes_the_player_check() -> None:
    from reflective_llm_agent import LegalModel, ReflectiveLLMAgent

    with OpenAIServer(LegalModel()) as server:

        def make(game_seed: int, seat: int) -> ReflectiveLLMAgent:
            return ReflectiveLLMAgent("test-model", base_url=server.base_url, api_key=TEST_API_KEY)

        report = check_player(make, boards=["standard-9"], games=1, slow=30.0)
    assert report.lines() == []


def test_an_arena_run_plays_the_rule_based_agent_against_the_mocks(tmp_path: Path) -> None:
    store = tmp_path / "arena.sqlite3"
    done = subprocess.run(
        [WEREWOLF, "arena", "run", "--name", "examples-vs-mocks", "--games", "4", "-q",
         "--players", "py:rule_based_agent:make_agent,mock", "--store", str(store)],
        capture_output=True, text=True, cwd=EXAMPLES, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = subprocess.run(
        [WEREWOLF, "arena", "report", "examples-vs-mocks", "--store", str(store),
         "--width", "120"],
        capture_output=True, text=True, cwd=EXAMPLES, timeout=300,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    assert "head-to-head of rule-based, mock" in report.stdout  # its kind attribute names it
