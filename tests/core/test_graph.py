"""The status-graph moderator: evaluation, strict parsing, validation with dot paths."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from pulse_core import (
    END,
    START,
    Decision,
    Event,
    GraphError,
    Problem,
    StatusGraph,
    Target,
    TemplateError,
    WorkflowError,
    validate_graph,
)

TOPIC = "01HZZZZZZZZZZZZZZZZZZZZZZZ"

CODING: dict[str, Any] = {
    "graph": {
        "__start__": {"_": {"role": "coder", "prompt": "Build {{task}} ({{sys.status}})"}},
        "coder": {
            "ok": {"role": "reviewer", "prompt": "Review {{files}} from {{sys.role}}"},
            "fail": {"role": "coder", "prompt": "Fix {{error.message}}, then {{sys.next}}"},
        },
        "reviewer": {
            "approve": {"role": "__end__"},
            "reject": {"role": "coder", "prompt": "Reviewer says: {{notes}}"},
        },
    }
}
ROLES = ("coder", "reviewer")


def event(role: str, meta: dict[str, Any], version: int = 2) -> Event:
    return Event(
        id="01HZZZZZZZZZZZZZZZZZZZZZZ" + str(version % 10),
        occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
        kind=f"coding.{role}",
        key=TOPIC,
        hash="0" * 64,
        meta=meta,
        code_rev="test",
        version=version,
        seq=version,
    )


@pytest.fixture
def graph() -> StatusGraph:
    return StatusGraph.checked(CODING, ROLES)


def problems_of(data: dict[str, Any], roles: tuple[str, ...] = ROLES) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in validate_graph(StatusGraph.parse(data), roles)]


# -- evaluation ----------------------------------------------------------------------------
def test_start_routes_on_the_unit_status_whatever_its_meta(graph: StatusGraph) -> None:
    decision = graph.evaluate(START, {"task": "a parser", "status": "ignored"})
    assert decision == Decision("coder", "Build a parser (_)")
    assert not decision.ends


def test_a_role_routes_on_its_meta_status(graph: StatusGraph) -> None:
    assert graph.evaluate("coder", {"status": "fail", "error": {"message": "E1"}}) == Decision(
        "coder", "Fix E1, then coder"
    )
    assert graph.evaluate("coder", {"status": "ok", "files": ["a.py", "b.py"]}) == Decision(
        "reviewer", 'Review ["a.py", "b.py"] from coder'
    )


def test_an_end_edge_ends(graph: StatusGraph) -> None:
    decision = graph.evaluate("reviewer", {"status": "approve"})
    assert decision == Decision(END, "")
    assert decision.ends


def test_the_moderator_returns_the_routed_role(graph: StatusGraph) -> None:
    moderator = graph.moderator()
    assert moderator(event(START, {"task": "t"}, 1), None) == "coder"
    assert moderator(event("coder", {"status": "ok", "files": []}), None) == "reviewer"
    assert moderator(event("reviewer", {"status": "approve"}), None) == END


def test_event_decisions_know_the_topic_and_workflow() -> None:
    graph = StatusGraph.checked(
        {
            "graph": {
                "__start__": {"_": {"role": "a", "prompt": "{{sys.workflow}}/{{sys.topic}}"}},
                "a": {"done": {"role": "__end__"}},
            }
        },
        ["a"],
    )
    assert graph.evaluate_event(event(START, {}, 1)).prompt == f"coding/{TOPIC}"
    # Without an event there is no topic: the sys value stays literal, never empty.
    assert graph.evaluate(START, {}).prompt == "{{sys.workflow}}/{{sys.topic}}"


def test_decision_for_skips_control_events(graph: StatusGraph) -> None:
    chain = [
        event(START, {"task": "t"}, 1),
        event("coder", {"status": "fail", "error": {"message": "boom"}}, 2),
        event("__error__", {"role": "coder", "error": "x"}, 3),
        event("__resume__", {}, 4),
    ]
    assert graph.decision_for(chain) == Decision("coder", "Fix boom, then coder")


def test_decision_for_an_empty_chain_raises(graph: StatusGraph) -> None:
    with pytest.raises(WorkflowError, match="no workflow event"):
        graph.decision_for([])


# -- runtime failures ------------------------------------------------------------------------
def test_a_status_the_graph_does_not_route_names_role_and_status(graph: StatusGraph) -> None:
    with pytest.raises(WorkflowError) as info:
        graph.evaluate("coder", {"status": "maybe"})
    message = str(info.value)
    assert "role 'coder' ended with status 'maybe'" in message
    assert "'ok', 'fail'" in message


def test_a_missing_status_names_the_role(graph: StatusGraph) -> None:
    with pytest.raises(WorkflowError, match="role 'reviewer' ended without a status"):
        graph.evaluate("reviewer", {"notes": "n"})


def test_a_status_that_is_not_a_string_is_refused(graph: StatusGraph) -> None:
    with pytest.raises(WorkflowError, match="status 3, which is not a string"):
        graph.evaluate("coder", {"status": 3})


def test_a_role_without_an_entry_is_refused(graph: StatusGraph) -> None:
    with pytest.raises(WorkflowError, match="no entry for role 'tester'"):
        graph.evaluate("tester", {"status": "ok"})


def test_a_prompt_reference_missing_from_meta_names_the_edge(graph: StatusGraph) -> None:
    with pytest.raises(TemplateError, match=r"graph\.reviewer\.reject\.prompt: .*\{\{notes\}\}"):
        graph.evaluate("reviewer", {"status": "reject"})


def test_the_moderator_fails_loud_on_a_broken_prompt(graph: StatusGraph) -> None:
    with pytest.raises(TemplateError, match="notes"):
        graph.moderator()(event("reviewer", {"status": "reject"}), None)


# -- parsing -------------------------------------------------------------------------------
def test_parse_reads_plain_json_and_builds_equal_graphs() -> None:
    parsed = StatusGraph.parse(json.loads(json.dumps(CODING)))
    built = StatusGraph(
        graph={
            START: {"_": Target(role="coder", prompt="Build {{task}} ({{sys.status}})")},
            "coder": {
                "ok": Target(role="reviewer", prompt="Review {{files}} from {{sys.role}}"),
                "fail": Target(role="coder", prompt="Fix {{error.message}}, then {{sys.next}}"),
            },
            "reviewer": {
                "approve": Target(role=END),
                "reject": Target(role="coder", prompt="Reviewer says: {{notes}}"),
            },
        }
    )
    assert parsed == built


def test_parse_refuses_unknown_fields_and_wrong_types_with_paths() -> None:
    data = {
        "graph": {
            "__start__": {"_": {"role": "coder", "promt": "typo"}},
            "coder": {"ok": {"role": 7}, "fail": "coder"},
        },
        "name": "extra",
    }
    with pytest.raises(GraphError) as info:
        StatusGraph.parse(data)
    assert info.value.problems == [
        ("graph.__start__._.promt", "unknown field"),
        ("graph.coder.ok.role", "expected a string"),
        ("graph.coder.fail", "expected an object"),
        ("name", "unknown field"),
    ]


def test_parse_names_a_missing_field_and_a_non_object_root() -> None:
    with pytest.raises(GraphError) as info:
        StatusGraph.parse({"graph": {"__start__": {"_": {"prompt": "p"}}}})
    assert info.value.problems == [("graph.__start__._.role", "required field is missing")]
    with pytest.raises(GraphError) as info:
        StatusGraph.parse(["not", "an", "object"])
    assert info.value.problems == [("(root)", "expected an object")]


# -- validation ----------------------------------------------------------------------------
def test_a_sound_graph_has_no_problems(graph: StatusGraph) -> None:
    assert validate_graph(graph, ROLES) == []


def test_unknown_target_roles_are_found_with_their_paths() -> None:
    data = json.loads(json.dumps(CODING))
    data["graph"]["coder"]["fail"]["role"] = "debugger"
    data["graph"]["reviewer"]["reject"]["role"] = "__start__"
    assert problems_of(data) == [
        ("graph.coder.fail.role", "unknown role 'debugger' (known: coder, reviewer, __end__)"),
        ("graph.reviewer.reject.role", "'__start__' cannot be a target: it is the input event"),
    ]


def test_unreachable_roles_and_unknown_entries_are_found() -> None:
    data = json.loads(json.dumps(CODING))
    data["graph"]["ghost"] = {"ok": {"role": "__end__"}}
    assert problems_of(data, (*ROLES, "tester")) == [
        ("graph.ghost", "unknown role 'ghost' (known: coder, reviewer, tester)"),
        ("graph.tester", "role 'tester' is not reachable from __start__"),
    ]


def test_roles_with_no_way_to_end_are_found() -> None:
    data = {
        "graph": {
            "__start__": {"_": {"role": "coder"}},
            "coder": {"ok": {"role": "reviewer"}, "fail": {"role": "coder"}},
            "reviewer": {"reject": {"role": "coder"}},
        }
    }
    assert problems_of(data) == [
        ("graph.__start__", "no path from '__start__' to __end__"),
        ("graph.coder", "no path from 'coder' to __end__"),
        ("graph.reviewer", "no path from 'reviewer' to __end__"),
    ]


def test_a_reached_role_without_statuses_and_an_empty_map_are_found() -> None:
    data = {
        "graph": {
            "__start__": {"_": {"role": "coder"}},
            "coder": {"ok": {"role": "reviewer"}, "done": {"role": "__end__"}},
            "reviewer": {},
        }
    }
    assert problems_of(data) == [
        ("graph.reviewer", "empty status map: no status leads anywhere"),
    ]
    del data["graph"]["reviewer"]
    assert problems_of(data) == [
        ("graph.reviewer", "missing: role 'reviewer' is a target but has no statuses"),
    ]


def test_start_must_exist_and_use_only_the_unit_status() -> None:
    no_start = {"graph": {"coder": {"ok": {"role": "__end__"}}}}
    assert problems_of(no_start, ("coder",)) == [
        ("graph.__start__", "missing: the graph must say where a topic begins (status '_')"),
        ("graph.coder", "role 'coder' is not reachable from __start__"),
    ]
    wrong_status = {
        "graph": {"__start__": {"go": {"role": "coder"}}, "coder": {"ok": {"role": "__end__"}}}
    }
    assert problems_of(wrong_status, ("coder",)) == [
        ("graph.__start__._", "missing: the input event's edge"),
        ("graph.__start__.go", "__start__ has only the status '_'"),
    ]


def test_status_names_with_dots_are_refused() -> None:
    data = json.loads(json.dumps(CODING))
    data["graph"]["coder"]["ok.partial"] = {"role": "__end__"}
    assert problems_of(data) == [
        ("graph.coder.ok.partial", "a status is made of letters, digits, '_' and '-' only"),
    ]


def test_template_problems_point_at_the_prompt() -> None:
    data = json.loads(json.dumps(CODING))
    data["graph"]["coder"]["ok"]["prompt"] = "Review {{#files}}"
    data["graph"]["reviewer"]["reject"]["prompt"] = "{{sys.reviewer}} {{sys.topic}} {{notes}}"
    problems = problems_of(data)
    assert [path for path, _ in problems] == [
        "graph.coder.ok.prompt",
        "graph.reviewer.reject.prompt",
    ]
    assert "malformed tag '{{#files}}'" in problems[0][1]
    assert problems[1][1] == (
        "unknown sys value {{sys.reviewer}} "
        "(known: sys.next, sys.role, sys.status, sys.topic, sys.workflow)"
    )


def test_checked_raises_every_problem_at_once() -> None:
    data = json.loads(json.dumps(CODING))
    data["graph"]["coder"]["fail"]["role"] = "debugger"
    data["graph"]["reviewer"]["approve"] = {"role": "coder"}
    with pytest.raises(GraphError) as info:
        StatusGraph.checked(data, ROLES)
    assert str(info.value) == (
        "invalid status graph: "
        "graph.coder.fail.role: unknown role 'debugger' (known: coder, reviewer, __end__); "
        "graph.__start__: no path from '__start__' to __end__; "
        "graph.coder: no path from 'coder' to __end__; "
        "graph.reviewer: no path from 'reviewer' to __end__"
    )
    assert [path for path, _ in info.value.problems] == [
        "graph.coder.fail.role",
        "graph.__start__",
        "graph.coder",
        "graph.reviewer",
    ]
    assert isinstance(info.value, WorkflowError)


def test_problems_read_as_path_and_message() -> None:
    problem = Problem("graph.coder.fail.role", "unknown role 'x'")
    assert str(problem) == "graph.coder.fail.role: unknown role 'x'"
    assert problem == ("graph.coder.fail.role", "unknown role 'x'")
