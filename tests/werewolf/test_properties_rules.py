"""Rule invariants over generated games (rules reference, section 8).

Every test plays games whose every decision hypothesis drew (tests/strategies.py) under
every rule variant, and checks one rule over the whole log, with the engine's fold for the
god's-eye state where a rule needs it (causes of death). A failing game is shrunk to the
smallest one and saved as a replay file (the path is in the report).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from pulse_core import Event
from tests.oracle import check_log
from tests.strategies import PlayedGame, checks_game, game_settings, games
from werewolf.cast import Identity, Team, team_of
from werewolf.config import AllAbstain, GameConfig, SelfSave, TiePolicy, WinRule
from werewolf.decisions import problem
from werewolf.draws import draw as seeded_draw
from werewolf.game import fold_event
from werewolf.registry import gods
from werewolf.state import Cause, GameState, Outcome

GAMES = game_settings(0.25)


@dataclass(frozen=True)
class Step:
    event: Event
    before: GameState  # the state the phase was decided on
    after: GameState


def steps(game: PlayedGame) -> list[Step]:
    """Each phase event with the folded state before and after it."""
    state = fold_event(None, game.chain[0])
    assert state is not None
    out = []
    for e in game.chain[1:]:
        after = fold_event(state, e)
        assert after is not None
        out.append(Step(e, state, after))
        state = after
    return out


def of(chain: Sequence[Event], phase: str) -> list[Event]:
    return [e for e in chain if e.role == phase]


def wolves_condition(config: GameConfig, deal: Sequence[Identity], alive: set[int]) -> bool:
    """The wolves' win condition, written out from the rules table apart from the engine."""
    wolves = {s for s in alive if team_of(deal[s - 1]) is Team.WOLVES}
    others = alive - wolves
    if config.win_rule is WinRule.SIDE:
        # a category the deck lacks cannot be wiped out
        villagers = {s for s, i in enumerate(deal, 1) if i is Identity.VILLAGER}
        gods_dealt = {s for s, i in enumerate(deal, 1) if i in gods()}
        return bool(villagers and not villagers & alive) or bool(
            gods_dealt and not gods_dealt & alive
        )
    if config.win_rule is WinRule.TOWN:
        return not others
    return len(wolves) >= len(others)


def outcome(config: GameConfig, deal: Sequence[Identity], alive: set[int]) -> Outcome | None:
    """Who has won with ``alive`` left: the wolves first (狼刀在先), then good."""
    if wolves_condition(config, deal, alive):
        return Outcome.WOLVES
    if not any(team_of(deal[s - 1]) is Team.WOLVES for s in alive):
        return Outcome.GOOD
    return None


def killed(e: Event) -> list[int]:
    """Who an event kills: a death batch is a dawn, an exile, a shot or a self-destruct."""
    diff = e.meta["diff"]
    if e.role == "dawn":
        return list(diff["died"])
    if e.role == "vote" and diff["exiled"] is not None:
        return [diff["exiled"]]
    if e.role == "hunter-shot" and diff["target"] is not None:
        return [diff["target"]]
    if e.role == "self-destruct":  # the wolf, and the seat a white wolf king takes
        return [diff["wolf"], *([diff["target"]] if diff["target"] is not None else [])]
    return []


def seat_of(deal: Sequence[Identity], identity: Identity) -> int | None:
    return next((s for s, i in enumerate(deal, 1) if i is identity), None)


# -- structure --------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_the_cast_is_fixed_and_roles_never_change(game: PlayedGame) -> None:
    """The deal is the config's deck, one card per seat, and no seat's card ever changes."""
    assert sorted(game.deal) == sorted(game.config.identities)
    assert len(game.chain[0].meta["game"]["names"]) == len(game.deal)
    assert all(step.after.identities == game.deal for step in steps(game))
    end = game.chain[-1]
    assert end.meta["detail"]["identities"] == [i.value for i in game.deal]


