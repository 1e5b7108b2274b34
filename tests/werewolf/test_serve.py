"""``werewolf serve`` on a real store and a real server (uvicorn on 127.0.0.1): the list and
its filters, who may open which view, the arena report, the store left untouched, and in
headless Chromium a game followed live while a mock game is played into the store."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import html
import json
import re
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore, WorkflowRule
from tests.browser import browser, off_loop, open_page
from tests.strategies import PlayedGame
from tests.werewolf.twins import VILLAGER, twin_games
from werewolf.boards import BOARDS
from werewolf.cli import main
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.replay import load_replay_file
from werewolf.replay.catalog import game_summary

__all__ = ["browser"]  # the fixture, imported for this module

uvicorn = pytest.importorskip("uvicorn")
from werewolf.serve.app import ServeConfig, make_app  # noqa: E402  (needs the serve extra)
from werewolf.serve.cli import bind  # noqa: E402
from werewolf.serve.pages import games_page, markdown_html  # noqa: E402


@contextlib.contextmanager
def serving(config: ServeConfig) -> Iterator[str]:
    """The app under uvicorn on a free port of 127.0.0.1, in a thread; yields its URL."""
    sock = bind(0)
    server = uvicorn.Server(
        uvicorn.Config(make_app(config), log_level="warning", timeout_graceful_shutdown=1)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            threading.Event().wait(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def stream(url: str, last_event_id: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The (id, data) of each message of an event stream that ends (an ended game's)."""
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode("utf-8")
    messages = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            messages.append((int(fields["id"]), json.loads(fields["data"])))
    return messages


def page_data(page: str) -> dict[str, Any]:
    """The data a viewer page carries."""
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


