"""Helpers for the LLM-seat tests: a server handler that plays legally, seat specs that
point at the test server, a runner for whole games on a real SQLite store, and what the
command-line tests share (a lineup file, a run of ``werewolf``, the log of the one game in
a store). Short waits between retries are in ``short_waits``.

``LegalTable`` reads each request like a model would: the seat from the system prompt, the
function and its JSON schema from ``tools`` (or, in JSON mode, from the system prompt), and
answers with arguments that fit the schema: the lowest legal seat other than "nobody", a
short speech and a reasoning, each carrying a marker unique to the seat and the decision
(``LEAK-<kind>-s<seat>-<n>``) so a test can follow where every word went.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pulse_core import Event, EventStore, MemoryEventStore, SQLiteEventStore, WorkflowRule
from tests.openai_server import TEST_API_KEY, JSONContent, OpenAIServer, Reply, ToolCall
from werewolf.cli import main
from werewolf.config import GameConfig
from werewolf.game import start_game, werewolf_workflow
from werewolf.lineup import SeatSpec
from werewolf.players import SpecSeating, seating_from_specs

KEY_ENV = "WEREWOLF_TEST_KEY"
ENV = {KEY_ENV: TEST_API_KEY}
_SEAT = re.compile(r"seat (\d+),")
_SCHEMA_MARK = "It must match this JSON schema:\n"


def seat_of(body: Mapping[str, Any]) -> int:
    """The seat a request is for, from its system prompt (``..., seat 3, in a game``)."""
    system = body["messages"][0]["content"]
    found = _SEAT.search(system) or re.search(r"，(\d+)号玩家", system)
    if found is None:
        raise AssertionError(f"no seat in the system prompt: {system[:120]!r}")
    return int(found.group(1))


def tool_of(body: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The function a request offers and its parameters schema (tool or JSON mode)."""
    tools = body.get("tools")
    if tools:
        forced = body.get("tool_choice", {}).get("function", {}).get("name")
        function = next(
            (t["function"] for t in tools if t["function"]["name"] == forced), tools[0]["function"]
        )
        return str(function["name"]), dict(function["parameters"])
    system = body["messages"][0]["content"]
    name = re.search(r"the arguments of `([a-z_]+)`", system)
    schema = system.split(_SCHEMA_MARK, 1)[1]
    return (name.group(1) if name else "?"), json.loads(schema)


_OPTIONS_LINE = re.compile(r"^(?:Options: |选项：)(.*)$", re.MULTILINE)
_POISON_LINE = re.compile(r"^(?:You may poison one of: |你可以毒以下之一：)(.*)$", re.MULTILINE)


def legal(body: Mapping[str, Any], field: str) -> list[int]:
    """The legal codes of ``target`` or ``poison``: the schema's enum when the request has
    one (``enum_targets``), else the options its last message states."""
    prop = tool_of(body)[1].get("properties", {}).get(field, {})
    if "enum" in prop:
        return [int(v) for v in prop["enum"]]
    task = str(body["messages"][-1]["content"])
    line = (_OPTIONS_LINE if field == "target" else _POISON_LINE).findall(task)
    return [int(v) for v in re.findall(r"(\d+) = ", line[-1])] if line else []


def may_save(body: Mapping[str, Any]) -> bool:
    """Whether the witch may save tonight (the schema has ``save`` only then, with an enum;
    the stable tools always have it: the message says so)."""
    props = tool_of(body)[1].get("properties", {})
    if "save" not in props:
        return False
    stable = "poison" in props and "enum" not in props["poison"]
    return not stable or "save = true" in str(body["messages"][-1]["content"])


def user_text(body: Mapping[str, Any]) -> str:
    """Every message of the request but the system prompt, as one text."""
    return "\n".join(str(m.get("content") or "") for m in body["messages"][1:])