_BEFORE_DAWN = frozenset(
    {
        "sheriff-run",
        "sheriff-speech",
        "sheriff-withdraw",
        "sheriff-vote",
        "self-destruct",
        "hunter-shot",
        "sheriff-badge",
        "last-words",
        "game-end",
    }
)


@GAMES
@given(game=games())
@checks_game
def test_nights_and_days_alternate(game: PlayedGame) -> None:
    """Night N (cupid and the lovers on night 1, guard, doctor, wolves, witch, seer, dawn,
    in that order; the seer after the doctor, before the wolves under seer_before_wolves)
    then day N, from night 1 on; the first night phase begins the night. The sheriff's
    election comes after the night's phases, before its dawn (a self-destruct in it too)."""
    night_order = [
        "cupid-link",
        "lovers-told",
        "guard-protect",
        "doctor-protect",
        "wolf-night",
        "witch-action",
        "seer-check",
        "dawn",
    ]
    if game.config.seer_before_wolves:
        night_order.remove("seer-check")
        night_order.insert(night_order.index("wolf-night"), "seer-check")
    night, at = 0, len(night_order)  # `at`: position in the night, past the end by day
    for e in game.chain[1:]:
        day = e.meta["day"]
        if e.role in night_order and at == len(night_order):  # a night begins
            assert e.role != "dawn", "a dawn without a night"
            assert day == night + 1
            night, at = day, night_order.index(e.role) + 1
        elif e.role in night_order:
            position = night_order.index(e.role)
            assert at <= position < len(night_order), f"{e.role} out of the night's order"
            assert day == night
            at = position + 1
        else:  # the election (and a self-destruct in it) comes before the night's dawn
            before_dawn = e.role in _BEFORE_DAWN and game.config.sheriff
            assert at == len(night_order) or before_dawn, f"{e.role} during the night"
            assert day == night
        if e.role in ("cupid-link", "lovers-told"):
            assert day == 1
    assert game.chain[1].role in night_order[:-1]
    wolves = [e for e in game.chain if e.role == "wolf-night"]
    assert len(wolves) == len([e for e in game.chain if e.role == "dawn"])


@GAMES
@given(game=games())
@checks_game
def test_a_player_dies_at_most_once(game: PlayedGame) -> None:
    """Every death is of a living player, so nobody dies twice; the fold agrees."""
    dead: list[int] = []
    for step in steps(game):
        for seat in killed(step.event):
            assert seat in step.before.alive, f"seat {seat} died again"
            dead.append(seat)
    assert len(dead) == len(set(dead))
    final = steps(game)[-1].after
    assert sorted(d.seat for d in final.deaths) == sorted(dead)
    assert final.alive == frozenset(final.seats) - set(dead)


def actors_and_targets(step: Step) -> tuple[set[int], set[int]]:
    """The seats that acted in an event (as living players) and the seats it targeted."""
    diff, detail = step.event.meta["diff"], step.event.meta["detail"]
    role = step.event.role
    deal = step.before.identities
    if role == "wolf-night":
        actors = {d["seat"] for d in detail["discussion"]}
        actors |= {seat for r in detail["proposals"] for seat, _ in r}
        targets = {t for r in detail["proposals"] for _, t in r} | {diff["target"]}
        return actors, targets - {None}
    if role == "witch-action":
        return {seat_of(deal, Identity.WITCH) or 0}, {diff["poison"]} - {None}
    if role == "seer-check":
        return {seat_of(deal, Identity.SEER) or 0}, {diff["target"]} - {None}  # or nobody
    if role == "hunter-shot":
        return set(), {diff["target"]} - {None}  # the shooter acts in his own death window
    if role == "day-speech":
        return {diff["speaker"]}, set()
    if role == "vote":
        ballots = detail["ballots"]
        return {v for v, _ in ballots}, {t for _, t in ballots} - {None}
    return set(), set()


