"""The sheriff and the self-destruct together: a wolf blowing up in the election (自爆吞警徽),
the election postponed and its badge lost at the second, and a dying sheriff's badge
passed before a wolf king's shot. Scripted games re-judged and read by the oracle.

Decks (seat numbers): 1 the wolf king or the white wolf king, 2-3 wolves, 4 seer, 5 witch,
6 hunter, 7-9 villagers; the config's ``sheriff`` and ``self_destruct`` on.
"""

from __future__ import annotations

import asyncio

from rich.console import Console

from pulse_core import Event, MemoryEventStore, WorkflowRule, read_attachment
from tests.oracle import check_log
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, DecisionKind, Speech, problem
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.human import HumanPlayer
from werewolf.players.prompting import build_messages
from werewolf.players.schema import decision_tool
from werewolf.players.web.state import ask_part
from werewolf.replay.judge import rejudge
from werewolf.replay.render import StoryRenderer
from werewolf.replay.views import ViewKind, ViewSpec, ViewStream
from werewolf.ruletext import rules_text
from werewolf.state import Cause, initial_state

from .scripted import Played, kill, play, votes
from .test_identities_players import ScriptedTerminal

W, V = Identity.WEREWOLF, Identity.VILLAGER
SEER, WITCH, HUNTER = Identity.SEER, Identity.WITCH, Identity.HUNTER
KING = (Identity.WOLF_KING, W, W, SEER, WITCH, HUNTER, V, V, V)
WHITE = (Identity.WHITE_WOLF_KING, W, W, SEER, WITCH, HUNTER, V, V, V)


def _play(script: dict[str, Answer], deal: tuple[Identity, ...] = KING, **fields: object) -> Played:
    fields = {"self_destruct": True, "sheriff": True, "day_cap": 3, **fields}
    config = GameConfig(identities=deal, referee_record=True, **fields)  # type: ignore[arg-type]
    played = play(script, config=config, deal=deal)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    rejudge(played.chain, lambda e: e.role)  # every event follows from the rules
    return played


def _run(day: int, *seats: int) -> dict[str, Answer]:
    return {f"d{day}.sheriff-run.s{s}": Choice(1) for s in seats}


def _roles(played: Played, day: int) -> list[str]:
    return [e.role for e in played.chain if e.meta.get("day") == day and e.role != "__start__"]


def _after(played: Played, event: Event) -> list[str]:
    return [e.role for e in played.chain[played.chain.index(event) + 1 :]]


def test_a_self_destruct_in_the_election_postpones_it_and_the_day_has_no_vote() -> None:
    played = _play({**_run(1, 2, 4), **kill(1, 7), "d1.sheriff-speech.s2": Choice(None)})
    speech = played.events("sheriff-speech")[0]
    assert speech.meta["diff"] == {"self_destruct": True, "speaker": 2}
    assert speech.meta["detail"] == {"pk": False, "text": ""}
    assert _after(played, speech)[:2] == ["self-destruct", "dawn"]  # the night's dead told
    dawn = played.events("dawn")[0]
    assert dawn.meta["diff"]["died"] == [7]
    day1 = _roles(played, 1)
    assert not {"sheriff-withdraw", "sheriff-vote", "day-speech", "vote"} & set(day1)
    assert _after(played, dawn)[0] == "last-words"  # the night's victim, then night 2
    assert _after(played, dawn)[1] == "wolf-night"
    assert (2, Cause.SELF_DESTRUCT) in {(d.seat, d.cause) for d in played.state.deaths}
    day2 = _roles(played, 2)  # held again after night 2, before its dawn
    assert day2.index("sheriff-run") < day2.index("dawn")
    assert played.asked_for("d2.sheriff-run.s4")


def test_the_election_speech_offers_the_self_destruct_as_the_day_speech_does() -> None:
    played = _play(_run(1, 1, 2, 4), WHITE)
    offered = {r.seat: r.options for r in played.asked if r.kind is DecisionKind.SHERIFF_SPEECH}
    assert set(offered[1]) == {None, 2, 3, 4, 5, 6, 7, 8, 9}  # the white wolf king
    assert offered[2] == (None,)
    assert offered[4] == ()
    off = _play(_run(1, 1, 2, 4), WHITE, self_destruct=False)
    assert all(not r.options for r in off.asked if r.kind is DecisionKind.SHERIFF_SPEECH)


