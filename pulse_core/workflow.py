"""Workflow definitions: roles, moderator, and the optional fold of a topic's state.

A ``Role`` is pure in the seed's sense: it reads the topic's chain and returns a
``RoleResult(content, meta)``; the adapter writes the event. The ``moderator`` names the
next role (or ``END``) from the topic's last workflow event and its folded state; it and
``fold`` must be pure functions of the events (no clock, no global random, no set order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from .errors import WorkflowError
from .events import Event, Meta, check_kind
from .store import EventStore

__all__ = [
    "ATTACHMENTS",
    "END",
    "ERROR",
    "MODERATOR_FAILED",
    "RESUME",
    "START",
    "Role",
    "RoleResult",
    "WorkflowType",
    "is_control",
    "read_attachment",
    "read_content",
]

START = "__start__"
"""The role name of a topic's input event."""
END = "__end__"
"""What a moderator returns to end a topic."""
ERROR = "__error__"
"""The role name of the event recorded when a role raised; the topic waits to be resumed."""
RESUME = "__resume__"
"""The role name of the event that lets a failed topic go on."""
MODERATOR_FAILED = "(moderator)"
"""The ``meta["role"]`` of an ``__error__`` event recorded because the moderator raised."""
ATTACHMENTS = "attachments"
"""The meta key that maps an event's attachment names to their object hashes."""

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RoleResult:
    """What a role returns: ``content`` goes to the object store, ``meta`` into the event.

    ``attachments`` are further texts that belong to the event but are not its content
    (private reasoning, raw model exchanges): each is stored in the object store and its
    hash recorded in ``meta["attachments"][name]``; exports carry them inline.

    ``canonical`` is the role's word that ``meta`` is already what its JSON round trip
    gives, and is its own: dicts of ``str`` keys in sorted order, lists (no tuples), and
    values of the exact types ``str``, ``int``, ``float``, ``bool`` or ``None``, made for
    this result and kept by nothing else. The event then holds ``meta`` itself instead of
    a JSON copy of it (its JSON text is still made and checked); a store gives back the same
    either way. Leave it False when in doubt: the copy is always correct.
    """

    content: str
    meta: Meta = field(default_factory=dict)
    attachments: Mapping[str, str] = field(default_factory=dict)
    canonical: bool = False


class Role(Protocol):
    async def __call__(
        self, chain: Sequence[Event], topic_id: str, store: EventStore
    ) -> RoleResult: ...


def is_control(event: Event) -> bool:
    """True for the adapter's own bookkeeping events (errors, resumes), which roles skip."""
    role = event.role
    return role.startswith("__") and role != START


def read_content(store: EventStore, event: Event) -> str:
    """The event's content, read from the object store and verified against its hash."""
    return store.objects.get(event.hash).decode("utf-8")


def read_attachment(store: EventStore, event: Event, name: str) -> str | None:
    """The text of one attachment of ``event``, or None when it has none of that name."""
    digest = event.meta.get(ATTACHMENTS, {}).get(name)
    return None if digest is None else store.objects.get(digest).decode("utf-8")


def _no_fold(state: Any, event: Event) -> Any:
    return state


@dataclass(frozen=True)
class WorkflowType(Generic[S]):
    """A workflow: its name (the kind prefix), roles by name, and a moderator.

    ``fold(state, event)`` with ``initial`` rebuilds a topic's state from its workflow events
    (everything but control events); the moderator is called as ``moderator(last, state)``.
    Without a fold the state stays ``initial`` (``None`` by default). ``eager(topic_id,
    state)`` says a topic's roles answer without waiting on anything (no I/O): a rule then
    starts them inline instead of in a task each. A role that waits after all carries on in
    a task, which code tied to the task it began in (anyio cancel scopes, as in httpx) does
    not allow: say True only for roles that do no I/O. Without it every role gets a task.
    ``raises`` lists the exceptions that are the caller's mistake rather than the topic's
    (a component breaking its contract): a role raising one still records its failure, so
    the log is the same, and then the tick raises it to the caller.
    """

    name: str
    roles: Mapping[str, Role]
    moderator: Callable[[Event, S], str]
    fold: Callable[[S, Event], S] = field(default=_no_fold)
    initial: Any = None
    eager: Callable[[str, S], bool] | None = None
    raises: tuple[type[Exception], ...] = ()

    def __post_init__(self) -> None:
        for role in self.roles:
            if role.startswith("__"):
                raise WorkflowError(f"role name {role!r} is reserved (names starting '__')")
            check_kind(f"{self.name}.{role}")
        check_kind(f"{self.name}.{START}")

    def kind(self, role: str) -> str:
        """``workflow.role``."""
        return f"{self.name}.{role}"

    def replay_check(self, chain: Sequence[Event], *, finished: bool = False) -> list[str]:
        """Re-fold a recorded chain and ask the moderator at every prefix.

        Returns a list of disagreements, empty when the chain begins with ``__start__``, the
        moderator names at each step the role that was recorded next, every recorded
        failure (``__error__``) is of the step the moderator named (``MODERATOR_FAILED``
        when it raised), and, with ``finished=True``, the moderator says ``END`` after the
        last event. A moderator or fold that changed, or that is not deterministic, shows
        up here.
        """
        problems: list[str] = []
        state: S = self.initial
        last: Event | None = None
        named: str | None = None  # what the moderator named after ``last``
        for event in chain:
            if event.role == ERROR:
                failed = event.meta.get("role")
                if named is not None and failed != named:
                    problems.append(
                        f"version {event.version}: moderator named {named!r} "
                        f"but a failure of {failed!r} was recorded"
                    )
                continue
            if is_control(event):
                continue
            if last is None and event.role != START:
                problems.append(f"version {event.version}: chain begins with {event.role!r}")
            if named is not None and event.role != named:
                problems.append(
                    f"version {event.version}: moderator named {named!r} "
                    f"but {event.role!r} was recorded"
                )
            state = self.fold(state, event)
            last = event
            try:
                named = self.moderator(event, state)
            except Exception:  # noqa: BLE001 - a raising moderator is a finding to report
                named = MODERATOR_FAILED
        if last is None:
            problems.append("chain has no workflow events")
        elif finished and named != END:
            problems.append(
                f"version {last.version}: the topic ended but the moderator named {named!r}"
            )
        return problems
