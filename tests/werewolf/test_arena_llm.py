"""A tournament between two fake models on the local OpenAI-compatible test server.

Both "models" answer from the prompt their seat is sent, and nothing else:

- ``skilled`` plays as a careful player would with what its prompt shows. As the seer it
  reports every wolf it found ("I am the seer. I checked seat 4: a wolf."); on the good
  side it votes for a seat its own checks or a quoted speech name as a wolf, and
  otherwise votes with the other careful players (the highest seat); as a wolf it knows its pack (the prompt names it), never votes or
  bites a fellow wolf, joins the pack's earlier proposals and bites a claimed seer first; as the witch it saves on night 1
  and poisons a reported wolf.
- ``random`` draws every field uniformly from the schema it is offered (so it sometimes
  offers the witch an illegal pair of potions, which the rules refuse: fallbacks).

Over enough games the ranking must show it: the skilled model first, with Bradley-Terry
and Elo intervals that do not overlap. Sixteen games are enough: the games are deterministic
(seeded, and each answer follows from its prompt), and over them the Elo intervals are 64
points apart (75 over 30 games; with 10 they nearly touch).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.openai_server import TEST_API_KEY, OpenAIServer, Reply, ToolCall
from tests.werewolf.llm_support import legal, may_save, tool_of
from werewolf.cli import main

KEY_ENV = "ARENA_TEST_KEY"
_SEAT = re.compile(r"seat (\d+)")
_PACK = re.compile(r"the wolves are (.*?)\. Nobody else knows")
_MY_CHECK = re.compile(r"you \(the seer\) checked seat (\d+) \([^)]*\): a WOLF")
_SEER_NIGHT = re.compile(r"Night (\d+): choose one player to check")
_PROPOSED = re.compile(r"-> seat (\d+)")
_REPORT = re.compile(r"I checked seat (\d+): a wolf")
_CLAIM = re.compile(r"<<<\S+ seat=(\d+)[^\n]*\n[^\n]*I am the seer")


def _texts(body: dict[str, Any]) -> tuple[str, str]:
    messages = body["messages"]
    return str(messages[0]["content"]), "\n".join(str(m.get("content") or "") for m in messages)


def _legal(body: dict[str, Any], field: str) -> list[int]:
    return legal(body, field)


def skilled(body: dict[str, Any]) -> dict[str, Any]:
    system, text = _texts(body)
    seat = int(_SEAT.search(system).group(1))  # type: ignore[union-attr]
    name, parameters = tool_of(body)
    props = parameters["properties"]
    pack_line = _PACK.search(system)
    pack = {int(s) for s in _SEAT.findall(pack_line.group(1))} if pack_line else set()
    wolf = bool(pack)
    found = [int(s) for s in _MY_CHECK.findall(text)]
    reported = found + [int(s) for s in _REPORT.findall(text)]
    claimed_seers = [int(s) for s in _CLAIM.findall(text)]
    args: dict[str, Any] = {"reasoning": "careful"}

    def first(options: list[int], preferred: list[int]) -> int:
        for seat_ in preferred:
            if seat_ in options and seat_ != 0:
                return seat_
        return 0 if 0 in options else options[0]

    if name == "speak":
        lines = [f"I checked seat {s}: a wolf." for s in found]
        args["speech"] = ("I am the seer. " + " ".join(lines)) if found else "I listen."
    elif name == "seer_check":
        options = _legal(body, "target")
        night = int(_SEER_NIGHT.search(text).group(1))  # type: ignore[union-attr]
        args["target"] = options[(seat + night) % len(options)]  # a new seat each night
    elif name == "wolf_kill":
        options = [o for o in _legal(body, "target") if o not in pack and o != 0]
        # a careful wolf joins the pack's earlier proposals: split wolves kill nobody
        earlier = [int(s) for s in _PROPOSED.findall(text)]
        args["target"] = first(options, earlier + claimed_seers) if options else 0
    elif name == "vote":
        options = _legal(body, "target")
        if wolf:
            goods = [o for o in options if o not in pack and o != 0]
            args["target"] = first(goods, claimed_seers) if goods else 0
        else:
            # a reported wolf first; else the good side votes together (the highest seat
            # but its own), so three wolves voting at random cannot carry every exile
            together = sorted((o for o in options if o not in (0, seat)), reverse=True)
            args["target"] = first(options, reported + together[:1])
    elif name == "hunter_shot":
        args["target"] = first(_legal(body, "target"), reported)
    elif name == "witch_action":
        save = may_save(body) and "night 1" in text.lower() and not reported
        if "save" in props:
            args["save"] = save
        if "poison" in props and _legal(body, "poison"):
            poisons = [p for p in _legal(body, "poison") if p in reported and p != 0]
            args["poison"] = poisons[0] if poisons and not save else 0
    return args


def uniform(body: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(json.dumps(body["messages"], sort_keys=True))
    props = tool_of(body)[1]["properties"]
    args: dict[str, Any] = {"reasoning": "anything"}
    for field, schema in props.items():
        if field == "reasoning":
            continue
        if field in ("target", "poison"):
            args[field] = rng.choice(legal(body, field) or [0])
        elif schema.get("type") == "boolean":
            args[field] = may_save(body) and rng.random() < 0.5
        else:
            args[field] = "Hm."
    return args


def handler(body: dict[str, Any]) -> Reply:
    play = skilled if body["model"] == "skilled" else uniform
    return ToolCall(tool_of(body)[0], json.dumps(play(body)))


def _roster(tmp_path: Path, server: OpenAIServer) -> Path:
    roster = tmp_path / "roster.toml"
    lines = []
    for model in ("skilled", "random"):
        lines += [
            f"[players.{model}]",
            'kind = "llm"',
            f'model = "{model}"',
            f'base_url = "{server.base_url}"',
            f'api_key_env = "{KEY_ENV}"',
            "timeout = 5.0",
            f'[prices."{model}"]',
            "prompt = 0.5",
            "completion = 1.5",
        ]
    roster.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return roster


def test_the_skilled_model_ranks_higher_with_separate_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, TEST_API_KEY)
    store = tmp_path / "s.sqlite3"
    with OpenAIServer(handler, models=["skilled", "random"]) as server:
        argv = ["arena", "run", "--roster", str(_roster(tmp_path, server)), "--games", "16",
                "--concurrency", "8", "--name", "duel", "--store", str(store), "-q"]  # fmt: skip
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "16 of 16 games ended" in out
        code = main(["arena", "report", "duel", "--store", str(store), "--width", "160"])
        out, err = capsys.readouterr()
        assert code == 0, err
        requests = len(server.completions())
    figures = json.loads((tmp_path / "arena" / "duel.report.json").read_text())
    bt = figures["ratings"]["bradley_terry"]
    assert bt["skilled"]["value"] > bt["random"]["value"]
    assert bt["skilled"]["low"] > bt["random"]["high"], bt
    elo = figures["ratings"]["elo"]
    assert elo["skilled"]["low"] > elo["random"]["high"], elo
    wins = figures["players"]
    assert wins["skilled"]["win"]["value"] > wins["random"]["win"]["value"]
    # every answer was a request, and its tokens and cost are in the figures
    skilled_, random_ = wins["skilled"], wins["random"]
    assert skilled_["calls"] + random_["calls"] == requests
    assert skilled_["tokens"] > 0
    assert skilled_["cost"] > 0
    assert skilled_["latency_ms"]["value"] > 0
    assert random_["fallback_rate"]["hits"] >= skilled_["fallback_rate"]["hits"]
    assert "skilled" in out
    assert "Tokens/game" in out
