"""The replay page in a real browser (headless Chromium): stepping, folding, filtering,
labels, widths, and hostile game text shown as plain text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.browser import browser, off_loop, open_page
from tests.openai_server import OpenAIServer
from tests.werewolf.llm_support import LegalTable, llm_specs, play
from tests.werewolf.test_replay_page import HOSTILE, hostile_game, story
from werewolf.cli import main
from werewolf.replay import ViewKind, ViewSpec, load_game, load_replay_file, replay_html

__all__ = ["browser"]  # the fixture, imported for this module

ROOT = Path(__file__).resolve().parents[2]


def write_page(tmp: Path, name: str, html: str) -> str:
    path = tmp / name
    path.write_text(html, encoding="utf-8")
    return path.as_uri()


def heading(page: Any) -> str:
    return str(page.locator("#section-title").inner_text())


def fate(page: Any, seat: int) -> str:
    return str(page.locator(f'#cast tr[data-seat="{seat}"] td').nth(3).inner_text())


PK_SAMPLE = ROOT / "replays" / "pk-and-hunter.jsonl"


@pytest.fixture(scope="module")
def pk_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    log = load_replay_file(PK_SAMPLE)
    return write_page(tmp_path_factory.mktemp("pages"), "god.html", replay_html(log))


def test_step_with_buttons_and_keys_and_the_cast_follows(browser: Any, pk_page: str) -> None:
    told = story(load_replay_file(PK_SAMPLE))
    assert told.shot_day == 1, "the sample's hunter shoots on day 1"
    page, problems = open_page(browser, pk_page)
    assert heading(page) == "Night 1"
    assert fate(page, told.shot) == "alive"
    page.click("#next")
    assert heading(page) == "Day 1"
    assert fate(page, told.shot) == "shot by the hunter, day 1"  # the god view knows why
    assert page.locator("#cast tr.dead").count() == told.dead_by_day1
    page.keyboard.press("ArrowRight")
    assert heading(page) == "Night 2"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert heading(page) == "Night 1"
    assert page.is_disabled("#prev")
    page.keyboard.press("End")
    assert heading(page) == f"Day {told.last_day}"
    assert page.is_disabled("#next")
    assert told.result in page.locator(".item.game-end").inner_text()
    page.click('#steps button:has-text("Day 1")')
    assert heading(page) == "Day 1"
    # the vote picture: who voted whom, and the PK re-vote apart
    vote = page.locator(".item.vote").first
    assert "Day 1 vote" in vote.inner_text()
    assert vote.locator(".votes .count").first.inner_text() == str(told.first_vote_top)
    day = told.pk_day
    page.click(f'#steps button:has-text("Day {day}")')
    titles = page.locator(".item.vote .what").all_inner_texts()
    assert titles[:2] == [f"Day {day} vote", f"Day {day} PK re-vote"]
    pk_speeches = page.locator(".item.day-speech", has_text="PK speech").count()
    assert pk_speeches == told.pk_speeches
    assert problems == []


def test_fold_filter_language_and_theme(browser: Any, pk_page: str) -> None:
    told = story(load_replay_file(PK_SAMPLE))
    page, problems = open_page(browser, pk_page)
    page.click("#next")  # day 1: speeches, each with its reasoning folded
    fold = page.locator(".item.day-speech details.decision").first
    reasoning = fold.locator(".reasoning")
    assert not reasoning.is_visible()
    fold.locator("summary").click()
    assert reasoning.is_visible()
    assert reasoning.inner_text().strip()
    # highlight the seat exiled on day 1: its own items stand out, the others fade
    seat = told.exiled1
    page.select_option("#seat-filter", str(seat))
    items = page.locator("#section-body .item")
    highlighted = page.locator("#section-body .item.hl")
    assert highlighted.count() >= 3  # its speech, the vote, its last words
    assert highlighted.count() + page.locator("#section-body .item.dim").count() == items.count()
    name = f"{seat} {told.names[seat - 1]}"
    assert name in page.locator(".item.day-speech.hl").first.inner_text()
    page.select_option("#seat-filter", "")
    assert page.locator("#section-body .item.dim").count() == 0
    # labels in Chinese and back; the game's own words stay as they are
    page.click("#lang")
    assert heading(page) == "第1天"
    assert page.locator("#cast-head th").nth(2).inner_text() == "身份"
    assert fate(page, told.shot) == "第1天被猎人带走"  # shot by the hunter, day 1
    page.click("#lang")
    assert heading(page) == "Day 1"
    # light and dark: the toggle flips the page's colours
    before = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.click("#theme")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != before
    assert problems == []


def test_fallbacks_stand_out_with_tokens_and_latency(browser: Any, tmp_path: Path) -> None:
    log = load_replay_file(ROOT / "replays" / "unruly-seat.jsonl")
    page, problems = open_page(browser, write_page(tmp_path, "unruly.html", replay_html(log)))
    page.click('#steps button:has-text("Day 1")')
    fallback = page.locator("details.decision.fallback").first
    summary = fallback.locator("summary").inner_text()
    assert "fallback" in summary
    # three refused answers, each with its cost, summed
    assert "2700 + 180 tokens · 1050 ms · 3 call(s)" in summary
    fallback.locator("summary").click()
    assert "seat 99 is not a legal choice" in fallback.inner_text()
    assert problems == []


def test_model_exchanges_fold_under_each_decision(browser: Any, tmp_path: Path) -> None:
    store_path = tmp_path / "games.sqlite3"
    with OpenAIServer(LegalTable()) as server:
        played = off_loop(play, llm_specs(server), seed=3, store_path=store_path)
    store = SQLiteEventStore(store_path)
    try:
        log = load_game(store, played.game)
    finally:
        store.close()
    page, problems = open_page(browser, write_page(tmp_path, "llm.html", replay_html(log)))
    decision = page.locator("details.decision").first
    decision.locator("> summary").click()
    exchange = decision.locator("details.exchange")
    assert "Model exchange: 1 attempt" in exchange.locator("> summary").inner_text()
    exchange.locator("> summary").click()
    roles = exchange.locator(".msg .who").all_inner_texts()
    assert roles[0].lower() == "system"
    assert "assistant" in [r.lower() for r in roles]  # the answer, with its tool call
    assert "LEAK-reason" in decision.locator(".reasoning").inner_text()
    assert problems == []


def test_views_widths_and_hostile_text(browser: Any, tmp_path: Path) -> None:
    log = off_loop(hostile_game)
    for spec, name in ((ViewSpec(), "god"), (ViewSpec(ViewKind.PUBLIC), "public")):
        url = write_page(tmp_path, f"{name}.html", replay_html(log, spec))
        for width in (1280, 360):
            page, problems = open_page(browser, url, width=width)
            # nothing sticks out sideways, at a desk or on a phone
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.click('#steps button:has-text("Day 1")')
            speech = page.locator(".item.day-speech", has_text="alert").inner_text()
            assert '<script>alert("x")</script>' in speech
            assert '"><img src=x onerror=alert(2)>' in speech
            assert "</textarea>" in speech
            assert "<U+202E>evil" in speech  # the bidi override shown, not obeyed
            assert "\u202e" not in page.locator("body").inner_text()
            assert page.locator("img, textarea, b").count() == 0
            assert page.locator("script").count() == 2
            assert "<b>Ben</b>" in page.locator("#cast").text_content()
            assert problems == []  # no alert fired, no script error
            page.close()
    # the public view has no nights: a spectator sees none of them
    page, _ = open_page(
        browser, write_page(tmp_path, "p.html", replay_html(log, ViewSpec(ViewKind.PUBLIC)))
    )
    assert all(t.startswith("Day") for t in page.locator("#steps button").all_inner_texts())
    assert HOSTILE  # the text these checks look for


@pytest.fixture(autouse=True)
def _close_pages(browser: Any) -> Iterator[None]:
    yield
    for page in browser.pages:
        page.close()


def test_the_kaggle_board_shows_ballots_draws_and_revealed_cards(
    browser: Any, tmp_path: Path
) -> None:
    log = load_replay_file(ROOT / "replays" / "kaggle-8.jsonl")
    god = write_page(tmp_path, "god.html", replay_html(log))
    page, problems = open_page(browser, god)
    night = page.locator(".item.wolf-night").first.inner_text()
    assert "The wolves vote" in night
    assert "Ballots, in seat order" in night
    seer = page.locator(".item.seer-check").first.inner_text()
    assert "(good)" in seer or "(a WOLF)" in seer  # the card, then the team
    page.click('#steps button:has-text("Day 1")')
    vote = page.locator(".item.vote").first.inner_text()
    assert "A tie, drawn at random among" in vote
    assert "Revealed:" in vote
    assert problems == []
    public = write_page(tmp_path, "public.html", replay_html(log, ViewSpec(ViewKind.PUBLIC)))
    page, problems = open_page(browser, public)
    page.click('#steps button:has-text("Day 1")')
    exiled = next(e for e in log.chain if e.role == "vote").meta["diff"]["exiled"]
    role = page.locator(f'#cast tr[data-seat="{exiled}"] td').nth(2).inner_text()
    assert role == log.state.identities[exiled - 1]  # the public learns the exiled card
    assert problems == []


def test_a_seed_past_2_53_is_shown_exactly(browser: Any, tmp_path: Path) -> None:
    """JavaScript reads JSON numbers as doubles: the page showed seed 9007199254740993 as
    ...992, and that seed deals another game."""
    store = tmp_path / "werewolf.sqlite3"
    seed = 2**53 + 1
    assert off_loop(main, ["play", "-q", "--seed", str(seed), "--store", str(store)]) == 0
    with SQLiteEventStore(store, read_only=True) as opened:
        [game] = opened.topics()
        log = load_game(opened, game)
    page, problems = open_page(browser, write_page(tmp_path, "big.html", replay_html(log)))
    assert page.locator("#rules").inner_text().endswith(f" · seed {seed}")
    assert problems == []


def test_heartbreak_is_worded_from_the_page_data(browser: Any, tmp_path: Path) -> None:
    """The cause words come with the page data: the viewer once showed the raw key
    ``fate_heartbreak`` for a lover who died of heartbreak."""
    log = load_replay_file(ROOT / "replays" / "cupid-10.jsonl")
    broken = next(d for d in log.state.deaths if d.cause == "heartbreak")
    for spec in (ViewSpec(), ViewSpec(ViewKind.PUBLIC)):
        page, problems = open_page(browser, write_page(tmp_path, "c.html", replay_html(log, spec)))
        page.click(f'#steps button:has-text("Day {broken.day}")')
        assert fate(page, broken.seat) == f"died of heartbreak, day {broken.day}"
        assert problems == []


def test_an_identitys_own_event_is_drawn_from_its_meaning(browser: Any, tmp_path: Path) -> None:
    """The knight's duel has no drawing of its own: the page draws its name, the card it
    shows and the death it tells, from the page data, in every view that sees it."""
    log = load_replay_file(ROOT / "replays" / "knight-12.jsonl")
    duel = next(
        e for e in log.chain if e.role == "knight-duel" and e.meta["diff"].get("target") is not None
    )
    knight, target, day = duel.meta["diff"]["knight"], duel.meta["diff"]["target"], duel.meta["day"]
    for spec in (ViewSpec(), ViewSpec(ViewKind.PUBLIC)):
        page, problems = open_page(browser, write_page(tmp_path, "k.html", replay_html(log, spec)))
        page.click(f'#steps button:has-text("Day {duel.meta["day"]}")')
        drawn = page.locator(".item.knight-duel").last.inner_text()
        assert drawn.startswith("Knight's duel")
        assert f"Revealed: {knight} " in drawn
        assert " · knight" in drawn
        assert f"{target} " in drawn
        assert f"died in a duel, day {day}" in drawn
        assert problems == []


def test_floor_bids_and_belief_reports_are_drawn(browser: Any, tmp_path: Path) -> None:
    """Bidding discussions: each bid is one line of bids (it was an italic box holding the
    word floor-bid); the god view shows the belief reports with each vote, no other view."""
    store, config = tmp_path / "werewolf.sqlite3", tmp_path / "beliefs.toml"
    config.write_text("beliefs = true\n", encoding="utf-8")
    args = ["play", "-q", "--seed", "7", "--board", "cupid-10", "--discussion", "bidding"]
    assert off_loop(main, [*args, "--config", str(config), "--store", str(store)]) == 0
    with SQLiteEventStore(store, read_only=True) as opened:
        [game] = opened.topics()
        log = load_game(opened, game)
    page, problems = open_page(browser, write_page(tmp_path, "god.html", replay_html(log)))
    page.click('#steps button:has-text("Day 1")')
    bid = page.locator(".item.floor-bid").first
    assert bid.inner_text().startswith("Bids for speech 1: ")
    assert " speaks." in bid.inner_text()
    assert page.locator("#section-body .empty").count() == 0
    beliefs = page.locator(".item.vote details.beliefs").first
    assert "beliefs: P(wolf) reported with the vote" in beliefs.inner_text()
    assert problems == []
    public = replay_html(log, ViewSpec(ViewKind.PUBLIC))
    page, problems = open_page(browser, write_page(tmp_path, "public.html", public))
    assert page.locator(".item.floor-bid").count() > 0
    assert page.locator("details.beliefs").count() == 0
    assert problems == []
