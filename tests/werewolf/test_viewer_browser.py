"""The replay page in a real browser (headless Chromium): stepping, folding, filtering,
labels, widths, and hostile game text shown as plain text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.browser import browser, off_loop, open_page
from tests.openai_server import OpenAIServer
from tests.werewolf.llm_support import LegalTable, llm_specs, play
from tests.werewolf.test_replay_page import HOSTILE, HOSTILE_NAMES, hostile_game, story
from werewolf import registry
from werewolf.cli import main
from werewolf.events import cause_label, cause_labels, kind_label
from werewolf.registry import NO_MEANING, EventSpec, Names, event_spec, event_specs
from werewolf.replay import ViewKind, ViewSpec, load_game, load_replay_file, replay_html
from werewolf.replay.page import page_data, viewer_page

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


def test_the_wolf_kings_shot_is_his_not_the_hunters(browser: Any, tmp_path: Path) -> None:
    """A shot carries the shooter's card when he is not the hunter: the page once named
    every shooter "The hunter". The wolf king's shot is worded with his registry name and
    drawn in the wolves' colour, in en and zh; the hunter's stays the hunter's."""
    log = load_replay_file(ROOT / "replays" / "wolf-king-12.jsonl")
    shots = [e.meta for e in log.chain if e.role == "hunter-shot" and e.meta["diff"].get("target")]
    king = next(m for m in shots if m["diff"].get("card") == "wolf-king")
    hunter = next(m for m in shots if "card" not in m["diff"])
    page, problems = open_page(browser, write_page(tmp_path, "wk.html", replay_html(log)))
    page.click(f'#steps button:has-text("Day {king["day"]}")')
    drawn = page.locator('.item.hunter-shot .shot[data-card="wolf-king"]')
    text = drawn.inner_text()
    shooter, target = king["diff"]["shooter"], king["diff"]["target"]
    assert text.startswith(f"Wolf king {shooter} ")
    assert f"shows the wolf king card and shoots {target} " in text
    assert "hunter" not in text
    assert drawn.locator(".what").get_attribute("class") == "what team-wolves"
    page.click(f'#steps button:has-text("Day {hunter["day"]}")')
    plain = page.locator('.item.hunter-shot .shot[data-card="hunter"]').inner_text()
    assert plain.startswith(f"The hunter {hunter['diff']['shooter']} ")
    page.click("#lang")
    page.click(f'#steps button:has-text("第{king["day"]}天")')
    zh = page.locator('.item.hunter-shot .shot[data-card="wolf-king"]').inner_text()
    assert zh.startswith(f"狼王 {shooter} ")
    assert "亮出狼王牌开枪带走" in zh
    assert "猎人" not in zh
    page.click("#lang")
    assert problems == []


def _item(page: Any, kind: str, nth: int = 0) -> str:
    return str(page.locator(f".item.{kind}").nth(nth).inner_text())


