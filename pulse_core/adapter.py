"""The adapter: turns a workflow definition and a store into a running workflow.

``WorkflowRule.tick()`` reads the events after its cursor (work proportional to what is
new), folds them into per-topic snapshots, and for every topic whose snapshot changed since
the last decision (a Moore machine: an unchanged snapshot never triggers) asks the
moderator for the next role, runs the roles of all such topics concurrently, and appends
their events with the version it read. Everything it needs lives in the store, so a new
rule over the same store carries on where a killed one stopped; two rules on one store
never both append a step, because the loser of the version race gets ``ConflictError``.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from .errors import ConflictError, WorkflowError
from .events import Draft, Event, Meta
from .ids import IdSource
from .store import EventStore
from .workflow import ATTACHMENTS, END, ERROR, RESUME, START, RoleResult, WorkflowType, is_control

__all__ = ["TopicStatus", "WorkflowRule"]

S = TypeVar("S")

TopicStatus = Literal["running", "ended", "failed"]


@dataclass(slots=True)
class _Topic(Generic[S]):
    """One topic's snapshot: its chain, folded state and where the moderator left it."""

    chain: list[Event]
    state: S
    last: Event | None = None  # the last workflow (non-control) event
    failed: bool = False
    ended: bool = False
    decided_at: int = 0  # the version the moderator last decided on

    @property
    def version(self) -> int:
        return len(self.chain)