@GAMES
@given(game=games())
@checks_game
def test_the_dead_never_act_speak_vote_or_get_targeted(game: PlayedGame) -> None:
    """Night actions, speeches, ballots and every target come from and go to the living;
    only the hunter's shot and last words belong to a player who just died."""
    for step in steps(game):
        actors, targets = actors_and_targets(step)
        alive = step.before.alive
        assert actors <= alive, f"{step.event.role}: dead seats {actors - alive} acted"
        assert targets <= alive, f"{step.event.role}: dead seats {targets - alive} targeted"
        if step.event.role == "hunter-shot":
            assert step.event.meta["diff"]["shooter"] == step.before.hunter_due
        if step.event.role == "last-words":
            speaker = step.event.meta["diff"]["speaker"]
            assert speaker not in alive
            assert speaker in step.before.last_words_due


# -- night ------------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_at_most_one_wolf_target_a_night(game: PlayedGame) -> None:
    """One wolf-night a night with one target: a legal seat, or nobody when 空刀 is allowed."""
    nights = [e.meta["day"] for e in of(game.chain, "wolf-night")]
    assert nights == list(range(1, len(nights) + 1))
    for step in steps(game):
        if step.event.role != "wolf-night":
            continue
        target = step.event.meta["diff"]["target"]
        legal = [
            s
            for s in step.before.living
            if game.config.wolf_self_knife or team_of(step.before.identity(s)) is not Team.WOLVES
        ]
        if target is None:
            assert game.config.allow_empty_kill or not legal
        else:
            assert target in legal


def nights(game: PlayedGame) -> dict[int, dict[str, Event]]:
    by_night: dict[int, dict[str, Event]] = {}
    for e in game.chain[1:]:
        if e.role in ("wolf-night", "witch-action", "seer-check", "dawn"):
            by_night.setdefault(e.meta["day"], {})[e.role] = e
    return by_night


@GAMES
@given(game=games())
@checks_game
def test_night_deaths_are_the_unsaved_target_plus_the_poisoned(game: PlayedGame) -> None:
    """Dawn lists, sorted, exactly the wolf target unless the witch saved it, and the
    poisoned, unless already dead (a blast or a king's shot in the election before the
    dawn); the fold records the right cause for each."""
    dead_before: dict[int, set[int]] = {}  # each dawn's night: who died before it was announced
    dead: set[int] = set()
    for e in game.chain[1:]:
        if e.role == "dawn":
            dead_before[e.meta["day"]] = set(dead)
        dead |= set(killed(e))
    for night, events in nights(game).items():
        if "dawn" not in events:
            continue
        target = events["wolf-night"].meta["diff"]["target"]
        witch = events.get("witch-action")
        saved = witch is not None and witch.meta["diff"]["save"]
        poisoned = witch.meta["diff"]["poison"] if witch is not None else None
        expected = ({target} if target is not None and not saved else set()) | (
            {poisoned} if poisoned is not None else set()
        )
        assert events["dawn"].meta["diff"]["died"] == sorted(expected - dead_before[night])
        if saved:
            assert target is not None
    final = steps(game)[-1].after
    for death in final.deaths:
        if death.cause is Cause.POISON:
            assert nights(game)[death.day]["witch-action"].meta["diff"]["poison"] == death.seat
        if death.cause is Cause.WOLF:
            assert nights(game)[death.day]["wolf-night"].meta["diff"]["target"] == death.seat


# -- witch ------------------------------------------------------------------------------------
def witch_events(game: PlayedGame) -> list[Event]:
    return of(game.chain, "witch-action")


@GAMES
@given(game=games())
@checks_game
def test_the_witch_uses_each_potion_at_most_once(game: PlayedGame) -> None:
    """One antidote and one poison a game; she is told the target only while she holds
    the antidote, and saves only a told target."""
    saves = [e for e in witch_events(game) if e.meta["diff"]["save"]]
    poisons = [e for e in witch_events(game) if e.meta["diff"]["poison"] is not None]
    assert len(saves) <= 1
    assert len(poisons) <= 1
    for e in witch_events(game):
        night = e.meta["day"]
        antidote_held = not any(s.meta["day"] < night for s in saves)
        target = nights(game)[night]["wolf-night"].meta["diff"]["target"]
        assert e.meta["detail"]["told_target"] == (target if antidote_held else None)
        if e.meta["diff"]["save"]:
            assert e.meta["detail"]["told_target"] is not None


