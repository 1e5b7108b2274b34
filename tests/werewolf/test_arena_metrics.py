"""Arena figures against values computed by hand on two small scripted games.

The games (deal: seats 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers):

- game 0: A holds the wolf seats, B the good seats. Night 1 the wolves bite 7, the witch
  saves 7, the seer finds 1; day 1 everyone votes 1 out; night 2 the wolves bite the seer,
  the witch poisons 2, the seer finds 2; day 2 everyone votes 3 out: the good side wins.
- game 1: B holds the wolf seats, A the good seats. Night 1 the wolves bite the seer (who
  checked 1: a wolf), no potion; day 1 everyone votes villager 7 out (seat 7 tries to vote
  for seat 42 three times: a fallback); night 2 the wolves bite the witch; day 2 everyone
  votes the hunter out: every god is dead, the wolves win.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field, replace

import pytest

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.arena.game_records import game_record
from werewolf.arena.intervals import Estimate, bootstrap_ratio, percentile, resamples, wilson
from werewolf.arena.metrics import TournamentMetrics, tournament_metrics
from werewolf.arena.ratings import (
    ELO_BASE,
    BradleyTerry,
    Match,
    bradley_terry,
    elo,
    weights_of,
)
from werewolf.cast import Identity
from werewolf.decisions import Answer, Choice, Request, Usage, WitchChoice
from werewolf.errors import GameStateError
from werewolf.game import start_game, werewolf_workflow
from werewolf.lineup import Price

from .scripted import DEAL, ScriptedPlayer, kill, votes

A, B = "A", "B"


@dataclass
class MeteredPlayer:
    """A scripted player that reports usage for some decisions (as an LLM seat would)."""

    script: dict[str, Answer]
    usage: dict[str, Usage] = field(default_factory=dict)
    kind: str = "scripted"

    def __post_init__(self) -> None:
        self.inner = ScriptedPlayer(self.script)

    @property
    def asked(self) -> list[Request]:
        return self.inner.asked

    async def decide(self, request: Request) -> Answer:
        answer = await self.inner.decide(request)
        use = self.usage.get(request.key)
        return replace(answer, usage=use) if use is not None else answer


def _play(
    index: int, wolves: str, good: str, player: MeteredPlayer, models: dict[str, str]
) -> list[Event]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(lambda g, s: dict.fromkeys(s.seats, player)), store)
    assignment = [wolves if i.value == "werewolf" else good for i in DEAL]
    players = [{"kind": "scripted", "model": models.get(p)} for p in assignment]
    game = start_game(
        rule,
        seed=100 + index,
        deal=DEAL,
        players=players,
        arena={"run": "t", "index": index, "assignment": assignment},
    )
    assert asyncio.run(rule.run())[game] == "ended"
    return store.chain(game)


def game_zero() -> tuple[list[Event], MeteredPlayer]:
    script: dict[str, Answer] = {
        **kill(1, 7),
        "n1.witch.s5": WitchChoice(save=True),
        "n1.seer.s4": Choice(1),
        **votes(1, 1),
        **kill(2, 4, wolves=(2, 3)),
        "n2.witch.s5": WitchChoice(poison=2),
        "n2.seer.s4": Choice(2),
        **votes(2, 3),
    }
    usage = {
        "n1.witch.s5": Usage(prompt_tokens=100, completion_tokens=20, latency_ms=50.0, calls=1),
        "n1.seer.s4": Usage(prompt_tokens=200, completion_tokens=10, latency_ms=150.0, calls=1),
    }
    player = MeteredPlayer(script, usage)
    return _play(0, A, B, player, {B: "model-b"}), player


def game_one() -> tuple[list[Event], MeteredPlayer]:
    script: dict[str, Answer] = {
        **kill(1, 4),
        **votes(1, 7),
        "d1.vote.r1.s7": Choice(42),
        **kill(2, 5),
        **votes(2, 6),
    }
    player = MeteredPlayer(script)
    return _play(1, B, A, player, {B: "model-b"}), player


@pytest.fixture(scope="module")
def games() -> list[tuple[list[Event], MeteredPlayer]]:
    return [game_zero(), game_one()]


@pytest.fixture(scope="module")
def metrics(games: list[tuple[list[Event], MeteredPlayer]]) -> TournamentMetrics:
    records = [game_record(chain) for chain, _ in games]
    assert all(r is not None for r in records)
    prices = {"model-b": Price(prompt=1.0, completion=2.0)}
    return tournament_metrics(
        [r for r in reversed(records) if r is not None], [A, B], prices=prices, rounds=200, seed=7
    )


def _rate(e: Estimate) -> tuple[int | None, int]:
    return e.hits, e.n


# -- the games are what the docstring says ------------------------------------------------------
def test_the_scripted_games_end_as_described(
    games: list[tuple[list[Event], MeteredPlayer]],
) -> None:
    (zero, _), (one, _) = games
    end0, end1 = zero[-1].meta, one[-1].meta
    assert end0["diff"]["winner"] == "good"
    assert end0["detail"]["alive"] == [5, 6, 7, 8, 9]
    assert end1["diff"]["winner"] == "wolves"
    assert end1["detail"]["alive"] == [1, 2, 3, 8, 9]


# -- per player, by hand -----------------------------------------------------------------------------
def test_win_rates_overall_by_team_and_by_role(metrics: TournamentMetrics) -> None:
    a, b = metrics.players[A], metrics.players[B]
    assert (a.games, b.games) == (2, 2)
    assert _rate(a.win) == (0, 2)
    assert _rate(b.win) == (2, 2)
    assert _rate(a.win_as["wolves"]) == (0, 1)
    assert _rate(a.win_as["good"]) == (0, 1)
    assert _rate(b.win_as["wolves"]) == (1, 1)
    assert _rate(b.win_as["good"]) == (1, 1)
    assert _rate(a.roles["werewolf"].win) == (0, 3)
    assert _rate(a.roles["villager"].win) == (0, 3)
    assert _rate(b.roles["seer"].win) == (1, 1)
    assert b.roles["werewolf"].seats == 3
    assert metrics.games == 2
    assert _rate(metrics.wolves_win) == (1, 2)
    assert metrics.draws == 0


def test_survival(metrics: TournamentMetrics) -> None:
    a, b = metrics.players[A], metrics.players[B]
    # A: no wolf survived game 0; villagers 8 and 9 survived game 1
    assert _rate(a.survival) == (2, 9)
    assert _rate(b.survival) == (8, 9)
    assert _rate(a.roles["werewolf"].survival) == (0, 3)
    assert _rate(a.roles["villager"].survival) == (2, 3)
    assert _rate(b.roles["seer"].survival) == (0, 1)  # the seer was bitten on night 2


def test_votes_and_exiles_of_the_good_seats(metrics: TournamentMetrics) -> None:
    a, b = metrics.players[A], metrics.players[B]
    # game 0, B good: 6 good ballots on 1, then 5 on 3; game 1, A good: 4 ballots on 7
    # (7 abstained, its fallback), 2 on 6 (6 abstained): none on a wolf
    assert _rate(b.votes_on_wolves) == (11, 11)
    assert _rate(a.votes_on_wolves) == (0, 6)
    assert _rate(b.exiles_of_wolves) == (2, 2)
    assert _rate(a.exiles_of_wolves) == (0, 2)


def test_seer_checks_and_potions(metrics: TournamentMetrics) -> None:
    a, b = metrics.players[A], metrics.players[B]
    assert _rate(b.seer_checks_on_wolves) == (2, 2)
    assert _rate(a.seer_checks_on_wolves) == (1, 1)
    assert _rate(b.witch_saves_of_good) == (1, 1)
    assert _rate(b.witch_poisons_on_wolves) == (1, 1)
    assert a.witch_saves_of_good.value is None
    assert a.witch_poisons_on_wolves.n == 0


def test_wolf_days(metrics: TournamentMetrics) -> None:
    # game 0: wolf 1 exiled on day 1, 2 poisoned on night 2, 3 exiled on day 2
    assert metrics.players[A].wolf_days.value == pytest.approx((1 + 2 + 2) / 3)
    # game 1: the wolves lived to the end, day 2
    assert metrics.players[B].wolf_days.value == pytest.approx(2.0)


def test_a_wolf_king_is_a_wolf_seat_by_his_team(
    games: list[tuple[list[Event], MeteredPlayer]],
) -> None:
    """The wolves' side comes from the registry's team, not the plain werewolf card: game 0
    with seat 1 a wolf king (exiled on day 1) and seat 2 a white wolf king gives the same
    wolf days, and a role row for each king."""
    zero, one = (game_record(chain) for chain, _ in games)
    assert zero is not None
    assert one is not None
    kings = {1: Identity.WOLF_KING, 2: Identity.WHITE_WOLF_KING}
    seats = tuple(replace(s, identity=kings.get(s.seat, s.identity)) for s in zero.seats)
    figures = tournament_metrics([replace(zero, seats=seats), one], [A, B], rounds=50, seed=7)
    a = figures.players[A]
    assert a.wolf_days.value == pytest.approx((1 + 2 + 2) / 3)
    assert a.wolf_days.n == 2  # both games held wolf seats
    assert (a.roles["wolf-king"].seats, a.roles["white-wolf-king"].seats) == (1, 1)
    assert a.roles["werewolf"].seats == 1


def test_decisions_and_fallbacks_match_what_the_players_were_asked(
    games: list[tuple[list[Event], MeteredPlayer]], metrics: TournamentMetrics
) -> None:
    # the oracle: the distinct decision keys each seat was asked (retries share a key)
    asked: dict[str, set[tuple[int, str]]] = {A: set(), B: set()}
    for index, (_, player) in enumerate(games):
        wolves, good = (A, B) if index == 0 else (B, A)
        for r in player.asked:
            asked[wolves if r.seat <= 3 else good].add((index, r.key))
    assert metrics.players[A].decisions == len(asked[A])
    assert metrics.players[B].decisions == len(asked[B])
    assert metrics.players[A].fallback_rate.hits == 1  # seat 7 of game 1
    assert metrics.players[B].fallback_rate.hits == 0


def test_tokens_cost_and_latency(metrics: TournamentMetrics) -> None:
    a, b = metrics.players[A], metrics.players[B]
    assert b.tokens == 330
    assert b.calls == 2
    assert b.tokens_per_game.value == pytest.approx(165.0)  # 330 in game 0, none in game 1
    assert b.tokens_per_decision.value == pytest.approx(330 / b.decisions)
    assert b.cost == pytest.approx((300 * 1.0 + 30 * 2.0) / 1e6)
    assert b.cost_per_game.value == pytest.approx(b.cost / 2)
    assert b.latency_ms.value == pytest.approx(100.0)
    assert a.calls == 0
    assert a.tokens_per_game.value is None
    assert a.cost is None


def test_matchups(metrics: TournamentMetrics) -> None:
    (match,) = metrics.matchups
    assert (match.first, match.second, match.games) == (A, B, 2)
    assert (match.first_wins, match.second_wins, match.draws) == (0, 2, 0)


def test_elo_follows_the_games_in_index_order(metrics: TournamentMetrics) -> None:
    # game 0: equal ratings, expected 1/2, the good side (B) won: B +8, A -8
    # game 1: B (wolves, +8) against A (-8): diff 16, B won
    expected = 1 / (1 + 10 ** (-16 / 400))
    b = ELO_BASE + 8 + 16 * (1 - expected)
    a = ELO_BASE - 8 - 16 * (1 - expected)
    assert metrics.elo[B].value == pytest.approx(b)
    assert metrics.elo[A].value == pytest.approx(a)


def test_a_game_that_has_not_ended_has_no_record(
    games: list[tuple[list[Event], MeteredPlayer]],
) -> None:
    chain, _ = games[0]
    assert game_record(chain[:10]) is None


def test_a_game_outside_the_arena_is_refused(
    games: list[tuple[list[Event], MeteredPlayer]],
) -> None:
    chain, _ = games[0]
    start = chain[0]
    game = {k: v for k, v in start.meta["game"].items() if k != "arena"}
    bare = replace(start, meta={**start.meta, "game": game})
    with pytest.raises(GameStateError, match="not played in the arena"):
        game_record([bare, *chain[1:]])


def test_unknown_players_are_refused(games: list[tuple[list[Event], MeteredPlayer]]) -> None:
    record = game_record(games[0][0])
    assert record is not None
    with pytest.raises(GameStateError, match="not in the run"):
        tournament_metrics([record], [A])


# -- intervals ------------------------------------------------------------------------------------------
def test_wilson_against_published_values() -> None:
    five = wilson(5, 10)
    assert (five.low, five.high) == (
        pytest.approx(0.2366, abs=1e-4),
        pytest.approx(0.7634, abs=1e-4),
    )
    zero = wilson(0, 10)
    assert zero.low == 0.0
    assert zero.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0).value is None
    with pytest.raises(ValueError, match="hits"):
        wilson(3, 2)


def test_percentile_interpolates_like_numpy() -> None:
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.025) == pytest.approx(1.1)
    assert percentile([7.0], 0.975) == 7.0


def test_bootstrap_ratio_is_seeded_and_brackets_the_value() -> None:
    nums, dens = [1.0, 0.0, 3.0, 2.0, 5.0], [1.0, 1.0, 2.0, 1.0, 2.0]
    draws = resamples(5, 300, "x")
    first, again = (
        bootstrap_ratio(nums, dens, draws),
        bootstrap_ratio(nums, dens, resamples(5, 300, "x")),
    )
    assert first == again
    assert first.value == pytest.approx(11 / 7)
    assert first.low is not None
    assert first.high is not None
    assert first.low <= first.value <= first.high
    assert bootstrap_ratio([0.0], [0.0], draws[:1]).value is None


# -- ratings -------------------------------------------------------------------------------------------
def test_weights_of_sides() -> None:
    assert weights_of({"wolves": ["a"] * 3, "good": ["b"] * 6}) == (("a", 1.0), ("b", -1.0))
    mixed = dict(weights_of({"wolves": ["a", "a", "b"], "good": ["a"] * 3 + ["c"] * 3}))
    assert mixed["a"] == pytest.approx(2 / 3 - 1 / 2)
    assert mixed["c"] == pytest.approx(-0.5)
    assert weights_of({"wolves": ["a"] * 3, "good": ["a"] * 6}) == ()  # a against itself


def test_elo_of_one_game_by_hand() -> None:
    ratings = elo([Match((("a", 1.0), ("b", -1.0)), 1.0)], ["a", "b"], k=32)
    assert ratings == {"a": 1516.0, "b": 1484.0}


def _gradient(matches: list[Match], players: list[str], fit: BradleyTerry) -> list[float]:
    """The log posterior's gradient, written out independently of the fitting code."""
    theta = [fit.ratings[p] for p in players] + [fit.wolf_edge]
    grad = [-t / 4 for t in theta[:-1]] + [-theta[-1] / 100]
    for m in matches:
        x = [dict(m.weights).get(p, 0.0) for p in players] + [1.0]
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(x, theta, strict=True))))
        grad = [g + (m.score - p) * xi for g, xi in zip(grad, x, strict=True)]
    return grad