class WorkflowRule(Generic[S]):
    """Drives every topic of one workflow in one store."""

    def __init__(
        self,
        workflow: WorkflowType[S],
        store: EventStore,
        *,
        ids: IdSource | None = None,
        concurrency: int = 64,
        batch: int = 10_000,
    ) -> None:
        self.workflow = workflow
        self.store = store
        self.ids = ids or IdSource()
        self.cursor = 0
        self._batch = batch
        self._topics: dict[str, _Topic[S]] = {}
        self._limit = asyncio.Semaphore(concurrency) if concurrency > 0 else None

    # -- topics ---------------------------------------------------------------------------
    def start(self, content: str, meta: Meta | None = None, *, topic_id: str | None = None) -> str:
        """Append a new topic's ``__start__`` event and return the topic id."""
        key = topic_id or self.ids.new()
        self._append(key, START, RoleResult(content, dict(meta or {})), expected_version=0)
        return key

    def resume(self, topic_id: str, meta: Meta | None = None) -> Event:
        """Let a failed topic go on: appends ``__resume__``; the next tick retries its role."""
        version = self.store.version(topic_id)
        if version == 0:
            raise WorkflowError(f"no topic {topic_id}")
        return self._append(
            topic_id, RESUME, RoleResult("resume", dict(meta or {})), expected_version=version
        )

    def status(self, topic_id: str) -> TopicStatus:
        topic = self._topics.get(topic_id)
        if topic is None:
            raise WorkflowError(f"topic {topic_id} is not known to this rule: tick() first")
        if topic.ended:
            return "ended"
        return "failed" if topic.failed else "running"

    def state(self, topic_id: str) -> S:
        """The folded state of a topic, as of the last tick."""
        topic = self._topics.get(topic_id)
        if topic is None:
            raise WorkflowError(f"topic {topic_id} is not known to this rule: tick() first")
        return topic.state

    def topic_ids(self) -> list[str]:
        return list(self._topics)

    def active(self) -> list[str]:
        """Topics that are neither ended nor failed."""
        return [k for k, t in self._topics.items() if not t.ended and not t.failed]

    # -- the loop -------------------------------------------------------------------------
    def _read_new(self) -> None:
        prefix = self.workflow.name + "."
        while True:
            events = self.store.read_after(self.cursor, self._batch)
            for event in events:
                self.cursor = event.seq
                if not event.kind.startswith(prefix):
                    continue
                self._apply(event)
            if len(events) < self._batch:
                return

    def _apply(self, event: Event) -> None:
        topic = self._topics.get(event.key)
        if topic is None:
            topic = self._topics[event.key] = _Topic(chain=[], state=self.workflow.initial)
        if event.version != topic.version + 1:  # never expected with seq order; heal anyway
            topic.chain = self.store.chain(event.key)[: event.version - 1]
        topic.chain.append(event)
        role = event.role
        if role == ERROR:
            topic.failed = True
        elif role == RESUME:
            topic.failed = False
            topic.decided_at = 0
        elif not is_control(event):
            topic.state = self.workflow.fold(topic.state, event)
            topic.last = event

    async def tick(self) -> int:
        """One step for every topic that changed: returns how many events were appended."""
        self._read_new()
        runs: list[tuple[str, _Topic[S], str, int]] = []
        for key, topic in self._topics.items():
            if topic.ended or topic.failed or topic.last is None:
                continue
            if topic.decided_at == topic.version:
                continue  # Moore: nothing changed since the last decision
            topic.decided_at = topic.version
            try:
                nxt = self.workflow.moderator(topic.last, topic.state)
            except Exception as exc:  # noqa: BLE001 - a broken moderator fails its topic only
                self._record_failure(key, topic, "(moderator)", exc)
                continue
            if nxt == END:
                topic.ended = True
                topic.chain = []  # a finished topic needs no chain in memory
                continue
            if nxt not in self.workflow.roles:
                err = WorkflowError(f"moderator named unknown role {nxt!r}")
                self._record_failure(key, topic, nxt, err)
                continue
            runs.append((key, topic, nxt, topic.version))
        if not runs:
            return 0
        results = await asyncio.gather(
            *(self._run_role(key, topic, role) for key, topic, role, _ in runs),
            return_exceptions=True,
        )
        appended = 0
        for (key, topic, role, version), result in zip(runs, results, strict=True):
            if isinstance(result, BaseException) and not isinstance(result, Exception):
                raise result  # cancellation and interrupts are not a role's failure
            if isinstance(result, Exception):
                self._record_failure(key, topic, role, result, version)
                continue
            try:
                self._append(key, role, result, expected_version=version)
                appended += 1
            except ConflictError:
                pass  # another runner took this step; its event arrives on the next read
        return appended

    async def _run_role(self, key: str, topic: _Topic[S], role: str) -> RoleResult:
        chain = tuple(topic.chain)
        if self._limit is None:
            result = await self.workflow.roles[role](chain, key, self.store)
        else:
            async with self._limit:
                result = await self.workflow.roles[role](chain, key, self.store)
        if not isinstance(result, RoleResult):
            raise WorkflowError(f"role {role!r} returned {type(result).__name__}, not RoleResult")
        return result

    def _record_failure(
        self,
        key: str,
        topic: _Topic[S],
        role: str,
        exc: Exception,
        version: int | None = None,
    ) -> None:
        text = "".join(traceback.format_exception(exc))
        meta: dict[str, Any] = {"role": role, "error": f"{type(exc).__name__}: {exc}"}
        try:
            self._append(
                key, ERROR, RoleResult(text, meta), expected_version=version or topic.version
            )
        except ConflictError:
            return
        topic.failed = True

    def _append(self, key: str, role: str, result: RoleResult, *, expected_version: int) -> Event:
        digest = self.store.objects.put(result.content.encode("utf-8"))
        meta = result.meta
        if result.attachments:
            meta = dict(meta)
            meta[ATTACHMENTS] = {
                name: self.store.objects.put(text.encode("utf-8"))
                for name, text in sorted(result.attachments.items())
            }
        moment = self.ids.now()
        draft = Draft(
            id=self.ids.new(moment),
            occurred_at=moment,
            kind=self.workflow.kind(role),
            key=key,
            hash=digest,
            meta=meta,
        )
        return self.store.append(draft, expected_version)

    async def run(
        self, topics: Sequence[str] | None = None, *, poll_interval: float = 0.05
    ) -> dict[str, TopicStatus]:
        """Tick until every topic (or every one of ``topics``) has ended or failed.

        When nothing is left to do here but topics are still running (another runner holds
        their next step), it polls the store every ``poll_interval`` seconds.
        """
        while True:
            appended = await self.tick()
            watched = list(topics) if topics is not None else self.topic_ids()
            missing = [k for k in watched if k not in self._topics]
            if missing:
                raise WorkflowError(f"no topic {missing[0]} in the store")
            running = [k for k in watched if self.status(k) == "running"]
            if not running:
                return {k: self.status(k) for k in watched}
            if appended == 0:
                await asyncio.sleep(poll_interval)
