"""The interactive replay page's data and file: what each view's file holds, and escaping.

A seat or public page is built from that view's entries, so a hidden fact must be absent
from the file's bytes (not merely hidden by script). These tests read the files as bytes and
as the JSON they embed; ``test_viewer_browser.py`` drives the page itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pulse_core import MemoryEventStore, WorkflowRule
from tests.werewolf.scripted import DEAL, ScriptedPlayer
from tests.werewolf.twins import VILLAGER, twin_games
from werewolf.cast import Identity, Team, team_of
from werewolf.decisions import Speech
from werewolf.game import start_game, werewolf_workflow
from werewolf.replay import (
    GameLog,
    ViewKind,
    ViewSpec,
    load_game,
    load_replay_file,
    replay_html,
    replay_markdown,
    replay_text,
)
from werewolf.replay.page import embed_json, page_data
from werewolf.replay.page_notes import player_label

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "replays").glob("*.jsonl"))
HOSTILE = (
    '<script>alert("x")</script> "><img src=x onerror=alert(2)> </textarea> '
    "\u202eevil\u202c \x1b[31mred"
)
HOSTILE_NAMES = ["Ada", "<b>Ben</b>", "Cai\u202e", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo"]


def hostile_game(names: list[str] = HOSTILE_NAMES) -> GameLog:
    """A scripted game whose seat 4 speaks ``HOSTILE`` on day 1 and whose names are hostile
    (or ``names``)."""
    player = ScriptedPlayer({"d1.speech.s4": Speech(HOSTILE)})
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(lambda g, s: dict.fromkeys(s.seats, player)), store)
    game = start_game(rule, seed=1, deal=DEAL, names=names)
    asyncio.run(rule.run())
    return load_game(store, game)


def embedded(page: str) -> dict[str, Any]:
    """The page data a page carries."""
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def strings(value: Any, *, keys: bool = True) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k] * keys + strings(v, keys=keys)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v, keys=keys)]
    return []


def in_file(text: str, page: str) -> bool:
    """Whether ``text`` is in ``page`` as the page would hold it (JSON-escaped)."""
    return embed_json(text)[1:-1] in page


def hidden_texts(log: GameLog, seat: int | None) -> set[str]:
    """Free text the viewer (a seat, or the public for None) never saw: the wolves' talk
    (but for a wolf) and every private reasoning and model exchange."""
    god = page_data(log)
    wolves = {c["seat"] for c in god["cast"] if team_of(Identity(c["identity"])) is Team.WOLVES}
    texts: set[str] = set()
    for entry in god["entries"]:
        if entry["phase"] == "wolf-night" and seat not in wolves:
            texts |= {line["text"] for line in entry["detail"]["discussion"]}
        for decision in entry["decisions"]:
            texts |= set(strings({k: v for k, v in decision.items() if k != "seat"}, keys=False))
    # a phrase a public speech repeats is no secret
    public = {s for e in page_data(log, ViewSpec(ViewKind.PUBLIC))["entries"] for s in strings(e)}
    return {t for t in texts if len(t) > 12 and t not in public}


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_seat_and_public_files_hold_only_their_view(path: Path) -> None:
    log = load_replay_file(path)
    god_page = replay_html(log)
    assert hidden_texts(log, None), "the sample has private text to look for"
    assert all(in_file(t, god_page) for t in hidden_texts(log, None))
    deal = [c["identity"] for c in page_data(log)["cast"]]
    views = [ViewSpec(ViewKind.PUBLIC), *(ViewSpec.of_seat(s) for s in range(1, len(deal) + 1))]
    for spec in views:
        page = replay_html(log, spec)
        data = embedded(page)
        leaked = [t for t in hidden_texts(log, spec.seat) if in_file(t, page)]
        assert not leaked, f"{spec.label}: {leaked[:3]}"
        assert all("decisions" not in e and "audience" not in e for e in data["entries"])
        # the cast names only the identities the view knows at the start
        known = {c["seat"]: c["identity"] for c in data["cast"] if c["identity"]}
        if spec.seat is None:
            assert known == {}
        else:
            assert known[spec.seat] == deal[spec.seat - 1]
            wolves = {s for s, i in enumerate(deal, 1) if team_of(Identity(i)) is Team.WOLVES}
            expected = {spec.seat} | (wolves if spec.seat in wolves else set())  # kings too
            assert set(known) == expected
        # and the entries are exactly the view's: private phases only for their audience
        phases = {e["phase"] for e in data["entries"]}
        if spec.seat is None:
            assert not phases & {
                "wolf-night",
                "witch-action",
                "seer-check",
                "guard-protect",
                "doctor-protect",
                "cupid-link",
                "lovers-told",
            }
        else:
            identity = deal[spec.seat - 1]
            assert ("wolf-night" in phases) == (spec.seat in wolves)
            assert ("seer-check" in phases) == (identity == "seer")
            assert ("guard-protect" in phases) == (identity == "guard")
            assert ("doctor-protect" in phases) == (identity == "doctor")
            assert ("cupid-link" in phases) == (identity == "cupid")


@dataclass(frozen=True)
class Story:
    """The facts of a sample game the page must show, read from its log (the sample is
    regenerated whenever the mock players change, so its story is not written here)."""

    shooter: int
    shot: int  # the hunter's target
    shot_day: int
    victim: int  # the wolves' last victim
    victim_night: int
    pk_day: int  # the first day with a PK round
    pk_speeches: int
    first_vote_top: int  # the most votes against one seat in the first vote
    dead_by_day1: int  # seats dead at the end of day 1
    exiled1: int  # the seat exiled on day 1 (through the PK if there was one)
    names: tuple[str, ...]
    last_day: int
    result: str  # how the page words the winner


def story(log: GameLog) -> Story:
    chain = log.chain
    shot = next(e for e in chain if e.role == "hunter-shot" and e.meta["diff"]["target"])
    targets = {e.meta["day"]: e.meta["diff"]["target"] for e in chain if e.role == "wolf-night"}
    victims = [
        (e.meta["day"], seat)
        for e in chain
        if e.role == "dawn"
        for seat in e.meta["diff"]["died"]
        if targets.get(e.meta["day"]) == seat
    ]
    votes = [e for e in chain if e.role == "vote"]
    pk_day = next(e.meta["day"] for e in votes if e.meta["diff"]["pk"])
    dead = {
        s
        for e in chain
        if e.meta.get("day") == 1 and e.role in ("dawn", "vote", "hunter-shot")
        for s in (
            e.meta["diff"].get("died")
            or [e.meta["diff"].get("exiled") or e.meta["diff"].get("target")]
        )
        if s
    }
    exiled1 = next(e.meta["diff"]["exiled"] for e in votes if e.meta["diff"]["exiled"])
    return Story(
        shooter=shot.meta["diff"]["shooter"],
        shot=shot.meta["diff"]["target"],
        shot_day=shot.meta["day"],
        victim=victims[-1][1],
        victim_night=victims[-1][0],
        pk_day=pk_day,
        pk_speeches=sum(
            1
            for e in chain
            if e.role == "day-speech" and e.meta["day"] == pk_day and e.meta["detail"]["pk"]
        ),
        first_vote_top=max(c for _, c in votes[0].meta["detail"]["counts"]),
        dead_by_day1=len(dead),
        exiled1=exiled1,
        names=tuple(chain[0].meta["game"]["names"]),
        last_day=chain[-1].meta["day"],
        result={"good": "The good side wins", "wolves": "The wolves win"}[
            chain[-1].meta["diff"]["winner"]
        ],
    )


def test_god_page_folds_each_decision_with_reasoning_and_causes() -> None:
    log = load_replay_file(ROOT / "replays" / "pk-and-hunter.jsonl")
    data = page_data(log)
    assert data["view"] == {"kind": "god", "seat": None}
    sections = [e["section"] for e in data["entries"]]
    assert sections[0] == "n1"
    assert sections[-1].startswith("d")
    assert sections == sorted(sections, key=lambda s: (int(s[1:]), s[0] == "d"))
    speech = next(e for e in data["entries"] if e["phase"] == "day-speech")
    [decision] = speech["decisions"]
    assert decision["seat"] == speech["diff"]["speaker"]
    assert decision["decision"] == "speech"
    assert decision["reasoning"]
    told = story(log)
    assert data["fates"][str(told.shot)] == {"how": "shot", "day": told.shot_day}
    victim, night = str(told.victim), told.victim_night
    assert data["fates"][victim] == {"how": "wolf", "day": night}
    public = page_data(log, ViewSpec(ViewKind.PUBLIC))
    assert public["fates"][victim] == {"how": "died", "day": night}  # the public never learns why
    # a seat knows the causes its own night showed it: the wolves whom they killed
    deal = [c["identity"] for c in data["cast"]]
    wolf = deal.index("werewolf") + 1
    villager = next(s for s, i in enumerate(deal, 1) if i == "villager" and str(s) != victim)
    assert page_data(log, ViewSpec.of_seat(wolf))["fates"][victim] == {"how": "wolf", "day": night}
    assert page_data(log, ViewSpec.of_seat(villager))["fates"][victim]["how"] == "died"


def test_every_game_string_is_escaped_and_stripped_of_controls() -> None:
    log = hostile_game()
    for spec in (ViewSpec(), ViewSpec(ViewKind.PUBLIC), ViewSpec.of_seat(4)):
        page = replay_html(log, spec)
        data = embedded(page)
        # the page's own two script elements and nothing a game wrote
        assert page.count("</script") == 2
        assert "<img" not in page
        assert "</textarea" not in page
        assert "<b>" not in page
        assert not re.search("[\u202a-\u202e\u2066-\u2069\x00-\x08\x1b]", page)
        texts = strings(data)
        assert any("<script>alert(" in t and "<U+202E>evil" in t for t in texts)
        assert "<b>Ben</b>" in [c["name"] for c in data["cast"]]
        assert "Cai<U+202E>" in [c["name"] for c in data["cast"]]


def test_embedded_json_round_trips_and_cannot_end_the_script() -> None:
    value = {"a": "</script><script>x</script>", "b": "a & b > c", "c": "\u2028"}
    text = embed_json(value)
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    assert "\u2028" not in text
    assert json.loads(text) == value


def _before_the_end(page: str, game_id: str) -> dict[str, Any]:
    """A page's data with its game id blanked, up to the end (which reveals every card):
    the end entry is kept as its number only."""
    data = embedded(page.replace(game_id, "GAME"))
    *entries, end = data["entries"]
    assert end["phase"] == "game-end"
    return {**data, "entries": entries, "end": end["v"]}


@pytest.mark.parametrize(
    "spec", [ViewSpec(ViewKind.PUBLIC), ViewSpec.of_seat(VILLAGER)], ids=["public", "seat"]
)
def test_a_view_is_the_same_whatever_happened_out_of_its_sight(spec: ViewSpec) -> None:
    """Twin games with one hidden event more on night 2: the public's and a villager's
    page, text and Markdown are the same up to the end, numbers included (the log's
    numbers would show the extra hidden event, and so who still acts at night)."""
    twins = twin_games()
    logs = [load_game(g.store, g.game_id) for g in twins]
    pages = [_before_the_end(replay_html(log, spec), log.game_id) for log in logs]
    assert pages[0] == pages[1]
    numbers = [e["v"] for e in pages[0]["entries"]] + [pages[0]["end"]]
    assert numbers == list(range(1, len(numbers) + 1))  # the view's own count, no gaps
    for draw in (replay_text, replay_markdown):
        texts = [draw(log, spec).replace(log.game_id, "GAME") for log in logs]
        before = [text.split("Result, day")[0] for text in texts]
        assert before[0] == before[1]
        assert len(before[0]) < len(texts[0])  # the end was cut off, not the whole text


@pytest.mark.parametrize(
    "spec", [ViewSpec(ViewKind.PUBLIC), ViewSpec.of_seat(1)], ids=["public", "seat"]
)
def test_a_game_in_progress_shows_no_seed_but_to_the_god(spec: ViewSpec) -> None:
    """The seed gives the deal (every card): a public or seat page, text or Markdown of a
    game in progress leaves it out; the god view has it, and every view once it ended."""
    whole = load_replay_file(SAMPLES[0])
    seed = whole.state.seed
    cut = dataclasses.replace(whole, chain=whole.chain[: len(whole.chain) // 2])
    assert not cut.state.ended
    said = f"seed {seed}"
    assert page_data(cut, spec)["game"]["seed"] is None
    assert said not in replay_text(cut, spec)
    assert said not in replay_markdown(cut, spec)
    assert page_data(cut)["game"]["seed"] == seed  # the god view
    assert said in replay_text(cut)
    assert page_data(whole, spec)["game"]["seed"] == seed  # ended: the cast is revealed too
    assert said in replay_text(whole, spec)


def test_the_god_page_tells_whose_protection_saved_the_wolves_victim() -> None:
    """Guard and doctor saves were only implied (a peaceful dawn); the god page's dawn now
    names the seat saved and who saved it, and no other view learns it."""
    saves = {}
    for name in ("guard-12", "seer-doctor-8"):
        log = load_replay_file(ROOT / "replays" / f"{name}.jsonl")
        for e in page_data(log)["entries"]:
            if "saved" in e:
                saves.setdefault(e["saved"]["by"][0], e)
        public = page_data(log, ViewSpec(ViewKind.PUBLIC))["entries"]
        assert not any("saved" in e for e in public)
    assert {"guard", "doctor", "witch"} <= saves.keys()
    dawn = saves["guard"]
    assert dawn["phase"] == "dawn"
    assert dawn["saved"]["seat"] not in dawn["diff"]["died"]


def test_the_page_words_its_rules_players_and_end_in_both_languages() -> None:
    log = load_replay_file(ROOT / "replays" / "kaggle-8.jsonl")
    data = page_data(log)
    rules = data["game"]["rules"]
    assert rules["en"]["line"] == "board kaggle-8, 8 seats, win rule: parity"
    for lang in ("en", "zh"):
        text = " ".join([rules[lang]["line"], *rules[lang]["text"]])
        assert "True" not in text
        assert "False" not in text
    assert re.search("[\u4e00-\u9fff]", rules["zh"]["text"][0])
    assert data["game"]["players"] == ["mock"] * 8
    assert data["game"]["arena"] is None
    end = data["entries"][-1]
    assert end["reason"]["en"] == end["detail"]["reason"]
    assert re.search("[\u4e00-\u9fff]", end["reason"]["zh"])
    assert player_label({"kind": "llm", "model": "gpt-4o"}) == "llm:gpt-4o"
    assert player_label({"kind": "py", "factory": "bots:make"}) == "py:bots:make"


def test_an_arena_game_names_its_run_and_who_plays_each_seat() -> None:
    store = MemoryEventStore()
    player = ScriptedPlayer({})
    rule = WorkflowRule(werewolf_workflow(lambda g, s: dict.fromkeys(s.seats, player)), store)
    assignment = ["alice", *["mock"] * 8]
    players = [{"kind": "llm", "model": "gpt-4o"}, *[{"kind": "mock"}] * 8]
    arena = {"run": "weekly", "index": 0, "assignment": assignment}
    game = start_game(rule, seed=1, deal=DEAL, players=players, arena=arena)
    asyncio.run(rule.run())
    data = page_data(load_game(store, game), ViewSpec(ViewKind.PUBLIC))
    assert data["game"]["arena"] == "weekly"
    assert data["game"]["players"] == ["alice (llm:gpt-4o)", *["mock"] * 8]