def test_the_election_the_badge_and_the_sheriffs_weighted_ballot_are_drawn(
    browser: Any, tmp_path: Path
) -> None:
    """The sheriff's events once fell to the generic drawing, which showed a bare title: the
    candidates, the withdrawals, the ballots, the elected and the badge's path were not on
    the page, and a vote counted the sheriff's ballot as one. Drawn from guard-12's sample
    (the sheriff's ballot counts 1.5) and white-wolf-king-12's (a self-destruct
    in the election; the badge passed on, then torn), in en and zh."""
    log = load_replay_file(ROOT / "replays" / "guard-12.jsonl")
    meta = {e.role: e.meta for e in reversed(log.chain)}  # each kind's first event
    run, withdraw = meta["sheriff-run"]["diff"], meta["sheriff-withdraw"]["diff"]
    page, problems = open_page(browser, write_page(tmp_path, "g12.html", replay_html(log)))
    page.click('#steps button:has-text("Day 1")')
    running = _item(page, "sheriff-run")
    assert running.startswith("Sheriff election\nRunning: ")
    assert all(f"{seat} " in running.split("\n")[1] for seat in run["candidates"])
    withdrawn = _item(page, "sheriff-withdraw")
    assert f"{withdraw['sheriff']} " in withdrawn
    assert "is left alone: sheriff." in withdrawn
    vote = page.locator(".item.vote").first
    counts = dict(meta["vote"]["detail"]["counts"])
    sheriff = meta["vote"]["detail"]["sheriff"]
    ballots = dict(meta["vote"]["detail"]["ballots"])
    backed = ballots[sheriff]
    others = sum(1 for voter, seat in ballots.items() if seat == backed and voter != sheriff)
    assert counts[backed] == others + 1.5
    rows = vote.locator(".votes").inner_text().split("\n")
    assert f"{counts[backed]:g}" in rows  # the sheriff's ballot makes a half
    assert vote.locator(".votes .sheriff").count() == 1  # his ballot is starred
    starred = vote.locator(".votes .sheriff").evaluate("n => n.previousSibling.textContent")
    assert starred.startswith(f"{sheriff} ")
    # the cast stars the sheriff once he is elected
    assert page.locator(f'#cast tr[data-seat="{sheriff}"] .sheriff').count() == 1
    assert page.locator("#cast .sheriff").count() == 1

    log = load_replay_file(ROOT / "replays" / "white-wolf-king-12.jsonl")
    badges = [e.meta for e in log.chain if e.role == "sheriff-badge"]
    passed = next(m for m in badges if m["diff"]["to"] is not None)
    torn = next(m for m in badges if m["diff"]["to"] is None)
    blast = next(e.meta for e in log.chain if e.role == "self-destruct")
    page, more = open_page(browser, write_page(tmp_path, "wwk.html", replay_html(log)))
    page.click(f'#steps button:has-text("Day {blast["day"]}")')
    words = "takes" if blast["diff"]["target"] is not None else "reveals a wolf and self-destructs"
    assert words in _item(page, "self-destruct")
    assert "No vote today" in _item(page, "self-destruct")

    def badge_texts() -> list[str]:
        return [t.replace("\n", " ") for t in page.locator(".item.sheriff-badge").all_inner_texts()]

    page.click(f'#steps button:has-text("Day {passed["day"]}")')
    assert any(f"passes the badge to {passed['diff']['to']} " in t for t in badge_texts())
    page.click(f'#steps button:has-text("Day {torn["day"]}")')
    assert any("tears the badge." in t for t in badge_texts())
    assert page.locator("#cast .sheriff").count() == 0  # torn: nobody holds it
    page.click("#lang")
    page.click(f'#steps button:has-text("第{passed["day"]}天")')
    assert any("把警徽移交给" in t for t in badge_texts())
    page.click('#steps button:has-text("第1天")')
    assert "上警" in _item(page, "sheriff-run")
    page.click("#lang")
    assert problems == more == []


def test_floor_bids_and_belief_reports_are_drawn(browser: Any, tmp_path: Path) -> None:
    """Bidding discussions: each speech shows the bids that gave it the floor (they were
    italic boxes of their own, one per speech); the god view shows the belief reports with
    each vote as a table, a wolf's column marked, no other view."""
    store, config = tmp_path / "werewolf.sqlite3", tmp_path / "beliefs.toml"
    config.write_text("beliefs = true\n", encoding="utf-8")
    args = ["play", "-q", "--seed", "7", "--board", "cupid-10", "--discussion", "bidding"]
    assert off_loop(main, [*args, "--config", str(config), "--store", str(store)]) == 0
    with SQLiteEventStore(store, read_only=True) as opened:
        [game] = opened.topics()
        log = load_game(opened, game)
    wolves = {s for s, i in enumerate(log.state.identities, 1) if i == "werewolf"}
    page, problems = open_page(browser, write_page(tmp_path, "god.html", replay_html(log)))
    page.click('#steps button:has-text("Day 1")')
    assert page.locator(".item.floor-bid").count() == 0
    speech = page.locator(".item.day-speech").first
    assert speech.locator(".bids").inner_text().startswith("bids: ")
    assert page.locator("#section-body .empty").count() == 0
    beliefs = page.locator(".item.vote details.beliefs").first
    assert "beliefs: P(wolf) reported with the vote" in beliefs.inner_text()
    marked = {
        int(h.split()[0].strip("▲")) for h in beliefs.locator("th.team-wolves").all_text_contents()
    }
    assert marked
    assert marked <= wolves
    assert all("▲" in h for h in beliefs.locator("th.team-wolves").all_text_contents())
    assert problems == []
    public = replay_html(log, ViewSpec(ViewKind.PUBLIC))
    page, problems = open_page(browser, write_page(tmp_path, "public.html", public))
    assert page.locator(".item.day-speech .bids").count() > 0
    assert page.locator(".item.floor-bid").count() == 0
    assert page.locator("details.beliefs").count() == 0
    assert problems == []


