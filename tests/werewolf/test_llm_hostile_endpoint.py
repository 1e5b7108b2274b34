"""LLM seats against an endpoint that misbehaves on purpose: it echoes the API key in every
form it can (JSON-escaped, in part, escaped twice inside tool-call arguments, split over two
fields, in an error body), answers ``200`` with a proxy's HTML page, cannot be reached, asks
to wait longer than the seat's patience, or thinks aloud before its JSON. Games are played
through the CLI on a real SQLite store, single decisions by an ``LLMPlayer``, all against the
real HTTP server of ``openai_server`` (or a closed port, or a host name that cannot resolve).
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from pulse_core import ATTACHMENTS, SQLiteEventStore, read_attachment, read_content
from tests.core.test_redact import assert_no_key, escaped, revealed
from tests.openai_server import (
    TEST_API_KEY,
    HTTPError,
    OpenAIServer,
    Raw,
    Reply,
    Rewritten,
    Text,
    ToolCall,
)
from tests.werewolf.llm_support import (
    ENV,
    KEY_ENV,
    LegalTable,
    game_log,
    llm_specs,
    run_cli,
    seat_of,
    tool_of,
    write_lineup,
)
from tests.werewolf.short_waits import short_backoff
from tests.werewolf.test_llm_player import _early_chain
from werewolf.decisions import Choice, DecisionKind, Request
from werewolf.players import SeatUnavailableError
from werewolf.players.endpoints import ClientPool, SeatRetry, retry_line
from werewolf.players.llm import LLMPlayer
from werewolf.replay import ViewKind, ViewSpec, load_replay_file, replay_text
from werewolf.visibility import view

KEY = TEST_API_KEY
PROXY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


class EchoingTable:
    """Legal play, with the key echoed in each answer, in turn: escaped in the raw body,
    escaped twice inside the arguments, escaped in part, split between the message's text
    and its reasoning, in the reasoning and an extra ``reasoning_content`` field; the first
    requests get an HTTP 429 whose body echoes it escaped."""

    def __init__(self) -> None:
        self.table = LegalTable()
        self.lock = threading.Lock()
        self.n = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            n = self.n = self.n + 1
        if n in (2, 3):
            message = f"rate limited for key {KEY}"
            return Rewritten(HTTPError(429, message, retry_after=0.01), self.escape(n))
        args = self.table.arguments(body)
        half = len(KEY) // 2
        content = None
        if n % 3 == 0:  # split over two fields: the message's text and the reasoning
            content, args["reasoning"] = f"thinking {KEY[:half]}", f"{KEY[half:]} done"
        else:
            args["reasoning"] = f"{args['reasoning']} (key {KEY})"
        if "speech" in args:
            args["speech"] = f"{args['speech']} my key is {KEY}."
        return Rewritten(ToolCall(tool_of(body)[0], json.dumps(args), content), self.escape(n))

    @staticmethod
    def escape(n: int) -> Any:
        def rewrite(text: str) -> str:
            forms = [
                escaped(KEY),  # decoded once: the arguments hold the plain key
                escaped(KEY, every=3, backslashes=2),  # the arguments hold it escaped
                KEY[:6] + escaped(KEY[6:12]) + KEY[12:],  # escapes in the middle
            ]
            text = text.replace(KEY, forms[n % len(forms)])
            extra = f'"reasoning_content": "{escaped(KEY, every=2)}", "role": "assistant"'
            return text.replace('"role": "assistant"', extra)

        return rewrite


def test_an_echoed_key_reaches_no_file_and_no_output_in_any_form(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    openai_server.handler = EchoingTable()
    store = tmp_path / "games" / "w.sqlite3"
    cassette = tmp_path / "game.cassette.jsonl"
    lineup = write_lineup(tmp_path, openai_server.base_url)
    argv = ["--lineup", str(lineup), "--store", str(store)]
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", *argv, "--view", "god", "--record", str(cassette)
    )
    assert code == 0, out + err
    assert "my key is ***." in out  # the speeches were played, masked
    assert "HTTP 429" in err  # the status line of the retry, masked too
    game = game_log(store)[0]
    outputs = [out, err]
    for view_args in ([], ["--public"], ["--seat", "3"]):
        code, text, err = run_cli(capsys, "replay", game, "--store", str(store), *view_args)
        assert code == 0, err
        outputs += [text, err]
    page, notes = tmp_path / "game.html", tmp_path / "game.md"
    for export in (["--html", str(page)], ["--markdown", str(notes)]):
        code, text, err = run_cli(capsys, "replay", game, "--store", str(store), *export)
        assert code == 0, err
        outputs += [text, err]
    # the game's events, through the store, and every file under tmp_path, byte by byte
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
        stored = [json.dumps(e.meta) + read_content(s, e) for e in chain]
        stored += [
            read_attachment(s, e, name) or "" for e in chain for name in e.meta.get(ATTACHMENTS, {})
        ]
    assert any("my key is ***." in text for text in stored)
    for path in (page, notes, cassette, store.parent / f"{game}.jsonl"):  # not vacuous
        assert "my key is ***." in revealed(path.read_text(encoding="utf-8")), path
    recorded = cassette.read_text(encoding="utf-8")
    assert '"reasoning_content\\": \\"***' in recorded  # masked where it was escaped
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    kinds = {p.suffix for p in files}
    assert {".sqlite3", ".jsonl", ".html", ".md"} <= kinds
    assert cassette in files
    for path in files:
        assert_no_key(str(path), path.read_bytes().decode("utf-8", errors="replace"))
    for n, text in enumerate(outputs + stored):
        assert_no_key(f"output {n}", text)


# -- a 200 answer that is not JSON ------------------------------------------------------------
def _request(seat: int = 5) -> Request:
    chain = _early_chain()
    return Request(DecisionKind.VOTE, seat, view(chain, seat), "d1.vote.r1.s5", options=(1, None))


def _player(server: OpenAIServer, seat: int = 5, status: Any = None, **fields: Any) -> LLMPlayer:
    spec = llm_specs(server, **fields)[seat]
    pool = ClientPool(ENV, backoff=(0.01, 0.01), status=status)
    return LLMPlayer(spec, seat=seat, game_seed=1, clients=pool)


def _decide(player: LLMPlayer, request: Request) -> Any:
    async def decide() -> Any:
        try:
            return await player.decide(request)
        finally:
            await player.clients.aclose()

    return asyncio.run(decide())


def test_a_proxy_page_with_200_is_retried_and_named_with_seat_and_endpoint_if_it_stays(
    openai_server: OpenAIServer,
) -> None:
    vote = ToolCall("vote", json.dumps({"reasoning": "r", "target": 1}))
    openai_server.script(Raw(PROXY_PAGE), Raw("not json {", content_type="application/json"), vote)
    heard: list[SeatRetry] = []
    answer = _decide(_player(openai_server, status=heard.append), _request())
    assert isinstance(answer, Choice)
    assert answer.target == 1
    assert answer.usage is not None
    assert answer.usage.retries == 2
    assert [r.notice.failures for r in heard] == [1, 2]
    assert "not a chat completion (text/html" in heard[0].notice.failure
    # a proxy that keeps answering so: the seat stops, naming itself and the endpoint
    echo = f"<html><body>bad gateway for {escaped(KEY, every=2)}</body></html>"
    openai_server.handler = lambda body: Raw(echo)
    with pytest.raises(SeatUnavailableError) as caught:
        _decide(_player(openai_server, patience=0.05), _request())
    message = str(caught.value)
    assert message.startswith(f"seat 5 (llm:test-model at {openai_server.base_url}): ")
    assert "answered HTTP 200 with a body that is not a chat completion (text/html" in message
    assert "tries)" in message
    assert "(1 tries)" not in message
    assert_no_key("the message", message)


# -- unreachable endpoints and status lines ---------------------------------------------------
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _no_invalid_names(resolve: Any) -> Any:
    """The resolver, answering for ``.invalid`` names itself (they never resolve, RFC 6761),
    so that no test asks a DNS server anything."""

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode("ascii") if isinstance(host, bytes) else str(host)
        if name.rstrip(".").endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return resolve(host, *args, **kwargs)

    return getaddrinfo


@pytest.mark.parametrize(
    ("base_url", "why"),
    [
        (f"http://127.0.0.1:{_closed_port()}/v1", "the connection was refused"),
        ("http://no-such-host.invalid/v1", "the host name does not resolve"),
    ],
    ids=["refused", "no-such-host"],  # the port differs per run: not in the test's name
)
def test_an_unreachable_endpoint_stops_the_game_at_once_naming_seat_and_endpoint(
    base_url: str,
    why: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setattr(socket, "getaddrinfo", _no_invalid_names(socket.getaddrinfo))
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, base_url, patience=300)  # not waited out: stopped at once
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 1
    [line] = [x for x in out.splitlines() if x.startswith("The game stopped on an error:")]
    assert re.search(
        rf"SeatUnavailableError: seat \d \(llm:test-model at {re.escape(base_url)}\)", line
    )
    assert f"{why} (1 tries); check the seat's base_url" in line
    assert "try 2 in" not in err  # nothing was retried
    game = game_log(store)[0]
    with SQLiteEventStore(store) as s:
        assert s.chain(game)[-1].role == "__error__"  # failed, so resumable
    assert f"werewolf resume {game}" in out


def test_a_seat_that_was_answered_before_retries_a_lost_endpoint_and_says_so(
    tmp_path: Path,
) -> None:
    heard: list[SeatRetry] = []
    vote = ToolCall("vote", json.dumps({"reasoning": "r", "target": 1}))
    with OpenAIServer() as server:
        server.script(vote)
        player = _player(server, status=heard.append, patience=0.05)
        assert isinstance(_decide(player, _request()), Choice)
    # the server is gone: its port refuses connections, which may pass (a restart)
    with pytest.raises(SeatUnavailableError) as caught:
        _decide(player, _request())
    assert "the connection was refused" in str(caught.value)
    assert "(1 tries)" not in str(caught.value)
    assert heard
    assert all(r.seat == 5 for r in heard)
    text = retry_line(heard[0])
    assert text.startswith(
        f"seat 5 (llm:test-model at {server.base_url}): cannot connect: the connection was "
        "refused; try 2 in "
    )
    assert text.endswith("Ctrl-C stops the game (werewolf resume continues it).")
    # with a person at the table, neither the seat nor its endpoint is named
    hidden = retry_line(heard[0], name_seat=False)
    assert "seat" not in hidden
    assert server.base_url not in hidden


def test_retries_show_a_status_line_per_seat_on_stderr(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    short_backoff(monkeypatch)  # each seat's first request fails, and waits to try again
    table = LegalTable()
    failed: set[int] = set()
    lock = threading.Lock()

    def handler(body: dict[str, Any]) -> Reply:
        seat = seat_of(body)
        with lock:
            first = seat not in failed
            failed.add(seat)
        if first:
            return HTTPError(503, "overloaded", retry_after=0.01)
        return table(body)

    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url)
    code, _out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 0, err
    lines = [x for x in err.splitlines() if "HTTP 503: overloaded; try 2 in " in x]
    assert sorted(int(re.match(r"seat (\d+) ", x).group(1)) for x in lines) == sorted(failed)  # type: ignore[union-attr]
    for line in lines:
        assert f"(llm:test-model at {openai_server.base_url}): " in line
        assert "of its 3 s patience). Ctrl-C stops the game (werewolf resume continues it)." in line


# -- Retry-After past the patience ------------------------------------------------------------
def test_a_retry_after_longer_than_the_patience_says_so_and_how_to_raise_it(
    openai_server: OpenAIServer,
) -> None:
    openai_server.script(HTTPError(429, "slow down", retry_after=600))
    with pytest.raises(SeatUnavailableError) as caught:
        _decide(_player(openai_server, patience=30), _request())
    message = str(caught.value)
    assert message.startswith(f"seat 5 (llm:test-model at {openai_server.base_url}): ")
    assert (
        "answered HTTP 429 and asked to wait 600 s (Retry-After), more than the 30 s of " in message
    )
    assert "raise the seat's patience in the lineup (patience = 600 or more" in message
    assert len(openai_server.bodies()) == 1  # not waited for


# -- thinking models in JSON mode -------------------------------------------------------------
def test_a_thinking_block_before_json_is_the_decisions_reasoning_for_the_god_view_only(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    table = LegalTable(json_mode=True)

    def handler(body: dict[str, Any]) -> Reply:
        args = table.arguments(body)
        thought = f"THOUGHT-s{seat_of(body)}-{tool_of(body)[0]} weighing it up"
        return Text(f"<think>\n{thought}\n</think>\n\n{json.dumps(args)}")

    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, extra='tool_mode = "json"\n')
    code, out, err = run_cli(
        capsys, "play", "--seed", "7", "--lineup", str(lineup), "--store", str(store), "-q"
    )
    assert code == 0, out + err
    game = game_log(store)[0]
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
    assert not [e for e in chain if e.meta.get("fallbacks")]  # no decision fell back
    log = load_replay_file(store.parent / f"{game}.jsonl")
    god = replay_text(log, width=200)
    assert re.search(r"THOUGHT-s\d-vote weighing it up", god)
    public = replay_text(log, ViewSpec(ViewKind.PUBLIC), width=200)
    assert "THOUGHT-" not in public
    assert "LEAK-reason-" not in public


def test_a_recorded_unreachable_endpoint_replays_as_the_same_stop(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    base_url = f"http://127.0.0.1:{_closed_port()}/v1"
    lineup = write_lineup(tmp_path, base_url, patience=300)
    cassette = tmp_path / "down.cassette.jsonl"
    argv = ["play", "--seed", "7", "--lineup", str(lineup), "-q"]
    code, out, _ = run_cli(
        capsys, *argv, "--store", str(tmp_path / "a.sqlite3"), "--record", str(cassette)
    )
    assert code == 1
    assert '"error": "refused"' in cassette.read_text(encoding="utf-8")
    stopped = [x for x in out.splitlines() if x.startswith("The game stopped on an error:")]
    code, again, _ = run_cli(
        capsys, *argv, "--store", str(tmp_path / "b.sqlite3"), "--replay-llm", str(cassette)
    )
    assert code == 1
    assert [
        x for x in again.splitlines() if x.startswith("The game stopped on an error:")
    ] == stopped


# -- an endpoint whose URL holds a secret ---------------------------------------------------
PASSWORD = "hunter2-not-the-key-but-secret"


def test_an_endpoint_url_with_a_password_or_the_key_is_shown_without_them(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A base_url may carry a login (``user:password@``) or a token in its query, the key
    itself at times: the status lines, the stop line, the log and the replay name the
    endpoint without them."""
    monkeypatch.setenv(KEY_ENV, KEY)
    short_backoff(monkeypatch)  # each seat's first request fails, and waits to try again
    table = LegalTable()
    seen: set[int] = set()
    lock = threading.Lock()

    def handler(body: dict[str, Any]) -> Reply:
        with lock:
            first = seat_of(body) not in seen
            seen.add(seat_of(body))
        return HTTPError(503, "overloaded", retry_after=0.01) if first else table(body)

    openai_server.handler = handler
    port = openai_server.port
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, f"http://alice:{KEY}@127.0.0.1:{port}/v1")
    argv = ["--lineup", str(lineup), "--store", str(store)]
    code, out, err = run_cli(capsys, "play", "--seed", "7", *argv, "-q")
    assert code == 0, out + err
    status = [x for x in err.splitlines() if "HTTP 503: overloaded; try 2 in " in x]
    assert status
    assert all(f"(llm:test-model at http://alice:***@127.0.0.1:{port}/v1): " in x for x in status)
    outputs = [out, err]
    # a closed port, a password that is not the key and the key in the query
    closed = f"http://alice:{PASSWORD}@127.0.0.1:{_closed_port()}/v1?api-key={KEY}&x=1"
    lineup = write_lineup(tmp_path, closed)
    code, out, err = run_cli(capsys, "play", "--seed", "8", *argv)
    assert code == 1
    [line] = [x for x in out.splitlines() if x.startswith("The game stopped on an error:")]
    assert "at http://alice:***@127.0.0.1:" in line
    assert "/v1?api-key=***&x=***): cannot reach http://alice:***@" in line
    outputs += [out, err]
    with SQLiteEventStore(store) as s:
        games = s.topics()
    assert len(games) == 2
    for game in games:
        for view_args in ([], ["--public"]):
            code, text, err = run_cli(capsys, "replay", game, "--store", str(store), *view_args)
            assert code == 0, err
            outputs += [text, err]
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "lineup.toml"]
    assert len(files) >= 3  # the store and the two replay files
    for n, text in enumerate(outputs + [p.read_bytes().decode("utf-8", "replace") for p in files]):
        assert PASSWORD not in text, n
        assert_no_key(f"output {n}", text)


