"""Scripted games for every edge case of the rules table: each would fail if its rule did.

Seats (see scripted.DEAL): 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers.
"""

from __future__ import annotations

from werewolf.config import GameConfig, SelfSave, TiePolicy, WolfSplit
from werewolf.decisions import Answer, Choice, Speech, WitchChoice
from werewolf.state import Cause, Outcome

from .scripted import kill, play, votes


def _died_at_dawn(played: object, night: int) -> list[int]:
    dawns = [e for e in played.chain if e.role == "dawn" and e.meta["day"] == night]  # type: ignore[attr-defined]
    assert len(dawns) == 1
    return list(dawns[0].meta["diff"]["died"])


# -- witch ------------------------------------------------------------------------------------
def test_witch_may_save_herself_on_night_one() -> None:
    played = play({**kill(1, 5), "n1.witch.s5": WitchChoice(save=True)})
    assert _died_at_dawn(played, 1) == []
    assert not played.state.antidote
    witch_event = played.events("witch-action")[0]
    assert witch_event.meta["detail"]["told_target"] == 5
    assert "fallbacks" not in witch_event.meta


def test_witch_self_save_is_refused_after_night_one() -> None:
    script = {**kill(1, None), **kill(2, 5), "n2.witch.s5": WitchChoice(save=True)}
    played = play(script)
    request = played.asked_for("n2.witch.s5")[0]
    assert request.witch is not None
    assert request.witch.told_target == 5
    assert not request.witch.can_save
    assert _died_at_dawn(played, 2) == [5]
    witch_event = next(e for e in played.events("witch-action") if e.meta["day"] == 2)
    assert witch_event.meta["fallbacks"][0]["seat"] == 5
    assert witch_event.meta["diff"] == {"save": False, "poison": None}


def test_witch_self_save_variants() -> None:
    never = play({**kill(1, 5), "n1.witch.s5": WitchChoice(save=True)},
                 config=GameConfig(witch_self_save=SelfSave.NEVER))  # fmt: skip
    assert _died_at_dawn(never, 1) == [5]
    always = play({**kill(1, None), **kill(2, 5), "n2.witch.s5": WitchChoice(save=True)},
                  config=GameConfig(witch_self_save=SelfSave.ALWAYS))  # fmt: skip
    assert _died_at_dawn(always, 2) == []


def test_witch_is_told_the_target_only_while_she_holds_the_antidote() -> None:
    played = play({**kill(1, 7), "n1.witch.s5": WitchChoice(save=True), **kill(2, 8)})
    assert played.asked_for("n1.witch.s5")[0].context["told_target"] == 7
    night2 = played.asked_for("n2.witch.s5")[0]
    assert night2.context["told_target"] is None
    assert night2.witch is not None
    assert night2.witch.told_target is None
    # and her view holds no event that names the night-2 victim before dawn
    assert all(o.phase != "wolf-night" for o in night2.view.observations)


def test_one_potion_a_night() -> None:
    played = play({**kill(1, 7), "n1.witch.s5": WitchChoice(save=True, poison=1)})
    witch_event = played.events("witch-action")[0]
    assert witch_event.meta["fallbacks"][0]["reason"] == "at most one potion a night"
    assert _died_at_dawn(played, 1) == [7]
    both = play({**kill(1, 7), "n1.witch.s5": WitchChoice(save=True, poison=1)},
                config=GameConfig(witch_both_potions=True))  # fmt: skip
    assert _died_at_dawn(both, 1) == [1]


def test_witch_never_poisons_herself() -> None:
    played = play({**kill(1, None), "n1.witch.s5": WitchChoice(poison=5)})
    assert played.asked_for("n1.witch.s5")[0].witch.poison_targets == (1, 2, 3, 4, 6, 7, 8, 9)  # type: ignore[union-attr]
    assert _died_at_dawn(played, 1) == []
    assert played.state.poison  # the refused poison was not spent


# -- hunter -----------------------------------------------------------------------------------
def test_knifed_hunter_shoots_and_poisoned_hunter_cannot() -> None:
    knifed = play({**kill(1, 6), "d1.hunter.s6": Choice(1)})
    shots = knifed.events("hunter-shot")
    assert [s.meta["diff"] for s in shots] == [{"shooter": 6, "target": 1}]
    assert shots[0].meta["visible_to"] is None  # a shot is public: it reveals the hunter
    assert knifed.state.cause_of_death(1) is Cause.SHOT

    poisoned = play({**kill(1, None), "n1.witch.s5": WitchChoice(poison=6)})
    assert poisoned.state.cause_of_death(6) is Cause.POISON
    assert poisoned.events("hunter-shot") == []
    assert not any(r.seat == 6 and r.kind.value == "hunter" for r in poisoned.asked)


