"""What a game of nine LLM seats costs in tokens: the figure docs/llm-players.md states.

Plays ``--games`` games (seeds 1 to N) of nine LLM seats against ``tests/openai_server.py``
answering with realistic short speeches (about sixty words; the server counts tokens as
characters / 4, about what English costs), and prints the average per game as the doc's
sentence words it. The games are seeded and the server's answers depend only on the
request, so the figure is the same on every run of the same code.

    .venv/bin/python scripts/game_cost.py            # the doc's figure (2 games)
    .venv/bin/python scripts/game_cost.py --games 20 # a wider average, not checked
    .venv/bin/python scripts/game_cost.py --check    # exit 1 if the doc's figure is stale

``tests/werewolf/test_doc_figures.py`` runs ``--check``'s comparison.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.openai_server import OpenAIServer  # noqa: E402
from tests.werewolf.llm_support import (  # noqa: E402
    LegalTable,
    llm_specs,
    play,
    realistic_speech,
)

DOC = ROOT / "docs" / "llm-players.md"
DOC_GAMES = 2  # few enough for a test to replay them; the doc says how many
EXAMPLE_PRICE = (0.15, 0.60)  # USD per million prompt / completion tokens, as the doc says
_FIGURE = re.compile(r"\*\*[\d,]+ prompt and [\d,]+ completion tokens in [\d,]+ calls\*\*")
_PER_CALL = re.compile(r"\([\d,]+ prompt tokens per call")
_COST = re.compile(r"about \$[\d.]+ a game")


@dataclass(frozen=True)
class Cost:
    games: int
    prompt: float  # tokens per game, on average
    completion: float
    calls: float

    def figure(self) -> str:
        return (
            f"**{self.prompt:,.0f} prompt and {self.completion:,.0f} completion tokens "
            f"in {self.calls:,.0f} calls**"
        )

    def per_call(self) -> str:
        return f"({self.prompt / self.calls:,.0f} prompt tokens per call"

    def dollars(self) -> str:
        usd = (self.prompt * EXAMPLE_PRICE[0] + self.completion * EXAMPLE_PRICE[1]) / 1e6
        return f"about ${usd:.3f} a game"


def measure(games: int = DOC_GAMES) -> Cost:
    """The average tokens and calls of ``games`` seeded games of nine LLM seats."""
    totals = {"prompt": 0, "completion": 0, "calls": 0}
    table = LegalTable(speech=realistic_speech, witch_saves=False, spread=True)
    with OpenAIServer(table) as server:
        for seed in range(1, games + 1):
            played = play(llm_specs(server), seed=seed)
            if played.status != "ended":
                raise SystemExit(f"game {seed} did not end: {played.status}")
            for event in played.chain:
                for u in event.meta.get("usage", []):
                    totals["prompt"] += u["prompt_tokens"]
                    totals["completion"] += u["completion_tokens"]
                    totals["calls"] += u["calls"]
            print(f"game {seed} of {games} played", file=sys.stderr, flush=True)
    return Cost(games, *(totals[k] / games for k in ("prompt", "completion", "calls")))


def stale(cost: Cost, doc: str) -> list[str]:
    """What the doc says that ``cost`` does not: empty when the doc is up to date."""
    wanted = (cost.figure(), cost.per_call(), cost.dollars())
    patterns = (_FIGURE, _PER_CALL, _COST)
    problems = []
    for pattern, text in zip(patterns, wanted, strict=True):
        found = pattern.findall(" ".join(doc.split()))
        if found != [text]:
            problems.append(f"{DOC.name} says {found or 'nothing'}, the measurement {text!r}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DOC_GAMES, help="games to average")
    parser.add_argument("--check", action="store_true", help="exit 1 if the doc is stale")
    args = parser.parse_args()
    cost = measure(args.games)
    print(f"{cost.games} games of nine LLM seats, per game on average:")
    print(f"  {cost.figure()}")
    print(f"  {cost.per_call()})")
    print(f"  at ${EXAMPLE_PRICE[0]} / ${EXAMPLE_PRICE[1]} per million: {cost.dollars()}")
    if not args.check:
        return 0
    if args.games != DOC_GAMES:
        parser.error(f"--check measures the doc's {DOC_GAMES} games: leave out --games")
    problems = stale(cost, DOC.read_text(encoding="utf-8"))
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{DOC.name}: the cost of a game is up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
