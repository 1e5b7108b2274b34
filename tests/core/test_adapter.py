"""The workflow adapter: events it writes, Moore behaviour, cursor reads, concurrency,
failure and resume, fold state and the replay check, on the memory and SQLite stores."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pulse_core import (
    END,
    ERROR,
    RESUME,
    START,
    ConflictError,
    EventStore,
    InvalidEventError,
    MemoryEventStore,
    RoleResult,
    SQLiteEventStore,
    WorkflowError,
    WorkflowRule,
    WorkflowType,
    is_ulid,
    read_attachment,
    read_content,
)
from pulse_core.events import Draft, Event
from pulse_core.workflow import MODERATOR_FAILED, Role, is_control

STEPS = ("draft", "review", "publish")


# -- a small pipeline workflow -------------------------------------------------------------
def next_step(last: Event, _state: object) -> str:
    """START -> draft -> review -> publish -> END."""
    if last.role == START:
        return STEPS[0]
    index = STEPS.index(last.role)
    return STEPS[index + 1] if index + 1 < len(STEPS) else END


class Pipeline:
    """Roles that append their name to the previous content and count their calls.

    ``breaks[(topic, step)]`` makes that step raise, return or await something else.
    """

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.moderator_calls = 0
        self.breaks: dict[tuple[str, str], Callable[[], Any]] = {}

    def role(self, name: str) -> Role:
        async def run(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
            self.calls[name] += 1
            await asyncio.sleep(0)
            special = self.breaks.get((topic_id, name))
            if special is not None:
                outcome = special()
                if asyncio.iscoroutine(outcome):
                    outcome = await outcome
                return outcome  # type: ignore[no-any-return]
            previous = [e for e in chain if not is_control(e)][-1]
            text = f"{read_content(store, previous)} > {name}"
            return RoleResult(text, {"step": name, "length": len(text)})

        return run

    def moderator(self, last: Event, state: object) -> str:
        self.moderator_calls += 1
        return next_step(last, state)

    def workflow(self, **overrides: Any) -> WorkflowType[Any]:
        fields: dict[str, Any] = {
            "name": "pipe",
            "roles": {name: self.role(name) for name in STEPS},
            "moderator": self.moderator,
        }
        fields.update(overrides)
        return WorkflowType(**fields)


def finish(rule: WorkflowRule[Any], topics: Sequence[str] | None = None) -> dict[str, str]:
    """``rule.run()`` in a fresh event loop; the timeout only turns a hang into a failure."""
    return asyncio.run(asyncio.wait_for(rule.run(topics), timeout=60))


def kinds(store: EventStore, topic: str) -> list[str]:
    return [e.kind for e in store.chain(topic)]


def full_run(*roles: str) -> list[str]:
    return [f"pipe.{START}", *(f"pipe.{r}" for r in roles)]


def raiser(exc: BaseException) -> Callable[[], Any]:
    def go() -> Any:
        raise exc

    return go


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "memory":
        yield MemoryEventStore()
        return
    sqlite = SQLiteEventStore(tmp_path / "events.db")
    yield sqlite
    sqlite.close()


# -- the events it writes -----------------------------------------------------------------
def test_a_run_records_every_step_as_a_workflow_event(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("brief", {"source": "test"})

    assert finish(rule) == {topic: "ended"}

    chain = store.chain(topic)
    assert [e.kind for e in chain] == full_run(*STEPS)
    assert [e.version for e in chain] == [1, 2, 3, 4]
    assert [e.seq for e in chain] == sorted(e.seq for e in chain)
    assert all(e.key == topic and is_ulid(e.id) for e in chain)
    assert [read_content(store, e) for e in chain] == [
        "brief",
        "brief > draft",
        "brief > draft > review",
        "brief > draft > review > publish",
    ]
    assert chain[0].meta == {"source": "test"}
    assert [e.meta for e in chain[1:]] == [
        {"step": "draft", "length": len("brief > draft")},
        {"step": "review", "length": len("brief > draft > review")},
        {"step": "publish", "length": len("brief > draft > review > publish")},
    ]
    assert rule.status(topic) == "ended"
    assert rule.active() == []


def test_a_new_rule_on_the_same_store_carries_on(store: EventStore) -> None:
    pipeline = Pipeline()
    first = WorkflowRule(pipeline.workflow(), store)
    done = first.start("a")
    finish(first)
    half = first.start("b")
    asyncio.run(first.tick())
    assert kinds(store, half) == full_run("draft")

    second = WorkflowRule(pipeline.workflow(), store)
    asyncio.run(second.tick())
    assert second.status(done) == "ended"
    assert second.status(half) == "running"
    assert finish(second) == {done: "ended", half: "ended"}
    assert kinds(store, half) == full_run(*STEPS)
    assert pipeline.calls == Counter(dict.fromkeys(STEPS, 2))  # no step ran twice


def test_start_refuses_a_topic_id_that_is_taken(store: EventStore) -> None:
    rule = WorkflowRule(Pipeline().workflow(), store)
    topic = rule.start("one")
    with pytest.raises(ConflictError, match="version 1, not 0"):
        rule.start("two", topic_id=topic)
    assert kinds(store, topic) == full_run()


def test_status_of_an_unknown_topic_says_so(store: EventStore) -> None:
    rule = WorkflowRule(Pipeline().workflow(), store)
    topic = rule.start("x")
    with pytest.raises(WorkflowError, match="tick"):
        rule.status(topic)
    asyncio.run(rule.tick())
    assert rule.status(topic) == "running"


# -- Moore machine: only a changed topic is decided and run --------------------------------
def test_ticks_with_nothing_new_run_no_role_and_ask_no_moderator(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topics = [rule.start(f"t{i}") for i in range(3)]
    finish(rule)
    calls, decisions = sum(pipeline.calls.values()), pipeline.moderator_calls
    assert calls == 3 * len(STEPS)
    assert decisions == 3 * (len(STEPS) + 1)  # one END decision per topic

    for _ in range(3):
        assert asyncio.run(rule.tick()) == 0
    assert sum(pipeline.calls.values()) == calls
    assert pipeline.moderator_calls == decisions
    assert {rule.status(t) for t in topics} == {"ended"}


def test_only_topics_with_new_events_are_decided(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    stuck = rule.start("stuck")
    moving = rule.start("moving")
    pipeline.breaks[(stuck, "draft")] = raiser(ValueError("no"))

    asyncio.run(rule.tick())  # both drafts run; stuck records its failure
    assert pipeline.calls["draft"] == 2
    before = pipeline.moderator_calls
    asyncio.run(rule.tick())  # only moving has a new step event to decide on
    assert pipeline.moderator_calls == before + 1
    assert pipeline.calls["draft"] == 2
    assert pipeline.calls["review"] == 1
    assert rule.status(stuck) == "failed"
    assert rule.status(moving) == "running"


# -- cursor reads: work per tick is proportional to what is new ----------------------------
class CountingStore:
    """Wraps a store and counts what the rule reads from it."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner
        self.objects = inner.objects
        self.rows_read: list[int] = []
        self.chain_reads = 0

    def append(self, draft: Draft, expected_version: int) -> Event:
        return self.inner.append(draft, expected_version)

    def chain(self, key: str) -> list[Event]:
        self.chain_reads += 1
        return self.inner.chain(key)

    def read_after(self, seq: int, limit: int | None = None) -> list[Event]:
        events = self.inner.read_after(seq, limit)
        self.rows_read.append(len(events))
        return events

    def version(self, key: str) -> int:
        return self.inner.version(key)

    def get(self, event_id: str) -> Event | None:
        return self.inner.get(event_id)

    def topics(self) -> list[str]:
        return self.inner.topics()

    def last_seq(self) -> int:
        return self.inner.last_seq()

    def close(self) -> None:
        self.inner.close()