# -- lone surrogates ------------------------------------------------------------------------
def test_lone_surrogates_in_answers_are_replaced_and_the_game_goes_on(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``\\ud800`` alone is valid JSON that no UTF-8 file or terminal can hold: an endpoint
    that sends it (next to the echoed key, in every other answer) neither stops the game nor
    gets the key through."""
    monkeypatch.setenv(KEY_ENV, KEY)
    table = LegalTable()
    count = iter(range(10**6))

    def handler(body: dict[str, Any]) -> Reply:
        args = table.arguments(body)
        if next(count) % 2:
            args["reasoning"] = f"{args['reasoning']} key {KEY}"
        if "speech" in args:
            args["speech"] = f"LONE {args['speech']}"
        args["reasoning"] = f"LONE {args['reasoning']}"
        answer = ToolCall(tool_of(body)[0], json.dumps(args))
        # escaped once in the body: the arguments, as decoded, hold the lone halves
        return Rewritten(answer, lambda t: t.replace("LONE ", "\\udc00\\ud800 "))

    openai_server.handler = handler
    store = tmp_path / "w.sqlite3"
    cassette = tmp_path / "c.jsonl"
    lineup = write_lineup(tmp_path, openai_server.base_url)
    argv = ["--lineup", str(lineup), "--store", str(store)]
    code, out, err = run_cli(capsys, "play", "--seed", "7", *argv, "--record", str(cassette))
    assert code == 0, out + err
    game = game_log(store)[0]
    code, text, err = run_cli(capsys, "replay", game, "--store", str(store))
    assert code == 0, err
    assert "\ufffd\ufffd LEAK-reason-" in text  # shown, each lone half replaced
    outputs = [out, err, text]
    for path in [p for p in tmp_path.rglob("*") if p.is_file()]:
        binary = ".sqlite3" in path.name  # the text files: UTF-8 every byte
        outputs.append(path.read_bytes().decode("utf-8", "replace" if binary else "strict"))
    for n, found in enumerate(outputs):
        assert_no_key(f"output {n}", found)


def test_an_arena_report_names_an_endpoint_without_the_password_its_url_holds(
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    openai_server.handler = LegalTable()
    url = f"http://bob:{PASSWORD}@127.0.0.1:{openai_server.port}/v1"
    roster = tmp_path / "roster.toml"
    lines = []
    for name in ("one", "two"):
        lines += [f"[players.{name}]", 'kind = "llm"', 'model = "test-model"',
                  f'base_url = "{url}"', f'api_key_env = "{KEY_ENV}"']  # fmt: skip
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = tmp_path / "s.sqlite3"
    argv = ["--name", "k", "--store", str(store)]
    code, out, err = run_cli(capsys, "arena", "run", "--roster", str(roster), "--games", "2", *argv)
    assert code == 0, out + err
    code, text, err = run_cli(capsys, "arena", "report", "k", "--store", str(store))
    assert code == 0, err
    report = (tmp_path / "arena" / "k.report.json").read_text(encoding="utf-8")
    players = json.loads(report)["run"]["players"]
    assert {p["spec"]["base_url"] for p in players} == {
        f"http://bob:***@127.0.0.1:{openai_server.port}/v1"
    }
    for n, shown in enumerate([out, err, text, report]):
        assert PASSWORD not in shown, n


@pytest.mark.parametrize(
    "echo",
    [
        KEY.replace("-", "&#x2D;"),  # a page's character references
        KEY.replace("-", "&#45;"),
        KEY.replace("-", "%2D"),  # a URL's percent escapes
    ],
)
def test_a_proxy_page_that_echoes_the_key_as_a_page_or_url_writes_it_is_masked(
    echo: str,
    openai_server: OpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    openai_server.handler = lambda _body: Raw(f"<p>{echo}</p>")
    store = tmp_path / "w.sqlite3"
    lineup = write_lineup(tmp_path, openai_server.base_url, patience=0.5)
    argv = ["--lineup", str(lineup), "--store", str(store)]
    code, out, err = run_cli(capsys, "play", "--seed", "7", *argv, "-q")
    assert code == 1
    [line] = [x for x in out.splitlines() if x.startswith("The game stopped on an error:")]
    assert "a body that is not a chat completion (text/html: '<p>***</p>')" in line
    code, text, replay_err = run_cli(capsys, "replay", game_log(store)[0], "--store", str(store))
    assert code == 0, replay_err
    outputs = [out, err, text, replay_err]
    outputs += [
        p.read_bytes().decode("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file()
    ]
    for n, shown in enumerate(outputs):
        assert_no_key(f"output {n}", shown)
        assert KEY[:-4] not in shown.replace("&#x2D;", "-").replace("&#45;", "-").replace(
            "%2D", "-"
        )
