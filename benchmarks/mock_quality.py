"""How mock players play and talk, measured over seeded games in memory (200 per board).

Prints, per board:

- talk: distinct speeches (of all day speeches, PK speeches and last words), speeches that
  repeat one of the same seat's earlier speeches, last words equal to that seat's speech of
  the day, and votes that differ from the seat the voter's speech named, without a stated
  reason (the speech said it would follow a seer's wolf, or the named seat was no option);
- play: how often the witch uses the poison in games she survives past night 2, hunter
  shots at a seat the real seer had cleared in public (the hunter's, not a wolf king's),
  the wolves' night talk variety;
- strength: good mocks against random wolves, mock wolves against random good players, and
  each personality's win rate playing a whole side against mixed mocks (both sides, 1,000
  games a side on the standard board), ordered, each with a 95% Wilson interval;
- balance: each side's share of mock-vs-mock games (1,000 on the standard board);
- language: the lines of ``quality_language.py`` (masked distinct speeches, sentence
  forms per language, the shortest-speech tell, en/zh divergence).

    .venv/bin/python benchmarks/mock_quality.py                 # 200 games per board
    .venv/bin/python benchmarks/mock_quality.py --games 50 --balance-games 200 \
        --personality-games 100                                          # quicker
    .venv/bin/python benchmarks/mock_quality.py --board guard-12                 # one board

A run takes minutes: each batch of games says on stderr when it is played (the report
itself goes to stdout, a board at a time).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mock_balance import wilson
from quality_language import report as language_report
from quality_reasoning import Reasoning, dead_at, measure_reasoning, reasoning_report

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.boards import BOARDS as NAMED_BOARDS
from werewolf.boards import board_config
from werewolf.cast import Identity, Team, team_of
from werewolf.config import GameConfig
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import MockPlayer, Player, RandomPlayer, cached_seating
from werewolf.players.mock import PERSONALITIES, parse_speech
from werewolf.state import GameState

BOARDS: dict[str, GameConfig] = {name: board_config(name) for name in NAMED_BOARDS}
"""Every board the benchmark plays: each named board of werewolf.boards."""

Make = Callable[[GameState, int], Player]


def share(won: int, n: int) -> str:
    low, high = wilson(won, n)
    return f"{won:>4}/{n:<4} {won / max(n, 1):6.1%}  95% CI [{low:.1%}, {high:.1%}]"


_STARTED = time.perf_counter()


def progress(what: str) -> None:
    """One line on stderr: what was just played, and the run's time so far."""
    print(f"  ... {what} ({time.perf_counter() - _STARTED:.0f} s)", file=sys.stderr, flush=True)


def play(config: GameConfig, seeds: range, make: Make) -> list[list[Event]]:
    store = MemoryEventStore()
    seating = cached_seating(lambda game_id, state, seat: make(state, seat))
    rule = WorkflowRule(werewolf_workflow(seating), store)
    games = [start_game(rule, seed=seed, config=config) for seed in seeds]
    asyncio.run(rule.run())
    return [store.chain(game) for game in games]


def mocks(state: GameState, seat: int) -> Player:
    return MockPlayer(state.seed, seat)


def mock_side(side: Team) -> Make:
    """Mocks on ``side``, random players on the other."""

    def make(state: GameState, seat: int) -> Player:
        if team_of(state.identity(seat)) is side:
            return MockPlayer(state.seed, seat)
        return RandomPlayer(state.seed)

    return make


def deal(chain: list[Event]) -> list[Identity]:
    return [Identity(i) for i in chain[0].meta["deal"]]


def winner(chain: list[Event]) -> str:
    return str(chain[-1].meta["diff"]["winner"])


@dataclass
class Talk:
    speeches: list[str] = field(default_factory=list)
    seat_repeats: int = 0
    last_equals_speech: int = 0
    named_votes: int = 0
    unexplained: int = 0
    forced: int = 0
    night_talk: list[str] = field(default_factory=list)
    witch_games: int = 0
    witch_poisoned: int = 0
    hunter_shots: int = 0
    hunter_bad: int = 0