def test_each_tick_reads_only_the_events_after_its_cursor(store: EventStore) -> None:
    counting = CountingStore(store)
    rule = WorkflowRule(Pipeline().workflow(), counting)
    other = WorkflowRule(Pipeline().workflow(name="other"), store)
    for i in range(4):
        rule.start(f"t{i}")
    other.start("not ours")  # another workflow's events pass the cursor, unused

    new_per_tick: list[int] = []
    rows_per_tick: list[int] = []
    while True:
        seq_before = store.last_seq()
        new_per_tick.append(seq_before - rule.cursor)
        reads_before = len(counting.rows_read)
        asyncio.run(rule.tick())
        rows_per_tick.append(sum(counting.rows_read[reads_before:]))
        assert rule.cursor == seq_before  # its own appends wait for the next read
        if not rule.active():
            break
    assert rows_per_tick == new_per_tick
    assert new_per_tick == [5, 4, 4, 4]  # 4 starts + 1 foreign event, then one step each
    assert counting.chain_reads == 0  # snapshots are kept, never re-read

    asyncio.run(rule.tick())
    assert counting.rows_read[-1] == 0
    assert rule.cursor == store.last_seq()


def test_a_small_read_batch_still_reads_everything_once(store: EventStore) -> None:
    counting = CountingStore(store)
    rule = WorkflowRule(Pipeline().workflow(), counting, batch=3)
    topics = [rule.start(f"t{i}") for i in range(7)]
    assert finish(rule) == dict.fromkeys(topics, "ended")
    assert sum(counting.rows_read) == store.last_seq()
    assert all(rows <= 3 for rows in counting.rows_read)