@GAMES
@given(game=games())
@checks_game
def test_the_witch_uses_two_potions_in_a_night_only_when_allowed(game: PlayedGame) -> None:
    """Antidote and poison on one night only under witch_both_potions."""
    for e in witch_events(game):
        diff = e.meta["diff"]
        if diff["save"] and diff["poison"] is not None:
            assert game.config.witch_both_potions


@GAMES
@given(game=games())
@checks_game
def test_the_witch_saves_herself_only_when_the_config_allows(game: PlayedGame) -> None:
    """A self-save happens only under 'always', or on night 1 under 'first-night'."""
    witch = seat_of(game.deal, Identity.WITCH)
    for e in witch_events(game):
        if e.meta["diff"]["save"] and e.meta["detail"]["told_target"] == witch:
            policy = game.config.witch_self_save
            assert policy is SelfSave.ALWAYS or (
                policy is SelfSave.FIRST_NIGHT and e.meta["day"] == 1
            )


@GAMES
@given(game=games())
@checks_game
def test_the_witch_never_poisons_herself(game: PlayedGame) -> None:
    """The poison never goes to the witch's own seat."""
    witch = seat_of(game.deal, Identity.WITCH)
    assert all(e.meta["diff"]["poison"] != witch for e in witch_events(game))


# -- seer -------------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_the_seers_result_is_the_targets_team(game: PlayedGame) -> None:
    """The seer learns wolf exactly when the checked seat holds a werewolf card, never her own."""
    seer = seat_of(game.deal, Identity.SEER)
    for e in of(game.chain, "seer-check"):
        target = e.meta["diff"]["target"]
        if target is None:  # a failed check under night_fallback "nothing": no result
            assert e.meta["diff"]["wolf"] is None
            continue
        assert target != seer
        assert e.meta["diff"]["wolf"] is (team_of(game.deal[target - 1]) is Team.WOLVES)


# -- hunter -----------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_the_hunter_shoots_at_most_once(game: PlayedGame) -> None:
    """At most one hunter-shot event (a shot or a declined one) a game, by the hunter; the
    wolf king's shot is one too, and names his card."""
    shots = of(game.chain, "hunter-shot")
    kings = [e for e in shots if "card" in e.meta["diff"]]
    assert len(shots) - len(kings) <= 1
    assert len(kings) <= 1
    for e in shots:
        shooter = e.meta["diff"]["shooter"]
        card = Identity.WOLF_KING if e in kings else Identity.HUNTER
        assert shooter == seat_of(game.deal, card)
        assert e.meta["diff"].get("card", card.value) == card.value


SHOOTS = (Cause.WOLF, Cause.EXILE, Cause.KING_SHOT, Cause.TAKEN)  # the hunter's shot's causes


@GAMES
@given(game=games())
@checks_game
def test_the_hunter_shoots_only_after_a_wolf_kill_or_an_exile(game: PlayedGame) -> None:
    """A shot follows the batch in which the hunter died by the wolves, the vote or a wolf
    king (his shot, the white one's take), never by poison; and such a death, if the game
    goes on, always gives him his shot. The wolf king shoots after any death but poison."""
    hunter = seat_of(game.deal, Identity.HUNTER)
    # a dying sheriff's badge passes between his death and his shot
    chain = [e for e in game.chain if e.role != "sheriff-badge"]
    for i, step in enumerate(s for s in steps(game) if s.event.role != "sheriff-badge"):
        if step.event.role == "hunter-shot":
            cause = step.before.cause_of_death(step.event.meta["diff"]["shooter"])
            if "card" in step.event.meta["diff"]:  # the wolf king
                assert cause is not Cause.POISON, "the wolf king shot after the poison"
                continue
            assert cause in SHOOTS, f"the hunter shot after {cause}"
            assert hunter in killed(chain[i]), "the shot does not follow his death"
        if hunter in killed(step.event) and step.event.role != "hunter-shot":
            cause = step.after.cause_of_death(hunter)
            nxt = chain[i + 2]
            if cause in SHOOTS and nxt.role != "game-end":
                assert nxt.role == "hunter-shot"
            if cause is Cause.POISON:
                assert nxt.role != "hunter-shot"


