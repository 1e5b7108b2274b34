"""Scripted games for every rule line of the guard, the doctor, the idiot and cupid.

Decks (seat numbers):
- GUARD_DEAL: 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7 guard, 8-9 villagers
- DOCTOR_DEAL (seer-doctor-8): 1-2 wolves, 3 seer, 4 doctor, 5-8 villagers
- IDIOT_DEAL: 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7 idiot, 8-9 villagers
- CUPID_DEAL: 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7 cupid, 8-9 villagers
"""

from __future__ import annotations

import ast
import copy
import json
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from pulse_core.workflow import read_attachment
from tests.oracle import check_log
from werewolf.arena.game_records import _count_event
from werewolf.boards import BOARDS, board_config
from werewolf.cast import Identity
from werewolf.config import GameConfig, GuardClash, WinRule
from werewolf.decisions import Answer, Choice, WitchChoice
from werewolf.ruletext import rules_text
from werewolf.state import Cause, Outcome
from werewolf.visibility import view
from werewolf.win import winner

from .scripted import Played, kill, play, votes

W, SEER, WITCH, HUNTER, V = (
    Identity.WEREWOLF,
    Identity.SEER,
    Identity.WITCH,
    Identity.HUNTER,
    Identity.VILLAGER,
)
GUARD_DEAL = (W, W, W, SEER, WITCH, HUNTER, Identity.GUARD, V, V)
DOCTOR_DEAL = (W, W, SEER, Identity.DOCTOR, V, V, V, V)
IDIOT_DEAL = (W, W, W, SEER, WITCH, HUNTER, Identity.IDIOT, V, V)
CUPID_DEAL = (W, W, W, SEER, WITCH, HUNTER, Identity.CUPID, V, V)


def _config(deal: tuple[Identity, ...], **fields: object) -> GameConfig:
    return GameConfig(identities=deal, **fields)  # type: ignore[arg-type]


def _play(script: dict[str, Answer], deal: tuple[Identity, ...], **fields: object) -> Played:
    played = play(script, config=_config(deal, **fields), deal=deal)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    return played


def _died_at_dawn(played: Played, night: int) -> list[int]:
    dawn = next(e for e in played.chain if e.role == "dawn" and e.meta["day"] == night)
    return list(dawn.meta["diff"]["died"])


# -- guard ------------------------------------------------------------------------------------
def test_the_guard_acts_first_privately_and_saves_the_wolves_victim() -> None:
    played = _play({"n1.guard.s7": Choice(8), **kill(1, 8)}, GUARD_DEAL)
    assert played.phases()[1:3] == ["guard-protect", "wolf-night"]
    event = played.events("guard-protect")[0]
    assert event.meta["visible_to"] == [7]
    assert event.meta["day"] == 1
    assert event.meta["diff"] == {"target": 8}
    assert _died_at_dawn(played, 1) == []
    assert all(o.phase != "guard-protect" for o in view(played.chain, 8).observations)


def test_the_guard_never_protects_the_same_seat_two_nights_running() -> None:
    script = {"n1.guard.s7": Choice(8), "n2.guard.s7": Choice(8), **kill(2, 8)}
    played = _play(script, GUARD_DEAL)
    asked = played.asked_for("n2.guard.s7")[0]
    assert 8 not in asked.options
    assert None in asked.options
    night2 = next(e for e in played.events("guard-protect") if e.meta["day"] == 2)
    assert night2.meta["fallbacks"][0]["seat"] == 7
    assert night2.meta["diff"] == {"target": None}
    assert _died_at_dawn(played, 2) == [8]
    again = _play(script, GUARD_DEAL, guard_repeat=True)
    assert _died_at_dawn(again, 2) == []


def test_the_guard_may_protect_himself_unless_the_config_says_not() -> None:
    played = _play({"n1.guard.s7": Choice(7), **kill(1, 7)}, GUARD_DEAL)
    assert _died_at_dawn(played, 1) == []
    never = _play({"n1.guard.s7": Choice(7), **kill(1, 7)}, GUARD_DEAL, guard_self=False)
    assert 7 not in never.asked_for("n1.guard.s7")[0].options
    assert _died_at_dawn(never, 1) == [7]


