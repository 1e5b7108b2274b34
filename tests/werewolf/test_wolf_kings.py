"""Self-destruct (自爆), the wolf king (狼王) and the white wolf king (白狼王): scripted games for
each line of their rules, read by the oracle (tests/oracle.py) and re-judged from their logs.

Decks (seat numbers): 1 the wolf king or the white wolf king, 2-3 wolves, 4 seer, 5 witch,
6 hunter (or knight), 7-9 villagers. With no kill on night 1 the day's speeches run from
seat 1, so the king speaks first.
"""

from __future__ import annotations

import asyncio

from pulse_core import Event
from tests.oracle import check_log
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig, TiePolicy
from werewolf.decisions import (
    Answer,
    Choice,
    DecisionKind,
    Speech,
    WitchChoice,
    make_request,
    problem,
)
from werewolf.events import meaning_of
from werewolf.players.human import HumanPlayer
from werewolf.players.prompting import build_messages
from werewolf.players.schema import decision_tool, stable_tools
from werewolf.replay.judge import rejudge
from werewolf.ruletext import rules_text
from werewolf.state import Cause
from werewolf.visibility import view

from .scripted import Played, play, votes
from .test_identities_players import ScriptedTerminal

W, V = Identity.WEREWOLF, Identity.VILLAGER
SEER, WITCH, HUNTER, KNIGHT = Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.KNIGHT
KING = (Identity.WOLF_KING, W, W, SEER, WITCH, HUNTER, V, V, V)
WHITE = (Identity.WHITE_WOLF_KING, W, W, SEER, WITCH, HUNTER, V, V, V)


def _play(script: dict[str, Answer], deal: tuple[Identity, ...] = KING, **fields: object) -> Played:
    fields = {"self_destruct": True, **fields}
    config = GameConfig(identities=deal, referee_record=True, **fields)  # type: ignore[arg-type]
    played = play(script, config=config, deal=deal)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    rejudge(played.chain, lambda e: e.role)  # every event follows from the rules
    return played


def _day(played: Played, day: int) -> list[Event]:
    return [e for e in played.chain if e.meta.get("day") == day and e.role != "__start__"]


def _causes(played: Played) -> set[tuple[int, str]]:
    return {(d.seat, d.cause) for d in played.state.deaths}


def _shots(played: Played) -> list[dict[str, object]]:
    return [e.meta["diff"] for e in played.events("hunter-shot")]


def test_the_wolf_king_exiled_shoots_with_his_own_card() -> None:
    played = _play({**votes(1, 1), "d1.wolf-king.s1": Choice(4)})
    assert _shots(played)[0] == {"card": "wolf-king", "shooter": 1, "target": 4}
    assert (4, Cause.KING_SHOT) in _causes(played)
    shot = played.events("hunter-shot")[0]
    meaning = meaning_of("hunter-shot", shot.meta["diff"], shot.meta["detail"])
    assert meaning.revealed == ((1, "wolf-king"),)
    assert meaning.deaths == ((4, Cause.KING_SHOT.value),)
    asked = played.asked_for("d1.wolf-king.s1")[0]
    assert asked.kind is DecisionKind.WOLF_KING
    assert set(asked.options) == {2, 3, 4, 5, 6, 7, 8, 9, None}


def test_the_wolf_king_poisoned_has_no_shot() -> None:
    played = _play({"n1.witch.s5": WitchChoice(poison=1)})
    assert (1, Cause.POISON) in _causes(played)
    assert not played.events("hunter-shot")
    assert not [r for r in played.asked if r.kind is DecisionKind.WOLF_KING]


def test_the_wolf_king_killed_by_the_knights_duel_shoots() -> None:
    deal = (Identity.WOLF_KING, W, W, SEER, WITCH, KNIGHT, V, V, V)
    played = _play({"d1.knight.s6": Choice(1), "d1.wolf-king.s1": Choice(4)}, deal)
    assert (1, "duel") in _causes(played)
    assert _shots(played)[0] == {"card": "wolf-king", "shooter": 1, "target": 4}


def test_the_hunter_shoots_the_wolf_king_who_shoots_back() -> None:
    script = {**votes(1, 6), "d1.hunter.s6": Choice(1), "d1.wolf-king.s1": Choice(4)}
    played = _play(script)
    assert _shots(played) == [
        {"shooter": 6, "target": 1},
        {"card": "wolf-king", "shooter": 1, "target": 4},
    ]