def test_declined_shot_stays_private() -> None:
    played = play(kill(1, 6))
    shot = played.events("hunter-shot")[0]
    assert shot.meta["diff"] == {"shooter": 6, "target": None}
    assert shot.meta["visible_to"] == [6]


def test_hunter_as_last_god_gets_no_shot() -> None:
    # night 1: the seer dies; day 1: the witch is exiled; night 2: the hunter, the last god
    script = {**kill(1, 4), **votes(1, 5), **kill(2, 6), "d2.hunter.s6": Choice(1)}
    played = play(script)
    assert played.events("hunter-shot") == []
    assert played.state.winner is Outcome.WOLVES
    assert played.phases()[-2:] == ["dawn", "game-end"]


def test_exiled_hunter_shoots_after_his_last_words_and_the_victim_says_nothing() -> None:
    played = play({**votes(1, 6), "d1.hunter.s6": Choice(7)})
    phases = played.phases()
    vote_at = phases.index("vote")
    assert phases[vote_at + 1 : vote_at + 3] == ["hunter-shot", "last-words"]
    assert played.events("last-words")[-1].meta["diff"] == {"speaker": 6}
    assert not any(e.meta["diff"]["speaker"] == 7 for e in played.events("last-words"))


# -- wins -------------------------------------------------------------------------------------
def test_wolf_knife_first_when_both_sides_win_at_once() -> None:
    # villagers 7 and 8 die, wolves 1 and 2 are exiled; night 3: the last villager is
    # knifed while the witch poisons the last wolf: both conditions hold -> wolves win
    script = {**kill(1, 7), **votes(1, 1), **kill(2, 8, (2, 3)), **votes(2, 2),
              **kill(3, 9, (3,)), "n3.witch.s5": WitchChoice(poison=3)}  # fmt: skip
    played = play(script)
    assert _died_at_dawn(played, 3) == [3, 9]
    assert played.state.winner is Outcome.WOLVES
    assert played.events("game-end")[0].meta["diff"] == {"winner": "wolves"}


def test_good_wins_when_the_last_wolf_is_poisoned_and_a_god_is_knifed() -> None:
    script = {**kill(1, 7), **votes(1, 1), **kill(2, 8, (2, 3)), **votes(2, 2),
              **kill(3, 4, (3,)), "n3.witch.s5": WitchChoice(poison=3)}  # fmt: skip
    played = play(script)
    assert played.state.winner is Outcome.GOOD


def test_last_wolf_exiled_ends_the_game_without_last_words() -> None:
    played = play({**votes(1, 1), **votes(2, 2), **votes(3, 3)})
    assert played.state.winner is Outcome.GOOD
    assert played.phases()[-2:] == ["vote", "game-end"]
    assert [e.meta["diff"]["speaker"] for e in played.events("last-words")] == [1, 2]


def test_day_cap_is_a_draw() -> None:
    played = play({}, config=GameConfig(day_cap=2))
    assert played.state.winner is Outcome.DRAW
    assert played.state.night == 2
    assert (
        played.events("game-end")[0].meta["detail"]["reason"] == "the day cap of 2 days was reached"
    )


# -- nights and days --------------------------------------------------------------------------
def test_empty_kill_gives_a_peaceful_night() -> None:
    played = play({**kill(1, None)}, config=GameConfig(day_cap=1))
    assert _died_at_dawn(played, 1) == []
    assert "peaceful night" in played.store.objects.get(played.events("dawn")[0].hash).decode()


def test_empty_kill_can_be_forbidden() -> None:
    played = play({}, config=GameConfig(allow_empty_kill=False, day_cap=1))
    request = played.asked_for("n1.wolf-kill.r1.s1")[0]
    assert None not in request.options
    assert len(_died_at_dawn(played, 1)) == 1


def _split(first: tuple[int, int, int], second: tuple[int, int, int]) -> dict[str, Answer]:
    """Wolves 1, 2, 3 propose ``first`` in round 1 and ``second`` in round 2."""
    rounds = {1: first, 2: second}
    return {
        f"n1.wolf-kill.r{r}.s{w}": Choice(t)
        for r, targets in rounds.items()
        for w, t in zip((1, 2, 3), targets, strict=True)
    }


def test_wolves_that_stay_split_kill_nobody_even_two_to_one() -> None:
    played = play(_split((7, 7, 8), (7, 7, 8)), config=GameConfig(day_cap=1))
    night = played.events("wolf-night")[0]
    assert night.meta["diff"] == {"target": None}
    assert len(night.meta["detail"]["proposals"]) == 2
    assert night.meta["visible_to"] == [1, 2, 3]
    assert _died_at_dawn(played, 1) == []


