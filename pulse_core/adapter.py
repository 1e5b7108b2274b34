"""The adapter: turns a workflow definition and a store into a running workflow.

``WorkflowRule.tick()`` reads the events after its cursor, folds them into per-topic
snapshots and marks those topics changed. Only a changed topic is looked at again (a Moore
machine: an unchanged snapshot never triggers), so the work of a tick is proportional to
what is new, not to how many topics exist. For each changed topic it asks the moderator for
the next role, runs the roles of all such topics concurrently, and appends their events
with the version it read. Everything it needs lives in the store, so a new rule over the
same store carries on where a killed one stopped; two rules on one store never both append
a step, because the loser of the version race gets ``ConflictError``, which the rule
absorbs: the winner's event arrives on its next read.

Its parts: ``adapter_steps`` (a topic's snapshot, a role to run, a result made into a
draft), ``adapter_roles`` (running a tick's roles at once) and ``adapter_traceback`` (the
text of a failure's event).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeVar, cast

from .adapter_roles import run_roles
from .adapter_steps import Prepared, Run, Topic, prepare
from .adapter_traceback import portable_traceback
from .errors import ConflictError, WorkflowError
from .events import Event, Meta
from .ids import IdSource
from .store import BatchAppend, EventStore, append_each
from .workflow import (
    END,
    ERROR,
    MODERATOR_FAILED,
    RESUME,
    START,
    RoleResult,
    WorkflowType,
    is_control,
)

__all__ = ["TopicStatus", "WorkflowRule"]

S = TypeVar("S")

TopicStatus = Literal["running", "ended", "failed"]


class WorkflowRule(Generic[S]):
    """Drives every topic of one workflow in one store.

    ``ids`` makes event and topic ids (inject one for reproducible ids), ``concurrency`` caps
    the roles in flight at once (0: no cap; an eager topic's role, which does no I/O, takes
    no slot), ``batch`` is how many events one read fetches.
    """

    def __init__(
        self,
        workflow: WorkflowType[S],
        store: EventStore,
        *,
        ids: IdSource | None = None,
        concurrency: int = 64,
        batch: int = 10_000,
    ) -> None:
        if batch < 1:
            raise WorkflowError(f"batch must be at least 1, not {batch}")
        self.workflow = workflow
        self.store = store
        self.ids = ids or IdSource()
        self.cursor = 0
        self._batch = batch
        self._concurrency = concurrency
        self._topics: dict[str, Topic[S]] = {}
        # topics whose snapshot changed since the moderator last saw it; a dict keeps the
        # order in which they changed, so roles are dispatched in a reproducible order
        self._changed: dict[str, None] = {}
        self._kinds: dict[str, str] = {}  # role -> kind, made once
        self._capable: dict[type, tuple[object, bool]] = {}  # see _can

    # -- topics ---------------------------------------------------------------------------
    def start(self, content: str, meta: Meta | None = None, *, topic_id: str | None = None) -> str:
        """Append a new topic's ``__start__`` event and return the topic id.

        Raises ``ConflictError`` when ``topic_id`` names a topic that already began.
        """
        key = topic_id or self.ids.new()
        self._append(key, START, RoleResult(content, dict(meta or {})), expected_version=0)
        return key

    def resume(self, topic_id: str, meta: Meta | None = None) -> Event:
        """Let a failed topic go on: appends ``__resume__``; the next tick retries its step.

        Raises ``WorkflowError`` when the topic does not exist or its last event is not a
        recorded failure, and ``ConflictError`` when it moved on meanwhile.
        """
        chain = self.store.chain(topic_id)
        if not chain:
            raise WorkflowError(f"no topic {topic_id}")
        if chain[-1].kind != self.workflow.kind(ERROR):
            raise WorkflowError(f"topic {topic_id} has not failed: nothing to resume")
        return self._append(
            topic_id, RESUME, RoleResult("resume", dict(meta or {})), expected_version=len(chain)
        )

    def status(self, topic_id: str) -> TopicStatus:
        """``running``, ``ended`` or ``failed``, as of the last tick."""
        topic = self._known(topic_id)
        if topic.ended:
            return "ended"
        return "failed" if topic.failed else "running"

    def state(self, topic_id: str) -> S:
        """The folded state of a topic, as of the last tick."""
        return self._known(topic_id).state

    def topic_ids(self) -> list[str]:
        return list(self._topics)

    def active(self) -> list[str]:
        """Topics that are neither ended nor failed."""
        return [k for k, t in self._topics.items() if not t.ended and not t.failed]

    def _known(self, topic_id: str) -> Topic[S]:
        topic = self._topics.get(topic_id)
        if topic is None:
            raise WorkflowError(f"topic {topic_id} is not known to this rule: tick() first")
        return topic

    # -- reading --------------------------------------------------------------------------
    def _read_new(self) -> None:
        prefix = self.workflow.name + "."
        while True:
            events = self.store.read_after(self.cursor, self._batch)
            for event in events:
                self.cursor = event.seq
                if event.kind.startswith(prefix):
                    self._apply(event)
            if len(events) < self._batch:
                return

    def _apply(self, event: Event) -> None:
        topic = self._topics.get(event.key)
        if topic is None:
            topic = self._topics[event.key] = Topic(state=self.workflow.initial)
        if event.version != topic.version + 1:
            # a store that breaks the seq-follows-version contract: rebuild from its chain
            topic = self._rebuild(event.key, event.version - 1)
        topic.version = event.version
        if not topic.ended:
            topic.chain.append(event)
        role = event.role
        if role == ERROR:
            topic.failed = True
            return
        if role == RESUME:
            topic.failed = False
        elif not is_control(event):
            topic.state = self.workflow.fold(topic.state, event)
            topic.last = event
        self._changed[event.key] = None

    def _rebuild(self, key: str, upto: int) -> Topic[S]:
        topic = self._topics[key] = Topic(state=self.workflow.initial)
        for event in self.store.chain(key)[:upto]:
            self._apply(event)
        return topic

    # -- the loop -------------------------------------------------------------------------
    def _decide(self) -> tuple[list[Run[S]], int]:
        """Ask the moderator about every changed topic.

        Returns the roles to run and how many failures (moderator errors, unknown roles)
        were recorded on the way.
        """
        changed, self._changed = list(self._changed), {}
        runs: list[Run[S]] = []
        recorded = 0
        try:
            for key in changed:
                recorded += self._decide_one(key, runs)
        except BaseException:
            # an interrupt or a failing store: nothing decided here will run, so all of it
            # stays changed (a topic whose failure was recorded is skipped next time)
            self._changed.update(dict.fromkeys(changed))
            raise
        return runs, recorded

    def _decide_one(self, key: str, runs: list[Run[S]]) -> int:
        """Decide one changed topic: append its run to ``runs``; return failures recorded."""
        topic = self._topics[key]
        if topic.ended or topic.failed or topic.last is None:
            return 0
        try:
            nxt = self.workflow.moderator(topic.last, topic.state)
        except Exception as exc:  # noqa: BLE001 - a broken moderator fails its topic only
            return self._record_failure(key, topic, MODERATOR_FAILED, exc, topic.version)
        if nxt == END:
            topic.ended = True
            topic.chain = []  # a finished topic needs no chain in memory
            return 0
        if nxt not in self.workflow.roles:
            err = WorkflowError(f"moderator named unknown role {nxt!r}")
            return self._record_failure(key, topic, str(nxt), err, topic.version)
        runs.append(Run(key, topic, nxt, topic.version))
        return 0

    async def tick(self) -> int:
        """One step for every topic that changed: returns how many events it appended.

        A role that raises records ``{workflow}.__error__`` and fails its topic only (the
        recorded failure counts as an appended event); one of the workflow's ``raises`` is
        then raised, once every other topic's step is written. ``KeyboardInterrupt``, ``SystemExit`` and cancellation propagate; the steps they cut
        short are tried again by the next tick (or by the next process).
        """
        self._read_new()
        runs, appended = self._decide()
        if not runs:
            return appended
        # made per tick: an asyncio primitive is bound to the loop that first waits on it,
        # and a rule may be ticked from several asyncio.run() calls; none when this tick's
        # roles are no more than the cap, which then cannot bind
        cap = self._concurrency
        limit = asyncio.Semaphore(cap) if 0 < cap < len(runs) else None
        try:
            results = await run_roles(runs, self._run_role, limit, self.workflow.eager)
        except BaseException:
            self._retry_later(runs)
            raise
        ready = [
            (r, run.version)
            for run, r in zip(runs, results, strict=True)
            if isinstance(r, Prepared)
        ]
        try:
            written = self._write_batch(ready)
        except BaseException:
            self._retry_later(runs)
            raise
        # a conflict: another runner took this step; its event arrives on the next read
        appended += sum(not isinstance(w, ConflictError) for w in written)
        interrupt: BaseException | None = None
        mistake: Exception | None = None  # recorded, then raised: see WorkflowType.raises
        for index, (run, result) in enumerate(zip(runs, results, strict=True)):
            try:
                if isinstance(result, Prepared):
                    continue
                if isinstance(result, Exception):
                    appended += self._record_failure(
                        run.key, run.topic, run.role, result, run.version
                    )
                    if mistake is None and isinstance(result, self.workflow.raises):
                        mistake = result
                else:  # cancellation and interrupts are not a role's failure
                    self._retry_later([run])
                    interrupt = interrupt or result
            except BaseException:
                self._retry_later(runs[index:])
                raise
        if interrupt is not None:
            raise interrupt
        if mistake is not None:
            raise mistake
        return appended

    def _retry_later(self, runs: Sequence[Run[S]]) -> None:
        """Mark topics whose step was cut short as changed, so a later tick decides again."""
        for run in runs:
            self._changed[run.key] = None

    async def _run_role(self, run: Run[S], limit: asyncio.Semaphore | None) -> Prepared:
        chain = tuple(run.topic.chain)
        role = self.workflow.roles[run.role]
        if limit is None:
            result = await role(chain, run.key, self.store)
        else:
            async with limit:
                result = await role(chain, run.key, self.store)
        # checked and turned into a draft here, so a malformed result fails its own topic
        return prepare(self.workflow, self.ids, self._kinds, run.key, run.role, result)

    def _write_batch(self, items: Sequence[tuple[Prepared, int]]) -> list[Event | ConflictError]:
        """Store every item's content and append all of them: in one transaction where the
        store can (a group commit: one sync for a tick's contents and events), else the
        contents first, then the events one by one."""
        store = self.store
        drafts = [(p.draft, version) for p, version in items]
        blobs = [blob for prepared, _ in items for blob in prepared.blobs]
        if self._can(store, BatchAppend):  # contents and events in one transaction
            digests = [digest for prepared, _ in items for digest in prepared.digests]
            return cast(BatchAppend, store).append_batch(drafts, blobs, digests)
        return append_each(store, drafts, blobs)

    def _can(self, target: object, protocol: type) -> bool:
        """``isinstance(target, protocol)``, asked once per object: a check against a
        runtime protocol costs tens of microseconds, and a game played alone ticks once
        per event."""
        known = self._capable.get(protocol)
        if known is None or known[0] is not target:
            known = self._capable[protocol] = (target, isinstance(target, protocol))
        return known[1]

    def _write(self, prepared: Prepared, expected_version: int) -> Event:
        """Store the content (and attachments), then append the event."""
        done = self._write_batch([(prepared, expected_version)])[0]
        if isinstance(done, ConflictError):
            raise done
        return done

    def _append(self, key: str, role: str, result: RoleResult, *, expected_version: int) -> Event:
        prepared = prepare(self.workflow, self.ids, self._kinds, key, role, result)
        return self._write(prepared, expected_version)

    def _record_failure(
        self, key: str, topic: Topic[S], role: str, exc: Exception, version: int
    ) -> int:
        """Append ``__error__`` for a failed step: 1, or 0 when the topic moved on meanwhile."""
        text = portable_traceback(exc)
        meta: dict[str, Any] = {"role": role, "error": f"{type(exc).__name__}: {exc}"}
        extra = getattr(exc, "failure_meta", None)  # e.g. what the failed step already spent
        if isinstance(extra, dict):
            meta = {**extra, **meta}
        try:
            self._append(key, ERROR, RoleResult(text, meta), expected_version=version)
        except ConflictError:
            return 0  # the topic moved on meanwhile; its new event is decided afresh
        topic.failed = True
        return 1

    async def run(
        self, topics: Sequence[str] | None = None, *, poll_interval: float = 0.05
    ) -> dict[str, TopicStatus]:
        """Tick until every topic (or every one of ``topics``) has ended or failed.

        When nothing is left to do here but topics are still running (another runner holds
        their next step), it polls the store every ``poll_interval`` seconds.
        """
        while True:
            appended = await self.tick()
            if topics is None:  # every topic: no per-topic lookups on every tick
                if not self.active():
                    return {k: self.status(k) for k in self._topics}
            else:
                watched = list(topics)
                missing = [k for k in watched if k not in self._topics]
                if missing:
                    raise WorkflowError(f"no topic {missing[0]} in the store")
                if not any(self.status(k) == "running" for k in watched):
                    return {k: self.status(k) for k in watched}
            if appended == 0:
                await asyncio.sleep(poll_interval)
