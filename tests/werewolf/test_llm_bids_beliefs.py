"""LLM seats in a game that bids for the floor and asks for beliefs, on the local
OpenAI-compatible test server: the bid is its own forced call, and the beliefs ride in
the vote's forced call (one request per vote, nothing extra)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from pulse_core import MemoryEventStore, WorkflowRule
from pulse_core.workflow import read_attachment
from tests.openai_server import OpenAIServer
from werewolf.config import parse_config
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import seating_from_specs

from .llm_support import ENV, LegalTable, legal, llm_specs, tool_of


@dataclass
class BiddingTable(LegalTable):
    """Bids 2 (seat 5: 3); reports 0.3 for every seat it may vote for."""

    def arguments(self, body: dict[str, Any]) -> dict[str, Any]:
        name, schema = tool_of(body)
        if name == "bid":
            return {"reasoning": "bid", "bid": 3 if "seat 5" in json.dumps(body)[:400] else 2}
        args = super().arguments(body)
        if name == "vote" and "beliefs" in schema.get("properties", {}):
            args["beliefs"] = {str(s): 0.3 for s in legal(body, "target") if s != 0}
        return args


def test_llm_seats_bid_and_report_beliefs_in_their_vote_call() -> None:
    config = parse_config({"discussion": "bidding", "beliefs": True, "speech_budget": 4})
    with OpenAIServer(BiddingTable(spread=True)) as server:
        specs = llm_specs(server)
        seating = seating_from_specs(specs, env=ENV)
        store = MemoryEventStore()
        rule = WorkflowRule(werewolf_workflow(seating), store)
        players = [specs[s].public() for s in sorted(specs)]
        game = start_game(rule, seed=3, config=config, players=players)

        async def run() -> str:
            try:
                return (await rule.run([game]))[game]
            finally:
                await seating.aclose()

        assert asyncio.run(run()) == "ended"
        seating.close()
        requests = server.completions()
    chain = store.chain(game)
    bids = [e for e in chain if e.role == "floor-bid"]
    assert bids
    assert all(set(dict(e.meta["detail"]["bids"]).values()) <= {2, 3} for e in bids)
    votes = [e for e in chain if e.role == "vote"]
    reports = [
        json.loads(read_attachment(store, e, name) or "{}")
        for e in votes
        for name in e.meta["attachments"]
        if name.startswith("beliefs/")
    ]
    assert reports
    assert all(set(r.values()) == {0.3} for r in reports if r)
    # one request per decision: the beliefs came with the vote, not in calls of their own
    asked = [tool_of(r.body)[0] for r in requests if r.body is not None]
    ballots = sum(len(e.meta["detail"]["ballots"]) for e in votes)
    assert asked.count("vote") == ballots