def all_text(body: Mapping[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


@dataclass
class LegalTable:
    """A server handler that answers every decision legally (see the module docstring)."""

    # (seat, tool, n, body) -> words, or None for the marker
    speech: Callable[[int, str, int, dict[str, Any]], str | None] | None = None
    json_mode: bool = False
    witch_saves: bool = True
    spread: bool = False  # choose among the legal targets by the request's hash, not the lowest
    counter: dict[tuple[int, str], int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def marker(self, what: str, seat: int, tool: str) -> str:
        with self.lock:
            n = self.counter[(seat, what + tool)] = self.counter.get((seat, what + tool), 0) + 1
        return f"LEAK-{what}-{tool}-s{seat}-{n}"

    def arguments(self, body: dict[str, Any]) -> dict[str, Any]:
        seat = seat_of(body)
        name, schema = tool_of(body)
        props = schema.get("properties", {})
        args: dict[str, Any] = {"reasoning": self.marker("reason", seat, name)}
        if "speech" in props:
            words = self.marker("said", seat, name)
            if self.speech is not None:
                words = self.speech(seat, name, int(words.rsplit("-", 1)[1]), body) or words
            args["speech"] = words
        if "target" in props:
            seats = [v for v in legal(body, "target") if v != 0]
            if self.spread and seats:
                digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).digest()
                args["target"] = seats[digest[0] % len(seats)]
            else:
                args["target"] = min(seats) if seats else 0
        can_save = "save" in props and may_save(body)
        if can_save:
            args["save"] = self.witch_saves
        if "poison" in props and not (self.witch_saves and can_save):
            seats = [v for v in legal(body, "poison") if v != 0]
            args["poison"] = 0 if not seats or seat % 2 else max(seats)
        return args

    def __call__(self, body: dict[str, Any]) -> Reply:
        args = self.arguments(body)
        if body.get("tools"):
            return ToolCall(tool_of(body)[0], json.dumps(args))
        return JSONContent(args)


def llm_specs(server: OpenAIServer, seats: int = 9, **fields: Any) -> dict[int, SeatSpec]:
    """Every seat an LLM on ``server`` (the key in ``ENV``), with ``fields`` overriding."""
    values: dict[str, Any] = {
        "kind": "llm",
        "model": "test-model",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "timeout": 2.0,
        **fields,
    }
    spec = SeatSpec.model_validate(values)
    return dict.fromkeys(range(1, seats + 1), spec)


@dataclass
class Played:
    game: str
    store_path: Path | None  # None: the game ran on a MemoryEventStore
    chain: list[Event]
    status: str
    seating: SpecSeating


def play(
    specs: Mapping[int, SeatSpec],
    *,
    seed: int = 1,
    store_path: Path | None = None,
    config: GameConfig | None = None,
    **seating_options: Any,
) -> Played:
    """Start and run one game (on SQLite at ``store_path``, else in memory); the chain as
    it ended."""
    seating = seating_from_specs(specs, env=ENV, **seating_options)
    store: EventStore = MemoryEventStore() if store_path is None else SQLiteEventStore(store_path)
    try:
        rule = WorkflowRule(werewolf_workflow(seating), store)
        players = [specs[s].public() for s in sorted(specs)]
        game = start_game(rule, seed=seed, config=config, players=players)

        async def run() -> str:
            try:
                return (await rule.run([game]))[game]
            finally:
                await seating.aclose()

        status = asyncio.run(run())
        seating.close()
        chain = store.chain(game)
    finally:
        store.close()
    return Played(game, store_path, chain, status, seating)


# -- the command line ------------------------------------------------------------------------
def write_lineup(
    folder: Path,
    base_url: str,
    *,
    timeout: float = 2.0,
    patience: float | None = 3.0,
    extra: str = "",
) -> Path:
    """``folder/lineup.toml``: every seat an LLM at ``base_url`` (the key in ``KEY_ENV``),
    ``patience`` left out when None (the default then), ``extra`` appended as it is."""
    path = folder / "lineup.toml"
    path.write_text(
        "[defaults]\n"
        'kind = "llm"\n'
        'model = "test-model"\n'
        f'base_url = "{base_url}"\n'
        f'api_key_env = "{KEY_ENV}"\n'
        f"timeout = {timeout}\n" + ("" if patience is None else f"patience = {patience}\n") + extra,
        encoding="utf-8",
    )
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``werewolf *argv`` in this process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def game_log(store: Path) -> tuple[str, list[Event]]:
    """The one game in ``store``: its id and its chain."""
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
        return game, s.chain(game)


# -- what a game costs -----------------------------------------------------------------------
_SENTENCES = (
    "I have been listening carefully, and seat {a} keeps changing the subject whenever the "
    "votes come up.",
    "Seat {b} sounded calm yesterday, but that calm is exactly what a wolf would practise.",
    "If anyone holds a power card, now is the time to speak, because we are running out of days.",
    "I am willing to trust seat {a} for one more round, but I will watch how they vote.",
    "My vote goes where the evidence points, and right now it points at seat {b}.",
)


def realistic_speech(seat: int, tool: str, n: int, body: dict[str, Any]) -> str:
    """Three sentences, about sixty words: a short table speech."""
    a, b = (seat + n) % 9 + 1, (seat * 2 + n) % 9 + 1
    return " ".join(_SENTENCES[(seat + n + i) % len(_SENTENCES)].format(a=a, b=b) for i in range(3))