class PacedGame:
    """A mock game played into ``store`` step by step: ``steps(n)`` plays n more events,
    ``finish(pause)`` plays the rest with a pause between steps, in a thread."""

    def __init__(self, store: Path, seed: int) -> None:
        self.store = SQLiteEventStore(store)
        self.rule = WorkflowRule(werewolf_workflow(mock_seating()), self.store)
        self.game = start_game(self.rule, seed=seed)
        self.thread: threading.Thread | None = None

    def steps(self, n: int) -> None:
        async def run() -> None:
            for _ in range(n):
                await self.rule.tick()

        asyncio.run(run())

    def finish(self, pause: float) -> None:
        async def run() -> None:
            while self.rule.status(self.game) == "running":
                await self.rule.tick()
                await asyncio.sleep(pause)

        self.thread = threading.Thread(target=asyncio.run, args=(run(),), daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.thread is not None:
            self.thread.join(timeout=30)
        self.store.close()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two ended mock games and a small arena run, played by the command line."""
    path = tmp_path_factory.mktemp("serve") / "games" / "werewolf.sqlite3"
    # off the test's thread: a browser fixture set up first keeps an event loop running on it
    for seed in (3, 5):
        assert off_loop(main, ["play", "--quiet", "--seed", str(seed), "--store", str(path)]) == 0
    arena = ["arena", "baseline", "--games", "12", "-q", "--workers", "1", "--store", str(path)]
    assert off_loop(main, arena) == 0
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_lists_filters_and_opens_games_read_only(store: Path) -> None:
    before = digest(store)
    with serving(ServeConfig(store)) as url:
        status, page = get(url + "/")
        assert status == 200
        ids = re.findall(r'href="/game/([0-9A-Z]{26})"', page)
        assert len(ids) == 14  # two played, twelve in the arena run
        _, arena_only = get(url + "/?run=baseline")
        assert len(re.findall(r'href="/game/', arena_only)) == 12
        _, wolves = get(url + "/?winner=wolves")
        _, good = get(url + "/?winner=good")
        won = len(re.findall(r'href="/game/', wolves)) + len(re.findall(r'href="/game/', good))
        assert won == 14  # every game ended with a winner (no draws at these seeds)
        _, none = get(url + "/?date=1999-01-01")
        assert "No game matches." in none
        _, board = get(url + "/?board=standard-9")
        assert len(re.findall(r'href="/game/', board)) == 14
        # any view of an ended game; the page is the replay viewer with the other views
        status, god = get(f"{url}/game/{ids[0]}?view=god")
        assert status == 200
        assert '"kind":"god"' in god
        assert '"live":' not in god
        assert get(f"{url}/game/{ids[0]}?view=seat&seat=10")[0] == 400
        assert get(f"{url}/game/{'0' * 26}")[0] == 404
        # the stream of an ended game says so at once and ends (a browser stops listening)
        status, stream = get(f"{url}/game/{ids[0]}/events?view=public&after=999")
        assert status == 200
        assert stream.startswith("event: entries\n")
        assert '"ended": true' in stream
        # the list follows only games not ended: for ended ones its stream says done at once
        status, rows = get(f"{url}/games/events?game={ids[0]}&game={'0' * 26}")
        assert status == 200
        assert rows.startswith("event: rows\n")
        assert json.loads(rows.split("data: ", 1)[1]) == {
            "rows": {ids[0]: re.findall(rf'<tr data-game="{ids[0]}".*?</tr>', page)[0]},
            "done": True,
        }
        # the arena report, with its charts and tables
        status, report = get(url + "/arena/baseline")
        assert status == 200
        assert report.count("<svg") == 3
        assert "Leaderboard" in report
        assert "mock:cautious" in report
        assert "baseline" in get(url + "/arena")[1]
        assert get(url + "/arena/..%2Fwerewolf")[0] == 404
    assert digest(store) == before  # read-only: not a byte changed
    # the web report is the command line's, intervals included (it drew fewer resamples)
    markdown = store.parent / "report.md"
    args = ["arena", "report", "baseline", "--store", str(store), "--markdown", str(markdown)]
    assert main([*args, "--json", str(store.parent / "report.json")]) == 0
    assert markdown_html(markdown.read_text(encoding="utf-8")) in report


def test_a_game_in_progress_opens_in_the_public_view_unless_god(tmp_path: Path) -> None:
    path = tmp_path / "werewolf.sqlite3"
    game = PacedGame(path, seed=7)
    try:
        game.steps(6)
        with serving(ServeConfig(path)) as url:
            status, page = get(f"{url}/game/{game.game}")
            assert status == 200
            assert f'"stream":"/game/{game.game}/events?view=public' in page
            assert '"kind":"god","seat":null,"href"' not in page  # no god view offered
            status, refused = get(f"{url}/game/{game.game}?view=god")
            assert status == 403
            assert "--god" in refused
            assert get(f"{url}/game/{game.game}?view=seat&seat=2")[0] == 403
            assert get(f"{url}/game/{game.game}/events?view=god")[0] == 403
            assert get(f"{url}/game/{game.game}/prompt/0")[0] == 403  # a god view's text
        with serving(ServeConfig(path, god=True)) as url:
            status, page = get(f"{url}/game/{game.game}?view=god")
            assert status == 200
            assert '"decisions"' in page
            assert '"prompts":{"url":' in page
            assert get(f"{url}/game/{game.game}/prompt/0")[0] == 404  # a mock asks no model
    finally:
        game.close()


def test_the_store_may_appear_after_the_server_starts(tmp_path: Path) -> None:
    path = tmp_path / "games" / "werewolf.sqlite3"
    with serving(ServeConfig(path)) as url:
        assert "play a game" in get(url + "/")[1]
        assert not path.exists()  # the server creates nothing
        assert main(["play", "--quiet", "--seed", "3", "--store", str(path)]) == 0
        assert len(re.findall(r'href="/game/', get(url + "/")[1])) == 1


WEREWOLF = str(Path(sys.executable).with_name("werewolf"))  # the installed command


def test_the_command_prints_its_url_and_serves_until_stopped(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    process = subprocess.Popen(
        [WEREWOLF, "serve", "--port", "0", "--store", str(store)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.search(r"at (http://127\.0\.0\.1:(\d+)/) ", line)
        assert found, line
        assert f"serving {store} read-only" in line
        url, port = found.group(1), int(found.group(2))
        for _ in range(100):  # the URL is printed before uvicorn starts listening
            with contextlib.suppress(OSError):
                status, page = get(url)
                break
            threading.Event().wait(0.05)
        assert status == 200
        assert "<h1>Games</h1>" in page
        # a second server on the same port: one line, exit 2
        assert main(["serve", "--port", str(port), "--store", str(store)]) == 2
        assert capsys.readouterr().err.strip().endswith("(--port 0 picks a free one)")
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C
        assert process.wait(timeout=20) == 0


def test_follow_a_live_game_in_the_browser(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "werewolf.sqlite3"
    game = PacedGame(path, seed=11)
    try:
        off_loop(game.steps, 8)  # night 1 and the first speeches are in the store
        with serving(ServeConfig(path, poll=0.05)) as url:
            listed, _ = open_page(browser, f"{url}/", ready="table.games")
            row = listed.locator(f'tr[data-game="{game.game}"]')
            assert row.locator(".status.live").inner_text() == "● live"
            page, problems = open_page(browser, f"{url}/", ready="table.games")
            page.click(f'a[href="/game/{game.game}"]')
            page.wait_for_selector("body[data-ready]", state="attached")
            assert page.locator("#live").inner_text() == "● live"
            assert page.locator("#views").input_value() == "?view=public"
            assert page.locator("#views option").count() == 1  # a game in progress: public
            first = page.evaluate("document.querySelectorAll('#section-body .item').length")
            game.finish(pause=0.03)
            page.wait_for_selector(".item.game-end", timeout=30_000)
            assert page.locator("#live").inner_text() == "game over"
            # the ended game opens every view, without a reload
            assert page.locator("#views option").count() == 11  # public, god, nine seats
            assert page.locator("#views").input_value() == "?view=public"
            # the list, left open, learnt the result by itself
            listed.wait_for_selector(f'tr[data-game="{game.game}"]:not([data-unfinished])')
            assert row.locator(".status").inner_text().endswith(" won")
            assert page.locator("#steps button").count() >= 2  # it followed into new days
            assert page.evaluate("document.querySelectorAll('#section-body .item').length") >= 1
            assert first >= 1
            # the cards are revealed at the end, and the public never saw a night
            assert "?" not in page.locator("#cast tbody").inner_text().split()
            assert all(t.startswith("Day") for t in page.locator("#steps button").all_inner_texts())
            # every entry arrived once: the page equals a fresh load of the ended game
            shown = page.evaluate("document.querySelectorAll('#steps button').length")
            fresh, _ = open_page(browser, f"{url}/game/{game.game}")
            assert fresh.evaluate("document.querySelectorAll('#steps button').length") == shown
            assert problems == []
    finally:
        game.close()


def test_the_phone_list_shows_the_board_result_and_date_of_each_game(
    browser: Any, store: Path
) -> None:
    """At 360 px each game is a block of wrapped lines: its id, then its board, result and
    start date, none cut off and nothing scrolling sideways (it showed the id and a
    clipped result)."""
    with serving(ServeConfig(store)) as url:
        page, problems = open_page(browser, f"{url}/", width=360, ready="table.games")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        row = page.locator("table.games tbody tr").first
        for cell, shown in (("board", "standard-9"), ("result", " won"), ("date", "20")):
            td = row.locator(f"td.{cell}")
            assert td.is_visible(), cell
            assert shown in td.inner_text(), cell
            box = td.bounding_box()
            assert box is not None, cell
            assert 0 <= box["x"] <= box["x"] + box["width"] <= 360, cell
            assert td.evaluate("e => e.scrollWidth <= e.clientWidth"), cell  # not clipped
        assert problems == []


def twins_in(paths: list[Path]) -> tuple[PlayedGame, PlayedGame]:
    """The twin games, each played into its own store."""
    stores = [SQLiteEventStore(path) for path in paths]
    try:
        return twin_games(lambda i: stores[i])
    finally:
        for opened in stores:
            opened.close()


@pytest.mark.parametrize("view", ["view=public", f"view=seat&seat={VILLAGER}"])
def test_a_stream_is_the_same_whatever_happened_out_of_its_sight(tmp_path: Path, view: str) -> None:
    """Twin games with one hidden event more on night 2, each in its store: the stream's
    ids and entries are the same up to the end (which reveals the cards), and a stream
    resumed by ``after=`` or ``Last-Event-ID`` brings exactly the entries past that id."""
    twins = off_loop(twins_in, [tmp_path / f"{name}.sqlite3" for name in "ab"])
    told = []
    for name, game in zip("ab", twins, strict=True):
        with serving(ServeConfig(tmp_path / f"{name}.sqlite3")) as url:
            events = f"{url}/game/{game.game_id}/events?{view}"
            [(last, whole)] = stream(events + "&after=0")
            entries = whole["entries"]
            assert [e["v"] for e in entries] == list(range(1, len(entries) + 1))
            assert last == len(entries)
            for resumed in (stream(events + "&after=5"), stream(events, last_event_id=5)):
                assert resumed == [(last, {**whole, "entries": entries[5:]})]
        assert entries[-1]["phase"] == "game-end"
        told.append((last, entries[:-1]))
    assert told[0] == told[1]


def test_a_live_page_streams_on_from_its_own_last_number(tmp_path: Path) -> None:
    """A game in progress: the page's stream starts after the page's last entry, by the
    view's own number, and what it streams completes the page without a gap or a repeat."""
    path = tmp_path / "werewolf.sqlite3"
    game = PacedGame(path, seed=7)
    try:
        off_loop(game.steps, 12)  # night 1, the dawn and some speeches
        with serving(ServeConfig(path)) as url:
            status, page = get(f"{url}/game/{game.game}")
            assert status == 200
            data = page_data(page)
            shown, live = data["entries"], data["live"]["stream"]
            assert shown, "no public entry yet"
            assert live.endswith(f"&after={len(shown)}")
            off_loop(asyncio.run, game.rule.run())  # to the end
            streamed = [e for _, told in stream(url + live) for e in told["entries"]]
            whole = page_data(get(f"{url}/game/{game.game}")[1])["entries"]
            assert shown + streamed == whole
            assert [e["v"] for e in whole] == list(range(1, len(whole) + 1))
    finally:
        game.close()


def test_a_bad_seat_or_entry_number_is_refused_in_one_line(store: Path) -> None:
    """``³`` passes ``str.isdigit`` and a 5,000-digit number is past what ``int`` reads:
    both are refused with 400 and a short message, in the page and in the stream."""
    with serving(ServeConfig(store)) as url:
        game = re.findall(r'href="/game/([0-9A-Z]{26})"', get(url + "/")[1])[0]
        for bad in ("%C2%B3", "%D9%A3", "9" * 5000, "-1", ""):
            for path in (f"/game/{game}", f"/game/{game}/events"):
                status, body = get(f"{url}{path}?view=seat&seat={bad}")
                assert status == 400, (path, bad[:8])
                assert "this game has seats 1 to 9" in body
                assert len(body) < 1000  # the value is echoed cut short
            status, body = get(f"{url}/game/{game}/events?view=public&after={bad}")
            assert status == 400, bad[:8]
            assert "after=" in body
            assert len(body) < 1000
        status, body = get(f"{url}/game/{game}?view={'x' * 5000}")
        assert status == 400
        assert len(body) < 1000


def ask(url: str, path: str, head: str) -> tuple[int, str]:
    """A GET of ``path`` sent as raw bytes with the header lines ``head``: its status and
    body (the connection closes after it)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\n{head}Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status_line, _, rest = answer.decode("utf-8", errors="replace").partition("\r\n")
    return int(status_line.split()[1]), rest.partition("\r\n\r\n")[2]


def test_only_requests_for_this_host_are_answered(store: Path) -> None:
    """A page on another site that points its domain name at 127.0.0.1 (DNS rebinding)
    sends its own name in ``Host:``: refused, as is any port but the server's."""
    with serving(ServeConfig(store)) as url:
        port = url.rsplit(":", 1)[1]
        game = re.findall(r'href="/game/([0-9A-Z]{26})"', get(url + "/")[1])[0]
        god = f"/game/{game}?view=god"
        for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "LocalHost",
                     f"[::1]:{port}", "[::1]"):  # fmt: skip
            status, body = ask(url, god, f"Host: {host}\r\n")
            assert status == 200, host
            assert '"kind":"god"' in body
        for host in ("evil.example", f"evil.example:{port}", f"localhost.evil.example:{port}",
                     "127.0.0.1:1", f"127.0.0.2:{port}", "localhost:", f"[::2]:{port}",
                     f"127.0.0.1:{port}@evil.example"):  # fmt: skip
            for path in (god, "/", f"/game/{game}/events?view=god", "/arena"):
                status, body = ask(url, path, f"Host: {host}\r\n")
                assert status == 421, (host, path)
                assert body.startswith("refused: this server answers requests for 127.0.0.1")
                assert "god" not in body
        two = f"Host: 127.0.0.1:{port}\r\nHost: evil.example\r\n"
        assert ask(url, god, two)[0] in (400, 421)  # h11 or the check: never answered


