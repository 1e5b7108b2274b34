"""A second, non-game workflow on the core: analyst -> renderer, routed by a status graph.

The report workflow of seed 000 (START -> analyst -> renderer -> END), with a retry edge
(the analyst may say its analysis is incomplete and go again), driven by the adapter on a
real SQLite store. The roles are deterministic code, so the whole chain is predictable.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

from pulse_core import (
    RoleResult,
    SQLiteEventStore,
    StatusGraph,
    WorkflowRule,
    WorkflowType,
    read_content,
    render_template,
)
from pulse_core.events import Event
from pulse_core.store import EventStore

# As a graph would be kept in a config file: plain JSON, parsed strictly.
REPORT_GRAPH = """
{
  "graph": {
    "__start__": {
      "_": {"role": "analyst", "prompt": "Analyse {{period}} sales for {{region}} (topic {{sys.topic}})."}
    },
    "analyst": {
      "incomplete": {"role": "analyst", "prompt": "Attempt {{attempt}} lacks {{missing}}; try again."},
      "complete": {"role": "renderer", "prompt": "Render {{findings}} for {{sys.workflow}} readers."}
    },
    "renderer": {
      "rendered": {"role": "__end__"}
    }
  }
}
"""
REPORT_TEMPLATE = "Total {{total}}, returns {{returns}}."


def build_workflow(graph: StatusGraph, first_status: str = "incomplete") -> WorkflowType[None]:
    """The report workflow; the analyst's first attempt ends with ``first_status``."""

    async def analyst(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        prompt = graph.decision_for(chain).prompt
        attempt = 1 + sum(1 for event in chain if event.role == "analyst")
        if attempt == 1:
            meta = {"status": first_status, "attempt": attempt, "missing": ["returns"]}
        else:
            meta = {"status": "complete", "findings": {"total": 120, "returns": 7}}
        return RoleResult(content=prompt, meta=meta)

    async def renderer(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        prompt = graph.decision_for(chain).prompt
        findings = chain[-1].meta["findings"]
        report = render_template(REPORT_TEMPLATE, findings)
        return RoleResult(content=f"{prompt}\n{report}", meta={"status": "rendered"})

    return WorkflowType(
        name="report",
        roles={"analyst": analyst, "renderer": renderer},
        moderator=graph.moderator(),
    )


def report_graph() -> StatusGraph:
    return StatusGraph.checked(json.loads(REPORT_GRAPH), ["analyst", "renderer"])


def run_report(path: Path, workflow: WorkflowType[None]) -> tuple[str, str]:
    """Start one report topic and run it to the end; returns the topic id and its status."""
    with SQLiteEventStore(path) as store:
        rule = WorkflowRule(workflow, store)
        topic = rule.start("Q3 sales, EMEA", {"period": "Q3", "region": "EMEA"})
        statuses = asyncio.run(rule.run())
    return topic, statuses[topic]


def test_the_status_graph_drives_a_report_to_the_end(tmp_path: Path) -> None:
    graph = report_graph()
    workflow = build_workflow(graph)
    topic, status = run_report(tmp_path / "events.db", workflow)
    assert status == "ended"

    # Everything is in the file: a fresh store reads the whole story back.
    with SQLiteEventStore(tmp_path / "events.db") as store:
        chain = store.chain(topic)
        assert [event.kind for event in chain] == [
            "report.__start__",
            "report.analyst",
            "report.analyst",
            "report.renderer",
        ]
        assert [read_content(store, event) for event in chain[1:]] == [
            f"Analyse Q3 sales for EMEA (topic {topic}).",
            'Attempt 1 lacks ["returns"]; try again.',
            'Render {"returns": 7, "total": 120} for report readers.\nTotal 120, returns 7.',
        ]
        assert [event.meta.get("status") for event in chain[1:]] == [
            "incomplete",
            "complete",
            "rendered",
        ]
        assert workflow.replay_check(chain, finished=True) == []


def test_replay_check_catches_a_graph_that_routes_differently(tmp_path: Path) -> None:
    topic, _ = run_report(tmp_path / "events.db", build_workflow(report_graph()))
    changed = json.loads(REPORT_GRAPH)
    changed["graph"]["analyst"]["incomplete"]["role"] = "renderer"
    other = build_workflow(StatusGraph.checked(changed, ["analyst", "renderer"]))
    with SQLiteEventStore(tmp_path / "events.db") as store:
        problems = other.replay_check(store.chain(topic), finished=True)
    assert problems == ["version 3: moderator named 'renderer' but 'analyst' was recorded"]


def test_a_status_the_graph_does_not_route_fails_only_that_topic(tmp_path: Path) -> None:
    workflow = build_workflow(report_graph(), first_status="unsure")
    topic, status = run_report(tmp_path / "events.db", workflow)
    assert status == "failed"
    with SQLiteEventStore(tmp_path / "events.db") as store:
        chain = store.chain(topic)
    assert [event.kind for event in chain] == [
        "report.__start__",
        "report.analyst",
        "report.__error__",
    ]
    error = chain[-1].meta["error"]
    assert error.startswith("WorkflowError: role 'analyst' ended with status 'unsure'")
    assert "'incomplete', 'complete'" in error
    # The failure is part of the recorded story: a replay agrees with it.
    assert workflow.replay_check(chain) == []
