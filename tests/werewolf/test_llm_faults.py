"""LLM seats when the endpoint misbehaves: invalid JSON, seats that do not exist or are
dead, plain text instead of a tool call, HTTP 429 and 500, hangs, no tool support, an
endpoint that stays down, a spent token budget. Each ends in a complete game or in a clean
stop that ``werewolf resume`` continues (with the same seats, or another player in one), and
the API key never shows up in a log, a replay file, an object or a message.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.openai_server import (
    TEST_API_KEY,
    Hang,
    HTTPError,
    JSONContent,
    OpenAIServer,
    Reply,
    Text,
    ToolCall,
)
from tests.werewolf.llm_support import (
    ENV,
    KEY_ENV,
    LegalTable,
    game_log,
    llm_specs,
    play,
    run_cli,
    seat_of,
    tool_of,
    user_text,
    write_lineup,
)
from tests.werewolf.short_waits import SHORT_BACKOFF, short_backoff
from tests.werewolf.test_llm_player import _early_chain
from werewolf.decisions import DecisionKind, Request
from werewolf.players import SeatUnavailableError
from werewolf.players.endpoints import ClientPool
from werewolf.players.llm import LLMPlayer
from werewolf.replay import load_replay_file, replay_text
from werewolf.visibility import view


def _dead(body: dict[str, Any]) -> list[int]:
    line = re.search(r"Dead: (.*)\.\n", user_text(body))
    return [int(s) for s in re.findall(r"seat (\d+)", line.group(1))] if line else []


class VoteFaults:
    """Legal play, except for vote requests: one fault each, in turn, to a vote request whose
    seat was not faulted on its previous request: broken JSON, a seat that does not exist,
    a dead seat, plain text, a call of the wrong function, HTTP 429, HTTP 500 and a hang."""

    FAULTS = (
        "broken-json",
        "no-such-seat",
        "dead-seat",
        "plain-text",
        "wrong-function",
        "429",
        "500",
        "hang",
    )

    def __init__(self) -> None:
        self.table = LegalTable(witch_saves=False)  # so someone is dead by the first vote
        self.lock = threading.Lock()
        self.seen: dict[int, int] = {}  # seat -> vote requests so far
        self.faulted: list[tuple[int, int, str]] = []  # (seat, index of its vote request, fault)

    def fault(self, name: str, body: dict[str, Any]) -> Reply:
        args = self.table.arguments(body)
        if name == "broken-json":
            return ToolCall("vote", '{"reasoning": "x", "target": ')
        if name == "no-such-seat":
            return ToolCall("vote", json.dumps({**args, "target": 99}))
        if name == "dead-seat":
            dead = _dead(body)
            return ToolCall("vote", json.dumps({**args, "target": dead[0] if dead else 99}))
        if name == "plain-text":
            return Text("I vote for seat 3, obviously.")
        if name == "wrong-function":
            return ToolCall("speak", json.dumps({"reasoning": "x", "speech": "hello"}))
        if name == "429":
            return HTTPError(429, "slow down", retry_after=0.01)
        if name == "500":
            return HTTPError(500, "oops", retry_after=0.01)
        return Hang(5.0)  # longer than the client's timeout

    def __call__(self, body: dict[str, Any]) -> Reply:
        if tool_of(body)[0] != "vote":
            return self.table(body)
        seat = seat_of(body)
        with self.lock:
            index = self.seen[seat] = self.seen.get(seat, -1) + 1
            previous = [i for s, i, _ in self.faulted if s == seat]
            fault = None
            if len(self.faulted) < len(self.FAULTS) and index - 1 not in previous:
                fault = self.FAULTS[len(self.faulted)]
                self.faulted.append((seat, index, fault))
        return self.table(body) if fault is None else self.fault(fault, body)


def test_every_bad_answer_is_retried_and_the_game_completes(openai_server: OpenAIServer) -> None:
    handler = VoteFaults()
    openai_server.handler = handler
    # a 429, a 500 and a hang are retried after a wait: a short one
    played = play(llm_specs(openai_server, timeout=0.5), seed=7, backoff=SHORT_BACKOFF)
    assert played.status == "ended"
    assert [f for _, _, f in handler.faulted] == list(VoteFaults.FAULTS)
    assert not any(e.meta.get("fallbacks") for e in played.chain)  # every retry succeeded
    votes: dict[int, list[dict[str, Any]]] = {}
    for body in openai_server.bodies():
        if tool_of(body)[0] == "vote":
            votes.setdefault(seat_of(body), []).append(body)
    expected = {
        "broken-json": "the arguments of `vote` are not valid JSON",
        "no-such-seat": "`target`: Input should be",
        "dead-seat": "`target`: Input should be",
        "plain-text": "no call to the function `vote`: the answer was plain text",
        "wrong-function": "called `speak`, but the only function is `vote`",
    }
    for seat, index, fault in handler.faulted:
        first, second = votes[seat][index], votes[seat][index + 1]
        if fault in expected:  # refused by validation: asked again, saying why
            assert "refused" not in user_text(first)
            assert expected[fault] in user_text(second), (fault, user_text(second)[-400:])
        else:  # a transport failure: the client sent the very same request again
            assert first == second, fault
        if fault == "dead-seat":  # it really named a dead seat
            assert _dead(first)


def test_a_seat_that_never_answers_validly_gets_a_recorded_fallback(
    openai_server: OpenAIServer,
) -> None:
    table = LegalTable()

    def handler(body: dict[str, Any]) -> Reply:
        if seat_of(body) == 6 and tool_of(body)[0] == "vote":
            return ToolCall("vote", json.dumps({"reasoning": "r", "target": 42}))
        return table(body)

    openai_server.handler = handler
    played = play(llm_specs(openai_server), seed=7)
    assert played.status == "ended"
    fallbacks = [
        (e.meta["detail"]["ballots"], fb)
        for e in played.chain
        for fb in e.meta.get("fallbacks", [])
    ]
    assert fallbacks, "seat 6 never voted"
    for ballots, fb in fallbacks:
        assert fb["seat"] == 6
        assert fb["decision"] == "vote"
        assert fb["key"].endswith(".s6")
        assert "`target`: Input should be" in fb["reason"]
        assert [6, None] in ballots  # the legal fallback: abstain
    vote_requests = [
        b for b in openai_server.bodies() if seat_of(b) == 6 and tool_of(b)[0] == "vote"
    ]
    assert len(vote_requests) == 3 * len(fallbacks)  # asked three times per vote, no more


def test_an_endpoint_without_tool_calls_is_asked_for_json(openai_server: OpenAIServer) -> None:
    table = LegalTable()

    def handler(body: dict[str, Any]) -> Reply:
        if "tools" in body:
            return HTTPError(400, "tools are not supported by this model")
        return JSONContent(table.arguments(body))

    openai_server.handler = handler
    played = play(llm_specs(openai_server), seed=2)
    assert played.status == "ended"
    bodies = openai_server.bodies()
    with_tools = [b for b in bodies if "tools" in b]
    assert len(with_tools) == 9  # each seat tried tools once, then stayed in JSON mode
    assert not any(e.meta.get("fallbacks") for e in played.chain)


# -- stops and resumes through the command line --------------------------------------------------


def _assert_no_key_anywhere(root: Path, *texts: str) -> None:
    key = TEST_API_KEY.encode()
    files = [p for p in root.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in files)
    for path in files:
        assert key not in path.read_bytes(), path
    for text in texts:
        assert TEST_API_KEY not in text


def test_an_endpoint_that_stays_down_stops_the_game_and_a_mock_takes_the_seat(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    table = LegalTable()

    def handler(body: dict[str, Any]) -> Reply:
        if seat_of(body) == 4 and "Day 1" in user_text(body):
            # down for seat 4 from day 1 on; the error body even echoes the key
            return HTTPError(503, f"overloaded (key {TEST_API_KEY})", retry_after=0.01)
        return table(body)

    openai_server.handler = handler
    store = tmp_path / "games" / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url)
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 1, err
    game = game_log(store)[0]
    assert "The game stopped on an error: SeatUnavailableError: seat 4 (llm:test-model at " in out
    assert f"{openai_server.base_url}" in out
    assert "HTTP 503" in out
    assert f"Continue it with: werewolf resume {game} --store {store}" in out
    assert "--seat 4=mock" in out
    assert "Tokens by seat:" in out
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
    assert chain[-1].role == "__error__"
    failed_requests = [
        b for b in openai_server.bodies() if seat_of(b) == 4 and "Day 1" in user_text(b)
    ]
    # one request, tried again with back-off (0.5 s, 1 s, ...) until the patience (3 s) ran out
    assert 2 <= len(failed_requests) <= 4
    # a mock takes seat 4 and the game goes on to its end
    code, out2, err2 = run_cli(
        capsys,
        "resume",
        game,
        "--store",
        str(store),
        "--seat",
        "4=mock",
        "--lineup",
        str(lineup),
        "-q",
    )
    assert code == 0, err2
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
    roles = [e.role for e in chain]
    assert roles[-1] == "game-end"
    swap = chain[roles.index("seat-swap")]
    assert roles[roles.index("seat-swap") - 1] == "__resume__"
    assert swap.meta["visible_to"] is None
    assert swap.meta["detail"] == {
        "seat": 4,
        "from": "llm:test-model",
        "to": "mock",
        "player": {"kind": "mock"},
    }
    log = load_replay_file(store.parent / f"{game}.jsonl")
    assert "Seat swap: 4 Dana is now played by mock (was llm:test-model)." in replay_text(
        log, width=100
    )
    _assert_no_key_anywhere(tmp_path, out, err, out2, err2)


def test_a_recovered_endpoint_resumes_with_the_same_seats(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    short_backoff(monkeypatch)  # the night-2 requests wait out the patience in short waits
    table = LegalTable()
    down = threading.Event()
    down.set()

    def handler(body: dict[str, Any]) -> Reply:
        if down.is_set() and "Night 2" in user_text(body):
            return HTTPError(502, "bad gateway", retry_after=0.01)
        return table(body)

    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, patience=0.5)
    argv = ["--lineup", str(lineup), "--store", str(store), "-q"]
    code, out, _ = run_cli(capsys, "play", "--seed", "7", *argv)
    assert code == 1
    assert "answered HTTP 502 (" in out
    down.clear()  # the endpoint is back
    game = game_log(store)[0]
    code, out, err = run_cli(capsys, "resume", game, *argv)
    assert code == 0, err
    with SQLiteEventStore(store) as s:
        roles = [e.role for e in s.chain(game)]
    assert roles[-1] == "game-end"
    assert "seat-swap" not in roles  # same seats as recorded: nothing to swap


def test_a_spent_token_budget_stops_the_game_until_it_is_raised(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    openai_server.handler = LegalTable()
    store = tmp_path / "w.sqlite3"
    small = write_lineup(tmp_path, openai_server.base_url, extra="\n[budget]\ntokens = 20000\n")
    code, out, _ = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(small), "--store", str(store), "-q"
    )
    assert code == 1
    assert "BudgetExceededError: the game's token budget is spent" in out
    assert "of 20,000 tokens" in out
    assert "Or raise the budget" in out
    game = game_log(store)[0]
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
    spent = sum(
        u["prompt_tokens"] + u["completion_tokens"] for e in chain for u in e.meta.get("usage", [])
    )
    assert spent < 20000 + 10 * 2000  # stopped near the budget, not long after it
    # resuming under the same budget stops at once; a larger one lets the game end
    code, out, _ = run_cli(
        capsys, "resume", game, "--store", str(store), "--lineup", str(small), "-q"
    )
    assert code == 1
    assert "BudgetExceededError" in out
    big = tmp_path / "big.toml"
    big.write_text(small.read_text().replace("20000", "10000000"), encoding="utf-8")
    code, out, err = run_cli(
        capsys, "resume", game, "--store", str(store), "--lineup", str(big), "-q"
    )
    assert code == 0, out + err
    assert "Game: " in out
    assert "tokens in" in out


def test_an_endpoint_that_hangs_is_given_up_on_with_a_clear_error(
    openai_server: OpenAIServer,
) -> None:
    openai_server.handler = lambda body: Hang(5.0)
    chain = _early_chain()
    seat = 5
    request = Request(
        DecisionKind.VOTE, seat, view(chain, seat), "d1.vote.r1.s5", options=(1, None)
    )
    spec = llm_specs(openai_server, timeout=0.2, patience=0.3)[seat]
    pool = ClientPool(ENV, backoff=(0.05, 0.05))
    player = LLMPlayer(spec, seat=seat, game_seed=1, clients=pool)

    async def decide() -> None:
        try:
            await player.decide(request)
        finally:
            await player.clients.aclose()

    with pytest.raises(SeatUnavailableError) as caught:
        asyncio.run(decide())
    message = str(caught.value)
    assert message.startswith(f"seat 5 (llm:test-model at {openai_server.base_url}): ")
    # the timeout counts as down time: 0.2 + a wait of 0.05 s, then 0.2 more passes 0.3 s
    assert "did not answer within the timeout (2 tries)" in message
    assert TEST_API_KEY not in message
    assert len(openai_server.bodies()) == 2  # the second failure came past the patience
