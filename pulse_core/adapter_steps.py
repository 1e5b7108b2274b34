"""One step of a topic, as the adapter (``pulse_core.adapter``) takes it: the topic's
snapshot, the role the moderator named for it, and the role's result made ready to append
(its draft, and the texts to store first with their hashes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import WorkflowError
from .events import Draft, Event, Meta
from .ids import IdSource
from .objects import digest_of
from .workflow import ATTACHMENTS, START, RoleResult, WorkflowType

__all__ = ["Prepared", "Run", "Topic", "attach", "prepare"]

S = TypeVar("S")


@dataclass(slots=True)
class Topic(Generic[S]):
    """One topic's snapshot: its chain, folded state and where it stands."""

    state: S
    chain: list[Event] = field(default_factory=list)  # dropped once the topic has ended
    version: int = 0  # of the last event applied
    last: Event | None = None  # the last workflow (non-control) event
    failed: bool = False
    ended: bool = False


@dataclass(slots=True)  # not frozen: made once per event, never changed (a frozen init is slow)
class Prepared:
    """A role's result made ready to append: its draft and the texts to store first, with
    their hashes (made for the draft; a store need not hash them again)."""

    draft: Draft
    blobs: tuple[bytes, ...]
    digests: tuple[str, ...]


@dataclass(slots=True)  # not frozen: made once per event, never changed (a frozen init is slow)
class Run(Generic[S]):
    """One role the moderator named for one topic, at the version it decided on."""

    key: str
    topic: Topic[S]
    role: str
    version: int


def prepare(
    workflow: WorkflowType[Any],
    ids: IdSource,
    kinds: dict[str, str],
    key: str,
    role: str,
    result: object,
) -> Prepared:
    """The draft of a role's result and the texts to store first; raises if malformed.
    ``kinds`` caches each role's kind (role -> kind) for the next call."""
    if not isinstance(result, RoleResult):
        raise WorkflowError(f"role {role!r} returned {type(result).__name__}, not RoleResult")
    if not isinstance(result.content, str):
        raise WorkflowError(
            f"role {role!r} returned content of type {type(result.content).__name__}, not str"
        )
    if not isinstance(result.meta, dict):
        raise WorkflowError(
            f"role {role!r} returned meta of type {type(result.meta).__name__}, not dict"
        )
    content = result.content.encode("utf-8")
    digest = digest_of(content)
    blobs, digests = [content], [digest]
    meta = result.meta
    if result.attachments:
        meta = attach(role, meta, result.attachments, blobs, digests, result.canonical)
    moment, event_id = ids.stamp()
    kind = kinds.get(role)
    if kind is None:
        kind = kinds[role] = workflow.kind(role)
    # the draft keeps a JSON copy of meta; it raises for meta that is not JSON
    if role == START:  # the key may come from the caller: check everything
        draft = Draft(event_id, moment, kind, key, digest, meta)
    else:  # our own id, a kind of a role the workflow checked, a topic that began
        draft = Draft.trusted(event_id, moment, kind, key, digest, meta, canonical=result.canonical)
    return Prepared(draft, tuple(blobs), tuple(digests))


def attach(
    role: str,
    meta: Meta,
    attachments: Mapping[str, str],
    blobs: list[bytes],
    digests: list[str],
    canonical: bool,
) -> Meta:
    """A copy of ``meta`` naming the attachments' hashes (``meta[ATTACHMENTS]``), whose texts
    and hashes are added to ``blobs`` and ``digests``. The copy of a canonical meta is kept
    canonical: its keys in sorted order (``RoleResult.canonical``)."""
    named: dict[str, str] = {}
    for name, text in sorted(attachments.items()):
        if not isinstance(text, str):
            raise WorkflowError(
                f"role {role!r} returned attachment {name!r} of type {type(text).__name__}, not str"
            )
        blobs.append(text.encode("utf-8"))
        digests.append(digest_of(blobs[-1]))
        named[name] = digests[-1]
    meta = {**meta, ATTACHMENTS: named}
    return dict(sorted(meta.items())) if canonical else meta