def test_deep_links_open_their_step_and_event(browser: Any, pk_page: str) -> None:
    """``#d2`` opened Night 1; now each night, day and event has its address."""
    log = load_replay_file(PK_SAMPLE)
    page, problems = open_page(browser, pk_page + "#d2")
    assert heading(page) == "Day 2"
    from playwright.sync_api import expect  # here: without playwright the module skips

    page.goto(pk_page + "#n1")  # only the fragment changes: the page follows it
    expect(page.locator("#section-title")).to_have_text("Night 1")
    vote = next(e for e in log.chain if e.role == "vote" and e.meta["day"] == 2)
    page.goto(f"{pk_page}#e{vote.version}")
    expect(page.locator("#section-title")).to_have_text("Day 2")
    assert page.locator(".item.current").get_attribute("id") == f"e{vote.version}"
    page.keyboard.press("j")  # the next event: its own address
    after = page.locator(".item.current").get_attribute("id")
    assert after != f"e{vote.version}"
    assert page.evaluate("location.hash") == f"#{after}"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#n2"
    assert problems == []


def test_keys_and_buttons_keep_the_focus_and_tell_a_screen_reader(
    browser: Any, pk_page: str
) -> None:
    from playwright.sync_api import expect  # here: without playwright the module skips

    page, problems = open_page(browser, pk_page)
    live = page.locator("#announce")
    assert live.get_attribute("aria-live") == "polite"
    said = live.text_content()
    page.locator('#steps button:has-text("Day 1")').focus()
    page.keyboard.press("Enter")
    assert heading(page) == "Day 1"
    # Enter once dropped the focus to <body>: the step stays focused, and the arrows move it
    assert page.evaluate("document.activeElement.textContent") == "Day 1"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-current')") == "step"
    assert page.evaluate("document.activeElement.textContent") == "Night 2"
    assert live.text_content() != said
    page.locator("#next").focus()
    while not page.is_disabled("#next"):
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"  # not <body>
    page.keyboard.press("Home")
    page.click("#next-event")
    assert "event 1 of" in (live.text_content() or "")
    assert page.locator(".item.current").count() == 1
    # autoplay steps on by itself until paused
    page.select_option("#speed", "4")
    first = page.locator(".item.current").get_attribute("id")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    expect(page.locator(".item.current")).not_to_have_id(str(first))
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "false"
    assert problems == []