def test_bradley_terry_is_the_posterior_mode() -> None:
    ab, ba = (("a", 1.0), ("b", -1.0)), (("a", -1.0), ("b", 1.0))
    bc, ca = (("b", 1.0), ("c", -1.0)), (("a", -1.0), ("c", 1.0))
    matches = [Match(ab, 1.0)] * 5 + [Match(ab, 0.0)] * 1 + [Match(ba, 0.0)] * 4
    matches += [Match(ba, 1.0)] * 2 + [Match(bc, 1.0)] * 3 + [Match(ca, 0.5)] * 2
    players = ["a", "b", "c"]
    fit = bradley_terry(matches, players)
    assert max(abs(g) for g in _gradient(matches, players, fit)) < 1e-8
    assert sum(fit.ratings.values()) == pytest.approx(0.0, abs=1e-9)  # centred by the prior
    assert fit.ratings["a"] > fit.ratings["b"] > fit.ratings["c"]


def test_bradley_terry_stays_finite_when_one_player_wins_everything() -> None:
    matches = [Match((("a", 1.0), ("b", -1.0)), 1.0), Match((("a", -1.0), ("b", 1.0)), 0.0)] * 20
    fit = bradley_terry(matches, ["a", "b"])
    assert 0 < fit.ratings["a"] < 10
    assert fit.ratings["b"] == pytest.approx(-fit.ratings["a"])