def test_guarded_and_saved_the_same_night_dies_by_default() -> None:
    script = {"n1.guard.s7": Choice(8), **kill(1, 8), "n1.witch.s5": WitchChoice(save=True)}
    assert _died_at_dawn(_play(script, GUARD_DEAL), 1) == [8]
    lives = _play(script, GUARD_DEAL, guard_witch_clash=GuardClash.LIVES)
    assert _died_at_dawn(lives, 1) == []


def test_guarded_saved_and_doctored_the_same_night_still_dies_by_default() -> None:
    # 1-3 wolves, 4 seer, 5 witch, 6 guard, 7 doctor, 8-9 villagers
    deal = (W, W, W, SEER, WITCH, Identity.GUARD, Identity.DOCTOR, V, V)
    guard, doctor = {"n1.guard.s6": Choice(8)}, {"n1.doctor.s7": Choice(8)}
    save = {"n1.witch.s5": WitchChoice(save=True)}
    # 同守同救 kills whatever else protects him: the doctor does not undo it
    assert _died_at_dawn(_play({**guard, **doctor, **save, **kill(1, 8)}, deal), 1) == [8]
    clash = _play({**guard, **doctor, **save, **kill(1, 8)}, deal, guard_witch_clash="lives")
    assert _died_at_dawn(clash, 1) == []
    # any two protections but the guard and the witch save him, as either alone does
    for pair in ({**guard, **doctor}, {**doctor, **save}):
        assert _died_at_dawn(_play({**pair, **kill(1, 8)}, deal), 1) == []


def test_the_guard_does_not_stop_the_poison() -> None:
    script = {"n1.guard.s7": Choice(8), "n1.witch.s5": WitchChoice(poison=8)}
    played = _play(script, GUARD_DEAL)
    assert _died_at_dawn(played, 1) == [8]
    assert played.state.cause_of_death(8) is Cause.POISON


def test_a_dead_guard_no_longer_acts() -> None:
    played = _play(kill(1, 7), GUARD_DEAL)
    assert [e.meta["day"] for e in played.events("guard-protect")] == [1]


# -- doctor -----------------------------------------------------------------------------------
def test_the_doctor_protects_every_night_and_may_repeat_by_default() -> None:
    script = {"n1.doctor.s4": Choice(5), "n2.doctor.s4": Choice(5), **kill(1, 5, (1, 2))}
    script |= kill(2, 5, (1, 2))
    played = _play(script, DOCTOR_DEAL, win_rule=WinRule.PARITY)
    assert None not in played.asked_for("n1.doctor.s4")[0].options
    assert _died_at_dawn(played, 1) == []
    assert _died_at_dawn(played, 2) == []
    assert played.events("doctor-protect")[0].meta["visible_to"] == [4]
    strict = _play(script, DOCTOR_DEAL, win_rule=WinRule.PARITY, doctor_repeat=False)
    assert 5 not in strict.asked_for("n2.doctor.s4")[0].options
    assert _died_at_dawn(strict, 2) == [5]


def test_the_doctor_never_protects_herself_when_the_config_says_so() -> None:
    played = _play(kill(1, 4, (1, 2)), DOCTOR_DEAL, doctor_self=False)
    assert 4 not in played.asked_for("n1.doctor.s4")[0].options


# -- idiot ------------------------------------------------------------------------------------
def test_an_exiled_idiot_reveals_his_card_lives_and_loses_his_vote() -> None:
    played = _play(votes(1, 7), IDIOT_DEAL)
    vote = played.events("vote")[0]
    assert vote.meta["diff"] == {"exiled": 7, "pk": [], "revealed": 7}
    assert vote.meta["visible_to"] is None
    assert 7 not in view(played.chain, 8).dead
    assert played.state.is_alive(7)
    assert played.state.idiot_revealed
    # no last words for a living idiot; he still speaks on day 2, but never votes again
    assert not [e for e in played.events("last-words") if e.meta["diff"]["speaker"] == 7]
    day2 = [r for r in played.asked if r.key.startswith("d2.")]
    assert any(r.key == "d2.speech.s7" for r in day2)
    assert not any(r.key.startswith("d2.vote") and r.seat == 7 for r in day2)


