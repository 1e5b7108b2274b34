"""Scripted games for the kaggle-8 fields of abstention and failed answers: ``wolf_abstain``
(a wolf's ballot may abstain; a failed ballot abstains; all abstaining draws a living
non-wolf) and ``night_fallback`` (a seer or doctor who keeps failing does nothing).

Deal (seats): 1-2 wolves, 3 seer, 4 doctor, 5-8 villagers. Every game is also judged by
the independent referee (tests/oracle.py) and the replay format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pulse_core import read_content
from tests.browser import browser, off_loop, open_page
from tests.oracle import check_log
from werewolf.boards import board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig, NightFallback
from werewolf.decisions import Answer, Choice, DecisionKind, NoAnswer
from werewolf.draws import draw
from werewolf.game import fold_chain
from werewolf.players.prompting import history_lines, prompt_set, task_lines
from werewolf.players.schema import decision_tool, stable_tools
from werewolf.replay import replay_html, replay_text
from werewolf.replay.format import check_meta
from werewolf.replay.load import load_game
from werewolf.ruletext import rules_text
from werewolf.visibility import view

from .scripted import Played, play

__all__ = ["browser"]  # the fixture, imported for this module

W, SEER, DOCTOR, V = Identity.WEREWOLF, Identity.SEER, Identity.DOCTOR, Identity.VILLAGER
DEAL = (W, W, SEER, DOCTOR, V, V, V, V)
KAGGLE = board_config("kaggle-8")
FAIL = NoAnswer("no valid tool call")


def _kaggle(**fields: Any) -> GameConfig:
    return GameConfig.model_validate({**KAGGLE.model_dump(), **fields})


def _play(script: dict[str, Answer], config: GameConfig = KAGGLE) -> Played:
    played = play(script, config=config, deal=DEAL)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    for e in played.chain:
        check_meta(e.kind, e.meta, e.role, seats=config.seats)
    return played


def _night(played: Played, role: str, night: int = 1) -> Any:
    return next(e for e in played.chain if e.role == role and e.meta["day"] == night)


def _ballots(night: int, targets: dict[int, Answer]) -> dict[str, Answer]:
    return {f"n{night}.wolf-kill.r1.s{w}": a for w, a in targets.items()}


# -- wolf_abstain -----------------------------------------------------------------------------
def test_a_failed_wolf_ballot_abstains_and_the_other_ballot_decides() -> None:
    # wolf 1 votes 7, wolf 2 keeps answering illegally: Kaggle kills 7 (no draw with the seer)
    played = _play(_ballots(1, {1: Choice(7), 2: FAIL}))
    event = _night(played, "wolf-night")
    assert event.meta["detail"]["proposals"] == [[[1, 7], [2, None]]]
    assert event.meta["diff"]["target"] == 7
    assert "draw" not in event.meta["detail"]
    assert event.meta["fallbacks"][0]["seat"] == 2
    assert "2->abstain" in read_text(played, event)
    assert _night(played, "dawn").meta["diff"]["died"] == [7]
    # the default board keeps the old fallback: the lowest legal seat is a real ballot
    old = _play(_ballots(1, {1: Choice(7), 2: FAIL}), _kaggle(wolf_abstain=False))
    old_event = _night(old, "wolf-night")
    assert old_event.meta["detail"]["proposals"] == [[[1, 7], [2, 3]]]
    assert old_event.meta["detail"]["draw"]["among"] == [3, 7]


def test_a_chosen_abstention_leaves_the_kill_to_the_other_wolf() -> None:
    played = _play(_ballots(1, {1: Choice(None), 2: Choice(6)}))
    assert _night(played, "wolf-night").meta["diff"]["target"] == 6
    assert "fallbacks" not in _night(played, "wolf-night").meta


def test_when_every_wolf_abstains_a_living_non_wolf_is_drawn_from_the_seed() -> None:
    played = _play(_ballots(1, {1: Choice(None), 2: FAIL}))
    event = _night(played, "wolf-night")
    drawn = event.meta["detail"]["draw"]
    assert drawn == draw(1, "n1.wolf-kill", range(3, 9)).record()
    assert drawn["among"] == [3, 4, 5, 6, 7, 8]  # every living non-wolf, never a wolf
    assert event.meta["diff"]["target"] == drawn["drawn"]
    assert "every wolf abstained" in read_text(played, event)
    god = replay_text(load_game(played.store, played.store.topics()[0]), width=100)
    assert "2 Ben → abstain" in god
    assert "(every wolf abstained: drawn at random among 3" in god
    # the doctor (asked first, by default protecting seat 3) may still save the drawn seat
    died = _night(played, "dawn").meta["diff"]["died"]
    assert died == ([] if drawn["drawn"] == 3 else [drawn["drawn"]])
    # across seeds the draw covers the non-wolves; a replay's fold needs none of it
    assert {draw(s, "n1.wolf-kill", range(3, 9)).drawn for s in range(40)} == set(range(3, 9))
    assert fold_chain(played.chain) == played.state


def test_with_empty_kills_an_abstaining_pack_kills_nobody() -> None:
    config = _kaggle(allow_empty_kill=True)
    played = _play(_ballots(1, {1: Choice(None), 2: Choice(None)}), config)
    event = _night(played, "wolf-night")
    assert event.meta["diff"]["target"] is None
    assert "draw" not in event.meta["detail"]


def test_with_empty_kills_a_ballot_for_nobody_counts_for_no_seat() -> None:
    # three wolves, two for nobody and one for seat 6: seat 6 dies (as a split under
    # wolf_split = "plurality" counts only proposals of a seat)
    deal = (W, W, W, SEER, DOCTOR, V, V, V)
    config = _kaggle(identities=deal, allow_empty_kill=True, wolf_abstain=False)
    ballots = _ballots(1, {1: Choice(None), 2: Choice(None), 3: Choice(6)})
    played = play(ballots, config=config, deal=deal)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    event = _night(played, "wolf-night")
    assert event.meta["detail"]["proposals"] == [[[1, None], [2, None], [3, 6]]]
    assert event.meta["diff"]["target"] == 6
    assert "draw" not in event.meta["detail"]
    assert "1->nobody" in read_text(played, event)


def read_text(played: Played, event: Any) -> str:
    return read_content(played.store, event)


# -- night_fallback ---------------------------------------------------------------------------
def test_a_seer_who_keeps_failing_checks_nobody() -> None:
    script = {"n1.seer.s3": FAIL} | _ballots(1, {1: Choice(6), 2: Choice(6)})
    played = _play(script)
    check = _night(played, "seer-check")
    assert check.meta["diff"] == {"target": None, "wolf": None}
    assert check.meta["fallbacks"][0]["decision"] == "seer"
    god = replay_text(load_game(played.store, played.store.topics()[0]), width=100)
    assert "checks nobody." in god
    assert all(c.night != 1 for c in fold_chain(played.chain).checks)
    seer_view = view(played.chain, 3)
    assert any("checked nobody" in line for line in history_lines(seer_view, "en"))
    assert any("没有查验任何人" in line for line in history_lines(seer_view, "zh"))
    # the default: she checks the first legal seat
    first = _play(script, _kaggle(night_fallback=NightFallback.FIRST))
    assert _night(first, "seer-check").meta["diff"]["target"] == 1


def test_a_doctor_who_keeps_failing_protects_nobody() -> None:
    # the wolves kill seat 3; a doctor who does nothing does not save her
    script = {"n1.doctor.s4": FAIL} | _ballots(1, {1: Choice(3), 2: Choice(3)})
    played = _play(script)
    assert _night(played, "doctor-protect").meta["diff"] == {"target": None}
    god = replay_text(load_game(played.store, played.store.topics()[0]), width=100)
    assert "protects nobody" in god
    assert _night(played, "dawn").meta["diff"]["died"] == [3]
    # the default protects the first legal seat, the lowest living one: seat 1, a wolf
    first = _play(script, _kaggle(night_fallback=NightFallback.FIRST))
    assert _night(first, "doctor-protect").meta["diff"] == {"target": 1}
    # a doctor who does nothing may protect anyone the next night
    nxt = played.asked_for("n2.doctor.s4")
    if nxt:  # the game may have ended at dawn
        assert 3 not in nxt[0].options  # dead
        assert 4 in nxt[0].options


# -- retry_illegal and doctor_told_save ---------------------------------------------------------
def test_an_illegal_answer_takes_its_fallback_at_once_as_on_kaggle() -> None:
    script = {"n1.seer.s3": FAIL, "d1.vote.r1.s5": Choice(6)} | _ballots(1, {1: Choice(6), 2: FAIL})
    played = _play(script)
    for key in ("n1.seer.s3", "n1.wolf-kill.r1.s2", "d1.vote.r1.s5"):
        assert len(played.asked_for(key)) == 1, key
    fallbacks = [f for e in played.chain for f in e.meta.get("fallbacks", [])]
    assert {f["key"] for f in fallbacks} >= {"n1.seer.s3", "n1.wolf-kill.r1.s2", "d1.vote.r1.s5"}
    # the other boards ask twice more, each time with the reason
    asked = _play(script, _kaggle(retry_illegal=True))
    retried = asked.asked_for("n1.seer.s3")
    assert len(retried) == 3
    assert retried[1].feedback is not None


def test_the_doctor_alone_is_told_when_her_protection_saved_the_victim() -> None:
    script = {"n1.doctor.s4": Choice(6)} | _ballots(1, {1: Choice(6), 2: Choice(6)})
    played = _play(script)
    assert _night(played, "dawn").meta["diff"]["died"] == []
    phases = played.phases()
    assert phases[phases.index("dawn") + 1] == "doctor-told"
    told = _night(played, "doctor-told")
    assert (told.meta["diff"], told.meta["visible_to"]) == ({"saved": 6}, [4])
    assert all(
        o.phase != "doctor-told" for s in (1, 5, 6) for o in view(played.chain, s).observations
    )
    doctor = view(played.chain, 4)
    assert any("your protection saved" in line for line in history_lines(doctor, "en"))
    assert any("你的保护让" in line for line in history_lines(doctor, "zh"))
    god = replay_text(load_game(played.store, played.store.topics()[0]), width=100)
    assert "learns her protection saved" in god
    # no save, no message; and the other boards tell her nothing
    missed = _play({"n1.doctor.s4": Choice(5)} | _ballots(1, {1: Choice(6), 2: Choice(6)}))
    assert "doctor-told" not in missed.phases()
    assert "doctor-told" not in _play(script, _kaggle(doctor_told_save=False)).phases()


# -- what the players are told ----------------------------------------------------------------
def test_the_wolves_are_told_they_vote_and_may_abstain() -> None:
    played = _play(_ballots(1, {1: Choice(None), 2: Choice(6)}))
    second = played.asked_for("n1.wolf-kill.r1.s2")[0]
    lines = "\n".join(task_lines(second, "en"))
    assert "You may abstain" in lines
    assert "Ballots so far: seat 1" in lines
    assert "-> abstain" in lines
    assert "弃票" in "\n".join(task_lines(second, "zh"))
    tool = decision_tool(second, "en")
    assert tool.description == prompt_set("en").say("tool.wolf_kill.ballot")
    stable = {t["function"]["name"]: t for t in stable_tools("en", ballots=True)}
    assert (
        stable["wolf_kill"]["function"]["description"] == "Cast your ballot for tonight's victim."
    )
    wolf_history = "\n".join(history_lines(view(played.chain, 1), "en"))
    assert "The wolves' ballots:" in wolf_history
    assert "Kill proposals" not in wolf_history
    # the agree board still proposes
    assert stable_tools("en")[1]["function"]["description"].startswith("Propose")
    assert second.kind is DecisionKind.WOLF_KILL


def test_the_rules_text_says_abstention_and_idle_fallbacks() -> None:
    en, zh = rules_text(KAGGLE, "en"), rules_text(KAGGLE, "zh")
    assert "an invalid ballot counts as an abstention" in en
    assert "if every wolf abstains a random living non-wolf dies" in en
    assert "A seer or doctor who gives no valid choice does nothing that night." in en
    assert "无效投票视为弃票" in zh
    assert "当晚不行动" in zh
    plain = rules_text(_kaggle(wolf_abstain=False, night_fallback=NightFallback.FIRST), "en")
    assert "abstain" not in plain.split("Day:")[0]
    assert "does nothing" not in plain


# -- the replay page ----------------------------------------------------------------------------
def test_the_replay_page_shows_abstentions_and_idle_nights(browser: Any, tmp_path: Path) -> None:
    script = {"n1.seer.s3": FAIL, "n1.doctor.s4": FAIL}
    played = off_loop(_play, script | _ballots(1, {1: Choice(None), 2: FAIL}))
    log = load_game(played.store, played.store.topics()[0])
    path = tmp_path / "god.html"
    path.write_text(replay_html(log), encoding="utf-8")
    page, problems = open_page(browser, path.as_uri())
    night = page.locator(".item.wolf-night").first.inner_text()
    assert "abstained" in night
    assert "Nobody voted: drawn at random among" in night
    assert "checks nobody" in page.locator(".item.seer-check").first.inner_text()
    assert "protects nobody" in page.locator(".item.doctor-protect").first.inner_text()
    assert problems == []
    page.close()


def test_the_replay_page_shows_the_doctor_told_of_her_save(browser: Any, tmp_path: Path) -> None:
    script = {"n1.doctor.s4": Choice(6)} | _ballots(1, {1: Choice(6), 2: Choice(6)})
    played = off_loop(_play, script)
    log = load_game(played.store, played.store.topics()[0])
    path = tmp_path / "god.html"
    path.write_text(replay_html(log), encoding="utf-8")
    page, problems = open_page(browser, path.as_uri())
    page.keyboard.press("ArrowRight")  # night 1, then day 1: the dawn and what follows it
    told = page.locator(".item.doctor-told").first.inner_text()
    assert "learns her protection saved" in told
    assert "6" in told
    assert problems == []
    page.close()
