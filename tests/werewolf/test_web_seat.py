"""The human seat in a browser (``--seat 5=web``): the page's state built from the seat's
request alone, answers parsed and checked, the HTTP server's refusals, a whole game played
over HTTP whose every byte holds nothing beyond the seat's view, the command line (the URL
line, answers over HTTP, Ctrl-C and resume), and last a whole game in Chromium."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pulse_core import MemoryEventStore, SQLiteEventStore, WorkflowRule
from pulse_core.workflow import read_attachment
from tests.browser import browser, open_page
from werewolf.app import GameResult, Table, play_game
from werewolf.cli import main
from werewolf.decisions import MAX_SPEECH_CHARS, Choice, DecisionKind, Request, Speech, WitchChoice
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.prompting import history_lines
from werewolf.players.web import WebHost, WebSeat
from werewolf.players.web.state import ask_part, parse_answer, view_part
from werewolf.rules import WitchOptions
from werewolf.visibility import view

__all__ = ["browser"]  # the fixture, imported for this module

DEADLINE = 120.0  # seconds a page waits for the game to change; a hang fails instead of blocking
HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1"></li><script>alert(1)</script>'


# -- the page's state and the answers it may post ----------------------------------------------
@pytest.fixture(scope="module")
def chain() -> list[Any]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    return store.chain(start_game(rule, seed=11))


def _vote(chain: list[Any], seat: int = 5) -> Request:
    return Request(DecisionKind.VOTE, seat, view(chain, seat), "d1.vote.s5", options=(1, 3, None))


def test_a_choice_lists_exactly_the_legal_options_and_a_speech_its_budget(chain: list[Any]) -> None:
    ask = ask_part(_vote(chain), "en", "7")
    assert ask["rid"] == "7"
    assert ask["kind"] == "vote"
    assert ask["form"] == {
        "speech": False,
        "options": [
            {"code": 1, "label": "seat 1 (Ada)"},
            {"code": 3, "label": "seat 3 (Cai)"},
            {"code": 0, "label": "nobody"},
        ],
    }
    speech = Request(DecisionKind.SPEECH, 5, view(chain, 5), "d1.speech.s5", context={"day": 1})
    form = ask_part(speech, "zh", "8")["form"]
    assert form["speech"] is True
    assert form["max"] == MAX_SPEECH_CHARS
    assert f"最多 {MAX_SPEECH_CHARS} 个字" in form["budget"]


def test_the_view_is_the_seats_own_a_wolf_told_its_pack(chain: list[Any]) -> None:
    state = fold_chain(chain)
    wolf = state.wolves[0]
    shown = view_part(_vote(chain, wolf), "en")
    assert shown["you"].startswith(f"You are seat {wolf} (")
    assert shown["pack"].startswith("Your pack: the wolves are ")
    villager = next(s for s in state.seats if s not in state.wolves)
    assert view_part(_vote(chain, villager), "en")["pack"] == ""
    assert shown["history"] == []  # nothing learned yet: the page says so in its own words
    assert [(s["seat"], s["dead"]) for s in shown["seats"]] == [(s, False) for s in range(1, 10)]
    assert shown["now"] == "Now: day 0"


@pytest.fixture(scope="module")
def played() -> list[Any]:
    """A whole mock game (seed 3): wolves 1, 4, 8; the witch 6; the seer 9; 5 a villager;
    seat 9 dies in night 2."""
    return play_game(board="standard-9", seed=3).chain


def _history(chain: list[Any], seat: int, lang: str = "en") -> list[dict[str, Any]]:
    asked = Request(DecisionKind.VOTE, seat, view(chain, seat), "x", options=(None,))
    history: list[dict[str, Any]] = view_part(asked, lang)["history"]
    return history


def test_the_history_is_plain_headings_quotes_and_facts_each_seat_its_own(
    played: list[Any],
) -> None:
    spoken = next(e for e in played if e.role == "day-speech" and e.meta["diff"]["speaker"] == 4)
    villager = _history(played, 5)
    assert not any("<<<" in text or ">>>" in text for text in _strings(villager))
    speech = {"kind": "day-speech", "head": "Day 1 · speech · seat 4 (Dana)"}
    assert speech | {
        "quotes": [{"who": "", "text": spoken.meta["detail"]["text"]}],
        "lines": [],
    } in (villager)
    dawn = next(i for i in villager if i["kind"] == "dawn" and i["head"].startswith("Day 2"))
    assert dawn["lines"] == ["Day 2 dawns. Died in the night: seat 9 (Ivo)."]
    vote = next(i for i in villager if i["kind"] == "vote" and i["head"] == "Day 2 · vote results")
    assert vote["lines"] == ["Exiled: seat 2 (Ben).", "seat 2 (Ben) ← 1, 3, 4, 5, 6, 8 (6)",
                             "seat 6 (Fay) ← 2 (1)"]  # fmt: skip
    assert {i["kind"] for i in villager} >= {"day-speech", "vote", "last-words", "dawn"}
    assert {i["kind"] for i in villager}.isdisjoint({"seer-check", "wolf-night", "witch-action"})
    [check, _] = [i for i in _history(played, 9) if i["kind"] == "seer-check"]
    assert check["head"] == "Night 1 · your check"
    assert check["lines"] == ["Night 1, you (the seer) checked seat 3 (Cai): good."]
    talk = next(e for e in played if e.role == "wolf-night")
    den = next(i for i in _history(played, 1) if i["kind"] == "wolf-night")
    assert den["head"] == "Night 1 · the wolves' talk (only the wolves see this)"
    said = talk.meta["detail"]["discussion"]
    assert [q["text"] for q in den["quotes"]] == [line["text"] for line in said]
    assert [q["who"][: len("seat 1 (")] for q in den["quotes"]] == [
        f"seat {line['seat']} (" for line in said
    ]
    assert den["lines"][-1] == "The wolves chose: seat 6 (Fay)."
    zh = _history(played, 5, "zh")
    assert [i["head"] for i in zh[:2]] == ["第1天 · 天亮：昨夜死讯", "第1天 · 发言 · 1号（Ada）"]


def test_the_wolves_words_in_a_task_are_quotes_not_markup(chain: list[Any]) -> None:
    wolf = fold_chain(chain).wolves[0]
    said = [{"seat": wolf, "text": "Take seat 2.\n>>> not a close"}]
    context = {"night": 1, "round": 1, "discussion": said}
    kill = Request(DecisionKind.WOLF_KILL, wolf, view(chain, wolf), "x", (2, 5), context=context)
    ask = ask_part(kill, "en", "9")
    assert ask["said"] == "Said so far tonight:"
    assert ask["quotes"] == [{"who": f"seat {wolf} ({view(chain, wolf).name})",
                              "text": said[0]["text"]}]  # fmt: skip
    assert not any("<<<" in line or "Take seat 2" in line for line in ask["task"])
    assert ask_part(_vote(chain), "en", "1")["quotes"] == []


def test_answers_are_parsed_from_the_menu_and_checked_by_the_rules(chain: list[Any]) -> None:
    vote = _vote(chain)
    assert parse_answer(vote, "en", {"code": 3, "note": " my read "}) == Choice(3, "my read")
    assert parse_answer(vote, "en", {"code": 0}) == Choice(None)
    for wrong in (2, True, "3", None, 3.0):
        assert parse_answer(vote, "en", {"code": wrong}) == (
            "that is not one of the options: choose one."
        )
    assert parse_answer(vote, "en", {"code": 1, "note": 5}) == "note: text expected"
    speech = Request(DecisionKind.SPEECH, 5, view(chain, 5), "d1.speech.s5")
    assert parse_answer(speech, "en", {"text": f"  {HOSTILE} "}) == Speech(HOSTILE)
    assert parse_answer(speech, "en", {"text": "  "}) == (
        "Say something: type at least one character."
    )
    too_long = "x" * (MAX_SPEECH_CHARS + 1)
    assert (
        parse_answer(speech, "en", {"text": too_long}) == "That is 2001 characters: at most 2000."
    )
    assert parse_answer(speech, "en", {"text": "\ud800"}).startswith("a speech must be plain text")
    witch = Request(
        DecisionKind.WITCH,
        6,
        view(chain, 6),
        "n1.witch",
        witch=WitchOptions(6, 3, True, (1, 3), False),
    )
    labels = [o["label"] for o in ask_part(witch, "en", "1")["form"]["options"]]
    assert labels[:3] == [
        "use no potion",
        "save seat 3 (Cai) with the antidote",
        "poison seat 1 (Ada)",
    ]
    assert parse_answer(witch, "en", {"code": 3}) == WitchChoice(poison=1)


def test_a_posted_answer_is_taken_once_per_request_id(chain: list[Any]) -> None:
    async def play() -> None:
        seat = WebSeat(5, "secret")
        asked = asyncio.create_task(seat.decide(_vote(chain)))
        await asyncio.sleep(0)
        rid = seat.state()["ask"]["rid"]
        assert seat.submit({"rid": rid, "code": 2})[0] == 422  # not legal: refused, still asked
        assert seat.state()["ask"]["rid"] == rid
        assert seat.submit({"rid": "99", "code": 1})[0] == 409  # no such decision asked
        assert seat.submit({"rid": rid, "code": 1}) == (200, {"ok": True})
        assert seat.submit({"rid": rid, "code": 3}) == (200, {"ok": True, "again": True})
        assert await asked == Choice(1)
        assert seat.state()["ask"] is None  # the view stays, the form goes
        assert seat.state()["view"]["you"].startswith("You are seat 5")

    asyncio.run(play())


# -- the HTTP server ---------------------------------------------------------------------------
def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_bad_requests_get_a_4xx_and_no_traceback() -> None:
    host = WebHost()
    token = host.seat(5).token
    port = host.port
    here = f"Host: 127.0.0.1:{port}\r\n"
    cases = {
        b"garbage\r\n\r\n": 400,
        f"GET /nope/ HTTP/1.1\r\n{here}\r\n".encode(): 404,
        f"GET /{token}/ HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n".encode(): 421,
        f"DELETE /{token}/ HTTP/1.1\r\n{here}\r\n".encode(): 405,
        f"GET /{token}/answer HTTP/1.1\r\n{here}\r\n".encode(): 405,
        f"GET /{token}/state?v=x HTTP/1.1\r\n{here}\r\n".encode(): 400,
        f"GET /{token}/state?v=--1 HTTP/1.1\r\n{here}\r\n".encode(): 400,
        f"GET /{token}/state?v={'9' * 5000} HTTP/1.1\r\n{here}\r\n".encode(): 400,
        f"GET /{token} HTTP/1.1\r\n{here}\r\n".encode(): 308,
        f"POST /{token}/answer HTTP/1.1\r\n{here}Content-Length: 2\r\n\r\n{{}}".encode(): 415,
        (
            f"POST /{token}/answer HTTP/1.1\r\n{here}Content-Type: application/json\r\n"
            "Content-Length: 3\r\n\r\n[1]"
        ).encode(): 400,
        (
            f"POST /{token}/answer HTTP/1.1\r\n{here}Content-Type: application/json\r\n"
            "Content-Length: 99999999\r\n\r\n"
        ).encode(): 413,
        (f"GET /{token}/ HTTP/1.1\r\n" + "X: y\r\n" * 100 + "\r\n").encode(): 431,
        f"GET /{token}/page.js HTTP/1.1\r\n{here}\r\n".encode(): 200,
    }

    async def serve() -> dict[bytes, bytes]:
        host.serve()
        await asyncio.sleep(0.05)
        loop = asyncio.get_running_loop()
        replies = {data: await loop.run_in_executor(None, _raw, port, data) for data in cases}
        await host.aclose()
        return replies

    try:
        replies = asyncio.run(serve())
    finally:
        host.close()
    for data, status in cases.items():
        head = replies[data].split(b"\r\n", 1)[0].decode()
        assert head.startswith(f"HTTP/1.1 {status} "), (data[:60], head)
        assert b"Traceback" not in replies[data]
    assert b"script-src 'self'" in replies[next(iter(cases))]


def test_a_port_in_use_is_one_line_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host = WebHost()
    try:
        store = tmp_path / "w.sqlite3"
        argv = ["play", "--seat", "5=web", "--web-port", str(host.port), "--store", str(store)]
        assert main(argv) == 2
    finally:
        host.close()
    err = capsys.readouterr().err
    assert err.startswith(
        f"werewolf: error: --web-port: cannot serve the browser seat on 127.0.0.1:{host.port}"
    )
    assert err.count("\n") == 1
    assert not store.exists()


# -- a whole game over HTTP: every byte the seat is sent -----------------------------------------
class Page:
    """A person's browser, reduced to HTTP: it keeps every response body it was sent."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.bodies: list[bytes] = []
        self.version = -1

    def get(self, path: str = "") -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=60) as reply:
            body: bytes = reply.read()
        self.bodies.append(body)
        return body

    def post(self, answer: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.url + "answer",
            data=json.dumps(answer).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                status, body = reply.status, reply.read()
        except urllib.error.HTTPError as refused:
            status, body = refused.code, refused.read()
        self.bodies.append(body)
        return status, json.loads(body)

    def next_state(self) -> dict[str, Any]:
        """The state once it changes (the long poll), asked again when it does not."""
        deadline = time.monotonic() + DEADLINE
        while True:
            if time.monotonic() > deadline:
                pytest.fail(f"the page's state stayed at version {self.version}")
            state: dict[str, Any] = json.loads(self.get(f"state?v={self.version}"))
            if state["v"] != self.version:
                self.version = state["v"]
                return state

    def next_ask(self) -> dict[str, Any] | None:
        """The next decision asked, or None once the game has ended."""
        while True:
            state = self.next_state()
            if state["ended"]:
                return None
            if state["ask"] is not None:
                ask: dict[str, Any] = state["ask"]
                return ask


def _answer(ask: dict[str, Any], text: str) -> dict[str, Any]:
    if ask["form"]["speech"]:
        return {"rid": ask["rid"], "text": text}
    return {"rid": ask["rid"], "code": ask["form"]["options"][0]["code"], "note": "my own note"}


def _in_thread(play: Callable[[], GameResult]) -> tuple[threading.Thread, list[GameResult]]:
    results: list[GameResult] = []
    thread = threading.Thread(target=lambda: results.append(play()), daemon=True)
    thread.start()
    return thread, results


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_every_byte_the_page_is_sent_holds_nothing_beyond_the_seats_view(tmp_path: Path) -> None:
    store = tmp_path / "w.sqlite3"
    lineup = tmp_path / "lineup.toml"
    lineup.write_text('[seats.5]\nkind = "web"\n', encoding="utf-8")  # a lineup's web seat
    host = WebHost()
    page = Page(host.url(5))
    thread, results = _in_thread(
        lambda: play_game(
            board="standard-9", seed=3, lineup=lineup, store=store, table=Table(web=host)
        )
    )
    for name in ("", "page.js", "page.css"):
        page.get(name)
    asked = 0
    while (ask := page.next_ask()) is not None:
        asked += 1
        assert page.post(_answer(ask, f"speech number {asked}"))[0] == 200
    thread.join(60)
    [result] = results
    assert result.ended
    assert asked >= 4
    shown = "\n\x00".join(
        text for body in page.bodies if body.startswith(b"{") for text in _strings(json.loads(body))
    )
    raw = b"".join(page.bodies).decode()
    with SQLiteEventStore(store) as opened:
        chain = opened.chain(result.game_id)
        deal = chain[0].meta["deal"]
        assert deal[4] == "villager"
        mine = set(history_lines(view(chain, 5), "en"))
        # the page's own history: each item's words and facts (its headings are short words)
        told = {t for i in _history(chain, 5) for t in _strings([i["quotes"], i["lines"]]) if t}
        assert "speech number 1" in shown
        assert sum(text in shown for text in told) > 10
        secrets = []  # what the other seats were told and the seat was not, and their thoughts
        for seat in range(1, 10):
            if seat == 5:
                continue
            secrets += [b for b in history_lines(view(chain, seat), "en") if b not in mine]
            theirs = _history(chain, seat)
            secrets += [t for i in theirs for t in _strings(i["lines"]) if t not in told]
            secrets += [q["text"] for i in theirs for q in i["quotes"] if q["text"] not in told]
            own = Request(DecisionKind.VOTE, seat, view(chain, seat), "x", options=(None,))
            secrets.append(view_part(own, "en")["you"])
        wolf_talk = [e for e in chain if e.role == "wolf-night"]
        assert wolf_talk
        assert any("wolves" in s.lower() for s in secrets)
        for event in chain:
            for name in event.meta.get("attachments", {}):
                if name.startswith("reasoning/") and not name.startswith("reasoning/5/"):
                    thought = read_attachment(opened, event, name)
                    if thought and thought.strip():
                        secrets.append(thought)
    assert len(secrets) > 20
    leaked = [s for s in secrets if s in shown or s in raw]
    assert leaked == []
    for identity in {d for i, d in enumerate(deal, start=1) if i != 5} - {"villager"}:
        assert f'"{identity}"' not in raw  # no identity sent as data either


# -- the command line: the URL line, answers over HTTP, Ctrl-C, resume ---------------------------
def test_play_prints_the_url_and_ctrl_c_stops_the_game_resumably(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    argv = ["play", "--board", "standard-9", "--seed", "3", "--seat", "5=web", "-q"]
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from werewolf.cli import main; sys.exit(main())",
            *argv,
            "--store",
            str(store),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.fullmatch(
            r"werewolf: seat 5 plays in the browser: (http://127\.0\.0\.1:\d+/[\w-]+/)\n", line
        )
        assert found, line
        page = Page(found.group(1))
        html = page.get().decode()
        assert '<form id="ask"' in html
        assert "page.js" in html
        ask = page.next_ask()
        assert ask is not None
        assert ask["kind"] == "speech"
        answer = _answer(ask, "Hello from the browser.")
        assert page.post(answer) == (200, {"ok": True})
        assert page.post(answer) == (200, {"ok": True, "again": True})  # a double submit
        ask = page.next_ask()
        assert ask is not None
        assert ask["kind"] == "vote"
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    game = re.search(r"interrupted\. Game (\w+) is saved; continue it with: werewolf resume", err)
    assert game, err
    assert f"werewolf resume {game.group(1)} --store {store} --seat 5=web" in err
    # resumed as it was played: the browser seat gets a URL of its own, and ends the game
    codes: list[int] = []
    resume = ["resume", game.group(1), "--store", str(store), "-q"]
    thread = threading.Thread(target=lambda: codes.append(main(resume)), daemon=True)
    thread.start()
    line = ""
    while "http" not in line and thread.is_alive():
        line += capsys.readouterr().err
        time.sleep(0.05)  # the resume's thread writes the URL once the game is checked
    found = re.search(r"seat 5 plays in the browser: (http://\S+/)\n", line)
    assert found, line
    page = Page(found.group(1))
    ask = page.next_ask()
    assert ask is not None
    assert ask["kind"] == "vote"  # the decision it stopped at is asked again
    while ask is not None:
        assert page.post(_answer(ask, "Back again."))[0] == 200
        ask = page.next_ask()
    thread.join(60)
    assert codes == [0]
    with SQLiteEventStore(store) as opened:
        chain = opened.chain(game.group(1))
    assert chain[-1].role == "game-end"
    spoken = [e.meta["detail"]["text"] for e in chain if e.meta.get("diff", {}).get("speaker") == 5]
    assert spoken[0] == "Hello from the browser."  # played once, in its place
    assert [e for e in chain if e.role == "seat-swap"] == []  # the same seat, the same kind


# -- a whole game in Chromium ------------------------------------------------------------------
_NEXT = """prev => document.body.dataset.ended === "1" || (!document.getElementById("ask").hidden
    && document.getElementById("ask").dataset.rid !== prev)"""


def test_a_whole_game_is_played_from_the_browser(browser: Any) -> None:
    host = WebHost()
    thread, results = _in_thread(
        lambda: play_game(board="standard-9", seed=19, seats={5: "web"}, table=Table(web=host))
    )
    page, problems = open_page(browser, host.url(5), width=360)
    rid = ""
    kinds: list[str] = []
    typed: list[str] = []
    while True:
        page.wait_for_function(_NEXT, arg=rid, timeout=60_000)
        if page.get_attribute("body", "data-ended") == "1":
            break
        rid = page.get_attribute("#ask", "data-rid")
        kinds.append(page.get_attribute("#ask", "data-kind"))
        if len(kinds) == 2:  # a refresh mid-game: the same decision is asked again
            page.reload()
            page.wait_for_selector("#ask:not([hidden])")
            assert page.get_attribute("#ask", "data-rid") == rid
        if page.locator("#words").count():
            words = HOSTILE + " " + "x" * 200 if not typed else f"Speech {len(typed) + 1}."
            page.fill("#words", words)
            typed.append(words)
            assert page.text_content("#count").startswith(f"{len(words)} / {MAX_SPEECH_CHARS}")
        else:
            page.click("#send")  # nothing chosen: the browser asks for a choice, sends nothing
            page.check("#fields input[type=radio] >> nth=0")
        page.click("#send")
        if len(typed) == 1 and kinds[-1] == "speech":  # the seat's own words come back as text
            page.wait_for_function(
                "t => document.getElementById('history').textContent.includes(t)", arg=HOSTILE
            )
            assert page.locator("#history img, #history script").count() == 0
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
    thread.join(60)
    [result] = results
    assert result.ended
    assert "The game has ended: " in page.text_content("#notice")
    assert kinds[:3] == ["seer", "speech", "vote"]
    assert len(kinds) >= 8
    spoken = [
        e.meta["detail"]["text"] for e in result.chain if e.meta.get("diff", {}).get("speaker") == 5
    ]
    assert spoken[: len(typed)] == typed
    assert page.get_attribute("body", "data-pwned") is None
    assert problems == []
    page.close()
