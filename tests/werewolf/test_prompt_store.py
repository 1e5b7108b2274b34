"""The god page of an LLM game keeps each prompt once (``replay.prompts``): the store's
texts come back exactly, a page of a hundred decisions stays under 300 kB standalone and
served, and in headless Chromium a prompt's fold shows the text the model was sent, from a
``file://`` page and from ``werewolf serve``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.browser import browser, off_loop, open_page
from tests.openai_server import OpenAIServer
from tests.werewolf.llm_support import LegalTable, llm_specs, play, realistic_speech
from tests.werewolf.test_serve import get, serving
from werewolf.boards import board_config
from werewolf.replay import ViewSpec, load_game, replay_html
from werewolf.replay.load import GameLog
from werewolf.replay.page import entry_data, page_data
from werewolf.replay.prompts import PromptStore, prompt_text
from werewolf.replay.render import harmless
from werewolf.replay.views import ViewStream

pytest.importorskip("uvicorn")
from werewolf.serve.app import ServeConfig

__all__ = ["browser"]  # the fixture, imported for this module

PAGE_LIMIT = 300_000  # bytes of a god page of about a hundred decisions


def test_each_text_is_stored_once_and_comes_back_whole() -> None:
    store = PromptStore()
    system = "You are Ada, seat 1.\n" * 20
    history = ["What you know so far:\n"]
    told = []
    for day in range(1, 6):
        history.append(f"Day {day}: seat {day} spoke at length about the votes.\n" * 5)
        user = "".join(history) + f"Now: vote, day {day}."
        told.append((store.add(system, (1, 0)), system))
        told.append((store.add(user, (1, 1)), user))
    told.append((store.add("What you know", (1, 1)), "What you know"))  # a prefix of the last
    told.append((store.add("", (2, 0)), ""))
    nodes = [list(node) for node in store.nodes]
    assert all(prompt_text(nodes, node) == text for node, text in told)
    assert len({node for node, text in told if text == system}) == 1
    stored = sum(len(added) for _, added in store.nodes)
    assert stored < len(system) + len("".join(history)) + 5 * len("Now: vote, day 1.") + 20


@pytest.fixture(scope="module")
def llm_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameLog]:
    """A 12-seat game where every seat is a model on the test server (about a hundred
    decisions, each speech some sixty words)."""
    path = tmp_path_factory.mktemp("prompts") / "games.sqlite3"
    config = board_config("guard-12")

    def played() -> str:
        with OpenAIServer(LegalTable(speech=realistic_speech)) as server:
            specs = llm_specs(server, seats=config.seats)
            return play(specs, seed=1, store_path=path, config=config).game

    game = off_loop(played)
    with SQLiteEventStore(path, read_only=True) as store:
        return path, load_game(store, game, str(path))


def sent(log: GameLog) -> list[dict[str, Any]]:
    """The god view's entries as the page data held them before the store: every message
    with its content."""
    stream = ViewStream(ViewSpec(), log.attachment)
    return [harmless(entry_data(e, "", god=True)) for ev in log.chain for e in stream.feed(ev)]


@pytest.fixture(scope="module")
def found(llm_game: tuple[Path, GameLog]) -> dict[int, str]:
    return texts_by_node(llm_game[1])


def texts_by_node(log: GameLog) -> dict[int, str]:
    """Each prompt node of the page data and the content its message had (every message
    checked to come back whole from the store)."""
    data = page_data(log)
    found: dict[int, str] = {}
    for entry, before in zip(data["entries"], sent(log), strict=True):
        for decision, told in zip(entry["decisions"], before["decisions"], strict=True):
            for attempt, asked in zip(decision["exchanges"], told["exchanges"], strict=True):
                for message, original in zip(attempt["messages"], asked["messages"], strict=True):
                    if "prompt" in message:
                        assert (
                            prompt_text(data["prompts"], message["prompt"]) == original["content"]
                        )
                        found[message["prompt"]] = original["content"]
                    else:
                        assert message == original
    return found


def test_a_god_page_of_a_hundred_decisions_stays_under_300_kb(
    llm_game: tuple[Path, GameLog], found: dict[int, str]
) -> None:
    _, log = llm_game
    data = page_data(log)
    decisions = sum(len(e["decisions"]) for e in data["entries"])
    assert decisions >= 100
    assert found  # every message's text came back from the store
    inline = sum(len(t) for e in sent(log) for d in e["decisions"] for t in _contents(d))
    stored = sum(len(added) for _, added in data["prompts"])
    assert stored * 4 < inline  # a seat's history is stored as it grows, not at each decision
    page = replay_html(log)
    assert len(page.encode()) < PAGE_LIMIT, len(page.encode())
    assert "The rules of this game" not in page  # the prompts are packed, not inline


def _contents(decision: dict[str, Any]) -> list[str]:
    return [
        m["content"]
        for attempt in decision.get("exchanges", [])
        for m in attempt["messages"]
        if isinstance(m.get("content"), str)
    ]


def open_first_exchange(page: Any) -> list[tuple[int, str]]:
    """Open the first decision's model exchange; each prompt node shown and its text."""
    decision = page.locator("details.decision").first
    decision.locator("> summary").click()
    exchange = decision.locator("details.exchange")
    exchange.locator("> summary").click()
    page.wait_for_selector("details.exchange[open] pre[data-prompt][data-shown]", state="attached")
    page.wait_for_function(
        "() => [...document.querySelectorAll('details.exchange[open] pre[data-prompt]')]"
        ".every((p) => p.textContent !== '…')"
    )
    shown = exchange.locator("pre[data-prompt]")
    return [
        (int(shown.nth(i).get_attribute("data-prompt")), str(shown.nth(i).text_content()))
        for i in range(shown.count())
    ]


def test_a_prompt_shows_whole_when_its_fold_opens(
    browser: Any, llm_game: tuple[Path, GameLog], found: dict[int, str], tmp_path: Path
) -> None:
    """From a standalone file (the texts unpacked in the browser) and from the server
    (each text fetched), the fold shows exactly what the model was sent."""
    path, log = llm_game
    standalone = tmp_path / "god.html"
    standalone.write_text(replay_html(log), encoding="utf-8")
    page, problems = open_page(browser, standalone.as_uri())
    shown = open_first_exchange(page)
    roles = page.locator("details.exchange .who").all_inner_texts()
    assert [role.lower() for role in roles[:2]] == ["system", "user"]
    assert len(shown) >= 2
    assert all(text == found[node] for node, text in shown)
    assert problems == []
    page.close()
    with serving(ServeConfig(path)) as url:
        status, served = get(f"{url}/game/{log.game_id}?view=god")
        assert status == 200
        assert len(served.encode()) < PAGE_LIMIT
        assert "The rules of this game" not in served  # fetched when asked
        assert re.search(r'"prompts":\{"url":"/game/[0-9A-Z]+/prompt/"\}', served)
        page, problems = open_page(browser, f"{url}/game/{log.game_id}?view=god")
        assert open_first_exchange(page) == shown
        assert problems == []
        page.close()
        assert get(f"{url}/game/{log.game_id}/prompt/{len(found) + 10**6}")[0] == 404
        assert get(f"{url}/game/{log.game_id}/prompt/x")[0] == 400