def measure(chain: list[Event], t: Talk) -> None:
    """Add one game's talk and play figures to ``t``."""
    cast = deal(chain)
    seer = next((i + 1 for i, c in enumerate(cast) if c is Identity.SEER), None)
    witch = next((i + 1 for i, c in enumerate(cast) if c is Identity.WITCH), None)
    said: dict[int, list[str]] = {}
    today: dict[int, tuple[int, int, str]] = {}  # seat -> (day, index, text) of its speech
    cleared: set[int] = set()  # seats the real seer reported good in public
    seer_wolves: list[tuple[int, int]] = []  # (index, seat) wolf reports by seer claimers
    dead: set[int] = set()
    pk: list[int] = []
    witch_alive_night3 = False
    poisoned = False
    for index, event in enumerate(chain):
        meta = event.meta
        diff, detail, day = meta.get("diff", {}), meta.get("detail", {}), int(meta.get("day", 0))
        hunter_shot = diff.get("card", "hunter") == "hunter"  # a wolf king aims at the cleared
        if event.role in ("day-speech", "last-words"):
            seat, text = int(diff["speaker"]), str(detail.get("text", ""))
            t.speeches.append(text)
            t.seat_repeats += text in said.get(seat, [])
            said.setdefault(seat, []).append(text)
            heard = parse_speech(text)
            if event.role == "last-words":
                previous = today.get(seat)
                t.last_equals_speech += (
                    previous is not None and previous[0] == day and previous[2] == text
                )
            else:
                today[seat] = (day, index, text)
            if seat == seer:
                cleared |= {s for _, s, wolf in heard.reports if not wolf}
            if "seer" in heard.roles or heard.reports:
                seer_wolves += [(index, s) for _, s, wolf in heard.reports if wolf]
        elif event.role == "wolf-night":
            t.night_talk += [str(line.get("text", "")) for line in detail.get("discussion", [])]
            if day == 3 and witch is not None and witch not in dead:
                witch_alive_night3 = True
        elif event.role == "witch-action" and diff.get("poison") is not None:
            poisoned = True
        elif event.role == "hunter-shot" and diff.get("target") is not None and hunter_shot:
            t.hunter_shots += 1
            t.hunter_bad += int(diff["target"]) in cleared
        elif event.role == "vote":
            _votes(t, detail, day, today, seer_wolves, dead, pk)
            pk = [int(s) for s in diff.get("pk", [])]
        dead.update(dead_at(event))
    if witch_alive_night3:
        t.witch_games += 1
        t.witch_poisoned += poisoned


def _votes(
    t: Talk,
    detail: Mapping[str, object],
    day: int,
    today: Mapping[int, tuple[int, int, str]],
    seer_wolves: list[tuple[int, int]],
    dead: set[int],
    pk: list[int],
) -> None:
    round_no = int(str(detail.get("round", 1)))
    for voter, target in detail.get("ballots", []):  # type: ignore[attr-defined]
        spoken = today.get(voter)
        if spoken is None or spoken[0] != day:
            continue
        heard = parse_speech(spoken[2])
        named = heard.vote
        if named is None:
            continue
        t.named_votes += 1
        legal = named not in dead and named != voter and (round_no == 1 or named in pk)
        if not legal:
            t.forced += 1
        elif target != named:
            later = {s for i, s in seer_wolves if i > spoken[1]}
            if not (heard.follow_seer and target in later):
                t.unexplained += 1