def test_batch_must_be_positive() -> None:
    with pytest.raises(WorkflowError, match="batch"):
        WorkflowRule(Pipeline().workflow(), MemoryEventStore(), batch=0)


# -- concurrency -------------------------------------------------------------------------
def test_roles_of_many_topics_overlap(store: EventStore) -> None:
    pipeline = Pipeline()
    count = 12
    entered = 0
    all_in = asyncio.Event()

    async def wait_for_everyone() -> RoleResult:
        nonlocal entered
        entered += 1
        if entered == count:
            all_in.set()
        # only reachable when every draft is in flight at once; the timeout turns a
        # sequential adapter into a recorded failure instead of a hang
        await asyncio.wait_for(all_in.wait(), timeout=30)
        return RoleResult("met", {})

    rule = WorkflowRule(pipeline.workflow(), store)
    topics = [rule.start(f"t{i}") for i in range(count)]
    for topic in topics:
        pipeline.breaks[(topic, "draft")] = wait_for_everyone
    assert finish(rule) == dict.fromkeys(topics, "ended")
    assert entered == count


def test_concurrency_limit_caps_roles_in_flight_across_event_loops(store: EventStore) -> None:
    in_flight = 0
    peak = 0

    async def tracked(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        for _ in range(3):
            await asyncio.sleep(0)
        in_flight -= 1
        return RoleResult("ok")

    workflow = WorkflowType("pipe", dict.fromkeys(STEPS, tracked), next_step)
    rule = WorkflowRule(workflow, store, concurrency=2)
    topics = [rule.start(f"t{i}") for i in range(5)]
    # a fresh event loop per tick: the limit must not stay bound to the first loop
    while rule.active() or not rule.topic_ids():
        asyncio.run(rule.tick())
    assert {rule.status(t) for t in topics} == {"ended"}
    assert peak == 2
    assert all(kinds(store, t) == full_run(*STEPS) for t in topics)


# -- failures and resume ------------------------------------------------------------------
def test_a_raising_role_fails_only_its_topic_until_resumed(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    good, bad, other = rule.start("good"), rule.start("bad"), rule.start("other")
    pipeline.breaks[(bad, "review")] = raiser(ValueError("review refused"))

    assert finish(rule) == {good: "ended", bad: "failed", other: "ended"}
    error = store.chain(bad)[-1]
    assert error.kind == f"pipe.{ERROR}"
    assert error.meta == {"role": "review", "error": "ValueError: review refused"}
    assert "ValueError: review refused" in read_content(store, error)
    assert "Traceback" in read_content(store, error)
    assert rule.active() == []

    reviews = pipeline.calls["review"]
    for _ in range(2):
        asyncio.run(rule.tick())
    assert rule.status(bad) == "failed"
    assert pipeline.calls["review"] == reviews  # a failed topic is not retried by itself

    restarted = WorkflowRule(pipeline.workflow(), store)
    asyncio.run(restarted.tick())
    assert restarted.status(bad) == "failed"  # the failure lives in the store

    del pipeline.breaks[(bad, "review")]
    resumed = restarted.resume(bad, {"by": "operator"})
    assert resumed.kind == f"pipe.{RESUME}"
    assert resumed.meta == {"by": "operator"}
    assert finish(restarted) == {good: "ended", bad: "ended", other: "ended"}
    assert kinds(store, bad) == [
        *full_run("draft"),
        f"pipe.{ERROR}",
        f"pipe.{RESUME}",
        "pipe.review",
        "pipe.publish",
    ]
    assert read_content(store, store.chain(bad)[-1]) == "bad > draft > review > publish"
    assert restarted.workflow.replay_check(store.chain(bad), finished=True) == []


def test_resume_refuses_topics_that_have_not_failed(store: EventStore) -> None:
    rule = WorkflowRule(Pipeline().workflow(), store)
    topic = rule.start("fine")
    with pytest.raises(WorkflowError, match="not failed"):
        rule.resume(topic)
    finish(rule)
    with pytest.raises(WorkflowError, match="not failed"):
        rule.resume(topic)
    with pytest.raises(WorkflowError, match="no topic"):
        rule.resume("01ARZ3NDEKTSV4RRFFQ69G5FAV")
    assert kinds(store, topic) == full_run(*STEPS)


def test_a_moderator_naming_an_unknown_role_fails_only_that_topic(store: EventStore) -> None:
    def lost_on_review(last: Event, state: object) -> str:
        name = next_step(last, state)
        if name == "review" and last.meta.get("length") == len("lost > draft"):
            return "revise"
        return name

    rule = WorkflowRule(Pipeline().workflow(moderator=lost_on_review), store)
    lost, fine = rule.start("lost"), rule.start("ok")  # told apart by content length
    assert finish(rule) == {lost: "failed", fine: "ended"}
    error = store.chain(lost)[-1]
    assert error.kind == f"pipe.{ERROR}"
    assert error.meta["role"] == "revise"
    assert "unknown role 'revise'" in error.meta["error"]


def test_a_raising_moderator_fails_only_that_topic(store: EventStore) -> None:
    def picky(last: Event, state: object) -> str:
        if last.role == START and read_content(store, last) == "boom":
            raise RuntimeError("cannot decide")
        return next_step(last, state)

    rule = WorkflowRule(Pipeline().workflow(moderator=picky), store)
    boom, fine = rule.start("boom"), rule.start("fine")
    assert finish(rule) == {boom: "failed", fine: "ended"}
    assert store.chain(boom)[-1].meta == {
        "role": MODERATOR_FAILED,
        "error": "RuntimeError: cannot decide",
    }
    assert rule.workflow.replay_check(store.chain(boom)) == []


@pytest.mark.parametrize(
    ("returned", "error"),
    [
        ("just text", "WorkflowError: role 'draft' returned str, not RoleResult"),
        (None, "WorkflowError: role 'draft' returned NoneType, not RoleResult"),
        (RoleResult(b"bytes"), "content of type bytes, not str"),  # type: ignore[arg-type]
        (RoleResult("x", ["not", "a", "dict"]), "meta of type list, not dict"),  # type: ignore[arg-type]
        (RoleResult("x", {"when": object()}), "InvalidEventError: meta is not JSON"),
    ],
)
def test_a_malformed_role_result_fails_only_that_topic(
    store: EventStore, returned: object, error: str
) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    broken, fine = rule.start("broken"), rule.start("fine")
    pipeline.breaks[(broken, "draft")] = lambda: returned
    assert finish(rule) == {broken: "failed", fine: "ended"}
    last = store.chain(broken)[-1]
    assert last.kind == f"pipe.{ERROR}"
    assert last.meta["role"] == "draft"
    assert error in last.meta["error"]
    assert kinds(store, fine) == full_run(*STEPS)


def test_meta_is_stored_as_a_json_copy(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    meta: dict[str, Any] = {"pair": (1, 2), "nested": {"seats": [3]}}
    pipeline.breaks[(topic, "draft")] = lambda: RoleResult("d", meta)
    asyncio.run(rule.tick())
    meta["nested"]["seats"].append(4)  # the role keeps its dict and changes it later
    assert store.chain(topic)[1].meta == {"pair": [1, 2], "nested": {"seats": [3]}}


def test_a_canonical_meta_is_stored_as_it_is_and_reads_back_the_same(store: EventStore) -> None:
    """``RoleResult.canonical``: a meta that is its own JSON round trip is kept without a copy
    (in memory, the very dict); every store gives back the same event as without the flag;
    attachments add their key to a copy, in key order."""
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    kept, copied, attached = rule.start("kept"), rule.start("copied"), rule.start("attached")
    metas = {t: {"a": [1, None], "b": {"c": "é", "d": 2.5}} for t in (kept, copied, attached)}
    pipeline.breaks[(kept, "draft")] = lambda: RoleResult("d", metas[kept], canonical=True)
    pipeline.breaks[(copied, "draft")] = lambda: RoleResult("d", metas[copied])
    pipeline.breaks[(attached, "draft")] = lambda: RoleResult(
        "d", metas[attached], {"note": "n"}, canonical=True
    )
    asyncio.run(rule.tick())
    events = {t: store.chain(t)[1] for t in (kept, copied, attached)}
    assert events[kept].meta == events[copied].meta == metas[kept]
    assert list(events[kept].meta["b"]) == ["c", "d"]
    assert (events[kept].meta is metas[kept]) == isinstance(store, MemoryEventStore)
    assert events[copied].meta is not metas[copied]
    assert events[attached].meta is not metas[attached]
    assert list(events[attached].meta) == ["a", "attachments", "b"]  # still in key order


def test_keyboard_interrupt_propagates_and_is_not_a_failure(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    pipeline.breaks[(topic, "draft")] = raiser(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(rule.tick())
    assert kinds(store, topic) == full_run()

    del pipeline.breaks[(topic, "draft")]
    assert finish(rule) == {topic: "ended"}  # the same rule retries the step
    assert kinds(store, topic) == full_run(*STEPS)


def test_a_role_raising_cancelled_error_propagates_and_spares_other_results(
    store: EventStore,
) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    cancelled, fine = rule.start("cancelled"), rule.start("fine")
    pipeline.breaks[(cancelled, "draft")] = raiser(asyncio.CancelledError())
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(rule.tick())
    assert kinds(store, cancelled) == full_run()
    assert kinds(store, fine) == full_run("draft")  # its finished step was kept

    del pipeline.breaks[(cancelled, "draft")]
    assert finish(rule) == {cancelled: "ended", fine: "ended"}
    assert all(ERROR not in e.kind for t in (cancelled, fine) for e in store.chain(t))


def test_cancelling_a_tick_loses_no_step(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topics = [rule.start(f"t{i}") for i in range(3)]
    started = asyncio.Event()

    async def hang() -> RoleResult:
        started.set()
        await asyncio.Event().wait()
        raise AssertionError("never set")

    pipeline.breaks[(topics[0], "draft")] = hang

    async def cancel_mid_tick() -> None:
        task = asyncio.create_task(rule.tick())
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_mid_tick())
    assert all(kinds(store, t) == full_run() for t in topics)

    del pipeline.breaks[(topics[0], "draft")]
    assert finish(rule) == dict.fromkeys(topics, "ended")
    assert all(kinds(store, t) == full_run(*STEPS) for t in topics)


# -- fold and state -----------------------------------------------------------------------
def test_fold_state_counts_workflow_events_and_drives_the_moderator(store: EventStore) -> None:
    pipeline = Pipeline()

    def count(n: int, event: Event) -> int:
        return n + 1

    def loop_until_five(last: Event, n: int) -> str:
        return "draft" if n < 5 else END

    workflow: WorkflowType[int] = WorkflowType(
        "pipe", {"draft": pipeline.role("draft")}, loop_until_five, fold=count, initial=0
    )
    rule = WorkflowRule(workflow, store)
    topic, flaky = rule.start("t"), rule.start("flaky")
    pipeline.breaks[(flaky, "draft")] = raiser(OSError("flaky"))

    asyncio.run(rule.tick())
    assert rule.state(topic) == 1  # the fold sees what was read, as of the last tick
    finish(rule)
    assert rule.state(topic) == 5
    assert rule.status(flaky) == "failed"
    assert rule.state(flaky) == 1

    del pipeline.breaks[(flaky, "draft")]
    rule.resume(flaky)
    finish(rule)
    assert rule.state(flaky) == 5  # control events (error, resume) are not folded
    assert [e.role for e in store.chain(flaky)].count("draft") == 4
    assert workflow.replay_check(store.chain(topic), finished=True) == []


# -- the replay check ---------------------------------------------------------------------
def swapped_review_and_publish(last: Event, state: object) -> str:
    order = {START: "draft", "draft": "publish", "publish": "review", "review": END}
    return order[last.role]


def test_replay_check_agrees_with_the_recorded_chain(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    finish(rule)
    chain = store.chain(topic)
    assert rule.workflow.replay_check(chain) == []
    assert rule.workflow.replay_check(chain, finished=True) == []
    assert rule.workflow.replay_check(chain[:2]) == []  # a topic still running
    assert rule.workflow.replay_check(chain[:2], finished=True) == [
        "version 2: the topic ended but the moderator named 'review'"
    ]


def test_replay_check_reports_a_changed_moderator(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    finish(rule)
    chain = store.chain(topic)

    swapped = pipeline.workflow(moderator=swapped_review_and_publish)
    assert swapped.replay_check(chain) == [
        "version 3: moderator named 'publish' but 'review' was recorded",
        "version 4: moderator named '__end__' but 'publish' was recorded",  # after 'review'
    ]

    def stop_early(last: Event, state: object) -> str:
        return END if last.role == "review" else next_step(last, state)

    assert pipeline.workflow(moderator=stop_early).replay_check(chain) == [
        "version 4: moderator named '__end__' but 'publish' was recorded"
    ]


def test_replay_check_reports_a_nondeterministic_moderator(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    finish(rule)
    flips = iter(range(100))

    def flaky(last: Event, state: object) -> str:
        return "publish" if next(flips) % 2 else next_step(last, state)

    # consulting hidden state (here a counter) shows up as a disagreement
    assert pipeline.workflow(moderator=flaky).replay_check(store.chain(topic)) == [
        "version 3: moderator named 'publish' but 'review' was recorded"
    ]


def test_replay_check_follows_failures_and_resumes(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    pipeline.breaks[(topic, "review")] = raiser(ValueError("once"))
    finish(rule)
    del pipeline.breaks[(topic, "review")]
    rule.resume(topic)
    finish(rule)
    chain = store.chain(topic)
    assert rule.workflow.replay_check(chain, finished=True) == []
    # a moderator that would have named another step than the one that failed
    swapped = pipeline.workflow(moderator=swapped_review_and_publish)
    assert swapped.replay_check(chain)[0] == (
        "version 3: moderator named 'publish' but a failure of 'review' was recorded"
    )


def test_replay_check_needs_a_start_and_workflow_events() -> None:
    workflow = Pipeline().workflow()
    assert workflow.replay_check([]) == ["chain has no workflow events"]
    store = MemoryEventStore()
    rule = WorkflowRule(workflow, store)
    topic = rule.start("t")
    finish(rule)
    assert workflow.replay_check(store.chain(topic)[1:]) == ["version 2: chain begins with 'draft'"]


def test_reserved_role_names_are_refused() -> None:
    with pytest.raises(WorkflowError, match="reserved"):
        WorkflowType("pipe", {"__sneaky": Pipeline().role("x")}, next_step)
    with pytest.raises(InvalidEventError, match=r"workflow\.role"):
        WorkflowType("Pipe", {"draft": Pipeline().role("draft")}, next_step)


def test_resume_refuses_a_topic_of_another_workflow(store: EventStore) -> None:
    pipeline = Pipeline()
    other = WorkflowRule(pipeline.workflow(name="other"), store)
    topic = other.start("t")
    pipeline.breaks[(topic, "draft")] = raiser(ValueError("no"))
    assert finish(other) == {topic: "failed"}
    with pytest.raises(WorkflowError, match="not failed"):
        WorkflowRule(pipeline.workflow(), store).resume(topic)
    assert other.resume(topic).kind == f"other.{RESUME}"


# -- attachments --------------------------------------------------------------------------
def test_attachments_are_stored_and_named_in_meta(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    topic = rule.start("t")
    attached = RoleResult("d", {"step": "draft"}, attachments={"reasoning": "because"})
    pipeline.breaks[(topic, "draft")] = lambda: attached
    asyncio.run(rule.tick())
    draft = store.chain(topic)[1]
    assert draft.meta["step"] == "draft"
    assert read_attachment(store, draft, "reasoning") == "because"
    assert read_attachment(store, draft, "missing") is None


def test_a_malformed_attachment_fails_only_that_topic(store: EventStore) -> None:
    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(), store)
    broken, fine = rule.start("broken"), rule.start("fine")
    bad = RoleResult("d", attachments={"raw": 42})  # type: ignore[dict-item]
    pipeline.breaks[(broken, "draft")] = lambda: bad
    assert finish(rule) == {broken: "failed", fine: "ended"}
    assert "attachment 'raw' of type int, not str" in store.chain(broken)[-1].meta["error"]


# -- eager topics: roles started inline --------------------------------------------------------
def _immediate_workflow(tasks: list[asyncio.Task[Any] | None], *, eager: bool) -> WorkflowType[Any]:
    """A pipeline whose roles never wait; each notes the task it ran in."""

    def role(name: str) -> Role:
        async def run(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
            tasks.append(asyncio.current_task())
            if name == "review" and chain[0].meta.get("fail"):
                raise ValueError("refused")
            return RoleResult(f"{name} of {len(chain)}", {"step": name})

        return run

    return WorkflowType(
        name="pipe",
        roles={name: role(name) for name in STEPS},
        moderator=next_step,
        eager=(lambda key, state: True) if eager else None,
    )


def _log(store: EventStore) -> list[list[tuple[str, str]]]:
    """Each topic's kinds and contents (a failure's error, not its traceback's frames)."""
    return [
        [
            (e.kind, e.meta["error"] if e.role == ERROR else read_content(store, e))
            for e in store.chain(k)
        ]
        for k in store.topics()
    ]


def test_eager_topics_run_their_roles_inline_with_the_same_log(store: EventStore) -> None:
    logs = []
    for eager in (False, True):
        target: EventStore = MemoryEventStore() if eager else store
        tasks: list[asyncio.Task[Any] | None] = []
        rule = WorkflowRule(_immediate_workflow(tasks, eager=eager), target)
        for i in range(3):
            rule.start(f"t{i}", {"fail": i == 1})
        statuses = finish(rule)
        assert sorted(statuses.values()) == ["ended", "ended", "failed"]
        # inline: every role ran in the task that runs the rule, not in one of its own
        assert len({id(t) for t in tasks}) == (1 if eager else len(tasks))
        logs.append(_log(target))
    assert logs[0] == logs[1]


def test_an_eager_role_that_waits_carries_on_in_a_task(store: EventStore) -> None:
    pipeline = Pipeline()  # its roles await asyncio.sleep(0) before answering
    rule = WorkflowRule(pipeline.workflow(eager=lambda key, state: True), store)
    topics = [rule.start(f"t{i}") for i in range(3)]
    pipeline.breaks[(topics[1], "review")] = raiser(ValueError("late failure"))
    statuses = finish(rule)
    assert [statuses[t] for t in topics] == ["ended", "failed", "ended"]
    assert kinds(store, topics[0]) == full_run(*STEPS)
    assert read_content(store, store.chain(topics[2])[-1]) == "t2 > draft > review > publish"
    assert store.chain(topics[1])[-1].meta["role"] == "review"


def test_an_eager_topics_role_takes_no_slot_of_the_concurrency_cap(store: EventStore) -> None:
    """The cap bounds roles waiting at once; an eager topic's role does no I/O (it is
    trusted to finish inline), so it is not made to take a slot: here, where it waits after
    all, all three run at once under a cap of one, while the other topics keep to it."""
    in_flight: Counter[bool] = Counter()
    peak: Counter[bool] = Counter()

    async def tracked(chain: Sequence[Event], topic_id: str, store: EventStore) -> RoleResult:
        eager = chain[0].meta["eager"]
        in_flight[eager] += 1
        peak[eager] = max(peak[eager], in_flight[eager])
        for _ in range(3):
            await asyncio.sleep(0)
        in_flight[eager] -= 1
        return RoleResult("ok")

    workflow = WorkflowType(
        "pipe",
        dict.fromkeys(STEPS, tracked),
        next_step,
        eager=lambda key, state: key in eager_topics,
    )
    rule = WorkflowRule(workflow, store, concurrency=1)
    eager_topics = {rule.start(f"e{i}", {"eager": True}) for i in range(3)}
    others = [rule.start(f"o{i}", {"eager": False}) for i in range(3)]
    assert set(finish(rule).values()) == {"ended"}
    assert peak == {True: 3, False: 1}
    assert all(kinds(store, t) == full_run(*STEPS) for t in [*eager_topics, *others])


def test_a_role_raising_one_of_the_workflows_raises_records_it_and_raises_it(
    store: EventStore,
) -> None:
    """``WorkflowType.raises``: the failure is in the log as any other (resumable), and the
    caller hears it, while the other topics' steps of the tick are written."""

    class Mistake(Exception):
        pass

    pipeline = Pipeline()
    rule = WorkflowRule(pipeline.workflow(raises=(Mistake,)), store)
    broken, fine = rule.start("broken"), rule.start("fine")
    pipeline.breaks[(broken, "review")] = raiser(Mistake("wrong type"))
    with pytest.raises(Mistake, match="wrong type"):
        finish(rule)
    assert kinds(store, broken)[-1] == "pipe.__error__"
    assert store.chain(broken)[-1].meta["error"] == "Mistake: wrong type"
    assert rule.status(broken) == "failed"
    assert finish(rule, [fine]) == {fine: "ended"}
