"""Scripted games for the rule fields of the kaggle-8 board (the Kaggle Game Arena rules).

Deal (seats): 1-2 wolves, 3 seer, 4 doctor, 5-8 villagers. Every game is also judged by
the independent referee (tests/oracle.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore, read_content
from pulse_core.workflow import read_attachment
from tests.openai_server import OpenAIServer
from tests.oracle import check_log
from tests.werewolf.llm_support import LegalTable, legal, llm_specs, seat_of, tool_of, user_text
from tests.werewolf.llm_support import play as play_llm
from werewolf.boards import BOARDS, board_config, board_of
from werewolf.cast import Identity
from werewolf.config import AllAbstain, GameConfig, SeerLearns, SpeechOrder, TiePolicy, WolfKill
from werewolf.decisions import Answer, Choice, DecisionKind
from werewolf.draws import draw
from werewolf.game import fold_chain
from werewolf.players.prompting import prompt_set
from werewolf.replay import load_replay_file, replay_text
from werewolf.replay.format import check_meta
from werewolf.ruletext import rules_text
from werewolf.state import Outcome
from werewolf.visibility import view

from .scripted import Played, play

W, SEER, DOCTOR, V = Identity.WEREWOLF, Identity.SEER, Identity.DOCTOR, Identity.VILLAGER
DEAL = (W, W, SEER, DOCTOR, V, V, V, V)
KAGGLE = board_config("kaggle-8")


def _play(script: dict[str, Answer], config: GameConfig = KAGGLE, **kw: Any) -> Played:
    played = play(script, config=config, deal=kw.pop("deal", DEAL), **kw)
    records = [{"kind": e.kind, "meta": e.meta} for e in played.chain]
    assert check_log(records) == []
    for e in played.chain:  # every event fits the replay format (the draws, the identity)
        check_meta(e.kind, e.meta, e.role, seats=played.state.config.seats)
    return played


def _kaggle(**fields: Any) -> GameConfig:
    return GameConfig.model_validate({**KAGGLE.model_dump(), **fields})


def _ballots(night: int, targets: dict[int, int | None]) -> dict[str, Answer]:
    return {f"n{night}.wolf-kill.r1.s{w}": Choice(t) for w, t in targets.items()}


def _votes(day: int, ballots: dict[int, int | None]) -> dict[str, Answer]:
    return {f"d{day}.vote.r1.s{v}": Choice(t) for v, t in ballots.items()}


def _text(played: Played, event: Any) -> str:
    return read_content(played.store, event)


def _first(played: Played, phase: str, day: int) -> Any:
    return next(e for e in played.chain if e.role == phase and e.meta["day"] == day)


# -- the board --------------------------------------------------------------------------------
def test_the_board_sets_every_kaggle_rule_and_is_named_by_its_rules() -> None:
    c = KAGGLE
    assert sorted(c.identities) == sorted(DEAL)
    assert (c.win_rule.value, c.wolf_kill, c.tie_policy, c.all_abstain) == (
        "parity",
        WolfKill.VOTE,
        TiePolicy.RANDOM,
        AllAbstain.RANDOM,
    )
    assert (c.seer_before_wolves, c.seer_learns, c.speech_order, c.speech_rounds) == (
        True,
        SeerLearns.IDENTITY,
        SpeechOrder.SEAT,
        2,
    )
    assert (c.doctor_self, c.doctor_repeat, c.allow_self_vote) == (True, True, True)
    assert (c.allow_empty_kill, c.wolf_self_knife, c.last_words) == (False, False, False)
    assert c.reveal_on_death.value == "identity"
    assert (c.retry_illegal, c.doctor_told_save) == (False, True)
    # the other boards keep asking an illegal answer again, and tell the doctor nothing
    for name in set(BOARDS) - {"kaggle-8"}:
        assert board_config(name).retry_illegal
        assert not board_config(name).doctor_told_save
    # two boards deal this deck: each config is named by the rules it keeps
    assert board_of(KAGGLE) == "kaggle-8"
    assert board_of(board_config("seer-doctor-8")) == "seer-doctor-8"
    assert board_of(GameConfig(identities=DEAL)) == "seer-doctor-8"
    # a default game logs none of the new fields: its log is what it always was
    assert not {"wolf_kill", "all_abstain", "last_words", "speech_order"} & set(GameConfig().dump())
    assert {"wolf_kill", "seer_learns", "seer_before_wolves"} <= set(KAGGLE.dump())
    assert "kaggle-8" in BOARDS


def test_the_rules_text_says_each_kaggle_rule() -> None:
    text = rules_text(KAGGLE)
    for words in (
        "the doctor and the seer, at the same time, act; then each wolf secretly votes",
        "(never a wolf); the most-voted player dies, a tie is broken at random",
        "learns their identity",
        "the dead give no last words",
        "speaks 2 times in seat order",
        "self-votes allowed; a tie is broken at random; if nobody votes for anyone, a random "
        "living player is exiled",
        "living wolves are at least as many as everyone else",
        "everyone learns their identity",
        "Answers: an invalid answer is not asked again",
        "she alone is told when her protection saved the wolves' victim",
    ):
        assert words in text
    zh = rules_text(KAGGLE, "zh")
    for words in (
        "预言家同时查验",
        "平票随机放逐其中一人",
        "死者没有遗言",
        "无效回答不会被重新询问",
    ):
        assert words in zh


# -- the night --------------------------------------------------------------------------------
def test_the_seer_and_the_doctor_act_before_the_wolves_and_the_seer_learns_the_identity() -> None:
    played = _play(
        {"n1.seer.s3": Choice(4), "n1.doctor.s4": Choice(5), **_ballots(1, {1: 5, 2: 5})}
    )
    assert played.phases()[1:5] == ["doctor-protect", "seer-check", "wolf-night", "dawn"]
    kinds = [r.kind for r in played.asked if r.key.startswith("n1.")]
    # both asked before any wolf: the seer's check starts with the doctor's phase
    assert kinds[:2] == [DecisionKind.DOCTOR, DecisionKind.SEER]
    check = _first(played, "seer-check", 1)
    assert check.meta["diff"] == {"target": 4, "wolf": False, "identity": "doctor"}
    assert check.meta["visible_to"] == [3]
    assert "the doctor (good)" in _text(played, check)
    # the saved night reads like a night without a kill
    dawn = _first(played, "dawn", 1)
    assert (dawn.meta["diff"], dawn.meta["detail"]) == ({"died": []}, {})
    assert _text(played, dawn) == "Day 1 dawns. A peaceful night: nobody died."
    team_only = _play({"n1.seer.s3": Choice(4)}, _kaggle(seer_learns="team"))
    assert _first(team_only, "seer-check", 1).meta["diff"] == {"target": 4, "wolf": False}


def test_a_seer_who_opens_the_night_checks_that_night() -> None:
    # the doctor dies on night 1; on night 2 the seer's check begins the night
    script = {"n1.doctor.s4": Choice(5), **_ballots(1, {1: 4, 2: 4}), "n2.seer.s3": Choice(1)}
    played = _play(script | _votes(1, dict.fromkeys((1, 2, 3, 5, 6, 7, 8), 8)))
    night2 = [e for e in played.chain if e.meta.get("day") == 2 and e.role != "vote"]
    assert [e.role for e in night2][:3] == ["seer-check", "wolf-night", "dawn"]
    assert night2[0].meta["diff"]["target"] == 1
    assert played.asked_for("n2.seer.s3")


def test_the_doctor_may_protect_herself_and_the_same_seat_again() -> None:
    script = {"n1.doctor.s4": Choice(4), "n2.doctor.s4": Choice(4)}
    script |= _ballots(1, {1: 4, 2: 4}) | _ballots(2, {1: 4, 2: 4})
    played = _play(script)
    assert [e.meta["diff"]["target"] for e in played.events("doctor-protect")][:2] == [4, 4]
    assert _first(played, "dawn", 1).meta["diff"]["died"] == []
    assert _first(played, "dawn", 2).meta["diff"]["died"] == []


def test_wolves_vote_in_seat_order_and_a_split_is_drawn_from_the_seed() -> None:
    played = _play(_ballots(1, {1: 5, 2: 6}))
    second = played.asked_for("n1.wolf-kill.r1.s2")[0]
    assert second.context["proposals"] == [[1, 5]]  # he sees the ballot before his
    assert second.options == (3, 4, 5, 6, 7, 8, None)  # never a wolf; None: he abstains
    assert not any(r.kind is DecisionKind.WOLF_TALK for r in played.asked)
    event = _first(played, "wolf-night", 1)
    drawn = event.meta["detail"]["draw"]
    assert drawn == draw(1, "n1.wolf-kill", [5, 6]).record()
    assert drawn["among"] == [5, 6]
    assert event.meta["diff"]["target"] == drawn["drawn"]
    assert _first(played, "dawn", 1).meta["diff"]["died"] == [drawn["drawn"]]
    # another seed may draw the other seat; each game records its own draw
    picks = {draw(seed, "n1.wolf-kill", [5, 6]).drawn for seed in range(20)}
    assert picks == {5, 6}
    agreed = _play(_ballots(1, {1: 7, 2: 7}))
    assert "draw" not in _first(agreed, "wolf-night", 1).meta["detail"]


def test_the_most_voted_seat_dies_when_three_wolves_vote() -> None:
    deal = (W, W, W, SEER, DOCTOR, V, V, V, V)
    config = _kaggle(identities=deal)
    played = _play(_ballots(1, {1: 6, 2: 7, 3: 6}), config, deal=deal)
    event = _first(played, "wolf-night", 1)
    assert event.meta["diff"]["target"] == 6
    assert "draw" not in event.meta["detail"]


def test_a_fold_and_a_replay_need_no_random_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    played = _play(_ballots(1, {1: 5, 2: 6}) | _votes(1, {s: s for s in range(1, 9)}))
    assert any("draw" in e.meta.get("detail", {}) for e in played.chain)

    def no_rng(*args: object, **kwargs: object) -> None:
        raise AssertionError("a random generator was used")

    monkeypatch.setattr(random, "Random", no_rng)
    assert fold_chain(played.chain) == played.state


# -- the day ----------------------------------------------------------------------------------
def test_two_rounds_of_speeches_in_seat_order_and_no_last_words() -> None:
    played = _play(_ballots(1, {1: 5, 2: 5}) | _votes(1, {s: 6 for s in (1, 2, 3, 4, 6, 7, 8)}))
    day1 = [e for e in played.chain if e.role == "day-speech" and e.meta["day"] == 1]
    # after-death order would start at seat 6; seat order starts at the lowest living seat
    assert [e.meta["diff"]["speaker"] for e in day1] == [1, 2, 3, 4, 6, 7, 8] * 2
    assert "last-words" not in played.phases()
    with_words = _play(
        _ballots(1, {1: 5, 2: 5}) | _votes(1, {s: 6 for s in (1, 2, 3, 4, 7, 8)}),
        _kaggle(last_words=True, speech_order="after-death", speech_rounds=1),
    )
    assert [e.meta["diff"]["speaker"] for e in with_words.events("last-words")][:2] == [5, 6]
    first = next(e for e in with_words.chain if e.role == "day-speech")
    assert first.meta["diff"]["speaker"] == 6


def test_a_tied_vote_is_drawn_at_random_and_self_votes_count() -> None:
    ballots = {1: 1, 2: 1, 3: 2, 4: 2, 6: None, 7: None, 8: None}  # seat 1 votes for himself
    played = _play(_ballots(1, {1: 5, 2: 5}) | _votes(1, ballots))
    vote = _first(played, "vote", 1)
    assert vote.meta["detail"]["counts"] == [[1, 2], [2, 2]]
    drawn = vote.meta["detail"]["draw"]
    assert drawn == draw(1, "d1.vote.r1", [1, 2]).record()
    assert vote.meta["diff"] == {"exiled": drawn["drawn"], "pk": []}
    assert f"seat {drawn['drawn']} {DEAL[drawn['drawn'] - 1].value}" in _text(played, vote)
    assert vote.meta["detail"]["revealed"] == [[drawn["drawn"], "werewolf"]]
    pk = _play(_ballots(1, {1: 5, 2: 5}) | _votes(1, ballots), _kaggle(tie_policy="pk"))
    assert _first(pk, "vote", 1).meta["diff"]["pk"] == [1, 2]


def test_when_everyone_abstains_a_random_living_player_is_exiled_or_nobody() -> None:
    abstain = _votes(1, dict.fromkeys((1, 2, 3, 4, 6, 7, 8)))
    played = _play(_ballots(1, {1: 5, 2: 5}) | abstain)
    vote = _first(played, "vote", 1)
    drawn = vote.meta["detail"]["draw"]
    assert drawn["among"] == [1, 2, 3, 4, 6, 7, 8]
    assert vote.meta["diff"]["exiled"] == drawn["drawn"]
    assert "Nobody voted: drawn at random" in _text(played, vote)
    nobody = _play(_ballots(1, {1: 5, 2: 5}) | abstain, _kaggle(all_abstain="nobody"))
    quiet = _first(nobody, "vote", 1)
    assert quiet.meta["diff"]["exiled"] is None
    assert "draw" not in quiet.meta["detail"]


def test_the_win_is_checked_after_every_death_at_parity() -> None:
    # night 1 kills 5, day 1 exiles 6, night 2 kills 7: 2 wolves, 3 good; day 2 exiles 8
    script = _ballots(1, {1: 5, 2: 5}) | _ballots(2, {1: 7, 2: 7})
    script |= {"n1.doctor.s4": Choice(4), "n2.doctor.s4": Choice(4)}
    script |= _votes(1, {s: 6 for s in (1, 2, 3, 4, 7, 8)})
    script |= _votes(2, {s: 8 for s in (1, 2, 3, 4)})
    played = _play(script)
    assert played.phases()[-2:] == ["vote", "game-end"]  # the exile decides at once
    assert played.state.winner is Outcome.WOLVES
    end = played.chain[-1]
    assert "the wolves are as many as everyone else" in _text(played, end)
    # a night kill that brings parity ends the game at dawn, before any speech
    night = _play(
        _ballots(1, {1: 5, 2: 5})
        | _ballots(2, {1: 7, 2: 7})
        | _votes(1, {s: 6 for s in (1, 2, 3, 4, 7, 8)}),
        _kaggle(identities=DEAL[:2] + DEAL[2:7]),
        deal=DEAL[:7],
    )
    assert night.phases()[-2:] == ["dawn", "game-end"]


def test_each_seat_sees_only_its_own_night() -> None:
    played = _play({"n1.seer.s3": Choice(1), **_ballots(1, {1: 5, 2: 6})})
    for seat in range(1, 9):
        phases = {o.phase for o in view(played.chain, seat).observations}
        assert ("seer-check" in phases) is (seat == 3)
        assert ("wolf-night" in phases) is (seat in (1, 2))
        assert ("doctor-protect" in phases) is (seat == 4)


# -- the command line -------------------------------------------------------------------------
def test_play_and_an_arena_run_on_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from werewolf.cli import main

    store = tmp_path / "s.sqlite3"
    assert main(["play", "-q", "--seed", "3", "--store", str(store), "--board", "kaggle-8"]) == 0
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "k8", "-q"]
    assert main([*argv, "--board", "kaggle-8", "--store", str(store)]) == 0
    capsys.readouterr()
    # the report's role tables hold the roles the board deals: no witch, no hunter
    assert main(["arena", "report", "k8", "--store", str(store)]) == 0
    report = capsys.readouterr().out
    roles = report.split("Win rate by role", 1)[1].split("\n\n", 1)[0]
    assert "doctor" in roles
    assert "witch" not in roles
    assert "hunter" not in roles
    assert "Potions" not in report
    assert "Wolf days survived" in report
    with SQLiteEventStore(store) as s:
        chains = [s.chain(g) for g in s.topics()]
        # with the referee's record: every decision's offer is the legal set
        offers = [
            {
                "kind": e.kind,
                "meta": e.meta,
                "attachments": {
                    n: read_attachment(s, e, n) or "" for n in e.meta.get("attachments", {})
                },
            }
            for e in chains[0]
        ]
    assert check_log(offers) == []
    assert any(n.startswith("offered/") for r in offers for n in r["attachments"])
    assert len(chains) == 3
    # the exported replay file validates and renders (the seer's identity, the draws)
    (replay,) = tmp_path.glob("*.jsonl")
    text = replay_text(load_replay_file(replay), width=100)
    assert "The seer (" in text
    assert "vote: " in text
    for chain in chains:
        assert chain[0].meta["game"]["config"]["wolf_kill"] == "vote"
        assert check_log([{"kind": e.kind, "meta": e.meta} for e in chain]) == []
        assert chain[-1].role == "game-end"


def test_llm_seats_play_the_board_told_its_rules(tmp_path: Path) -> None:
    with OpenAIServer(LegalTable(spread=True)) as server:
        specs = llm_specs(server, seats=8, personality="terse")
        played = play_llm(specs, seed=6, store_path=tmp_path / "g.sqlite3", config=KAGGLE)
        bodies = server.bodies()
    assert played.status == "ended"
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    assert not any("fallbacks" in e.meta for e in played.chain)
    system = bodies[0]["messages"][0]["content"]
    assert "each wolf secretly votes for a victim" in system
    assert "the dead give no last words" in system
    kills = [b for b in bodies if tool_of(b)[0] == "wolf_kill"]
    assert kills
    assert all("vote for tonight's victim" in user_text(b) for b in kills)
    assert any("Ballots so far" in user_text(b) for b in kills)  # the second wolf's
    assert all("every wolf casts a ballot" in b["messages"][0]["content"] for b in kills)
    speeches = [user_text(b) for b in bodies if tool_of(b)[0] == "speak"]
    assert any("Day 1, round 2 of the discussion" in text for text in speeches)
    for body in kills:
        targets = set(legal(body, "target"))  # 0: abstain (wolf_abstain)
        assert 0 in targets
        assert targets - {0} <= set(range(1, 9)) - set(fold_chain(played.chain).wolves)
    # the seer is told her first check's identity in the prompts after it
    seer = fold_chain(played.chain).seat_of(SEER)
    told = next(e for e in played.chain if e.role == "seer-check").meta["diff"]["identity"]
    name = prompt_set("en").say(f"identity.{told}")  # "a Villager", "the Doctor"
    assert any(f": {name} (" in user_text(b) for b in bodies if seat_of(b) == seer)
    # what death reveals is named the same way, to everyone
    dead = next(e for e in played.chain if e.meta.get("detail", {}).get("revealed"))
    _, card = dead.meta["detail"]["revealed"][0]
    shown = f"was {prompt_set('en').say(f'identity.{card}')}."
    assert any(shown in user_text(b) for b in bodies)


def test_each_kaggle_field_has_a_flag_on_the_standard_board(tmp_path: Path) -> None:
    from werewolf.cli import main

    store = tmp_path / "s.sqlite3"
    flags = ["--wolf-kill", "vote", "--all-abstain", "random", "--no-last-words"]
    flags += ["--speech-order", "seat", "--seer-learns", "identity", "--seer-before-wolves"]
    flags += ["--tie-policy", "random", "--wolf-abstain", "--no-empty-kill"]
    flags += ["--night-fallback", "nothing", "--no-retry-illegal", "--doctor-told-save"]
    assert main(["play", "-q", "--seed", "4", "--store", str(store), *flags]) == 0
    with SQLiteEventStore(store) as s:
        (game,) = s.topics()
        chain = s.chain(game)
    config = chain[0].meta["game"]["config"]
    assert config["identities"].count("witch") == 1  # still the standard deck
    assert (config["wolf_kill"], config["all_abstain"], config["last_words"]) == (
        "vote",
        "random",
        False,
    )
    assert (config["speech_order"], config["seer_learns"], config["seer_before_wolves"]) == (
        "seat",
        "identity",
        True,
    )
    assert config["tie_policy"] == "random"
    assert (config["wolf_abstain"], config["night_fallback"]) == (True, "nothing")
    assert (config["retry_illegal"], config["doctor_told_save"]) == (False, True)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in chain]) == []


def test_a_doctor_with_nobody_else_left_protects_last_nights_seat_again() -> None:
    # no self-protection, no repeats, and only the wolf besides her is left on night 2
    deal = (W, DOCTOR, V, V)
    config = GameConfig(identities=deal, win_rule="town", doctor_self=False, doctor_repeat=False)
    script = {"n1.doctor.s2": Choice(1), "n1.wolf-kill.r1.s1": Choice(3)}
    script |= _votes(1, {1: 4, 2: 4}) | {"n2.doctor.s2": Choice(1)}
    played = _play(script, config, deal=deal)
    (second,) = played.asked_for("n2.doctor.s2")
    assert second.options == (1,)
    assert _first(played, "doctor-protect", 2).meta["diff"] == {"target": 1}
    assert "unless nobody else is left" in rules_text(config)
