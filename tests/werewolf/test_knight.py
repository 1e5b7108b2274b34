"""The knight (骑士), the day step's worked example: scripted games for each line of his
rule, read by the oracle (tests/oracle.py) and re-judged from their logs.

Deck (seat numbers): 1-3 wolves, 4 seer, 5 witch, 6 knight, 7-9 villagers. With no kill on
night 1 the day's speeches run from seat 1, so the knight speaks sixth.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from pulse_core import Event
from tests.oracle import check_log
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig, TiePolicy
from werewolf.decisions import Answer, Choice, DecisionKind, Request
from werewolf.identities.knight import DUEL_CAUSE
from werewolf.players.human import HumanPlayer
from werewolf.players.prompting import build_messages
from werewolf.players.schema import decision_tool, stable_tools
from werewolf.registry import identity_spec
from werewolf.replay.judge import rejudge
from werewolf.ruletext import rules_text
from werewolf.visibility import view

from .scripted import Played, play, votes
from .test_identities_players import ScriptedTerminal

W, V = Identity.WEREWOLF, Identity.VILLAGER
DEAL = (W, W, W, Identity.SEER, Identity.WITCH, Identity.KNIGHT, V, V, V)


def _play(script: dict[str, Answer], **fields: object) -> Played:
    config = GameConfig(identities=DEAL, referee_record=True, **fields)  # type: ignore[arg-type]
    played = play(script, config=config, deal=DEAL)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    rejudge(played.chain, lambda e: e.role)  # every event follows from the rules
    return played


def _day(played: Played, day: int) -> list[Event]:
    return [e for e in played.chain if e.meta.get("day") == day and e.role != "__start__"]


def test_a_duel_with_a_wolf_kills_him_and_night_falls_at_once() -> None:
    played = _play({"d1.knight.s6": Choice(2)})
    day1 = [e.role for e in _day(played, 1)]
    duel = day1.index("knight-duel")
    assert day1[duel + 1 :] == []  # no more speeches and no vote on day 1
    event = played.events("knight-duel")[0]
    assert event.meta["visible_to"] is None  # the table sees the duel
    assert event.meta["diff"] == {"knight": 6, "target": 2, "wolf": True}
    assert day1.count("day-speech") == 5  # seats 1 to 5 spoke before him
    first_after = played.chain[played.chain.index(event) + 1]
    assert first_after.role == "wolf-night"
    assert first_after.meta["day"] == 2
    deaths = {(d.seat, d.cause) for d in played.state.deaths}
    assert (2, DUEL_CAUSE) in deaths


def test_a_duel_with_a_good_seat_kills_the_knight_and_the_speeches_go_on() -> None:
    played = _play({"d1.knight.s6": Choice(7)})
    day1 = _day(played, 1)
    roles = [e.role for e in day1]
    duel = roles.index("knight-duel")
    assert day1[duel].meta["diff"] == {"knight": 6, "target": 7, "wolf": False}
    assert [e.meta["diff"]["speaker"] for e in day1[duel + 1 :] if e.role == "day-speech"] == [
        7,
        8,
        9,
    ]
    assert "vote" in roles[duel:]
    assert any(d.seat == 6 and d.cause == DUEL_CAUSE for d in played.state.deaths)
    assert "last-words" not in roles[duel : roles.index("vote")]  # no last words for a duel


def test_the_duel_is_once_per_game() -> None:
    played = _play({"d1.knight.s6": Choice(2), "d2.knight.s6": Choice(3)})
    assert len(played.events("knight-duel")) == 1
    assert not [
        r for r in played.asked if r.kind is DecisionKind.KNIGHT and r.key != "d1.knight.s6"
    ]


def test_a_declined_duel_is_his_alone_and_he_speaks_then_is_asked_again_next_day() -> None:
    played = _play({})  # the script's default: no duel
    declined = [e for e in played.events("knight-duel") if e.meta["day"] == 1]
    assert len(declined) == 1
    event = declined[0]
    assert event.meta["visible_to"] == [6]
    assert event.meta["diff"] == {"knight": 6, "target": None, "wolf": None}
    after = played.chain[played.chain.index(event) + 1]
    assert after.role == "day-speech"
    assert after.meta["diff"]["speaker"] == 6
    assert all(o.phase != "knight-duel" for o in view(played.chain, 7).observations)
    assert played.asked_for("d2.knight.s6")  # offered again the next day
    offered = played.asked_for("d1.knight.s6")[0]
    assert set(offered.options) == {1, 2, 3, 4, 5, 7, 8, 9, None}


def test_no_duel_in_a_pk_round() -> None:
    # seats 1-3 vote 6, seats 4, 5, 7 vote 7: a tie between the knight and seat 7
    script: dict[str, Answer] = {
        **votes(1, 6, voters=(1, 2, 3)),
        **votes(1, 7, voters=(4, 5, 8)),
    }
    played = _play(script, tie_policy=TiePolicy.PK)
    pk = next(e for e in played.events("vote") if e.meta["day"] == 1)
    assert pk.meta["diff"]["pk"] == [6, 7]
    day1 = [e.role for e in _day(played, 1)]
    assert day1.count("knight-duel") == 1  # before his first speech only, not in the PK
    assert [r.key for r in played.asked if r.kind is DecisionKind.KNIGHT][:1] == ["d1.knight.s6"]


def test_the_knight_is_declared_once_and_read_everywhere() -> None:
    spec = identity_spec(Identity.KNIGHT)
    assert spec.god
    assert spec.day
    assert not spec.night
    config = board_config("knight-12")
    assert sorted(config.identities).count(Identity.WEREWOLF) == 4
    assert "Knight: once per game" in rules_text(config, "en")
    assert "骑士：每局一次" in rules_text(config, "zh")
    assert "1 knight" in rules_text(config, "en")


def _knight_request(played: Played, key: str) -> Request:
    return played.asked_for(key)[0]


def test_a_human_knight_picks_a_duel_from_the_menu_of_living_seats() -> None:
    played = _play({})
    request = _knight_request(played, "d1.knight.s6")
    terminal = ScriptedTerminal("6", "2 seat 2 lied")
    answer = asyncio.run(HumanPlayer(6, terminal=terminal).decide(request))
    shown = "\n".join(terminal.shown)
    assert "Once per game, by day, in place of your speech" in shown
    assert "you may duel one living player" in shown
    assert "  [0] nobody" in shown
    assert "'6' is not one of the options" in shown
    assert answer == Choice(2, reasoning="seat 2 lied")


def test_an_llm_knight_is_offered_the_knight_duel_tool_and_told_of_the_duel() -> None:
    played = _play({"d1.knight.s6": Choice(7)})
    request = _knight_request(played, "d1.knight.s6")
    tool = decision_tool(request, "en")
    assert tool.name == "knight_duel"
    assert tool.answer(tool.model(reasoning="", target=0)) == Choice(None)
    deck = frozenset(DEAL)
    assert "knight_duel" in {t["function"]["name"] for t in stable_tools("en", deck)}
    assert "knight_duel" not in {t["function"]["name"] for t in stable_tools("en")}
    for lang, words in (("en", "dueled seat 7"), ("zh", "决斗")):
        later = played.asked_for("d1.speech.s7")[0]
        messages = build_messages(later, "", lang)
        assert words in messages[1]["content"]
        ask = build_messages(request, "", lang)[1]["content"]
        assert "knight_duel" in ask
        assert "0" in ask


def test_a_knight_game_replays_in_every_view_and_as_html(tmp_path: Path) -> None:
    cli = [sys.executable, "-c", "import sys; from werewolf.cli import main; sys.exit(main())"]
    store = tmp_path / "games.db"
    played = subprocess.run(
        [*cli, "play", "--board", "knight-12", "--seed", "2", "-q", "--store", str(store)],
        capture_output=True,
        text=True,
        check=True,
    )
    replay = next(tmp_path.glob("*.jsonl"))
    assert "Replay file" in played.stdout
    for view_args in ([], ["--public"], ["--seat", "5"]):
        shown = subprocess.run(
            [*cli, "replay", str(replay), *view_args], capture_output=True, text=True, check=True
        ).stdout
        assert "Knight's duel: 5 Eli shows the knight card; 12 Lea: died in a duel, day 2." in shown
    html = tmp_path / "game.html"
    subprocess.run([*cli, "replay", str(replay), "--html", str(html)], check=True)
    assert html.stat().st_size > 0