def test_an_idiot_who_shows_his_card_is_no_exile_in_the_arena_figures() -> None:
    played = _play({**votes(1, 7), **votes(2, 1)}, IDIOT_DEAL)
    exiles: list[tuple[int, bool]] = []
    counts: dict[int, Counter[str]] = defaultdict(Counter)
    latency: dict[int, float] = defaultdict(float)
    for event in played.chain[1:]:
        _count_event(event, played.state.team, counts, latency, exiles, None)
    assert exiles == [(1, True)]  # the vote of day 1 exiled the idiot, who lives on


def test_a_second_exile_kills_the_idiot_unless_the_config_protects_him() -> None:
    script = {**votes(1, 7), **votes(2, 7, voters=[1, 2, 3, 4, 5, 6, 8, 9])}
    played = _play(script, IDIOT_DEAL)
    assert played.state.cause_of_death(7) is Cause.EXILE
    immune = _play(script, IDIOT_DEAL, idiot_second_exile=False)
    assert immune.state.is_alive(7)
    assert all(7 not in r.options for r in immune.asked if r.key.startswith("d2.vote"))


def test_the_wolves_kill_an_idiot_as_anyone() -> None:
    played = _play(kill(1, 7), IDIOT_DEAL)
    assert played.state.cause_of_death(7) is Cause.WOLF


def test_a_revealed_idiot_counts_as_a_living_god_by_default() -> None:
    played = _play(votes(1, 7), IDIOT_DEAL)
    state = replace(played.state, alive=frozenset({1, 7, 8}), winner=None)
    assert winner(state) is None  # the idiot is a living god, a villager lives
    config = state.config.model_copy(update={"idiot_counts_as_god": False})
    assert winner(replace(state, config=config)) is Outcome.WOLVES


# -- cupid and the lovers ---------------------------------------------------------------------
LINK = {"n1.cupid.a.s7": Choice(4), "n1.cupid.b.s7": Choice(8)}


def test_cupid_links_first_the_lovers_are_told_and_nobody_else_knows() -> None:
    played = _play(LINK, CUPID_DEAL)
    assert played.phases()[1:4] == ["cupid-link", "lovers-told", "wolf-night"]
    link, told = played.events("cupid-link")[0], played.events("lovers-told")[0]
    assert link.meta["visible_to"] == [7]
    assert told.meta["visible_to"] == [4, 8]
    assert told.meta["detail"] == {"identities": ["seer", "villager"]}
    assert 4 not in played.asked_for("n1.cupid.b.s7")[0].options
    for seat in range(1, 10):
        phases = {o.phase for o in view(played.chain, seat).observations}
        assert ("lovers-told" in phases) == (seat in (4, 8))
    hidden = _play(LINK, CUPID_DEAL, lovers_see_identity=False)
    assert hidden.events("lovers-told")[0].meta["detail"] == {"identities": None}


def test_when_one_lover_dies_at_night_the_other_dies_at_dawn() -> None:
    played = _play({**LINK, **kill(1, 4)}, CUPID_DEAL)
    assert _died_at_dawn(played, 1) == [4, 8]
    assert played.state.cause_of_death(8) is Cause.LOVE
    speakers = [e.meta["diff"]["speaker"] for e in played.events("last-words")]
    assert speakers[:2] == [4, 8]  # night-1 deaths, the heartbroken one too


def test_an_exiled_lover_takes_the_other_along_in_public() -> None:
    played = _play({**LINK, **votes(1, 8)}, CUPID_DEAL)
    vote = played.events("vote")[0]
    assert vote.meta["diff"]["heartbroken"] == [4]
    assert view(played.chain, 9).dead == (4, 8)
    # the exiled speaks, then the lover who died of heartbreak with him (殉情时可以有遗言)
    assert [e.meta["diff"]["speaker"] for e in played.events("last-words")] == [8, 4]