@GAMES
@given(game=games())
@checks_game
def test_the_hunter_never_shoots_after_the_game_is_decided(game: PlayedGame) -> None:
    """When the death batch that killed the hunter already decided the game, no shot."""
    for step in steps(game):
        if step.event.role == "hunter-shot":
            alive = set(step.before.alive)
            assert outcome(game.config, game.deal, alive) is None
            assert step.before.winner is None


# -- wins -------------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_every_death_batch_is_followed_by_a_win_check(game: PlayedGame) -> None:
    """After each death batch, the game ends next iff a side has won, so it ends at the
    first check that holds, with that side as the winner."""
    for i, step in enumerate(steps(game)):
        if not killed(step.event):
            continue
        won = outcome(game.config, game.deal, set(step.after.alive))
        nxt = game.chain[i + 2]
        if won is not None:
            assert nxt.role == "game-end", f"{won.value} won but the game went on"
            assert nxt.meta["diff"]["winner"] == won.value
        else:
            assert nxt.role != "game-end" or nxt.meta["diff"]["winner"] == "draw"


@GAMES
@given(game=games())
@checks_game
def test_the_winner_agrees_with_who_is_alive(game: PlayedGame) -> None:
    """The end's winner is the side the survivors make; a draw only at the day cap."""
    end = game.chain[-1]
    alive = set(end.meta["detail"]["alive"])
    assert alive == set(steps(game)[-1].after.alive)
    won = outcome(game.config, game.deal, alive)
    winner = end.meta["diff"]["winner"]
    if won is None:
        assert winner == "draw"
        assert end.meta["day"] == game.config.day_cap
    else:
        assert winner == won.value
    event(f"winner: {winner}")


@GAMES
@given(game=games())
@checks_game
def test_the_wolves_win_when_both_sides_finish_at_once(game: PlayedGame) -> None:
    """狼刀在先: a check where the wolves are all dead and the wolves' condition holds too
    goes to the wolves."""
    alive = set(game.chain[-1].meta["detail"]["alive"])
    wolves_dead = not any(team_of(game.deal[s - 1]) is Team.WOLVES for s in alive)
    if wolves_dead and wolves_condition(game.config, game.deal, alive):
        event("both sides finished at once")
        assert game.chain[-1].meta["diff"]["winner"] == "wolves"


# -- day --------------------------------------------------------------------------------------
def weighed(config: GameConfig, detail: dict[str, Any]) -> dict[int, float]:
    """The ballots counted, the sheriff's (named by the vote when he cast one) as
    ``sheriff_weight`` (1.5 by default), everyone else's as one."""
    sheriff = detail.get("sheriff")
    assert sheriff is None or (config.sheriff and sheriff in dict(detail["ballots"]))
    counts: dict[int, float] = {}
    for voter, target in detail["ballots"]:
        if target is not None:
            counts[target] = counts.get(target, 0) + (
                config.sheriff_weight if voter == sheriff else 1
            )
    return counts