@contextlib.contextmanager
def served(store: Path, *options: str, descriptors: int) -> Iterator[tuple[str, list[str]]]:
    """``werewolf serve`` in a process that may open ``descriptors`` files at most; yields
    its URL and, once it stopped, the lines it wrote on stderr."""

    def limit() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, hard))

    process = subprocess.Popen(
        [WEREWOLF, "serve", "--port", "0", "--store", str(store), *options],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    log: list[str] = []
    try:
        assert process.stderr is not None
        found = re.search(r"at (http://127\.0\.0\.1:\d+)/ ", process.stderr.readline())
        assert found
        url = found.group(1)
        for _ in range(100):  # the URL is printed before uvicorn starts listening
            with contextlib.suppress(OSError):
                get(url + "/favicon.ico")
                break
            threading.Event().wait(0.05)
        yield url, log
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        log += err.splitlines()


def connect(url: str, sent: bytes = b"") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=20)
    conn.sendall(sent)
    return conn


def test_idle_connections_cannot_shut_out_a_new_client(store: Path) -> None:
    """300 connections that send nothing or half a request, against a server that may open
    256 files: a new client still gets its page, and the server logs no refused accept."""
    with served(store, descriptors=256) as (url, log):
        idle = []
        try:
            for n in range(300):
                idle.append(connect(url, b"GET / HTTP/1.1\r\nHost: 127.0" if n % 3 else b""))
            status, page = get(url + "/")
            assert status == 200
            assert "<h1>Games</h1>" in page
        finally:
            for conn in idle:
                conn.close()
    assert not [line for line in log if "accept" in line or "Too many open files" in line]


