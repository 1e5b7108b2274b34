"""The status-graph moderator: ``graph[last_role][status] -> Target(role, prompt)``.

A zero-cost moderator for workflows whose next step depends only on how the last role
ended. Each role writes its outcome to ``meta["status"]``; the graph maps that status to
the next role (or ``END``) and a prompt template for it. The input event (``START``) has
no status of its own: its one edge is the status ``"_"``.

The prompt is rendered with :mod:`pulse_core.template`, with the last event's meta as the
context and these ``sys`` values:

- ``{{sys.role}}``: the role that just ended (``__start__`` for the input event),
- ``{{sys.status}}``: the status that was routed (``_`` for the input event),
- ``{{sys.next}}``: the role the edge leads to,
- ``{{sys.topic}}`` and ``{{sys.workflow}}``: the topic id and workflow name, when the
  decision is made from an event (``moderator()``, ``evaluate_event``, ``decision_for``).

A moderator only returns a role name, so a role that wants its prompt asks the graph with
its chain: ``graph.decision_for(chain).prompt`` (pure, so replays agree).

A graph from a file is parsed strictly (``StatusGraph.parse``: unknown fields are refused
with their paths) and checked against the workflow's roles (``validate`` lists every
problem with a dot path such as ``graph.coder.fail.role``; ``StatusGraph.checked`` raises
them together as ``GraphError``). Example, as JSON::

    {"graph": {
        "__start__": {"_": {"role": "coder", "prompt": "Build {{task}}"}},
        "coder": {"ok": {"role": "__end__"},
                  "fail": {"role": "coder", "prompt": "Fix: {{error}}"}}}}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import GraphError, TemplateError, WorkflowError
from .events import Event, Meta
from .template import SYS_PREFIX, render, template_references
from .workflow import END, START, is_control

__all__ = [
    "START_STATUS",
    "SYS_NAMES",
    "Decision",
    "Problem",
    "StatusGraph",
    "Target",
    "validate",
]

START_STATUS = "_"
"""The status of the input event: ``graph["__start__"]["_"]`` is where a topic begins."""
SYS_NAMES = ("next", "role", "status", "topic", "workflow")
"""The ``{{sys.x}}`` names a graph prompt may use."""

_STATUS = re.compile(r"[A-Za-z0-9_-]+")  # no dots, so a problem's dot path stays unambiguous
_ROOT = "(root)"
_PARSE_MESSAGES = {
    "extra_forbidden": "unknown field",
    "missing": "required field is missing",
    "model_type": "expected an object",
    "dict_type": "expected an object",
    "string_type": "expected a string",
}


class Problem(NamedTuple):
    """One thing wrong with a graph: where (a dot path) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class Target(BaseModel):
    """Where an edge leads: the next role (or ``END``) and the prompt template for it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    role: str
    prompt: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """The evaluated edge: the next role (or ``END``) and its rendered prompt."""

    role: str
    prompt: str

    @property
    def ends(self) -> bool:
        return self.role == END


def _graph_error(problems: Iterable[Problem]) -> GraphError:
    pairs: list[tuple[str, str]] = list(problems)
    return GraphError(pairs)


class StatusGraph(BaseModel):
    """``graph[last_role][status] -> Target``; see the module docstring."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    graph: dict[str, dict[str, Target]]

    # -- building -------------------------------------------------------------------------
    @classmethod
    def parse(cls, data: object) -> StatusGraph:
        """A graph from plain data (loaded JSON or TOML); raises ``GraphError`` with paths."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = [
                Problem(
                    ".".join(str(part) for part in error["loc"]) or _ROOT,
                    _PARSE_MESSAGES.get(error["type"], error["msg"]),
                )
                for error in exc.errors(include_url=False)
            ]
            raise _graph_error(problems) from None

    @classmethod
    def checked(cls, data: StatusGraph | Mapping[str, Any], roles: Iterable[str]) -> StatusGraph:
        """Parse ``data`` if needed and validate it against ``roles``; raise ``GraphError``."""
        graph = data if isinstance(data, StatusGraph) else cls.parse(data)
        problems = validate(graph, roles)
        if problems:
            raise _graph_error(problems)
        return graph

    # -- running --------------------------------------------------------------------------
    def status_of(self, last_role: str, meta: Meta) -> str:
        """The status to route on: ``"_"`` after ``START``, else ``meta["status"]``."""
        if last_role == START:
            return START_STATUS
        status = meta.get("status")
        if status is None:
            raise WorkflowError(
                f"role {last_role!r} ended without a status (meta has no 'status'); "
                f"the status graph routes: {self._routed(last_role)}"
            )
        if not isinstance(status, str):
            raise WorkflowError(
                f"role {last_role!r} ended with status {status!r}, which is not a string"
            )
        return status

    def evaluate(
        self, last_role: str, meta: Meta, *, sys: Mapping[str, Any] | None = None
    ) -> Decision:
        """The next role and its rendered prompt after ``last_role`` ended with ``meta``.

        ``sys`` adds ``{{sys.x}}`` values (the graph's own ``role``, ``status`` and
        ``next`` win). Raises ``WorkflowError`` when the graph does not route the role or
        its status, and ``TemplateError`` when the prompt cannot be rendered.
        """
        statuses = self.graph.get(last_role)
        if statuses is None:
            raise WorkflowError(
                f"the status graph has no entry for role {last_role!r}: nothing says what "
                "follows it"
            )
        status = self.status_of(last_role, meta)
        target = statuses.get(status)
        if target is None:
            raise WorkflowError(
                f"role {last_role!r} ended with status {status!r}, which the status graph "
                f"does not route; it routes: {self._routed(last_role)}"
            )
        system = {**(sys or {}), "role": last_role, "status": status, "next": target.role}
        try:
            prompt = render(target.prompt, meta, sys=system)
        except TemplateError as exc:
            raise TemplateError(f"graph.{last_role}.{status}.prompt: {exc}", exc.reference) from exc
        return Decision(target.role, prompt)

    def evaluate_event(self, last: Event) -> Decision:
        """``evaluate`` for the event a role just wrote (adds ``sys.topic``, ``sys.workflow``)."""
        return self.evaluate(
            last.role, last.meta, sys={"topic": last.key, "workflow": last.workflow}
        )

    def decision_for(self, chain: Sequence[Event]) -> Decision:
        """The decision after the last workflow event of ``chain``: what a role was asked."""
        for event in reversed(chain):
            if not is_control(event):
                return self.evaluate_event(event)
        raise WorkflowError("the chain has no workflow event to decide from")

    def moderator(self) -> Callable[[Event, object], str]:
        """A ``WorkflowType.moderator``: the role the graph routes the last event to.

        It renders the prompt too, so a broken template fails the topic at the decision.
        """

        def moderate(last: Event, state: object) -> str:
            return self.evaluate_event(last).role

        return moderate

    def _routed(self, role: str) -> str:
        return ", ".join(repr(status) for status in self.graph.get(role, {})) or "nothing"


# -- validation ---------------------------------------------------------------------------
def _prompt_problems(path: str, prompt: str) -> list[Problem]:
    try:
        references = template_references(prompt)
    except TemplateError as exc:
        return [Problem(path, str(exc))]
    known = ", ".join(f"sys.{name}" for name in SYS_NAMES)
    return [
        Problem(path, f"unknown sys value {{{{{reference}}}}} (known: {known})")
        for reference in references
        if reference.startswith(SYS_PREFIX) and reference[len(SYS_PREFIX) :] not in SYS_NAMES
    ]


def _target_problem(path: str, role: str, names: Sequence[str]) -> Problem | None:
    if role == START:
        return Problem(path, f"{START!r} cannot be a target: it is the input event")
    if role != END and role not in names:
        known = ", ".join([*names, END])
        return Problem(path, f"unknown role {role!r} (known: {known})")
    return None


def _closure(start: str, edges: Mapping[str, set[str]]) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), set()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def validate(graph: StatusGraph, roles: Iterable[str]) -> list[Problem]:
    """Every problem of ``graph`` for a workflow with ``roles``, each with its dot path.

    Checks: a ``__start__`` entry with exactly the status ``"_"``; entries only for known
    roles; no empty status map; status names of letters, digits, ``_`` and ``-``; targets
    that are known roles or ``__end__``; prompts that parse and use only known ``sys``
    names; every role reachable from ``__start__``; every reached role has an entry; and
    from every entry a path to ``__end__``. Problems of entries come in graph order, then
    reachability by ``roles`` order, then missing paths to ``__end__`` in graph order.
    """
    names = list(dict.fromkeys(roles))
    problems: list[Problem] = []
    forward: dict[str, set[str]] = {}
    backward: dict[str, set[str]] = {}

    if START not in graph.graph:
        problems.append(
            Problem(
                f"graph.{START}",
                f"missing: the graph must say where a topic begins (status {START_STATUS!r})",
            )
        )
    for source, statuses in graph.graph.items():
        base = f"graph.{source}"
        if source != START and source not in names:
            problems.append(Problem(base, f"unknown role {source!r} (known: {', '.join(names)})"))
        if not statuses:
            problems.append(Problem(base, "empty status map: no status leads anywhere"))
        elif source == START and START_STATUS not in statuses:
            problems.append(Problem(f"{base}.{START_STATUS}", "missing: the input event's edge"))
        for status, target in statuses.items():
            path = f"{base}.{status}"
            if source == START and status != START_STATUS:
                problems.append(Problem(path, f"{START} has only the status {START_STATUS!r}"))
            elif not _STATUS.fullmatch(status):
                problems.append(
                    Problem(path, "a status is made of letters, digits, '_' and '-' only")
                )
            bad_target = _target_problem(f"{path}.role", target.role, names)
            if bad_target is not None:
                problems.append(bad_target)
            else:
                forward.setdefault(source, set()).add(target.role)
                backward.setdefault(target.role, set()).add(source)
            problems.extend(_prompt_problems(f"{path}.prompt", target.prompt))

    reachable = _closure(START, forward)
    can_end = _closure(END, backward)
    for role in names:
        if role not in reachable:
            problems.append(
                Problem(f"graph.{role}", f"role {role!r} is not reachable from {START}")
            )
        elif role not in graph.graph:
            problems.append(
                Problem(f"graph.{role}", f"missing: role {role!r} is a target but has no statuses")
            )
    for source, statuses in graph.graph.items():
        known_source = source == START or source in names
        if statuses and known_source and source not in can_end:
            problems.append(Problem(f"graph.{source}", f"no path from {source!r} to {END}"))
    return problems