def test_a_second_self_destruct_in_the_election_loses_the_badge() -> None:
    script = {**_run(1, 2, 4), "d1.sheriff-speech.s2": Choice(None)}
    script |= {**_run(2, 3, 4), "d2.sheriff-speech.s3": Choice(None)}
    played = _play(script, deal=(*KING[:8], V, V, V, V))  # 12 seats: the game goes on
    assert played.events("sheriff-speech")[-1].meta["diff"]["speaker"] == 3
    assert "sheriff-run" not in _roles(played, 3)
    assert played.state.election_over
    assert played.state.sheriff is None
    again = _play(script, deal=(*KING[:8], V, V, V, V), second_destruct_loses_badge=False)
    assert "sheriff-run" in _roles(again, 3)  # postponed once more


def test_a_self_destruct_in_the_election_pk_ends_it() -> None:
    split = {f"d1.sheriff-vote.r1.s{v}": Choice(t) for v, t in ((3, 2), (5, 2), (6, 4), (7, 4))}
    played = _play({**_run(1, 2, 4), **split, "d1.sheriff-pk.s2": Choice(None)})
    pk = played.events("sheriff-speech")[-1]
    assert pk.meta["detail"]["pk"] is True
    assert pk.meta["diff"]["self_destruct"] is True
    assert len(played.events("sheriff-vote")) == 1  # no PK vote
    assert _after(played, pk)[:2] == ["self-destruct", "dawn"]


def test_the_white_wolf_king_takes_a_seat_in_the_election_before_the_dawn() -> None:
    played = _play({**_run(1, 1, 4), **kill(1, 4), "d1.sheriff-speech.s1": Choice(4)}, WHITE)
    blast = played.events("self-destruct")[0]
    assert blast.meta["diff"] == {"target": 4, "wolf": 1}
    assert played.events("dawn")[0].meta["diff"]["died"] == []  # the knifed seer was taken
    causes = {(d.seat, d.cause) for d in played.state.deaths}
    assert {(1, Cause.SELF_DESTRUCT), (4, Cause.TAKEN)} <= causes


def test_the_wolf_king_blowing_up_in_the_election_shoots_before_the_dawn() -> None:
    played = _play(
        {**_run(1, 1, 4), "d1.sheriff-speech.s1": Choice(None), "d1.wolf-king.s1": Choice(4)}
    )
    blast = played.events("self-destruct")[0]
    assert _after(played, blast)[:2] == ["hunter-shot", "dawn"]
    assert (4, Cause.KING_SHOT) in {(d.seat, d.cause) for d in played.state.deaths}


def test_a_sheriff_who_self_destructs_passes_the_badge_first() -> None:
    script = {**_run(1, 1), "d1.order.s1": Choice(2), "d1.speech.s1": Choice(None)}
    script |= {"d1.badge.s1": Choice(3), "d1.wolf-king.s1": Choice(4)}
    played = _play(script)
    blast = played.events("self-destruct")[0]
    assert _after(played, blast)[:2] == ["sheriff-badge", "hunter-shot"]
    assert played.events("sheriff-badge")[0].meta["diff"] == {"holder": 1, "to": 3}
    assert played.state.sheriff == 3


def test_a_sheriff_wolf_king_exiled_passes_the_badge_before_his_shot() -> None:
    script = {**_run(1, 1), **votes(1, 1), "d1.badge.s1": Choice(None)}
    script |= {"d1.wolf-king.s1": Choice(4)}
    played = _play(script)
    vote = played.events("vote")[0]
    assert _after(played, vote)[:2] == ["sheriff-badge", "hunter-shot"]
    assert played.state.sheriff is None  # torn


def test_a_sheriff_white_wolf_king_passes_the_badge_after_his_take() -> None:
    script = {**_run(1, 1), "d1.order.s1": Choice(2), "d1.speech.s1": Choice(4)}
    played = _play(script, WHITE)
    badge = played.asked_for("d1.badge.s1")[0]
    assert not {1, 4} & set(badge.options)  # both died in the blast
    assert not played.events("hunter-shot")


def test_the_new_boards_elect_a_sheriff() -> None:
    for name in ("wolf-king-12", "white-wolf-king-12"):
        config = board_config(name)
        assert config.sheriff
        assert config.self_destruct
        assert config.second_destruct_loses_badge
        assert "a second one loses the badge" in rules_text(config, "en")
        assert "再次自爆则警徽流失" in rules_text(config, "zh")
    lenient = board_config("wolf-king-12").model_copy(update={"second_destruct_loses_badge": False})
    assert "a second one loses" not in rules_text(lenient, "en")