def test_an_upgrade_request_is_answered_as_a_plain_one_and_logs_nothing(store: Path) -> None:
    """The app has no WebSocket: a request asking to upgrade (to a WebSocket, to HTTP/2)
    gets its page, and the server's log stays quiet (it had two lines a request)."""
    with served(store, descriptors=1024) as (url, log):
        for upgrade in (
            "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n",
            "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n",
        ):
            host = f"Host: {url.removeprefix('http://')}\r\n"
            conn = connect(
                url, f"GET / HTTP/1.1\r\n{host}Connection: Upgrade\r\n{upgrade}\r\n".encode()
            )
            with conn:
                answer = b""
                while b"</html>" not in answer and (chunk := conn.recv(65536)):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), answer[:80]
            assert b"<h1>Games</h1>" in answer
    assert log == ["werewolf: stopped"]


def test_forwarded_headers_from_a_client_are_not_believed(store: Path) -> None:
    """Nothing stands before a server on 127.0.0.1: a client's X-Forwarded-Proto made the
    redirects it got point at https:// or ws://."""
    with served(store, descriptors=1024) as (url, log):
        head = f"Host: {url.removeprefix('http://')}\r\nX-Forwarded-Proto: https\r\n"
        conn = connect(url, f"GET /arena/ HTTP/1.1\r\n{head}Connection: close\r\n\r\n".encode())
        with conn:
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 307 "), answer[:80]
        assert f"\r\nlocation: {url}/arena\r\n".encode() in answer, answer
    assert log == ["werewolf: stopped"]