def _contrast(rgb1: list[float], rgb2: list[float]) -> float:
    def lum(rgb: list[float]) -> float:
        c = [v / 255 for v in rgb]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(rgb1), lum(rgb2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


RGB = "c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number)"


def test_focus_ring_team_marks_languages_and_rules(browser: Any, pk_page: str) -> None:
    """A focus ring of 3:1 in both themes, teams told by a mark and not by colour alone,
    ``lang`` on the page and the language button, the rules folded and translated."""
    log = load_replay_file(PK_SAMPLE)
    page, problems = open_page(browser, pk_page)
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        page.keyboard.press("Tab")
        ring = page.evaluate(f"({RGB})(getComputedStyle(document.activeElement).outlineColor)")
        ground = page.evaluate(f"({RGB})(getComputedStyle(document.body).backgroundColor)")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
        assert _contrast(ring, ground) >= 3, theme
    wolf = next(s for s, i in enumerate(log.state.identities, 1) if i == "werewolf")
    assert "▲" in page.locator(f'#cast tr[data-seat="{wolf}"] td.name').inner_text()
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.get_attribute("#lang", "lang") == "zh"
    rules = page.locator("#rules-panel")
    assert rules.locator("summary").inner_text() == "Rules"
    assert not rules.locator("p").first.is_visible()
    rules.locator("summary").click()
    text = rules.inner_text()
    assert "9 players" in text
    assert "True" not in text
    assert "False" not in text
    assert "True" not in page.locator("#rules").inner_text()
    page.click("#lang")
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.get_attribute("#lang", "lang") == "en"
    assert rules.locator("summary").inner_text() == "规则"
    assert "9人局" in rules.inner_text()
    page.keyboard.press("End")
    reason = page.locator(".item.game-end").inner_text()
    assert str(log.chain[-1].meta["detail"]["reason"]) not in reason  # said in Chinese
    assert re.search("[\u4e00-\u9fff]", reason.split("\n")[1])
    page.click("#lang")
    assert problems == []


def test_who_plays_each_seat_and_the_arena_run(browser: Any, tmp_path: Path) -> None:
    log = load_replay_file(PK_SAMPLE)
    data = page_data(log)
    data["game"]["players"] = ["llm:gpt-4o", *["mock:bold"] * 8]
    data["game"]["arena"] = "weekly"
    page, problems = open_page(
        browser, write_page(tmp_path, "p.html", viewer_page(data, title="p"))
    )
    assert page.locator('#cast tr[data-seat="1"] .player').inner_text() == "llm:gpt-4o"
    assert page.locator('#cast tr[data-seat="2"] .player').inner_text() == "mock:bold"
    header = page.locator("#players").inner_text()
    assert "llm:gpt-4o" in header
    assert "mock:bold ×8" in header
    assert "arena run weekly" in header
    data["home"] = "/"  # served: the run's report is a link
    page, problems = open_page(
        browser, write_page(tmp_path, "s.html", viewer_page(data, title="s"))
    )
    assert page.get_attribute("#players a", "href") == "/arena/weekly"
    assert problems == []


def test_a_long_name_is_cut_short_and_nothing_scrolls_sideways(
    browser: Any, tmp_path: Path
) -> None:
    """A 60-character name drew the cast over the story at 1280 px and scrolled 599 px
    sideways at 360."""
    long = "Bartholomew" * 5 + "Q" * 5
    assert len(long) == 60
    log = off_loop(hostile_game, names=["Ada", long, *HOSTILE_NAMES[2:]])
    url = write_page(tmp_path, "long.html", replay_html(log))
    for width in (360, 1280):
        page, problems = open_page(browser, url + "#d1", width=width)
        if width < 700:
            page.click("#cast-panel summary")
        page.select_option("#seat-filter", "2")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        name = page.locator('#cast tr[data-seat="2"] .full')
        assert name.get_attribute("title") == long
        chip = page.locator('.item.day-speech .chip[data-seat="2"]').first
        assert chip.get_attribute("title") == f"2 {long} · wolves"
        if width > 700:  # the cast stays beside the story, not over it
            aside = page.locator("aside").bounding_box()
            story = page.locator("#story").bounding_box()
            cast = page.locator("#cast").bounding_box()
            assert aside
            assert story
            assert cast
            assert cast["x"] + cast["width"] <= aside["x"] + aside["width"] <= story["x"]
        assert problems == []


# kinds with a drawing of their own that no sample game holds: a shape they take
SHAPES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "floor-bid": ({"floor": 2}, {"bids": [[1, 0], [2, 3]], "speech": 1}),
    "doctor-told": ({"saved": 3}, {}),
    "seat-swap": ({}, {"seat": 2, "to": "mock", "from": "llm:gpt-4o"}),
}