def test_a_heartbroken_lover_is_silent_when_his_partner_is() -> None:
    # night 2: neither the knifed lover nor the heartbroken one speaks
    night = _play({**LINK, **kill(2, 4)}, CUPID_DEAL)
    assert _died_at_dawn(night, 2) == [4, 8]
    assert not night.events("last-words")
    # a shot's victim gives no last words, nor does the lover who follows him
    shot = _play({**LINK, **kill(1, 6), "d1.hunter.s6": Choice(8)}, CUPID_DEAL)
    assert shot.events("hunter-shot")[0].meta["diff"]["heartbroken"] == [4]
    assert [e.meta["diff"]["speaker"] for e in shot.events("last-words")] == [6]


def test_a_hunter_knifed_the_night_his_lover_is_poisoned_shoots() -> None:
    # he dies of the knife: heartbreak takes only a lover who would otherwise live
    link = {"n1.cupid.a.s7": Choice(6), "n1.cupid.b.s7": Choice(8)}
    script = {**link, **kill(1, 6), "n1.witch.s5": WitchChoice(poison=8), "d1.hunter.s6": Choice(1)}
    played = _play(script, CUPID_DEAL)
    assert _died_at_dawn(played, 1) == [6, 8]
    assert played.state.cause_of_death(6) is Cause.WOLF
    assert played.state.cause_of_death(8) is Cause.POISON
    assert [e.meta["diff"]["target"] for e in played.events("hunter-shot")] == [1]
    # poisoned himself the night his lover is knifed, he does not shoot
    swapped = {**link, **kill(1, 8), "n1.witch.s5": WitchChoice(poison=6)}
    assert not _play(swapped, CUPID_DEAL).events("hunter-shot")


def test_a_heartbroken_hunter_shoots_only_when_the_config_allows() -> None:
    link = {"n1.cupid.a.s7": Choice(6), "n1.cupid.b.s7": Choice(8), **kill(1, 8)}
    assert not _play(link, CUPID_DEAL).events("hunter-shot")
    shooter = _play(link, CUPID_DEAL, heartbroken_hunter_shoots=True)
    assert [e.meta["diff"]["shooter"] for e in shooter.events("hunter-shot")] == [6]


def test_a_wolf_and_a_good_lover_win_with_cupid_when_only_they_are_left() -> None:
    played = _play({"n1.cupid.a.s7": Choice(1), "n1.cupid.b.s7": Choice(9)}, CUPID_DEAL)
    assert played.state.lovers == (1, 9)
    base = replace(played.state, winner=None)
    assert winner(replace(base, alive=frozenset({1, 7, 9}))) is Outcome.LOVERS
    assert winner(replace(base, alive=frozenset({1, 9}))) is Outcome.LOVERS
    # while the lovers live, nobody else wins: the wolves have wiped out the villagers here
    assert winner(replace(base, alive=frozenset({1, 2, 4, 7, 9}))) is None
    # once they are dead, the camps count without them
    assert winner(replace(base, alive=frozenset({2, 4, 5, 8}))) is None
    assert winner(replace(base, alive=frozenset({2, 4, 5}))) is Outcome.WOLVES  # 9 is no villager
    assert winner(replace(base, alive=frozenset({4, 5, 8}))) is Outcome.GOOD


def test_cupid_is_neither_god_nor_villager_for_the_side_rule() -> None:
    played = _play({"n1.cupid.a.s7": Choice(8), "n1.cupid.b.s7": Choice(9)}, CUPID_DEAL)
    base = replace(played.state, winner=None)
    # the seer, the witch and the hunter dead: a living cupid keeps no god alive
    assert winner(replace(base, alive=frozenset({1, 7, 8, 9}))) is Outcome.WOLVES
    # nor is he a villager: with every villager dead and a god alive, the wolves win
    assert winner(replace(base, alive=frozenset({1, 4, 7}))) is Outcome.WOLVES
    # he is a good player all the same: no wolf left, good wins with him
    assert winner(replace(base, alive=frozenset({4, 7, 8}))) is Outcome.GOOD
    town = replace(base, config=base.config.model_copy(update={"win_rule": WinRule.TOWN}))
    assert winner(replace(town, alive=frozenset({1, 7}))) is None
    text = rules_text(played.state.config)
    assert "all gods (seer, witch, hunter) are dead" in text
    assert "cupid is neither a god nor a villager" in text
    assert "丘比特既不算神也不算民" in rules_text(played.state.config, "zh")