def test_a_game_with_a_deleted_row_is_one_line_in_its_page_and_its_stream(
    tmp_path: Path,
) -> None:
    """The page said which version was deleted; the stream began its answer, then failed
    ("fed out of order"), leaving a traceback in the server's log and a broken answer."""
    path = tmp_path / "werewolf.sqlite3"
    assert off_loop(main, ["play", "--quiet", "--seed", "3", "--store", str(path)]) == 0
    with SQLiteEventStore(path, read_only=True) as opened:
        [game] = opened.topics()
    raw = sqlite3.connect(path)
    raw.execute("DROP TRIGGER events_no_delete")  # what a hand at the file can do
    raw.execute("DELETE FROM events WHERE key = ? AND version = 10", (game,))
    raw.commit()
    raw.close()
    told = f"{path}#{game} version 10 is missing from the store (deleted)"
    with served(path, descriptors=1024) as (url, log):
        for query in ("view=public", "view=god", "view=seat&seat=2"):
            for route in (f"/game/{game}?{query}", f"/game/{game}/events?{query}&after=0"):
                status, page = get(url + route)
                assert status == 404, route
                assert told in html.unescape(page), route
    assert log == ["werewolf: stopped"]


def read_entries(stream: socket.socket) -> None:
    """Read a live stream until its next ``entries`` message."""
    got = b""
    while b"event: entries" not in got:
        chunk = stream.recv(65536)
        assert chunk, "the live stream was closed"
        got += chunk