def every_kind_page() -> tuple[dict[str, Any], list[str], list[str]]:
    """Page data holding one entry of every registered event kind (from the samples; a
    kind none holds as ``SHAPES`` says, else empty: it must take the generic drawing) and a
    dead seat for every declared cause of death."""
    data = page_data(load_replay_file(PK_SAMPLE))
    found: dict[str, dict[str, Any]] = {}
    for sample in sorted((ROOT / "replays").glob("*.jsonl")):
        for entry in page_data(load_replay_file(sample))["entries"]:
            found.setdefault(entry["phase"], entry)
    kinds = [spec.kind for spec in event_specs()]
    causes = sorted(cause_labels("en"))
    entries = []
    for v, kind in enumerate(kinds, 1):
        diff, detail = SHAPES.get(kind, ({}, {}))
        entry = found.get(kind) or {"phase": kind, "diff": diff, "detail": detail, "day": 1}
        entries.append({**entry, "v": v, "section": "d1", "day": 1})
    seats = list(range(1, len(causes) + 1))
    data["cast"] = [
        {"seat": s, "name": f"S{s}", "identity": "villager", "team": "good"} for s in seats
    ]
    meaning = {"deaths": [[s, None] for s in seats], "revealed": []}
    end = {"phase": "dawn", "diff": {"died": seats}, "detail": {}, "meaning": meaning}
    entries.append({**end, "v": len(kinds) + 1, "section": "d1", "day": 1})
    data["entries"] = entries
    data["fates"] = {str(s): {"how": c, "day": 1} for s, c in zip(seats, causes, strict=True)}
    return data, kinds, causes


# an event kind and cause of one's own, registered for one test: drawn with no viewer edit
CRIER = EventSpec(
    kind="town-crier",
    label=Names("town crier", "报信人"),
    diff=dict,
    detail=dict,
    fold=None,
    meaning=lambda diff, detail: NO_MEANING,
    causes={"silenced": Names("silenced, day {n}", "第{n}天被禁言")},
)


def test_every_event_kind_and_cause_is_drawn_and_worded(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read from the registry, so a kind or cause added (an identity's own) is covered: each
    kind is drawn (its own drawing, or the generic one from its meaning, named by its
    label) and each cause worded, in en and zh, with no raw key and no script error."""
    event_spec(CRIER.kind)  # the built-in specs loaded first
    monkeypatch.setitem(registry._EVENTS, CRIER.kind, CRIER)
    data, kinds, causes = every_kind_page()
    assert CRIER.kind in kinds
    assert "silenced" in causes
    page, problems = open_page(
        browser, write_page(tmp_path, "all.html", viewer_page(data, title="all"))
    )
    for lang in ("en", "zh"):
        # one read of the page per language: each item's id, kind label and text, each fate
        items = {i: (k, t) for i, k, t in page.evaluate(ITEMS)}
        fates = page.evaluate(FATES)
        for v, kind in enumerate(kinds, 1):
            assert f"e{v}" in items, kind
            shown, text = items[f"e{v}"]
            label = kind_label(kind, lang)
            assert label
            assert shown == label
            if lang == "zh":
                assert re.search("[\u4e00-\u9fff]", label), kind
            assert text.strip(), kind
            if data["entries"][v - 1]["diff"] == {} and kind not in SHAPES:  # generic: named
                assert text.startswith(label[0].upper() + label[1:]), kind
            for raw in ("undefined", "NaN", "[object", "null"):
                assert raw not in text, (kind, raw, text)
            if "-" in kind:  # "vote" is also a word, and "self-destructed" is words
                assert not re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", text), (kind, text)
        for seat, cause in enumerate(causes, 1):
            assert fates[seat - 1] == cause_label(cause, lang).replace("{n}", "1"), cause
        if lang == "en":
            page.click("#lang")
    page.click("#lang")
    assert problems == []


ITEMS = "[...document.querySelectorAll('#section-body .item')].map(n => [n.id, n.dataset.kind, n.innerText])"
FATES = "[...document.querySelectorAll('#cast tbody tr')].map(r => r.cells[3].innerText)"