def test_lovers_of_one_side_simply_play_for_it() -> None:
    played = _play(LINK, CUPID_DEAL)
    base = replace(played.state, winner=None)
    assert winner(replace(base, alive=frozenset({4, 7, 8}))) is Outcome.GOOD


# -- boards -----------------------------------------------------------------------------------
def test_every_board_is_valid_and_its_rules_name_its_identities() -> None:
    assert board_config("standard-9") == GameConfig()
    assert board_config("seer-doctor-8").win_rule is WinRule.PARITY
    for name, board in BOARDS.items():
        config = board.config()
        assert config.seats == int(name.rsplit("-", 1)[1])
        for identity in set(config.identities) - {W, V}:
            assert identity.value in rules_text(config, "en").lower()
        assert rules_text(config, "zh")
    assert "Guard: each night" in rules_text(board_config("guard-12"))
    assert "守卫" in rules_text(board_config("guard-12"), "zh")


def test_the_start_event_writes_identity_fields_only_when_changed() -> None:
    assert "guard_self" not in GameConfig().dump()
    assert GameConfig(guard_self=False).dump()["guard_self"] is False


# -- the referee's record ---------------------------------------------------------------------
def _records(played: Played) -> list[dict[str, object]]:
    return [
        {
            "kind": e.kind,
            "meta": e.meta,
            "attachments": {
                name: read_attachment(played.store, e, name) or ""
                for name in e.meta.get("attachments", {})
            },
        }
        for e in played.chain
    ]


def test_the_referee_record_holds_every_offer_and_the_oracle_checks_it() -> None:
    script = {"n1.guard.s7": Choice(8), **kill(1, 8)}
    played = _play(script, GUARD_DEAL, referee_record=True)
    records = _records(played)
    assert check_log(records) == []
    night2 = next(e for e in played.events("guard-protect") if e.meta["day"] == 2)
    offer = json.loads(read_attachment(played.store, night2, "offered/7/guard") or "")
    assert offer["key"] == "n2.guard.s7"
    assert 8 not in offer["options"]
    assert None in offer["options"]
    # a log whose guard was offered last night's seat again is refused
    index = played.chain.index(night2)
    tampered = copy.deepcopy(records)
    attachments = tampered[index]["attachments"]
    assert isinstance(attachments, dict)
    attachments["offered/7/guard"] = json.dumps({**offer, "options": [*offer["options"], 8]})
    assert any("legal set" in p for p in check_log(tampered))
    # standard logs never carry it
    assert not any(
        name.startswith("offered/")
        for e in _play(script, GUARD_DEAL).chain
        for name in e.meta.get("attachments", {})
    )


def test_steps_cut_off_by_the_deciding_deaths_leave_a_marker() -> None:
    deal = (W, SEER, V, V)
    played = _play(votes(1, 1, voters=range(1, 5)), deal, referee_record=True)
    end = played.chain[-1].meta
    assert end["diff"]["winner"] == "good"
    assert end["detail"]["skipped"] == [{"phase": "last-words", "seat": 1}]
    assert not played.events("last-words")
    # the wolves kill the only god, the hunter: the game ends at dawn, without his shot
    shot = _play(kill(1, 2, (1,)), (W, HUNTER, V, V, V), referee_record=True)
    assert shot.chain[-1].meta["diff"]["winner"] == "wolves"
    assert shot.chain[-1].meta["detail"]["skipped"] == [
        {"phase": "hunter-shot", "seat": 2},
        {"phase": "last-words", "seat": 2},
    ]


def _runtime_imports(module: str) -> set[str]:
    """The werewolf modules ``module`` imports when it runs (``if TYPE_CHECKING`` aside)."""
    path = Path(__file__).resolve().parents[2] / "werewolf" / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    return {
        (node.module or "").lstrip(".")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only
    }


def test_state_rules_and_win_import_without_a_cycle() -> None:
    assert "rules" not in _runtime_imports("state")
    assert "state" not in _runtime_imports("win")
    assert "win" in _runtime_imports("state")
    assert "state" in _runtime_imports("rules")