def test_an_idle_or_half_sent_connection_is_closed_after_the_timeout(tmp_path: Path) -> None:
    """With ``--idle-timeout 0.5``: a connection that sends nothing, one that sends half a
    request, and one idle after its answer are closed by the server; a live stream, being
    answered, stays open past that and brings the game's next entries."""
    path = tmp_path / "werewolf.sqlite3"
    game = PacedGame(path, seed=7)
    try:
        off_loop(game.steps, 12)
        with served(path, "--idle-timeout", "0.5", descriptors=256) as (url, _):
            live = connect(url, f"GET /game/{game.game}/events?after=0 HTTP/1.1\r\n"
                           "Host: 127.0.0.1\r\n\r\n".encode())  # fmt: skip
            read_entries(live)
            silent = connect(url)
            half = connect(url, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            answered = connect(url, b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try:
                assert answered.recv(65536).startswith(b"HTTP/1.1 204")
                for conn in (silent, half, answered):
                    assert conn.recv(65536) == b""  # closed by the server (else a timeout)
                # the timeout has passed: the stream is still open and goes on
                off_loop(game.steps, 12)
                read_entries(live)
            finally:
                for conn in (live, silent, half, answered):
                    conn.close()
    finally:
        game.close()


def test_over_the_cap_the_longest_idle_connection_gives_way(tmp_path: Path) -> None:
    """With ``--max-connections 2``: a new client closes the idle connection to get its
    page; when both connections are live streams being answered, it gets 503 instead."""
    path = tmp_path / "werewolf.sqlite3"
    game = PacedGame(path, seed=7)
    events = f"GET /game/{game.game}/events?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try:
        off_loop(game.steps, 12)
        with served(path, "--max-connections", "2", descriptors=1024) as (url, _):
            first = connect(url, events.encode())
            read_entries(first)
            idle = connect(url)
            try:
                assert get(url + "/")[0] == 200
                assert idle.recv(65536) == b""  # it gave way
                second = connect(url, events.encode())
                read_entries(second)
                try:
                    status, body = get(url + "/")
                    assert status == 503
                    assert "too many connections" in body
                finally:
                    second.close()
            finally:
                first.close()
                idle.close()
    finally:
        game.close()


SAMPLES = Path(__file__).resolve().parents[2] / "replays"


def test_a_game_is_listed_by_its_board_and_a_lovers_win_by_its_side() -> None:
    """The board comes from the game's recorded config (kaggle-8 is not seer-doctor-8,
    whose deck it shares); a deck no board has is custom; a lovers' win has its filter
    value and its style."""
    for path in sorted(SAMPLES.glob("*.jsonl")):
        chain = load_replay_file(path, trust=True).chain
        expected = path.stem if path.stem in BOARDS else "standard-9"
        assert game_summary(chain).board == expected, path.name
    chain = load_replay_file(SAMPLES / "cupid-10.jsonl", trust=True).chain
    start, end = chain[0], chain[-1]
    game = start.meta["game"]
    deck = [*game["config"]["identities"], "villager"]
    custom = dataclasses.replace(
        start,
        meta={**start.meta, "game": {**game, "config": {**game["config"], "identities": deck}}},
    )
    assert game_summary([custom]).board == "custom-11"
    lovers = dataclasses.replace(
        end, meta={**end.meta, "diff": {**end.meta["diff"], "winner": "lovers"}}
    )
    summary = game_summary([start, lovers])
    assert (summary.board, summary.winner) == ("cupid-10", "lovers")
    page = games_page(
        [summary], filters={"winner": "lovers"}, boards=["cupid-10"], runs=[], store="s",
        god=False, now=summary.started,
    )  # fmt: skip
    assert '<option value="lovers" selected>' in page
    assert '<span class="status lovers">lovers won</span>' in page
    assert ".status.lovers {" in page
