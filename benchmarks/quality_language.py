"""How mock players talk, measured over seeded games in memory, per board and language.

Prints, per board:

- masked distinct speeches: day speeches, PK speeches and last words that differ once
  seat numbers and names are masked (goal >= 85%);
- sentence forms per language: the sentences of those speeches, masked the same way, in
  English and in Chinese games (goal >= 400 each);
- the shortest-speech tell: how often the shortest first speech of day 2 is a wolf's (a
  wolf king's too), against the wolves' share of the speakers (goal <= 1.5x); a
  self-destruct is not counted as a speech (the wolf shows his card);
- en/zh divergence: seeds whose games make different decisions in English and in Chinese
  (every event but the words: votes, kills, potions, checks, shots, speakers; goal 0);
- each personality's seat win rate (its seats whose side won), with a 95% interval.

    .venv/bin/python benchmarks/quality_language.py                    # 200 games per board
    .venv/bin/python benchmarks/quality_language.py --games 50 --board guard-12

``benchmarks/mock_quality.py`` prints the same lines with its own report.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from mock_balance import wilson

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.boards import BOARDS as NAMED_BOARDS
from werewolf.boards import board_config
from werewolf.cast import Identity, Team, team_of
from werewolf.config import GameConfig
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.mock import pick_personality

LANGS = ("en", "zh")
_SPOKEN = ("day-speech", "last-words")
_DIGITS = re.compile(r"\d+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_WORDS = ("text", "discussion")  # what a decision says rather than decides


def play(config: GameConfig, seeds: Iterable[int], lang: str) -> list[list[Event]]:
    """Mock games (every seat a mock speaking ``lang``), one per seed, in memory."""
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating(lang=lang)), store)
    games = [start_game(rule, seed=seed, config=config) for seed in seeds]
    asyncio.run(rule.run())
    return [store.chain(game) for game in games]


def masked(text: str, names: Iterable[str] = ()) -> str:
    """``text`` with its seat numbers (and the seats' names) masked."""
    for name in names:
        text = text.replace(name, "@")
    return _DIGITS.sub("#", text)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def decisions(chain: list[Event]) -> list[tuple[object, ...]]:
    """What a game decided, event by event, without its words."""
    out: list[tuple[object, ...]] = []
    for event in chain[1:]:
        meta = event.meta
        detail = {k: v for k, v in meta.get("detail", {}).items() if k not in _WORDS}
        out.append((event.role, meta.get("day"), repr(meta.get("diff")), repr(detail)))
    return out


@dataclass
class Speech:
    """One board's talk in one language."""

    speeches: list[str] = field(default_factory=list)
    forms: set[str] = field(default_factory=set)
    short_games: int = 0
    short_wolf: float = 0.0  # games whose shortest day-2 speech is a wolf's (ties shared)
    wolf_share: float = 0.0  # the wolves' share of day-2 speakers, summed over games


def measure(chain: list[Event], s: Speech) -> None:
    names = [str(n) for n in chain[0].meta["game"].get("names", [])]
    deal = [Identity(i) for i in chain[0].meta["deal"]]
    day2: dict[int, int] = {}  # seat -> length of its first day-2 speech
    for event in chain:
        if event.role not in _SPOKEN:
            continue
        meta = event.meta
        text = str(meta.get("detail", {}).get("text", ""))
        plain = masked(text, names)
        s.speeches.append(plain)
        s.forms.update(sentences(plain))
        seat, pk = int(meta["diff"]["speaker"]), meta["detail"].get("pk")
        # a self-destruct is no speech: the wolf shows his card, there is nothing to read
        destruct = meta["diff"].get("self_destruct")
        if event.role == "day-speech" and meta.get("day") == 2 and not pk and not destruct:
            day2.setdefault(seat, len(text))
    if len(day2) >= 2:
        wolf = {seat: team_of(deal[seat - 1]) is Team.WOLVES for seat in day2}
        least = min(day2.values())
        shortest = [seat for seat, n in day2.items() if n == least]
        s.short_games += 1
        s.short_wolf += sum(wolf[seat] for seat in shortest) / len(shortest)
        s.wolf_share += sum(wolf.values()) / len(wolf)


def seat_wins(chains: list[list[Event]]) -> tuple[Counter[str], Counter[str]]:
    """(seats, seats whose side won) per personality."""
    seats: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for chain in chains:
        seed = int(chain[0].meta["game"]["seed"])
        winner = str(chain[-1].meta.get("diff", {}).get("winner"))
        for seat, card in enumerate(chain[0].meta["deal"], start=1):
            name = pick_personality(seed, seat)
            side = Team.WOLVES if team_of(Identity(card)) is Team.WOLVES else Team.GOOD
            seats[name] += 1
            won[name] += side.value == winner
    return seats, won


def report(name: str, config: GameConfig, games: int) -> list[str]:
    """The language lines of one board (``games`` seeds in each language)."""
    seeds = range(games)
    chains = {lang: play(config, seeds, lang) for lang in LANGS}
    talk = {lang: Speech() for lang in LANGS}
    for lang in LANGS:
        for chain in chains[lang]:
            measure(chain, talk[lang])
    diverged = [
        seed
        for seed, en, zh in zip(seeds, chains["en"], chains["zh"], strict=True)
        if decisions(en) != decisions(zh)
    ]
    out = [f"  language ({games} games per language):"]
    for lang in LANGS:
        t = talk[lang]
        n = len(t.speeches)
        distinct = len(set(t.speeches))
        tell = t.short_wolf / max(t.short_games, 1)
        base = t.wolf_share / max(t.short_games, 1)
        out += [
            f"    {lang} masked distinct speeches {distinct:>5}/{n:<5} {distinct / max(n, 1):6.1%}"
            "  (goal >= 85%)",
            f"    {lang} sentence forms          {len(t.forms):>5}          (goal >= 400)",
            f"    {lang} shortest day-2 speech a wolf's {tell:6.1%} against a base rate of "
            f"{base:6.1%}: {tell / max(base, 1e-9):.2f}x (goal <= 1.5x)",
        ]
    seats, won = seat_wins(chains["en"])
    for persona in sorted(seats, key=lambda p: -won[p] / seats[p]):
        low, high = wilson(won[persona], seats[persona])
        out.append(
            f"    {persona:<9} seats won {won[persona]:>5}/{seats[persona]:<5} "
            f"{won[persona] / seats[persona]:6.1%}  95% CI [{low:.1%}, {high:.1%}]"
        )
    shown = ", ".join(str(s) for s in diverged[:10]) + (" ..." if len(diverged) > 10 else "")
    out.append(
        f"    en/zh divergence         {len(diverged):>5}/{games:<5} seeds decide differently"
        f"{': ' + shown if diverged else ''} (goal 0)"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per board (default 200)")
    parser.add_argument(
        "--board", choices=sorted(NAMED_BOARDS), action="append", help="only these boards"
    )
    args = parser.parse_args()
    for name in NAMED_BOARDS:
        if args.board and name not in args.board:
            continue
        lines = report(name, board_config(name), args.games)
        print("\n".join([f"board {name}:", *lines]), flush=True)


if __name__ == "__main__":
    main()