def talk_report(t: Talk) -> list[str]:
    n = len(t.speeches)
    lines = [
        f"  distinct speeches      {len(set(t.speeches)):>5}/{n:<5} {len(set(t.speeches)) / max(n, 1):6.1%}  (goal >= 80%)",
        f"  seat repeats itself    {t.seat_repeats:>5}        (goal 0)",
        f"  last words = speech    {t.last_equals_speech:>5}        (goal 0)",
        f"  vote != named seat     {t.unexplained:>5}/{t.named_votes:<5} "
        f"{t.unexplained / max(t.named_votes, 1):6.1%}  without a stated reason (goal < 10%); "
        f"{t.forced} named seat not an option",
        f"  witch poisons          {share(t.witch_poisoned, t.witch_games)}  of games she survives past night 2 (goal >= 50%)",
        f"  hunter shot a cleared  {t.hunter_bad:>5}/{t.hunter_shots:<5}      seat (goal 0)",
        f"  distinct wolf talk     {len(set(t.night_talk)):>5}/{len(t.night_talk):<5} "
        f"{len(set(t.night_talk)) / max(len(t.night_talk), 1):6.1%}",
    ]
    return lines


def personality_side(name: str, side: Team) -> Make:
    """Mocks of personality ``name`` on ``side``; the other side's mocks each draw theirs."""

    def make(state: GameState, seat: int) -> Player:
        mine = team_of(state.identity(seat)) is side
        return MockPlayer(state.seed, seat, name if mine else None)

    return make


def personality_report(config: GameConfig, games: int) -> list[str]:
    """Each personality playing a whole side (the good side in ``games`` games, the wolves
    in as many) against mixed mocks: its share of those games won, best first."""
    won: dict[str, int] = {}
    for name in PERSONALITIES:
        good = play(config, range(games), personality_side(name, Team.GOOD))
        wolves = play(config, range(games), personality_side(name, Team.WOLVES))
        won[name] = sum(winner(c) == "good" for c in good)
        won[name] += sum(winner(c) == "wolves" for c in wolves)
        progress(f"personality {name}: {2 * games} games played")
    ranked = sorted(won, key=lambda n: -won[n])
    out = [f"    {name:<9} {share(won[name], 2 * games)}" for name in ranked]
    head = f"  personalities, each playing a whole side vs mixed mocks ({games} games a side):"
    return [head, *out]


def board_report(
    name: str, config: GameConfig, games: int, balance_games: int, personality_games: int
) -> list[str]:
    began = time.perf_counter()
    progress(f"board {name}: playing")
    mixed = play(config, range(max(games, balance_games)), mocks)
    progress(f"board {name}: {len(mixed)} mock games played")
    t = Talk()
    for chain in mixed[:games]:
        measure(chain, t)
    good = play(config, range(games), mock_side(Team.GOOD))
    wolves = play(config, range(games), mock_side(Team.WOLVES))
    progress(f"board {name}: {2 * games} games against random players played")
    won = Counter(winner(c) for c in mixed)
    out = [f"board {name}: {games} games ({len(mixed)} for balance)", *talk_report(t)]
    r = Reasoning()
    measure_reasoning(mixed[:games], r)
    out += reasoning_report(r)
    out += [
        f"  mock good vs random wolves: good wins   {share(sum(winner(c) == 'good' for c in good), len(good))}",
        f"  mock wolves vs random good: wolves win  {share(sum(winner(c) == 'wolves' for c in wolves), len(wolves))}",
        *personality_report(config, personality_games),
        f"  balance: good   {share(won['good'], len(mixed))}",
        f"           wolves {share(won['wolves'], len(mixed))}",
        f"           draws  {won['draw']}",
        *language_report(name, config, games),
        f"  ({time.perf_counter() - began:.1f} s)",
    ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per board (default 200)")
    parser.add_argument(
        "--balance-games", type=int, default=1000, help="standard-board balance games (1000)"
    )
    parser.add_argument(
        "--personality-games",
        type=int,
        default=1000,
        help="standard-board games a side per personality (1000; other boards: --games)",
    )
    parser.add_argument(
        "--board", choices=sorted(BOARDS), action="append", help="only these boards (repeatable)"
    )
    args = parser.parse_args()
    for name, config in BOARDS.items():
        if args.board and name not in args.board:
            continue
        standard = name == "standard-9"
        balance = args.balance_games if standard else args.games
        characters = args.personality_games if standard else args.games
        print("\n".join(board_report(name, config, args.games, balance, characters)), flush=True)


if __name__ == "__main__":
    main()
