"""An LLM werewolf player that keeps notes across its decisions (reflection).

Each decision is one chat completion: the seat's view of the game, its notes so far and
the legal options, answered with a JSON object. After each decision a second request asks
the model to rewrite its notes (at most ``NOTES_CHARS`` characters) in the light of what it
just saw and did; the next prompt carries them. The agent object lives for the whole game,
so the notes are plain attributes; ``request.key`` names each decision.

An answer the model gets wrong (no JSON, an illegal seat) is handed to the rules as it is:
they refuse it and ask again with ``request.feedback`` saying why, which the next prompt
shows; after three refusals the rules take a legal fallback.

Run it against any OpenAI-compatible endpoint::

    OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=... \\
        python examples/reflective_llm_agent.py --model gpt-4o-mini

or, from a checkout with the test extra, with no key against the local test server
(tests/openai_server.py) and a scripted model that answers legally::

    python examples/reflective_llm_agent.py --demo
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import openai

from werewolf import Choice, DecisionKind, Request, Speech, Usage, WitchChoice
from werewolf.decisions import Answer, NoAnswer

NOTES_CHARS = 600
SYSTEM = (
    "You play one seat of a game of werewolf. Answer every request with one JSON object "
    "and nothing else."
)


class ReflectiveLLMAgent:
    """One seat's player for one game: its notes grow with every decision."""

    kind = "reflective-llm"

    def __init__(
        self, model: str, *, base_url: str | None = None, api_key: str | None = None
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.api_key = api_key
        self.notes = ""  # what the model chose to remember, carried to the next prompt
        self.decided: list[str] = []  # the keys of the decisions taken, in order
        self._client: openai.AsyncOpenAI | None = None

    @property
    def client(self) -> openai.AsyncOpenAI:
        # made on first use, inside the game's event loop
        if self._client is None:
            self._client = openai.AsyncOpenAI(
                base_url=self.base_url, api_key=self.api_key or "no-key", max_retries=2
            )
        return self._client

    async def aclose(self) -> None:
        """Called by the game when its drive stops: the client closes with its event loop
        (the next game makes another)."""
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def _ask(self, prompt: str) -> tuple[dict[str, Any] | None, Usage]:
        reply = await self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
            response_format={"type": "json_object"},
        )
        billed = reply.usage
        usage = Usage(
            prompt_tokens=billed.prompt_tokens if billed else 0,
            completion_tokens=billed.completion_tokens if billed else 0,
            calls=1,
            mode="json",
        )
        text = reply.choices[0].message.content if reply.choices else None
        try:
            found = json.loads(text or "")
        except json.JSONDecodeError:
            return None, usage
        return (found if isinstance(found, dict) else None), usage

    async def decide(self, request: Request) -> Answer:
        found, usage = await self._ask(decision_prompt(request, self.notes))
        answer = read_answer(request, found)
        if not isinstance(answer, NoAnswer):
            self.decided.append(request.key)
            reflected, more = await self._ask(reflection_prompt(request, self.notes, found))
            notes = (reflected or {}).get("notes")
            if isinstance(notes, str):
                self.notes = notes[:NOTES_CHARS]
            usage = _sum(usage, more)
        # the game records what each answer cost (the arena counts tokens per seat)
        return dataclasses.replace(answer, usage=usage)


def _sum(a: Usage, b: Usage) -> Usage:
    return Usage(
        prompt_tokens=a.prompt_tokens + b.prompt_tokens,
        completion_tokens=a.completion_tokens + b.completion_tokens,
        calls=a.calls + b.calls,
        mode=a.mode,
    )


# -- prompts and answers (pure) ---------------------------------------------------------
def _events(request: Request) -> list[str]:
    return [
        f"day {seen.day} {seen.phase}: {json.dumps(seen.diff)} {json.dumps(seen.detail)}"
        for seen in request.view.observations
    ]


def _format(request: Request) -> str:
    if request.kind.speaks:
        return '{"text": "what you say"}'
    if request.kind is DecisionKind.WITCH:
        return '{"save": true or false, "poison": a seat or null}'
    beliefs = ', "beliefs": {"seat": P(wolf), ...}' if request.context.get("beliefs") else ""
    return '{"target": one of the options}' + beliefs