def test_a_self_destruct_ends_the_day_without_a_vote_and_night_follows() -> None:
    played = _play({"d1.speech.s2": Choice(None)})
    day1 = [e.role for e in _day(played, 1)]
    assert day1[-2:] == ["day-speech", "self-destruct"]  # seat 1 spoke, seat 2 blew up
    assert "vote" not in day1
    speech, blast = played.events("day-speech")[1], played.events("self-destruct")[0]
    assert speech.meta["diff"] == {"self_destruct": True, "speaker": 2}
    assert speech.meta["detail"] == {"pk": False, "text": ""}
    assert blast.meta["diff"] == {"target": None, "wolf": 2}
    assert blast.meta["visible_to"] is None
    after = played.chain[played.chain.index(blast) + 1]
    assert after.role == "wolf-night"
    assert after.meta["day"] == 2
    assert (2, Cause.SELF_DESTRUCT) in _causes(played)
    assert "last-words" not in day1  # none by default


def test_a_self_destructing_wolf_speaks_last_words_when_the_config_says() -> None:
    played = _play({"d1.speech.s2": Choice(None)}, self_destruct_last_words=True)
    day1 = [e.role for e in _day(played, 1)]
    assert day1[-2:] == ["self-destruct", "last-words"]


def test_the_wolf_king_who_self_destructs_shoots() -> None:
    played = _play({"d1.speech.s1": Choice(None), "d1.wolf-king.s1": Choice(4)})
    assert [e.role for e in _day(played, 1)][-2:] == ["self-destruct", "hunter-shot"]
    assert (4, Cause.KING_SHOT) in _causes(played)


def test_the_white_wolf_king_self_destructs_taking_the_seer() -> None:
    played = _play({"d1.speech.s1": Choice(4)}, WHITE)
    blast = played.events("self-destruct")[0]
    assert blast.meta["diff"] == {"target": 4, "wolf": 1}
    assert {(1, Cause.SELF_DESTRUCT), (4, Cause.TAKEN)} <= _causes(played)
    meaning = meaning_of("self-destruct", blast.meta["diff"], blast.meta["detail"])
    assert meaning.revealed == ((1, "white-wolf-king"),)
    assert not played.events("hunter-shot")  # he has no other shot
    assert "vote" not in [e.role for e in _day(played, 1)]


def test_the_white_wolf_king_takes_the_hunter_who_shoots() -> None:
    played = _play({"d1.speech.s1": Choice(6), "d1.hunter.s6": Choice(2)}, WHITE)
    assert _shots(played) == [{"shooter": 6, "target": 2}]


def test_a_self_destruct_by_the_last_wolf_ends_the_game_at_once() -> None:
    deal = (W, SEER, WITCH, HUNTER, V, V, V, V)
    played = _play({"d1.speech.s1": Choice(None)}, deal)
    assert played.phases()[-2:] == ["self-destruct", "game-end"]
    assert played.events("game-end")[0].meta["diff"]["winner"] == "good"


def test_a_self_destruct_in_the_pk_stops_the_revote() -> None:
    script = {**votes(1, 2, voters=(1, 4, 5, 6)), **votes(1, 7, voters=(3, 8, 9, 2))}
    script["d1.pk.s2"] = Choice(None)
    played = _play(script, tie_policy=TiePolicy.PK)
    day1 = [e.role for e in _day(played, 1)]
    assert day1.count("vote") == 1  # the first round's tie; no re-vote
    assert day1[-1] == "self-destruct"
    last = [e for e in _day(played, 1) if e.role == "day-speech"][-1]
    assert last.meta["diff"] == {"self_destruct": True, "speaker": 2}
    assert last.meta["detail"]["pk"] is True


def test_only_a_wolf_is_offered_it_and_only_the_white_wolf_king_takes_a_seat() -> None:
    played = _play({}, WHITE)
    by_seat = {r.seat: r for r in played.asked if r.key.startswith("d1.speech.")}
    assert by_seat[2].options == (None,)  # a wolf: alone
    assert set(by_seat[1].options) == {None, 2, 3, 4, 5, 6, 7, 8, 9}  # the white wolf king
    assert by_seat[4].options == ()  # the seer speaks
    assert problem(by_seat[4], Choice(None)) == "answer with a speech"
    assert problem(by_seat[2], Choice(4)) is not None
    assert problem(by_seat[2], Speech("hi")) is None
    off = _play({}, WHITE, self_destruct=False)
    assert all(not r.options for r in off.asked if r.kind is DecisionKind.SPEECH)


