"""What a mock player keeps between decisions never leaks into another game, seat or point."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from random import Random

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import MockPlayer, Player, Seating
from werewolf.players.mock import (
    PERSONALITIES,
    beliefs,
    claims,
    parse_speech,
    player,
    read_table,
    reader,
)
from werewolf.players.mock.beliefs import infer, public_mind
from werewolf.players.mock.gut import Gut
from werewolf.players.mock.reader import TableReader
from werewolf.players.mock.table import Ballot, Utterance
from werewolf.state import GameState
from werewolf.visibility import view


def shared(players: Mapping[int, Player]) -> Seating:
    def seating(game_id: str, state: GameState) -> Mapping[int, Player]:
        return players

    return seating


def fresh() -> dict[int, Player]:
    return {seat: MockPlayer(5, seat) for seat in range(1, 10)}


def logs(seeds: list[int], players: Mapping[int, Player] | None) -> list[list[tuple[str, object]]]:
    """The games of ``seeds`` played together (sharing ``players``), or each alone with
    players of its own when ``players`` is None."""
    store = MemoryEventStore()
    if players is None:
        return [logs([seed], fresh())[0] for seed in seeds]
    rule = WorkflowRule(werewolf_workflow(shared(players)), store)
    games = [start_game(rule, seed=seed) for seed in seeds]
    asyncio.run(rule.run())
    return [[(e.kind, e.meta) for e in store.chain(game)] for game in games]


def test_games_interleaved_on_the_same_players_play_as_each_alone() -> None:
    assert logs([11, 12], fresh()) == logs([11, 12], None)


def chain_of(seed: int) -> list[Event]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(shared(fresh())), store)
    game = start_game(rule, seed=seed)
    asyncio.run(rule.run())
    return store.chain(game)


def test_a_reader_moved_between_games_seats_and_points_reads_as_a_fresh_one() -> None:
    first, second = chain_of(21), chain_of(22)
    reader = TableReader()
    points = [(first, 3, 40), (second, 3, 45), (first, 3, 60), (first, 3, 20), (first, 4, 60)]
    points += [(second, 4, len(second)), (first, 4, len(first)), (first, 4, len(first))]
    for chain, seat, cut in points:
        seen = view(chain[:cut], seat)
        assert reader.read(seen) == read_table(seen)


def test_a_player_moved_between_games_seats_and_points_believes_as_a_fresh_one() -> None:
    first, second = chain_of(21), chain_of(22)
    player = MockPlayer(5, 3)
    points = [(first, 40), (first, 40), (second, 45), (second, 45), (first, 60), (first, 20)]
    points += [(first, len(first)), (second, len(second)), (first, len(first))]
    for chain, cut in points:
        seen = view(chain[:cut], 3)
        assert player.mind(seen) == MockPlayer(5, 3).mind(seen)


def test_a_view_that_adds_nothing_gives_the_same_table_back() -> None:
    chain = chain_of(21)
    reader = TableReader()
    table = reader.read(view(chain[:50], 2))
    assert reader.read(view(chain[:50], 2)) is table
    assert reader.read(view(chain[:60], 2)) == read_table(view(chain[:60], 2))


def test_a_gut_drawn_once_a_day_gives_the_beliefs_a_fresh_generator_gives() -> None:
    chain = chain_of(23)
    calm = replace(PERSONALITIES["steady"], noise=0.0)
    for seat, cut in [(1, 30), (4, 50), (6, len(chain)), (8, 70)]:
        table = read_table(view(chain[:cut], seat))
        others = table.seat_count - 1
        for temper in (PERSONALITIES["bold"], PERSONALITIES["cautious"]):
            fresh = Random(seat)  # what a fresh generator draws: the duel, then each seat
            drawn = Gut(
                fresh.random(), tuple(fresh.gauss(0.0, temper.noise) for _ in range(others))
            )
            assert infer(table, temper, drawn) == infer(table, temper, Random(seat))
        everyone = Gut.calm(table.seat_count)  # a wolf's picture of the table: no gut
        assert infer(table, calm, everyone, public=True) == infer(
            table, calm, Random(seat), public=True
        )


def test_a_seats_words_kept_apart_are_its_utterances_in_order_and_the_killed_its_deaths() -> None:
    chain = chain_of(24)
    for seat in (2, 5):
        reader = TableReader()
        for cut in range(20, len(chain), 7):  # the fold extended, as in a game
            table = reader.read(view(chain[:cut], seat))
            for speaker in range(0, table.seat_count + 2):
                spoken = tuple(u for u in table.utterances if u.speaker == speaker)
                assert table.said(speaker) == spoken
            assert sum(len(words) for words in table.said_by.values()) == len(table.utterances)
            died = {s for seats in table.night_deaths.values() for s in seats}
            assert table.night_killed == died  # derived once, with the table


def test_the_seer_facts_kept_as_the_speeches_come_are_what_a_scan_of_them_finds() -> None:
    checked = 0
    for seed in (24, 26, 27, 31):
        chain = chain_of(seed)
        reader = TableReader()
        for cut in range(20, len(chain), 5):
            table = reader.read(view(chain[:cut], 3))
            claims, said = table.seer_claims, table.utterances
            assert table.claim_days == {
                c: next(u.day for u in said if u.speaker == c and "seer" in u.said.roles)
                for c in claims
            }
            assert table.backers == {
                c: backers
                for c in claims
                if (
                    backers := frozenset(
                        u.speaker
                        for u in said
                        if c in u.said.trusts and u.order > claims[c] and u.speaker != c
                    )
                )
            }
            results = [(u.speaker, seat, wolf) for u in said for _, seat, wolf in u.said.reports]
            twice = {s for s, seat, wolf in results if (s, seat, not wolf) in results}
            assert table.contradicted == twice
            checked += len(claims)
    assert checked > 0


def test_the_nights_a_dead_seat_was_past_checking_kept_per_record_are_reckoned_afresh() -> None:
    claims._GONE.clear()
    for seed in (24, 27):
        chain = chain_of(seed)
        for seat in (3, 6):
            reader = TableReader()
            for cut in range(20, len(chain), 4):
                table = reader.read(view(chain[:cut], seat))
                kept = claims._died_before(table)
                assert kept == claims._died_before_afresh(table)
                assert claims._died_before(table) is kept  # the same record: found, not made
    assert 0 < len(claims._GONE) <= claims._GONE_KEPT


def test_the_gone_store_is_emptied_when_full() -> None:
    claims._GONE.clear()
    table = read_table(view(chain_of(24), 4))
    for n in range(claims._GONE_KEPT + 5):  # records of their own, each a new container
        dead = replace(table, night_deaths={**table.night_deaths, 90 + n: (n % 9 + 1,)})
        assert claims._died_before(dead) == claims._died_before_afresh(dead)
        assert len(claims._GONE) <= claims._GONE_KEPT
    claims._GONE.clear()


def test_the_public_minds_kept_are_the_latest_ones_each_as_infer_weighs_it() -> None:
    beliefs._PUBLIC.clear()
    table, calm = read_table(view(chain_of(24), 4)), replace(PERSONALITIES["steady"], noise=0.0)
    kept = beliefs._PUBLIC_KEPT
    minds = [public_mind(replace(table, day=100 + n), calm) for n in range(kept + 3)]
    assert len(beliefs._PUBLIC) == kept  # the oldest dropped one at a time, not all at once
    for n in (kept + 2, 3):  # the latest ones are found
        assert public_mind(replace(table, day=100 + n), calm) is minds[n]
    first = replace(table, day=100)
    again = public_mind(first, calm)  # the oldest one was dropped: weighed afresh
    assert again is not minds[0]
    assert again == minds[0] == infer(first, calm, Gut.calm(first.seat_count), public=True)
    assert len(beliefs._PUBLIC) == kept
    beliefs._PUBLIC.clear()


def test_a_players_calm_temper_is_its_temper_at_noise_zero() -> None:
    player._CALM.clear()
    for name, temper in PERSONALITIES.items():
        for seat in (1, 2):
            calm = MockPlayer(3, seat, name)._calm
            assert calm == replace(temper, noise=0.0)
            assert calm is MockPlayer(4, seat, name)._calm  # made once a temper
    assert len(player._CALM) == len(set(PERSONALITIES.values())) <= player._CALM_KEPT


def test_a_speech_or_ballot_seen_by_many_seats_is_one_object_as_each_would_make_it() -> None:
    chain = chain_of(25)
    reader._HEARD.clear()
    reader._CAST.clear()
    tables = [read_table(view(chain, seat)) for seat in range(1, 10)]
    shared = cast = 0
    for table in tables:
        for u in table.utterances:
            made = Utterance(u.order, u.day, u.speaker, parse_speech(u.text), u.text, u.last_words)
            assert u == made
        for b in table.ballots:
            assert b == Ballot(b.day, b.round, b.voter, b.target, b.order)
        shared += sum(u is v for u, v in zip(table.utterances, tables[0].utterances, strict=False))
        cast += sum(b is c for b, c in zip(table.ballots, tables[0].ballots, strict=False))
    assert shared > len(tables[0].utterances)  # other seats hold the first seat's objects
    assert cast > len(tables[0].ballots)
    reader._HEARD.clear()
    reader._CAST.clear()
    assert [read_table(view(chain, seat)) for seat in range(1, 10)] == tables


def test_a_minds_has_reasons_says_whether_it_has_reasons_to_give() -> None:
    chain = chain_of(26)
    for seat in range(1, 10):
        for cut in (30, 60, len(chain)):
            table = read_table(view(chain[:cut], seat))
            minds = [infer(table, PERSONALITIES["bold"], Random(seat))]
            minds.append(infer(table, PERSONALITIES["steady"], Random(seat), public=True))
            for mind in minds:
                for other in range(0, 11):
                    assert mind.has_reasons(other) == bool(mind.reasons(other))