def test_wolves_that_agree_in_the_second_round_kill() -> None:
    played = play(_split((7, 7, 8), (8, 8, 8)), config=GameConfig(day_cap=1))
    assert _died_at_dawn(played, 1) == [8]


def test_plurality_variant_kills_the_most_proposed_seat() -> None:
    config = GameConfig(day_cap=1, wolf_split=WolfSplit.PLURALITY)
    assert _died_at_dawn(play(_split((7, 7, 8), (7, 7, 8)), config=config), 1) == [7]
    three_way = play(_split((7, 8, 9), (7, 8, 9)), config=config)
    assert _died_at_dawn(three_way, 1) == []  # a tied plurality kills nobody


def test_without_empty_kill_a_split_still_kills() -> None:
    config = GameConfig(day_cap=1, allow_empty_kill=False)
    assert _died_at_dawn(play(_split((7, 8, 9), (9, 8, 7)), config=config), 1) == [7]


def test_the_split_rule_is_what_the_players_are_told() -> None:
    from werewolf.ruletext import rules_text

    assert "nobody dies" in rules_text(GameConfig())
    assert "the most-proposed seat dies (a tie kills nobody)" in rules_text(
        GameConfig(wolf_split=WolfSplit.PLURALITY)
    )


def test_tie_goes_to_pk_and_a_second_tie_exiles_nobody() -> None:
    first = {f"d1.vote.r1.s{v}": Choice(7 if v % 2 else 8) for v in range(1, 10)}
    first["d1.vote.r1.s9"] = Choice(None)  # 7 gets 1,3,5 (7 abstains); 8 gets 2,4,6 (8 abstains)
    first["d1.vote.r1.s7"] = Choice(None)
    first["d1.vote.r1.s8"] = Choice(None)
    pk = {f"d1.vote.r2.s{v}": Choice(7 if v <= 3 else 8) for v in (1, 2, 3, 4, 5, 6)}
    played = play({**first, **pk}, config=GameConfig(day_cap=1))
    day1_votes = played.events("vote")
    assert [v.meta["diff"] for v in day1_votes] == [
        {"exiled": None, "pk": [7, 8]},
        {"exiled": None, "pk": []},
    ]
    pk_round = day1_votes[1].meta["detail"]
    assert pk_round["round"] == 2
    assert [b[0] for b in pk_round["ballots"]] == [1, 2, 3, 4, 5, 6, 9]  # candidates do not vote
    between = played.chain[
        played.chain.index(day1_votes[0]) + 1 : played.chain.index(day1_votes[1])
    ]
    assert [(e.role, e.meta["diff"]["speaker"], e.meta["detail"]["pk"]) for e in between] == [
        ("day-speech", 7, True),
        ("day-speech", 8, True),
    ]
    assert played.state.exiles == ((1, None),)


def test_tie_policy_none_skips_the_pk_round() -> None:
    script = {"d1.vote.r1.s1": Choice(7), "d1.vote.r1.s2": Choice(8)}
    played = play(script, config=GameConfig(tie_policy=TiePolicy.NONE, day_cap=1))
    assert [v.meta["diff"] for v in played.events("vote")] == [{"exiled": None, "pk": []}]


def test_last_words_for_night_one_deaths_and_exiles_only() -> None:
    played = play({**kill(1, 7), **votes(1, 8), **kill(2, 9)}, config=GameConfig(day_cap=2))
    speakers = [(e.meta["day"], e.meta["diff"]["speaker"]) for e in played.events("last-words")]
    assert speakers == [(1, 7), (1, 8)]  # seat 9, knifed on night 2, gets none


def test_every_living_player_speaks_once_a_day_in_turn() -> None:
    played = play({**kill(1, 4)}, config=GameConfig(day_cap=1))
    speakers = [e.meta["diff"]["speaker"] for e in played.events("day-speech")]
    assert speakers == [5, 6, 7, 8, 9, 1, 2, 3]  # from the seat after the night's death


def test_speakers_hear_the_speeches_before_them() -> None:
    script = {"d1.speech.s2": Speech("I am the seer. Seat 3 is a wolf.")}
    played = play(script, config=GameConfig(day_cap=1))
    later = played.asked_for("d1.speech.s3")[0]
    heard = [o.detail.get("text") for o in later.view.observations if o.phase == "day-speech"]
    assert "I am the seer. Seat 3 is a wolf." in heard
    earlier = played.asked_for("d1.speech.s1")[0]
    assert all(o.phase != "day-speech" for o in earlier.view.observations)


