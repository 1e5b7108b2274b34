"""A small arena between Python agents and the mock players, through ``play_game``.

Each game seats the rule-based agent (examples/rule_based_agent.py) and the reflective LLM
agent (examples/reflective_llm_agent.py) in seats that move round from game to game, and
mock players everywhere else; the table counts, per contestant, the games played and won
(its seat's side won) by side. Without ``--base-url`` the LLM agent plays against the
local test server (tests/openai_server.py, from a checkout) with a scripted model.

    python examples/arena.py --games 6
    python examples/arena.py --games 20 --base-url https://api.openai.com/v1 --model gpt-4o-mini

For the built-in players (mock, random, LLM seats by model) ``werewolf.play_arena`` runs a
full arena with its figures: intervals, Elo and Bradley-Terry ratings (docs/arena.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other examples

from reflective_llm_agent import LegalModel, ReflectiveLLMAgent
from rule_based_agent import make_agent

from werewolf import Player, play_game, team_of
from werewolf.players import MockPlayer

Factory = Callable[[int, int], Player]


@contextmanager
def local_model() -> Iterator[tuple[str, str]]:
    """The local test server with a scripted model: its base URL and key."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's tests/
    from tests.openai_server import TEST_API_KEY, OpenAIServer

    with OpenAIServer(LegalModel()) as server:
        yield server.base_url, TEST_API_KEY


def play(contestants: dict[str, Factory], games: int, board: str = "standard-9") -> list[str]:
    """Play ``games`` games; the table's lines, one per contestant."""
    played: Counter[str] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    names = sorted(contestants)
    for game in range(games):
        seats = {(game + k) % 9 + 1: contestants[name] for k, name in enumerate(names)}
        result = play_game(board=board, seed=game, seats=seats)
        state = result.state
        for seat, factory in seats.items():
            name = next(n for n in names if contestants[n] is factory)
            side = team_of(state.identities[seat - 1]).value
            played[name, side] += 1
            if result.winner == side:
                won[name, side] += 1
    lines = []
    for name in names:
        parts = [f"{side} {won[name, side]}/{played[name, side]}" for side in ("good", "wolves")]
        lines.append(f"{name:16} won {' '.join(parts)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--model", default="test-model")
    args = parser.parse_args()
    endpoint = (
        nullcontext((args.base_url, os.environ.get("OPENAI_API_KEY", "")))
        if args.base_url
        else local_model()
    )
    with endpoint as (base_url, key):

        def llm(game_seed: int, seat: int) -> Player:
            return ReflectiveLLMAgent(args.model, base_url=base_url, api_key=key)

        def mock_seat(game_seed: int, seat: int) -> Player:
            return MockPlayer(game_seed, seat)  # what a "mock" seat plays

        contestants = {"rule-based": make_agent, "reflective-llm": llm, "mock": mock_seat}
        for line in play(contestants, args.games):
            print(line)


if __name__ == "__main__":
    main()