def test_a_voter_with_nobody_to_vote_for_casts_a_blank_ballot() -> None:
    # a lone wolf beside a revealed idiot who cannot be exiled again, no self-vote and no
    # abstaining: the wolf's only ballot is a blank one, and the day goes on
    deal = (V, Identity.IDIOT, W, V)
    script = {**kill(1, 1, wolves=[3]), **votes(1, 2, voters=[3, 4]), **kill(2, 4, wolves=[3])}
    fields = {"allow_abstain": False, "allow_self_vote": False, "idiot_second_exile": False}
    played = _play(script, deal, win_rule=WinRule.TOWN, day_cap=3, **fields)
    [ballot] = [r for r in played.asked if r.key == "d2.vote.r1.s3"]
    assert ballot.options == (None,)
    day2 = next(e for e in played.events("vote") if e.meta["day"] == 2)
    assert day2.meta["detail"]["ballots"] == [[3, None]]
    assert day2.meta["diff"]["exiled"] is None


# the witch exiled on day 1 after the seer is knifed and the hunter poisoned: the idiot is
# the last god left, and a villager still lives
_LAST_GOD_IDIOT = {
    **kill(1, 4),
    "n1.witch.s5": WitchChoice(poison=6),
    **votes(1, 5, voters=[1, 2, 3, 5, 7, 8, 9]),
}


def test_the_vote_that_reveals_the_last_god_idiot_ends_the_game_when_he_stops_counting() -> None:
    script = {**_LAST_GOD_IDIOT, **votes(2, 7, voters=[1, 2, 3, 7, 8, 9])}
    played = _play(script, IDIOT_DEAL, idiot_counts_as_god=False)
    assert played.phases()[-2:] == ["vote", "game-end"]
    assert played.events("vote")[-1].meta["diff"]["revealed"] == 7
    end = played.events("game-end")[0]
    assert end.meta["diff"] == {"winner": "wolves"}
    assert end.meta["day"] == 2
    assert end.meta["detail"]["reason"] == (
        "every other god (seer, witch, hunter) is dead and the idiot is revealed"
    )
    assert {7, 8} <= played.state.alive
    # counted as a god (the default), the revealed idiot keeps the game going to night 3
    counted = _play(script, IDIOT_DEAL)
    assert counted.events("game-end")[0].meta["day"] > 2


def test_a_pk_round_that_reveals_the_last_god_idiot_ends_the_game_too() -> None:
    tie = {f"d2.vote.r1.s{v}": Choice(7 if v in (1, 2) else 8) for v in (1, 2, 3, 9)}
    tie |= {"d2.vote.r1.s7": Choice(8), "d2.vote.r1.s8": Choice(7)}
    pk = {f"d2.vote.r2.s{v}": Choice(7) for v in (1, 2, 3, 9)}
    played = _play({**_LAST_GOD_IDIOT, **tie, **pk}, IDIOT_DEAL, idiot_counts_as_god=False)
    first, second = played.events("vote")[-2:]
    assert first.meta["diff"]["pk"] == [7, 8]
    assert second.meta["diff"] == {"exiled": 7, "pk": [], "revealed": 7}
    assert played.phases()[-2:] == ["vote", "game-end"]
    assert played.events("game-end")[0].meta["diff"] == {"winner": "wolves"}


@pytest.mark.parametrize(("seed", "day_cap"), [(7, 20), (173, 20), (2356, 4)])
def test_a_revealed_last_god_idiot_ends_the_game_at_his_vote(seed: int, day_cap: int) -> None:
    """idiot_counts_as_god = false: random games on idiot-12 in which the vote that reveals
    the idiot leaves no other god alive; the wolves win at that vote, before any speech."""
    from tests.strategies import play as play_game
    from werewolf.players import make_player

    config = board_config("idiot-12").model_copy(
        update={"idiot_counts_as_god": False, "day_cap": day_cap}
    )
    game = play_game(config, seed, lambda seat: make_player("random", game_seed=seed, seat=seat))
    roles = [e.role for e in game.chain]
    [reveal] = [i for i, e in enumerate(game.chain) if e.meta.get("diff", {}).get("revealed")]
    assert roles[reveal] == "vote"
    assert roles[reveal + 1 :] == ["game-end"]
    assert game.chain[-1].meta["diff"] == {"winner": "wolves"}
    assert check_log(game.records) == []