@GAMES
@given(game=games())
@checks_game
def test_at_most_one_exile_a_day_and_a_tie_after_pk_exiles_nobody(game: PlayedGame) -> None:
    """A day has one vote, or a tied vote and one PK re-vote (PK policy only); the unique top
    is exiled; a tie in the PK round, or under the no-PK policy, exiles nobody; under the
    random policies a drawn seat is. Every draw (of a vote or a wolf night) is the one the
    game's seed and the decision's key give."""
    for e in game.chain[1:]:
        drawn = e.meta.get("detail", {}).get("draw")
        if drawn is not None:
            event(f"a random draw in {e.role}")
            assert drawn == seeded_draw(game.seed, drawn["key"], drawn["among"]).record()
    by_day: dict[int, list[Event]] = {}
    for e in of(game.chain, "vote"):
        by_day.setdefault(e.meta["day"], []).append(e)
    for votes in by_day.values():
        assert [v.meta["detail"]["round"] for v in votes] in ([1], [1, 2])
        assert sum(v.meta["diff"]["exiled"] is not None for v in votes) <= 1
        for v in votes:
            counts = weighed(game.config, v.meta["detail"])
            assert v.meta["detail"]["counts"] == [[s, counts[s]] for s in sorted(counts)]
            top = [s for s, n in counts.items() if n == max(counts.values())] if counts else []
            tied = len(top) > 1
            diff = v.meta["diff"]
            draw = v.meta["detail"].get("draw")
            if len(top) == 1:
                assert diff["exiled"] == top[0]
                assert diff["pk"] == []
                assert draw is None
            elif tied and game.config.tie_policy is TiePolicy.RANDOM:
                assert draw["among"] == sorted(top)  # one of the tied, drawn and recorded
                assert diff["exiled"] == draw["drawn"] in top
                assert diff["pk"] == []
            elif not top and game.config.all_abstain is AllAbstain.RANDOM and draw is not None:
                assert diff["exiled"] == draw["drawn"] in draw["among"]
            elif tied and v.meta["detail"]["round"] == 1 and game.config.tie_policy is TiePolicy.PK:
                assert diff["exiled"] is None
                assert diff["pk"] == sorted(top)
            else:
                assert diff["exiled"] is None
                assert diff["pk"] == []
        if len(votes) == 2:
            assert votes[0].meta["diff"]["pk"], "a PK round without a tie"
            candidates = set(votes[0].meta["diff"]["pk"])
            ballots = votes[1].meta["detail"]["ballots"]
            assert not {v for v, _ in ballots} & candidates, "a PK candidate voted in the PK"
            assert {t for _, t in ballots} - {None} <= candidates


@GAMES
@given(game=games())
@checks_game
def test_every_living_player_speaks_once_a_day(game: PlayedGame) -> None:
    """Before each day's vote every living player has spoken ``speech_rounds`` times (once
    by default), unless ``speech_budget`` ran out first: then the speeches are the budget
    (in seat order, whole rounds: nobody speaks twice before everyone spoke once). In a PK
    round exactly the tied players
    speak again. Under bidding every day speech follows the bid that gave it the floor, to
    the highest bid."""
    config = game.config
    speakers: list[int] = []
    pk: list[int] = []
    floor: int | None = None
    for e in game.chain[1:]:
        if e.role == "floor-bid":
            assert config.discussion.value == "bidding"
            assert not pk
            assert floor is None
            bids = dict(e.meta["detail"]["bids"])
            floor = e.meta["diff"]["floor"]
            assert bids[floor] == max(bids.values())
        elif e.role == "day-speech":
            speaker = e.meta["diff"]["speaker"]
            speakers.append(speaker)
            assert e.meta["detail"]["pk"] is bool(pk)
            if config.discussion.value == "bidding" and not pk:
                assert speaker == floor, "a bidding speech without the floor"
                floor = None
        elif e.role == "vote":
            ballots = e.meta["detail"]["ballots"]
            if e.meta["detail"]["round"] == 1:
                living = sorted(v for v, _ in ballots)  # all the living vote
                full = len(living) * config.speech_rounds
                budget = full if config.speech_budget is None else config.speech_budget
                assert len(speakers) == min(full, budget)
                times = Counter(speakers)
                assert set(times) <= set(living)
                assert max(times.values(), default=0) <= config.speech_rounds
                if config.discussion.value == "seat-order":
                    if len(speakers) >= len(living):
                        assert set(times) == set(living), "a second speech before a first"
                    rounds = [
                        speakers[i : i + len(living)] for i in range(0, len(speakers), len(living))
                    ]
                    assert all(len(set(r)) == len(r) for r in rounds), "a round with a seat twice"
            else:
                assert speakers == pk  # the tied, in seat order
            pk, speakers = e.meta["diff"]["pk"], []
        elif e.role == "self-destruct":  # the day ends at the blast, without a vote
            pk, speakers = [], []
        elif e.role in ("wolf-night", "game-end"):
            assert speakers == [], "speeches without a vote"


