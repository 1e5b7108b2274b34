"""The mock player and the player registry: legal, reproducible, human-like, balanced."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping

import pytest

from pulse_core import Event, MemoryEventStore, WorkflowRule
from pulse_core.events import Draft
from werewolf.decisions import Choice, DecisionKind, Request, Speech, WitchChoice, problem
from werewolf.errors import ConfigError, GameStateError
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import (
    PLAYER_KINDS,
    MockPlayer,
    Player,
    RandomPlayer,
    make_player,
    mock_seating,
    register_player,
    uniform_seating,
)
from werewolf.players.mock import PERSONALITIES, parse_speech, pick_personality, read_table
from werewolf.rules import vote_options, wolf_targets
from werewolf.state import GameState
from werewolf.visibility import view

BATCH = 200  # games shared by the tests below; the balance test needs this many


def play(seeds: range) -> tuple[MemoryEventStore, dict[int, str]]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    games = {seed: start_game(rule, seed=seed) for seed in seeds}
    statuses = asyncio.run(rule.run())
    assert set(statuses.values()) == {"ended"}
    return store, games


@pytest.fixture(scope="module")
def batch() -> list[list[Event]]:
    store, games = play(range(BATCH))
    return [store.chain(game) for game in games.values()]


def identities(chain: list[Event]) -> list[str]:
    return list(chain[0].meta["deal"])


def is_wolf(chain: list[Event], seat: int) -> bool:
    return identities(chain)[seat - 1] == "werewolf"


# -- legality, reproducibility ----------------------------------------------------------------
def test_mock_games_never_take_a_fallback(batch: list[list[Event]]) -> None:
    for chain in batch:
        assert chain[-1].role == "game-end"
        assert not [e.meta["fallbacks"] for e in chain if "fallbacks" in e.meta]


def test_every_mock_decision_carries_its_reasoning(batch: list[list[Event]]) -> None:
    for chain in batch[:20]:
        for event in chain[1:]:
            if event.role in ("dawn", "game-end"):
                continue
            if event.role == "vote" and not event.meta["detail"]["ballots"]:
                continue  # a PK between every living seat: nobody was left to vote
            assert event.meta.get("attachments"), event.kind  # reasoning/<seat>/<decision>


def test_the_same_seed_gives_the_same_log() -> None:
    def kinds_and_meta(store: MemoryEventStore, game: str) -> list[tuple[str, object]]:
        return [(e.kind, e.meta) for e in store.chain(game)]

    first, games1 = play(range(3, 5))
    second, games2 = play(range(3, 5))
    assert kinds_and_meta(first, games1[3]) == kinds_and_meta(second, games2[3])
    assert kinds_and_meta(first, games1[4]) == kinds_and_meta(second, games2[4])
    assert kinds_and_meta(first, games1[3]) != kinds_and_meta(first, games1[4])


@pytest.mark.parametrize("stop_at", [3, 12, 30])
def test_a_resumed_mock_game_plays_as_the_uninterrupted_one(stop_at: int) -> None:
    full, games = play(range(21, 22))
    chain = full.chain(games[21])
    assert len(chain) > stop_at
    partial = MemoryEventStore()
    for event in chain[:stop_at]:  # what a crash after event `stop_at` leaves behind
        partial.objects.put(full.objects.get(event.hash))
        for digest in event.meta.get("attachments", {}).values():
            partial.objects.put(full.objects.get(digest))
        partial.append(
            Draft(event.id, event.occurred_at, event.kind, event.key, event.hash, event.meta),
            event.version - 1,
        )
    rule = WorkflowRule(werewolf_workflow(mock_seating()), partial)
    asyncio.run(rule.run())
    resumed = partial.chain(games[21])
    assert [(e.kind, e.meta, e.hash) for e in resumed] == [(e.kind, e.meta, e.hash) for e in chain]


def vote_request(chain: list[Event], upto: int, seat: int, key: str) -> Request:
    state = fold_chain(chain[:upto])
    return Request(
        DecisionKind.VOTE,
        seat,
        view(chain[:upto], seat),
        key,
        options=vote_options(state, seat),
        context={"day": state.night, "round": 1, "candidates": []},
    )


def test_a_mock_choice_is_a_function_of_seed_seat_and_key(batch: list[list[Event]]) -> None:
    chain = batch[7]
    upto = next(i for i, e in enumerate(chain) if e.role == "vote")  # just before a vote
    seats = [s for s in range(1, 10) if s not in view(chain[:upto], 1).dead]
    for seat in seats:
        request = vote_request(chain, upto, seat, f"d1.vote.r1.s{seat}")
        player = MockPlayer(7, seat)
        first = asyncio.run(player.decide(request))
        # other decisions in between leave nothing behind
        asyncio.run(player.decide(vote_request(chain, upto, seat, "other-key")))
        again = asyncio.run(player.decide(vote_request(chain, upto, seat, f"d1.vote.r1.s{seat}")))
        fresh = asyncio.run(MockPlayer(7, seat).decide(request))
        assert first == again == fresh
        assert problem(request, first) is None
        assert isinstance(first, Choice)
        assert first.reasoning


def test_the_mock_refuses_a_request_for_another_seat(batch: list[list[Event]]) -> None:
    chain = batch[0]
    request = vote_request(chain, 2, 3, "k")
    with pytest.raises(GameStateError, match="seat 4"):
        asyncio.run(MockPlayer(0, 4).decide(request))


def test_personalities_come_from_seed_and_seat_and_can_be_forced() -> None:
    drawn = {pick_personality(seed, seat) for seed in range(30) for seat in range(1, 10)}
    assert drawn == set(PERSONALITIES)
    assert MockPlayer(5, 3).personality == pick_personality(5, 3)
    assert MockPlayer(5, 3, personality="bold").temper.name == "bold"
    with pytest.raises(ConfigError, match="unknown personality 'grumpy'"):
        MockPlayer(5, 3, personality="grumpy")


# -- how the roles play -----------------------------------------------------------------------
def speeches_of(chain: list[Event], seat: int, day: int) -> list[str]:
    return [
        e.meta["detail"]["text"]
        for e in chain
        if e.role in ("day-speech", "last-words")
        and e.meta["diff"]["speaker"] == seat
        and e.meta["day"] == day
    ]


def test_the_seer_claims_and_reports_a_wolf_she_found(batch: list[list[Event]]) -> None:
    cases = 0
    for chain in batch:
        seer = identities(chain).index("seer") + 1
        for event in chain:
            if event.role != "seer-check" or not event.meta["diff"]["wolf"]:
                continue
            night, target = event.meta["day"], event.meta["diff"]["target"]
            said = speeches_of(chain, seer, night)
            spoke = next(
                (
                    i
                    for i, e in enumerate(chain)
                    if e.role == "day-speech" and e.meta["diff"]["speaker"] == seer
                ),
                None,
            )
            if not said or spoke is None or not fold_chain(chain[:spoke]).is_alive(target):
                continue
            cases += 1
            parsed = parse_speech(said[0])
            assert "seer" in parsed.roles, said[0]
            assert (night, target, True) in parsed.reports, said[0]
            assert f"Night {night}: I checked seat {target}: a wolf." in said[0]
    assert cases >= 50


def test_wolves_vote_a_fellow_wolf_only_to_sell_out_an_exposed_one(
    batch: list[list[Event]],
) -> None:
    wolf_ballots = bussed = 0
    for chain in batch:
        for i, event in enumerate(chain):
            if event.role != "vote":
                continue
            for voter, target in event.meta["detail"]["ballots"]:
                if not is_wolf(chain, voter) or target is None:
                    continue
                wolf_ballots += 1
                if is_wolf(chain, target):
                    bussed += 1
                    # the sold-out wolf was one the table had turned on: reported a wolf by
                    # a seer claimer who is not a wolf, a fake seer against a real one, or
                    # accused by good seats
                    table = read_table(view(chain[:i], voter))
                    reported = any(
                        found.get(target) is True
                        for claimer, found in table.reports.items()
                        if not is_wolf(chain, claimer)
                    )
                    accusers = {
                        u.speaker
                        for u in table.accusations(target)
                        if not is_wolf(chain, u.speaker)
                    }
                    counter_claimed = target in table.seer_claims and any(
                        not is_wolf(chain, c) for c in table.seer_claims
                    )
                    assert reported or counter_claimed or len(accusers) >= 2
    assert wolf_ballots > 500
    assert bussed < wolf_ballots * 0.1


def test_wolves_agree_at_night_and_spare_each_other_after_night_one(
    batch: list[list[Event]],
) -> None:
    for chain in batch:
        for event in chain:
            if event.role != "wolf-night":
                continue
            rounds = event.meta["detail"]["proposals"]
            assert len(rounds) == 1  # everyone followed the first wolf's proposal
            target = event.meta["diff"]["target"]
            if target is not None and is_wolf(chain, target):
                assert event.meta["day"] == 1  # a rare bait for the antidote, night 1 only


def test_the_witch_saves_on_night_one_as_a_rule(batch: list[list[Event]]) -> None:
    told = saved = 0
    for chain in batch:
        first = next(e for e in chain if e.role == "witch-action")
        if first.meta["detail"]["can_save"]:
            told += 1
            saved += first.meta["diff"]["save"]
    assert saved >= 0.8 * told


def test_the_witch_poisons_mostly_wolves(batch: list[list[Event]]) -> None:
    poisons = Counter(
        is_wolf(chain, e.meta["diff"]["poison"])
        for chain in batch
        for e in chain
        if e.role == "witch-action" and e.meta["diff"]["poison"] is not None
    )
    assert poisons[True] > 2 * poisons[False]


def test_balance_each_side_wins_at_least_a_quarter(batch: list[list[Event]]) -> None:
    winners = Counter(chain[-1].meta["diff"]["winner"] for chain in batch)
    assert winners["good"] >= 0.25 * len(batch), winners
    assert winners["wolves"] >= 0.25 * len(batch), winners


# -- the claim grammar ------------------------------------------------------------------------
def test_the_claim_grammar_reads_mock_sentences_and_tolerates_variants() -> None:
    said = parse_speech(
        "I am the seer. Night 1: I checked seat 4: a wolf. night 2 - i checked Seat #6 good. "
        "Seat 7 is a wolf pretending to be the seer. I trust seat 2. I suspect seat 8. "
        "vote for seat 4."
    )
    assert said.roles == ("seer",)
    assert said.reports == ((1, 4, True), (2, 6, False))
    assert said.opinions == ((7, True),)
    assert said.accuses == (8, 4, 7)
    assert said.trusts == (2,)
    night = parse_speech("Kill seat 3. Seat 5 will claim seer.")
    assert (night.kill, night.kill_said, night.fake_seer, night.plan_said) == (3, True, 5, True)
    nobody = parse_speech("Kill nobody. Nobody will claim seer.")
    assert (nobody.kill, nobody.kill_said, nobody.fake_seer, nobody.plan_said) == (
        None,
        True,
        None,
        True,
    )
    witch = parse_speech("I am the witch. I saved seat 2. I poisoned seat 9.")
    assert (witch.roles, witch.saved, witch.poisoned) == (("witch",), (2,), (9,))


def test_free_speech_that_does_not_use_the_grammar_says_nothing() -> None:
    said = parse_speech(
        "Honestly, the fourth seat felt off to me, and my gut says the quiet one is a wolf."
    )
    assert said == parse_speech("")
    assert not said.kill_said
    assert not said.plan_said


# -- the registry -----------------------------------------------------------------------------
def test_make_player_builds_the_registered_kinds() -> None:
    mock = make_player("mock", game_seed=3, seat=2, personality="cautious")
    assert isinstance(mock, MockPlayer)
    assert mock.personality == "cautious"
    assert isinstance(make_player("random", game_seed=3, seat=2), RandomPlayer)
    assert isinstance(mock, Player)
    with pytest.raises(ConfigError, match="unknown player kind 'robot'"):
        make_player("robot", game_seed=3, seat=2)
    with pytest.raises(ConfigError, match="random player takes no options"):
        make_player("random", game_seed=3, seat=2, personality="bold")
    with pytest.raises(ConfigError, match="mock player"):
        make_player("mock", game_seed=3, seat=2, temperature=0.5)


def test_a_new_kind_is_one_registration_away() -> None:
    class Quiet:
        kind = "quiet"

        def __init__(self, seat: int) -> None:
            self.seat = seat

        async def decide(self, request: Request) -> Speech | Choice | WitchChoice:
            if request.kind.speaks:
                return Speech("...")
            if request.kind is DecisionKind.WITCH:
                return WitchChoice()
            return Choice(None if None in request.options else request.options[0])

    def quiet(*, game_seed: int, seat: int, **options: object) -> Player:
        return Quiet(seat)

    register_player("quiet", quiet)
    try:
        store = MemoryEventStore()
        rule = WorkflowRule(werewolf_workflow(uniform_seating("quiet")), store)
        game = start_game(rule, seed=1)
        assert asyncio.run(rule.run())[game] == "ended"
        assert make_player("quiet", game_seed=1, seat=4).kind == "quiet"
    finally:
        del PLAYER_KINDS["quiet"]


def test_seatings_cache_players_per_game_and_drop_them_when_the_game_is_decided() -> None:
    calls: list[tuple[str, int]] = []
    seen: dict[str, list[Mapping[int, Player]]] = {}

    def counting(*, game_seed: int, seat: int, **options: object) -> Player:
        calls.append((str(game_seed), seat))
        return RandomPlayer(game_seed)

    register_player("counting", counting)
    try:
        seating = uniform_seating("counting")

        def watching(game: str, state: GameState) -> Mapping[int, Player]:
            players = seating(game, state)
            seen.setdefault(game, []).append(players)
            return players

        store = MemoryEventStore()
        rule = WorkflowRule(werewolf_workflow(watching), store)
        games = [start_game(rule, seed=s) for s in (1, 2)]
        asyncio.run(rule.run())
        calls.remove(("0", 1))  # the up-front check that the kind and options are good
        assert sorted(calls) == sorted((str(s), seat) for s in (1, 2) for seat in range(1, 10))
        for game in games:
            phases = seen[game]
            assert len(phases) == len(store.chain(game)) - 1  # asked before every phase
            assert all(p is phases[0] for p in phases)  # the same players throughout
        # the game-end phase dropped them: asking again for that game makes new ones
        again = seating(games[0], fold_chain(store.chain(games[0])))
        assert again is not seen[games[0]][0]
        assert len(calls) == 27
    finally:
        del PLAYER_KINDS["counting"]


def test_uniform_seating_refuses_a_bad_kind_up_front() -> None:
    with pytest.raises(ConfigError):
        uniform_seating("robot")
    with pytest.raises(ConfigError):
        mock_seating(personality="grumpy")


def test_a_mock_wolf_kill_proposal_is_legal_from_any_view(batch: list[list[Event]]) -> None:
    chain = batch[11]
    for upto, event in enumerate(chain):
        if event.role != "wolf-night":
            continue
        state = fold_chain(chain[:upto])
        for wolf in (s for s in state.wolves if state.is_alive(s)):
            request = Request(
                DecisionKind.WOLF_KILL,
                wolf,
                view(chain[:upto], wolf),
                f"probe.{upto}.{wolf}",
                options=wolf_targets(state),
                context={"night": state.night + 1, "discussion": [], "round": 1, "proposals": []},
            )
            answer = asyncio.run(MockPlayer(11, wolf).decide(request))
            assert problem(request, answer) is None