def test_a_refused_take_is_a_fallback_speech() -> None:
    played = _play({"d1.speech.s2": Choice(4)})  # a plain wolf may take nobody
    assert not played.events("self-destruct")
    speech = played.events("day-speech")[1]
    assert speech.meta["diff"] == {"speaker": 2}
    assert speech.meta["fallbacks"][0]["seat"] == 2


def test_the_table_sees_the_self_destruct_and_not_the_kings_card_before_it() -> None:
    played = _play({"d1.speech.s1": Choice(4)}, WHITE)
    seen = view(played.chain, 7)
    phases = [o.phase for o in seen.observations]
    assert "self-destruct" in phases
    before = view(played.chain[: played.chain.index(played.events("self-destruct")[0])], 7)
    assert "white-wolf-king" not in repr(before.observations)
    assert seen.wolves == ()
    assert view(played.chain, 2).wolves == (1, 2, 3)  # the pack knows its king


def test_an_llm_wolf_is_offered_the_self_destruct_in_the_speak_tool() -> None:
    played = _play({}, WHITE)
    request = played.asked_for("d1.speech.s1")[0]
    tool = decision_tool(request, "en")
    assert tool.name == "speak"
    args = tool.model(reasoning="", speech="boom", self_destruct=True, take=4)
    assert tool.answer(args) == Choice(4)
    assert tool.answer(tool.model(reasoning="", speech="hi")) == Speech("hi")
    good = decision_tool(played.asked_for("d1.speech.s4")[0], "en")
    assert "self_destruct" not in good.model.model_fields
    speak = next(t for t in stable_tools("en", destruct=True) if t["function"]["name"] == "speak")
    assert "self_destruct" in speak["function"]["parameters"]["properties"]
    for lang, words in (("en", "self-destruct"), ("zh", "自爆")):
        assert words in build_messages(request, "", lang)[1]["content"]
    later = _play({"d1.speech.s1": Choice(4)}, WHITE).asked_for("n2.seer.s4")
    assert not later  # the seer was taken
    kill = _play({"d1.speech.s2": Choice(None)}).asked_for("n2.seer.s4")[0]
    for lang, words in (("en", "self-destructed"), ("zh", "自爆")):
        assert words in build_messages(kill, "", lang)[1]["content"]


def test_a_human_wolf_self_destructs_by_typing_it() -> None:
    played = _play({}, WHITE)
    request = played.asked_for("d1.speech.s1")[0]
    terminal = ScriptedTerminal("!destruct 12", "!destruct 4")
    answer = asyncio.run(HumanPlayer(1, terminal=terminal).decide(request))
    shown = "\n".join(terminal.shown)
    assert "!destruct SEAT" in shown
    assert "'!destruct 12' is not one of the options" in shown
    assert answer == Choice(4)
    plain = played.asked_for("d1.speech.s4")[0]
    terminal = ScriptedTerminal("!destruct")
    said = asyncio.run(HumanPlayer(4, terminal=terminal).decide(plain))
    assert said == Speech("!destruct")  # a good seat's words, nothing more


def test_the_boards_and_the_rules_text() -> None:
    king, white = board_config("wolf-king-12"), board_config("white-wolf-king-12")
    assert king.self_destruct
    assert white.self_destruct
    assert board_config("idiot-12").self_destruct
    assert board_config("guard-12").self_destruct
    assert not board_config("standard-9").self_destruct
    assert sorted(king.identities).count(W) == 3
    assert Identity.WOLF_KING in king.identities
    assert Identity.GUARD in king.identities
    assert Identity.WHITE_WOLF_KING in white.identities
    assert KNIGHT in white.identities
    assert "Wolf king: a wolf" in rules_text(king, "en")
    assert "狼王：狼人阵营" in rules_text(king, "zh")
    assert "白狼王：狼人阵营" in rules_text(white, "zh")


def test_the_wolves_talk_takes_words_only_though_it_lists_targets() -> None:
    """The wolves' night talk lists the targets as its options; a choice there is no
    self-destruct (only a day or election speech offers one) and is refused."""
    talk = make_request(DecisionKind.WOLF_TALK, 3, None, "n1.wolf-talk.s3", (None, 1, 2), None, {})  # type: ignore[arg-type]
    assert problem(talk, Choice(1)) == "answer with a speech"
    assert problem(talk, Choice(None)) == "answer with a speech"
    speech = make_request(DecisionKind.SPEECH, 3, None, "d1.speech.s3", (None,), None, {})  # type: ignore[arg-type]
    assert problem(speech, Choice(None)) is None