def decision_prompt(request: Request, notes: str) -> str:
    """The prompt of one decision: who the seat is, its notes, what it saw, what to do."""
    view = request.view
    wolves = f" The wolves are seats {list(view.wolves)}." if view.wolves else ""
    lines = [
        f"You are seat {view.seat} ({view.name}), a {view.identity.value}.{wolves}",
        f"Alive: {list(view.alive)}.",
        f"Your notes: {notes or '(none yet)'}",
        "What you have seen:",
        *_events(request),
        f"Decision {request.key}: {request.kind.value}.",
    ]
    if request.witch is not None:
        w = request.witch
        lines.append(
            f"Tonight's victim: {w.told_target}; you may save: {w.can_save}; "
            f"you may poison: {list(w.poison_targets)}."
        )
    elif not request.kind.speaks:
        lines.append(f"Legal options: {json.dumps(list(request.options))} (null: nobody).")
    if request.feedback:
        lines.append(f"Your last answer was refused: {request.feedback}")
    lines.append(f"Answer with JSON: {_format(request)}")
    return "\n".join(lines)


def reflection_prompt(request: Request, notes: str, answer: dict[str, Any] | None) -> str:
    """The prompt that asks for the notes again, after a decision."""
    return "\n".join(
        [
            f"You are seat {request.seat}, a {request.view.identity.value}.",
            f"Your notes: {notes or '(none yet)'}",
            f"You just answered {request.kind.value} ({request.key}): {json.dumps(answer)}",
            f"Rewrite your notes for the rest of the game in at most {NOTES_CHARS} characters:"
            " suspicions, claims, what to do next.",
            'Answer with JSON: {"notes": "..."}',
        ]
    )


def _seat(value: object) -> int | None:
    return value if type(value) is int else None


def read_answer(request: Request, found: dict[str, Any] | None) -> Answer:
    """The model's JSON as an answer; the rules judge it (an illegal one is asked again)."""
    if found is None:
        return NoAnswer("answer with one JSON object")
    reasoning = str(found.get("reasoning", ""))
    if request.kind.speaks:
        return Speech(str(found.get("text", "")), reasoning=reasoning)
    if request.kind is DecisionKind.WITCH:
        return WitchChoice(
            save=found.get("save") is True, poison=_seat(found.get("poison")), reasoning=reasoning
        )
    beliefs = None
    if request.context.get("beliefs") and isinstance(found.get("beliefs"), dict):
        others = set(request.view.alive) - {request.seat}
        beliefs = {
            int(seat): float(p)
            for seat, p in found["beliefs"].items()
            if str(seat).isdigit() and int(seat) in others and isinstance(p, int | float)
        }
    return Choice(_seat(found.get("target")), reasoning=reasoning, beliefs=beliefs)


# -- a scripted model for the demo (and the tests): answers legally, keeps notes --------
class LegalModel:
    """A handler for tests/openai_server.py: the first legal option, a short speech, and
    notes that count the decisions ("notes after N decisions")."""

    def __init__(self) -> None:
        self.reflections = 0

    def __call__(self, body: dict[str, Any]) -> Any:
        from tests.openai_server import JSONContent

        prompt = str(body["messages"][-1]["content"])
        asked = prompt.splitlines()[-1]  # "Answer with JSON: ..." (what it saw may hold JSON too)
        if '{"notes"' in asked:
            self.reflections += 1
            return JSONContent({"notes": f"notes after {self.reflections} decisions"})
        if '{"text"' in asked:
            return JSONContent({"text": "I listen before I accuse."})
        if '{"save"' in asked:
            return JSONContent({"save": False, "poison": None})
        legal = next(line for line in prompt.splitlines() if line.startswith("Legal options:"))
        options = json.loads(legal.removeprefix("Legal options:").split("(")[0])
        return JSONContent({"target": options[0]})


def demo() -> None:
    """A game against the local test server: seat 3 is the agent, the rest mock players."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's tests/
    from tests.openai_server import TEST_API_KEY, OpenAIServer
    from werewolf import play_game

    with OpenAIServer(LegalModel()) as server:
        agent = ReflectiveLLMAgent("test-model", base_url=server.base_url, api_key=TEST_API_KEY)
        result = play_game(board="standard-9", seed=7, seats={3: agent})
    print(f"winner: {result.winner} ({result.reason}); seat 3 decided {len(agent.decided)} times")
    print(f"its last notes: {agent.notes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--seat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--demo", action="store_true", help="play against the local test server")
    args = parser.parse_args()
    if args.demo:
        demo()
        return
    from werewolf import play_game

    agent = ReflectiveLLMAgent(
        args.model,
        base_url=os.environ.get("OPENAI_BASE_URL"),
        api_key=os.environ.get("OPENAI_API_KEY"),
    )
    result = play_game(board="standard-9", seed=args.seed, seats={args.seat: agent})
    print(f"winner: {result.winner} ({result.reason})")
    print(result.view(args.seat))


if __name__ == "__main__":
    main()