def test_a_mock_wolf_swallows_the_badge_of_the_real_seer() -> None:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    config = board_config("wolf-king-12").model_copy(update={"referee_record": True})
    game = start_game(rule, seed=34, config=config)
    asyncio.run(rule.run())
    chain = store.chain(game)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in chain]) == []
    (blast,) = [
        e for e in chain if e.role == "sheriff-speech" and "self_destruct" in e.meta["diff"]
    ]
    state = fold_chain(chain)
    wolf = blast.meta["diff"]["speaker"]
    assert wolf in state.wolf_seats
    reason = read_attachment(store, blast, f"reasoning/{wolf}/sheriff-speech") or ""
    seer = state.by_identity[SEER][0]
    assert f"seat {seer} is the real seer" in reason


def test_the_llm_and_the_human_seat_are_offered_it_in_the_election_speech() -> None:
    played = _play(_run(1, 1, 2, 4), WHITE)
    request = played.asked_for("d1.sheriff-speech.s1")[0]
    tool = decision_tool(request, "en")
    assert tool.name == "speak"
    assert tool.answer(tool.model(reasoning="", speech="x", self_destruct=True, take=4)) == Choice(
        4
    )
    assert tool.answer(tool.model(reasoning="", speech="hi")) == Speech("hi")
    good = decision_tool(played.asked_for("d1.sheriff-speech.s4")[0], "en")
    assert "self_destruct" not in good.model.model_fields
    for lang, words in (("en", "self-destruct"), ("zh", "自爆")):
        assert words in build_messages(request, "", lang)[1]["content"]
    wolf = played.asked_for("d1.sheriff-speech.s2")[0]
    answer = asyncio.run(HumanPlayer(2, terminal=ScriptedTerminal("!destruct")).decide(wolf))
    assert answer == Choice(None)


def test_the_table_reads_the_blast_that_ended_the_election() -> None:
    played = _play({**_run(1, 2, 4), "d1.sheriff-speech.s2": Choice(None)})
    stream = ViewStream(ViewSpec(ViewKind.PUBLIC))
    renderer = StoryRenderer(ViewSpec(ViewKind.PUBLIC), initial_state(played.chain[0].meta))
    console = Console(width=120, record=True, color_system=None)
    for event in played.chain:
        for entry in stream.feed(event):
            for renderable in renderer.entry(entry):
                console.print(renderable)
    assert "interrupts the election: self-destructs" in console.export_text()
    later = played.asked_for("n2.seer.s4")[0]
    for lang, words in (("en", "interrupted the election"), ("zh", "在竞选中自爆")):
        assert words in build_messages(later, "", lang)[1]["content"]


def test_only_a_speech_offers_the_self_destruct_not_the_wolves_talk_nor_a_ballot() -> None:
    """The wolves' night talk and the election's ballots have options too (their targets):
    they once offered the self-destruct, to the human seat (``!destruct`` at the wolf talk
    became an empty line), the browser seat and the model's tools and task."""
    played = _play(_run(1, 1, 2, 4), WHITE)
    talk = played.asked_for("n1.wolf-talk.s2")[0]
    ballot = played.asked_for("d1.sheriff-vote.r1.s3")[0]
    speech = played.asked_for("d1.sheriff-speech.s2")[0]
    assert talk.options
    assert ballot.options
    assert speech.offers_self_destruct
    assert not talk.offers_self_destruct
    assert not ballot.offers_self_destruct
    assert "self_destruct" not in decision_tool(talk, "en").model.model_fields
    for request in (talk, ballot):
        for lang, words in (("en", "self-destruct"), ("zh", "自爆")):
            assert words not in build_messages(request, "", lang)[1]["content"]
    assert problem(talk, Choice(4)) == "answer with a speech"
    terminal = ScriptedTerminal("!destruct 4")
    answer = asyncio.run(HumanPlayer(2, terminal=terminal).decide(talk))
    assert answer == Speech("!destruct 4")  # words, as no self-destruct is offered
    assert not any("!destruct" in line for line in terminal.shown[:-1])
    assert "destruct" not in ask_part(talk, "en", "r1")


def test_the_browser_seat_says_what_a_self_destruct_does_in_the_election_and_for_a_king() -> None:
    """In the election a self-destruct postpones it (the hint once said only "the day ends
    without a vote"), and the wolf king is told his shot follows; a day speech's plain wolf
    hears neither."""
    played = _play(_run(1, 1, 2, 4))  # seat 1 is the wolf king, seat 2 a plain wolf
    king = ask_part(played.asked_for("d1.sheriff-speech.s1")[0], "en", "r1")["form"]
    wolf = ask_part(played.asked_for("d1.sheriff-speech.s2")[0], "zh", "r2")["form"]
    assert "held again after the next night" in king["destruct"]["hint"]
    assert "As the wolf king, you may then shoot" in king["destruct"]["hint"]
    assert "下一夜之后重新竞选" in wolf["destruct"]["hint"]
    assert "狼王" not in wolf["destruct"]["hint"]