def test_the_reason_follows_the_win_rule() -> None:
    from dataclasses import replace

    from werewolf.config import WinRule
    from werewolf.phases import outcome_reason
    from werewolf.rules import winner

    base = play({}, config=GameConfig(day_cap=1)).state
    for rule, alive, reason in [
        (WinRule.TOWN, {1, 2, 3}, "every good player is dead"),
        (WinRule.PARITY, {1, 2, 3, 4, 5, 6}, "the wolves are as many as everyone else"),
        (WinRule.SIDE, {1, 4, 5, 6}, "every villager is dead"),
        (WinRule.SIDE, {1, 7, 8}, "every god (seer, witch, hunter) is dead"),
    ]:
        state = replace(base, config=GameConfig(win_rule=rule), alive=frozenset(alive))
        state = replace(state, winner=winner(state))
        assert outcome_reason(state) == reason, rule


def test_the_end_reason_names_the_gods_the_deck_has() -> None:
    from dataclasses import replace

    from werewolf.cast import Identity
    from werewolf.config import GameConfig
    from werewolf.phases import outcome_reason
    from werewolf.rules import winner

    W, V = Identity.WEREWOLF, Identity.VILLAGER
    deck = (W, W, Identity.SEER, Identity.WITCH, V, V)  # six seats, no hunter
    base = play({}, config=GameConfig(day_cap=1)).state
    state = replace(
        base,
        config=GameConfig(identities=deck),
        identities=deck,
        names=base.names[:6],
        alive=frozenset({1, 2, 5, 6}),  # both gods dead
    )
    state = replace(state, winner=winner(state))
    assert outcome_reason(state) == "every god (seer, witch) is dead"


def test_reasoning_of_every_kill_round_and_of_refused_answers_is_kept() -> None:
    script = {
        "n1.wolf-kill.r1.s1": Choice(7, reasoning="seat 7 talks too much"),
        "n1.wolf-kill.r1.s2": Choice(8, reasoning="seat 8 first"),
        "n1.wolf-kill.r2.s1": Choice(8, reasoning="fine, seat 8"),
        "n1.wolf-kill.r2.s2": Choice(8),
        "n1.wolf-kill.r2.s3": Choice(8),
        "n1.witch.s5": WitchChoice(poison=5, reasoning="poison myself"),
    }
    played = play(script, config=GameConfig(day_cap=1))
    night = played.events("wolf-night")[0]
    assert night.meta["diff"] == {"target": 8}
    names = night.meta["attachments"]
    first = played.store.objects.get(names["reasoning/1/wolf-kill"]).decode()
    assert first == "seat 7 talks too much\nfine, seat 8"
    witch = played.events("witch-action")[0].meta["attachments"]
    refused = played.store.objects.get(witch["reasoning/5/witch"]).decode()
    assert refused.startswith("[refused: you cannot poison seat 5] poison myself")


def test_the_seer_decides_while_the_wolves_and_the_witch_do() -> None:
    """Her check is asked as the night begins (her view cannot change before her phase),
    and still lands in her own private event, after the witch's."""
    played = play({**kill(1, 7), "n1.seer.s4": Choice(1, reasoning="seat 1 is quiet")},
                  config=GameConfig(day_cap=1))  # fmt: skip
    keys = [r.key for r in played.asked]
    assert keys.index("n1.seer.s4") < keys.index("n1.wolf-kill.r1.s1")
    assert keys.index("n1.seer.s4") < keys.index("n1.witch.s5")
    assert played.phases()[1:5] == ["wolf-night", "witch-action", "seer-check", "dawn"]
    seer = played.events("seer-check")[0]
    assert seer.meta["diff"] == {"target": 1, "wolf": True}
    assert seer.meta["visible_to"] == [4]
    assert "reasoning/4/seer" in seer.meta["attachments"]
    wolves = played.events("wolf-night")[0]
    assert "reasoning/4/seer" not in wolves.meta.get("attachments", {})


def test_text_that_cannot_be_stored_is_refused_or_repaired_not_fatal() -> None:
    """A lone surrogate (a model can send one in its JSON) must not stop the game."""
    script = {
        "d1.speech.s1": Speech("bad \ud800 text"),
        "d1.speech.s2": Speech("fine", reasoning="odd \udfff thought"),
    }
    played = play(script, config=GameConfig(day_cap=1))
    first = next(e for e in played.events("day-speech") if e.meta["diff"]["speaker"] == 1)
    assert first.meta["fallbacks"][0]["reason"].startswith("a speech must be plain text")
    second = next(e for e in played.events("day-speech") if e.meta["diff"]["speaker"] == 2)
    thought = played.store.objects.get(second.meta["attachments"]["reasoning/2/speech"]).decode()
    assert thought == "odd ? thought"
