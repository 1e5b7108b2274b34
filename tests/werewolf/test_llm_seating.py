"""Seats from specs on the command line: ``--seat`` and ``--lineup`` checked before the game,
the ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` defaults, token totals and cost at the end,
seat swaps (recorded, drawn, ignored by prompts), and a log whose usage and fallbacks do not
depend on the order concurrent answers arrive in.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from pulse_core import MemoryEventStore, SQLiteEventStore, WorkflowRule
from tests.openai_server import TEST_API_KEY, OpenAIServer
from tests.werewolf.llm_support import LegalTable
from werewolf.cli import main
from werewolf.decisions import Answer, Choice, DecisionKind, Request, Speech, Usage, WitchChoice
from werewolf.game import start_game, werewolf_workflow
from werewolf.lineup import SeatSpec
from werewolf.players import MockPlayer, Player, RandomPlayer
from werewolf.players.prompting import history_lines
from werewolf.players.setup import resume_specs, usage_lines
from werewolf.players.swaps import append_swaps, recorded_specs
from werewolf.replay import load_game, replay_text
from werewolf.state import GameState
from werewolf.visibility import view


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the command line ----------------------------------------------------------------------------
def test_one_llm_seat_by_the_openai_defaults_with_totals_and_cost(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    openai_server.handler = LegalTable()
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    prices = tmp_path / "prices.toml"
    prices.write_text('[prices."test-model"]\nprompt = 1.0\ncompletion = 2.0\n', encoding="utf-8")
    store = tmp_path / "w.sqlite3"
    code, out, err = _run(
        capsys,
        "play",
        "--seed",
        "4",
        "--seat",
        "3=llm:test-model",
        "--lineup",
        str(prices),
        "--store",
        str(store),
        "-q",
    )
    assert code == 0, err
    bodies = openai_server.bodies()
    assert bodies
    assert all("seat 3," in b["messages"][0]["content"] for b in bodies)
    assert all(
        r.headers["authorization"] == f"Bearer {TEST_API_KEY}" for r in openai_server.completions()
    )
    prompt = sum(r.usage.prompt_tokens for r in openai_server.completions() if r.usage)
    completion = sum(r.usage.completion_tokens for r in openai_server.completions() if r.usage)
    lines = out.splitlines()
    seat_line = next(line for line in lines if line.startswith("  seat 3 (test-model): "))
    assert (
        f"{prompt:,} prompt + {completion:,} completion tokens in {len(bodies)} calls" in seat_line
    )
    cost = (prompt * 1.0 + completion * 2.0) / 1_000_000
    assert f"${cost:.4f}" in seat_line
    game_line = next(line for line in lines if line.startswith("Game: "))
    assert f"{prompt + completion:,} tokens in {len(bodies)} calls, about ${cost:.4f}." in game_line
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
        start = s.chain(game)[0]
    assert start.meta["game"]["players"][2] == {"kind": "llm", "model": "test-model"}
    assert start.meta["game"]["lang"] == "en"
    assert TEST_API_KEY not in out + err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seat", "12=mock"], "seats.12: no seat 12: seats are 1 to 9"),
        (
            ["--seat", "3=llm:m"],
            "seat 3 needs an API key: the environment variable OPENAI_API_KEY is not set",
        ),
        (["--seat", "3=robot"], "kind must be one of mock, random, llm, human"),
        (["--seat", "2=human", "--seat", "4=human"], "one human seat per terminal, not 2"),
        (["--lang", "fr"], "invalid choice: 'fr'"),
    ],
)
def test_seat_problems_are_one_line_before_the_game(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = tmp_path / "w.sqlite3"
    code, _out, err = _run(capsys, "play", *argv, "--store", str(store), "-q")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert message in err
    assert not store.exists()  # nothing ran


def test_a_lineup_with_problems_lists_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    lineup = tmp_path / "bad.toml"
    lineup.write_text(
        '[seats.3]\nkind = "llm"\nmodel = "m"\napi_key_env = "NOPE_KEY"\ncolour = "red"\n',
        encoding="utf-8",
    )
    code, _, err = _run(capsys, "play", "--lineup", str(lineup), "--store", str(tmp_path / "s"))
    assert code == 2
    assert "seats.3.colour: Extra inputs are not permitted" in err
    lineup.write_text(
        '[seats.3]\nkind = "llm"\nmodel = "m"\napi_key_env = "NOPE_KEY"\n', encoding="utf-8"
    )
    code, _, err = _run(capsys, "play", "--lineup", str(lineup), "--store", str(tmp_path / "s"))
    assert code == 2
    assert "seat 3 needs an API key: the environment variable NOPE_KEY is not set" in err


# -- swaps --------------------------------------------------------------------------------------
def test_a_swap_mid_game_is_recorded_drawn_and_left_out_of_prompts(tmp_path: Path) -> None:
    store = MemoryEventStore()
    specs = {s: SeatSpec() for s in range(1, 10)}
    specs[6] = SeatSpec(kind="random")
    players = [specs[s].public() for s in sorted(specs)]

    def seating(game: str, state: GameState) -> dict[int, Player]:
        current = recorded_specs(store.chain(game))
        return {
            s: MockPlayer(state.seed, s) if current[s].kind == "mock" else RandomPlayer(state.seed)
            for s in state.seats
        }

    rule = WorkflowRule(werewolf_workflow(seating), store)
    game = start_game(rule, seed=9, players=players)
    for _ in range(6):
        asyncio.run(rule.tick())
    assert recorded_specs(store.chain(game))[6] == SeatSpec(kind="random")
    new = {**recorded_specs(store.chain(game)), 6: SeatSpec(kind="mock", personality="bold")}
    [swap] = append_swaps(store, game, new)
    assert append_swaps(store, game, new) == []  # nothing differs any more
    assert swap.meta["detail"] == {
        "seat": 6,
        "from": "random",
        "to": "mock",
        "player": {"kind": "mock", "personality": "bold"},
    }
    assert recorded_specs(store.chain(game))[6] == SeatSpec(kind="mock", personality="bold")
    asyncio.run(rule.run([game]))
    chain = store.chain(game)
    assert chain[-1].role == "game-end"
    log = load_game(store, game)
    assert "Seat swap: 6 Fay is now played by mock (was random)." in replay_text(log, width=100)
    # every seat saw the public swap event, and no prompt talks about it
    seat_view = view(chain, 1)
    assert any(o.phase == "seat-swap" for o in seat_view.observations)
    assert not any("swap" in line.lower() for line in history_lines(seat_view, "en"))


def test_resume_specs_follow_the_log_then_the_lineup_then_seat_args(tmp_path: Path) -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(lambda g, s: {}), store)
    players = [{"kind": "mock"}] * 8 + [{"kind": "llm", "model": "a"}]
    game = start_game(rule, seed=1, players=players)
    lineup = tmp_path / "l.toml"
    lineup.write_text('[seats.9]\nkind = "llm"\nmodel = "b"\napi_key_env = "K"\n', encoding="utf-8")
    env = {"K": "k", "OPENAI_API_KEY": "o"}
    chain = store.chain(game)
    specs, _ = resume_specs(chain, env=env)
    assert specs[9] == SeatSpec(kind="llm", model="a")
    specs, _ = resume_specs(chain, lineup=lineup, env=env)
    assert specs[9].model == "b"
    specs, _ = resume_specs(chain, lineup=lineup, seat_args=["9=mock", "1=random"], env=env)
    assert (specs[9].kind, specs[1].kind, specs[2].kind) == ("mock", "random", "mock")
    assert usage_lines(chain, {}) == []


# -- the log does not depend on timing ---------------------------------------------------------
class _Jittery:
    """A mock that answers after a random delay, reports usage, and fumbles its first try
    at every vote: concurrent answers arrive in a different order on every run."""

    kind = "jittery"

    def __init__(self, seed: int, seat: int, rng: random.Random) -> None:
        self.mock = MockPlayer(seed, seat)
        self.rng = rng

    async def decide(self, request: Request) -> Answer:
        await asyncio.sleep(self.rng.random() * 0.01)
        usage = Usage(prompt_tokens=request.seat, completion_tokens=1, latency_ms=1.0, calls=1)
        if request.kind is DecisionKind.VOTE and request.feedback is None:
            return Choice(99, usage=usage)
        answer = self.mock.answer(request)
        assert isinstance(answer, Speech | Choice | WitchChoice)
        return replace(answer, usage=usage)


def _jittery_seating(rng: random.Random) -> Callable[[str, GameState], dict[int, Player]]:
    def seating(game: str, state: GameState) -> dict[int, Player]:
        return {seat: _Jittery(state.seed, seat, rng) for seat in state.seats}

    return seating


def test_usage_and_fallbacks_follow_the_order_decisions_were_asked() -> None:
    logs = []
    for run in range(3):
        rng = random.Random(run)
        store = MemoryEventStore()
        rule = WorkflowRule(werewolf_workflow(_jittery_seating(rng)), store)
        game = start_game(rule, seed=5)
        asyncio.run(rule.run([game]))
        chain = store.chain(game)
        assert chain[-1].role == "game-end"
        logs.append([(e.kind, e.hash, e.meta) for e in chain])
    assert logs[0] == logs[1] == logs[2]
    vote = next(e for e in logs[0] if e[0] == "werewolf.vote")
    seats = [u["seat"] for u in vote[2]["usage"]]
    assert seats == sorted(seats)  # asked in seat order, listed in seat order
    assert len(seats) == 2 * len(set(seats))  # the fumble and the answer, per voter