@GAMES
@given(game=games())
@checks_game
def test_last_words_exactly_for_night_one_deaths_and_exiles(game: PlayedGame) -> None:
    """Each night-1 death and each exiled player gives last words once, unless the game
    ended first or the config has no last words; a self-destructed wolf too under
    ``self_destruct_last_words`` (whatever ``last_words`` says); nobody else ever does."""
    words = game.config.last_words
    if not (words or game.config.self_destruct_last_words):
        assert not of(game.chain, "last-words")
        return
    due: list[int] = []
    heard: list[int] = []
    for e in game.chain[1:]:
        if e.role == "last-words":
            speaker = e.meta["diff"]["speaker"]
            assert speaker in due, f"seat {speaker} gave last words unasked"
            due.remove(speaker)
            heard.append(speaker)
        elif e.role == "dawn" and e.meta["day"] == 1 and words:
            due += e.meta["diff"]["died"]
        elif e.role == "vote" and e.meta["diff"]["exiled"] is not None and words:
            due.append(e.meta["diff"]["exiled"])
        elif e.role == "self-destruct" and game.config.self_destruct_last_words:
            due.append(e.meta["diff"]["wolf"])  # his own words; whom he took has none
        elif e.role in ("day-speech", "wolf-night", "vote"):
            assert due == [], f"seats {due} never gave their last words"
    assert len(heard) == len(set(heard))
    assert due == [] or game.chain[-1].role == "game-end"


@GAMES
@given(game=games())
@checks_game
def test_the_game_ends_once_within_the_day_cap(game: PlayedGame) -> None:
    """The last event, and only it, is the game's end; no day passes the cap."""
    ends = of(game.chain, "game-end")
    assert ends == [game.chain[-1]]
    assert max(e.meta["day"] for e in game.chain[1:]) <= game.config.day_cap
    event(f"days: {game.chain[-1].meta['day']}")


# -- the players' side ------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_refused_answers_are_asked_again_then_replaced_by_a_recorded_fallback(
    game: PlayedGame,
) -> None:
    """An illegal answer is asked again (with the reason); after 1 + 2 refusals (one
    without ``retry_illegal``) the legal fallback is taken and recorded in the event under
    the decision's key."""
    tries = 3 if game.config.retry_illegal else 1
    attempts: dict[str, list[bool]] = {}
    for request, answer in game.transcript.asked:
        attempts.setdefault(request.key, []).append(problem(request, answer) is None)
    recorded = {f["key"]: f for e in game.chain for f in e.meta.get("fallbacks", [])}
    for key, legal in attempts.items():
        assert len(legal) <= tries
        assert all(not ok for ok in legal[:-1]), f"{key}: asked again after a legal answer"
        if legal[-1]:
            assert key not in recorded
        else:
            assert len(legal) == tries, f"{key}: given up on before the retries ran out"
            assert key in recorded, f"{key}: no fallback recorded"
    assert set(recorded) <= set(attempts)
    if recorded:
        event("fallbacks recorded")


# -- the independent referee ------------------------------------------------------------------
@game_settings(1.0)  # the oracle checks every rule at once: it gets the most games
@given(game=games())
@checks_game
def test_the_independent_oracle_accepts_every_generated_game(game: PlayedGame) -> None:
    """tests/oracle.py, written apart from the engine and reading only the log, finds
    every generated game legal."""
    assert check_log(game.records) == []


TAMPERINGS = {
    "seer-check": ["seer lied"],
    "witch-action": ["witch public"],
    "dawn": ["extra death"],
    "day-speech": ["speech dropped"],
    "game-end": ["wrong winner", "event after the end"],
}


def tamper(records: list[dict[str, Any]], index: int, how: str) -> None:
    """Break one rule at ``records[index]``."""
    meta = records[index]["meta"]
    if how == "seer lied":
        meta["diff"]["wolf"] = not meta["diff"]["wolf"]
    elif how == "witch public":
        meta["visible_to"] = None
    elif how == "extra death":
        meta["diff"]["died"].append(next(s for s in range(1, 4) if s not in meta["diff"]["died"]))
    elif how == "speech dropped":
        records.pop(index)
    elif how == "wrong winner":
        meta["diff"]["winner"] = "good" if meta["diff"]["winner"] != "good" else "wolves"
    elif how == "event after the end":
        records.append(copy.deepcopy(records[index]))


@GAMES
@given(game=games(), data=st.data())
@checks_game
def test_the_oracle_rejects_a_tampered_log(game: PlayedGame, data: st.DataObject) -> None:
    """The referee is no rubber stamp: one broken rule in a real log is reported."""
    records = copy.deepcopy(game.records)
    ways = [
        (i, how)
        for i, r in enumerate(records)
        for how in TAMPERINGS.get(r["kind"].removeprefix("werewolf."), [])
    ]
    index, how = data.draw(st.sampled_from(ways), label="tampering")
    tamper(records, index, how)
    event(how)
    assert check_log(records) != [], f"{how} at event {index + 1} went unnoticed"


# -- the sheriff ------------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_the_badge_passes_before_any_shot_and_a_blast_postpones_the_election(
    game: PlayedGame,
) -> None:
    """A dying sheriff's badge goes to a living seat (or is torn, when allowed) before any
    shot or last words that his death allows; a self-destruct in the election stops it,
    and it is held after the next night, unless it was the second (badge lost)."""
    sheriff: int | None = None
    dead: set[int] = set()
    holder_died = False  # the sheriff died: the badge is due before any shot or words
    elections: list[int] = []  # the days an election began
    blasts = 0
    for e in game.chain[1:]:
        diff = e.meta["diff"]
        if e.role == "sheriff-badge":
            assert holder_died
            assert diff["holder"] == sheriff
            assert diff["to"] not in dead
            assert (
                diff["to"] is not None
                or game.config.badge_tear
                or not dead ^ set(range(1, game.config.seats + 1))
            )
            sheriff, holder_died = diff["to"], False
        elif e.role in ("hunter-shot", "last-words"):
            assert not holder_died, f"{e.role} before the badge passed"
        elif e.role == "sheriff-run":
            elections.append(e.meta["day"])
            assert game.config.sheriff
        elif e.role == "sheriff-speech" and "self_destruct" in diff:
            blasts += 1
        if e.role in ("sheriff-run", "sheriff-withdraw", "sheriff-vote"):
            sheriff = diff.get("sheriff", sheriff)
        died = set(killed(e)) | set(diff.get("heartbroken", []))
        if e.role == "knight-duel":
            died.add(diff["target"] if diff["wolf"] else diff["knight"])
        dead |= died
        if sheriff in died:
            holder_died = True
    assert elections == sorted(set(elections)), "two elections on one day"
    assert elections == list(range(1, len(elections) + 1)), "an election not on the next day"
    if elections and game.chain[-1].meta["day"] > len(elections):
        lost = game.config.second_destruct_loses_badge and blasts >= 2
        assert len(elections) == (min(blasts, 1) + 1 if lost else blasts + 1)
    event(f"elections: {len(elections)}, blasts in them: {blasts}")
