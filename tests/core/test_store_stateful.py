"""Random sequences of appends, retries and reads against each store, checked against a model.

The model is a list of events in commit order; every store must agree with it after every
step, including after exporting a topic to a file and importing it elsewhere.
"""

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    multiple,
    precondition,
    rule,
)

from pulse_core import (
    ConflictError,
    Draft,
    Event,
    EventStore,
    IdSource,
    InvalidEventError,
    MemoryEventStore,
    PulseError,
    SQLiteEventStore,
    export_topic,
    import_topic,
    load_topic_file,
)

KINDS = st.sampled_from(["game.__start__", "game.step", "game.__error__", "other.thing"])
TEXTS = st.text(max_size=30)
JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
METAS = st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4)
# how far the expected version is behind the topic: 0 is right, -1 is ahead of it
LAGS = st.sampled_from([0, 0, 0, 1, 2, -1])


def without_seq(events: list[Event]) -> list[tuple[Any, ...]]:
    return [
        (e.id, e.occurred_at, e.kind, e.key, e.version, e.hash, e.meta, e.code_rev) for e in events
    ]


class StoreMachine(RuleBasedStateMachine):
    """Drives one store and a model of it; subclasses choose the store."""

    keys = Bundle("keys")
    appended = Bundle("appended")

    def make_store(self, root: Path) -> EventStore:
        raise NotImplementedError

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="pulse-stateful-"))
        self.store = self.make_store(self.root)
        self.ids = IdSource()
        self.model: list[Event] = []  # commit order
        self.drafts: dict[str, Draft] = {}
        self.copy = MemoryEventStore()  # where exported topics are imported
        self.files = 0

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- the model ------------------------------------------------------------------------
    def chain_of(self, key: str) -> list[Event]:
        return [e for e in self.model if e.key == key]

    def stored(self, event_id: str) -> Event:
        return next(e for e in self.model if e.id == event_id)

    def draft(self, key: str, content: str, kind: str, meta: dict[str, Any]) -> Draft:
        moment = self.ids.now()
        digest = self.store.objects.put(content.encode("utf-8"))
        return Draft(
            id=self.ids.new(moment), occurred_at=moment, kind=kind, key=key, hash=digest, meta=meta
        )

    # -- rules ----------------------------------------------------------------------------
    @rule(target=keys)
    def new_topic(self) -> str:
        return self.ids.new()

    @rule(target=appended, key=keys, content=TEXTS, kind=KINDS, meta=METAS, lag=LAGS)
    def append(self, key: str, content: str, kind: str, meta: dict[str, Any], lag: int) -> Any:
        version = len(self.chain_of(key))
        expected = version - lag
        draft = self.draft(key, content, kind, meta)
        if expected == version:
            event = self.store.append(draft, expected)
            want = Event.from_draft(draft, version=version + 1, seq=len(self.model) + 1)
            assert event == want
            self.model.append(want)
            self.drafts[draft.id] = draft
            return draft.id
        if expected < 0:
            with pytest.raises(InvalidEventError):
                self.store.append(draft, expected)
        else:
            with pytest.raises(ConflictError) as caught:
                self.store.append(draft, expected)
            assert (caught.value.expected, caught.value.actual) == (expected, version)
        assert self.store.get(draft.id) is None
        return multiple()

    @rule(target=appended, first=keys, second=keys, count=st.integers(min_value=1, max_value=6))
    def append_interleaved(self, first: str, second: str, count: int) -> Any:
        """Several right appends alternating between two topics, so the log grows."""
        made = []
        for i in range(count):
            key = (first, second)[i % 2]
            version = len(self.chain_of(key))
            draft = self.draft(key, f"step {i}", "game.step", {"i": i})
            event = self.store.append(draft, version)
            assert (event.version, event.seq) == (version + 1, len(self.model) + 1)
            self.model.append(event)
            self.drafts[draft.id] = draft
            made.append(draft.id)
        return multiple(*made)

    @rule(event_id=appended, lag=st.integers(min_value=0, max_value=3))
    def retry(self, event_id: str, lag: int) -> None:
        stored = self.stored(event_id)
        again = self.store.append(self.drafts[event_id], max(stored.version - 1 - lag, 0))
        assert again == stored

    @rule(event_id=appended, content=TEXTS)
    def reuse_id(self, event_id: str, content: str) -> None:
        original = self.drafts[event_id]
        digest = self.store.objects.put(content.encode("utf-8"))
        if digest == original.hash:
            return
        changed = Draft(
            id=original.id,
            occurred_at=original.occurred_at,
            kind=original.kind,
            key=original.key,
            hash=digest,
            meta=original.meta,
        )
        with pytest.raises(InvalidEventError):
            self.store.append(changed, len(self.chain_of(original.key)))

    @rule(
        position=st.floats(min_value=0, max_value=1.2),
        limit=st.none() | st.integers(min_value=0, max_value=8),
    )
    def read_after(self, position: float, limit: int | None) -> None:
        cursor = int(position * len(self.model))  # anywhere in the log, or past its end
        want = self.model[cursor:] if limit is None else self.model[cursor : cursor + limit]
        assert self.store.read_after(cursor, limit) == want

    @rule(key=keys)
    def chain(self, key: str) -> None:
        assert self.store.chain(key) == self.chain_of(key)
        assert self.store.version(key) == len(self.chain_of(key))

    @rule(event_id=appended)
    def get(self, event_id: str) -> None:
        assert self.store.get(event_id) == self.stored(event_id)

    @rule(key=keys)
    def export_and_import(self, key: str) -> None:
        self.files += 1
        path = self.root / f"topic-{self.files}.jsonl"
        chain = self.chain_of(key)
        if not chain:
            with pytest.raises(PulseError, match="no topic"):
                export_topic(self.store, key, path)
            return
        assert export_topic(self.store, key, path) == len(chain)
        loaded = load_topic_file(path)
        assert without_seq(loaded.chain) == without_seq(chain)
        assert import_topic(self.copy, path) == key
        assert without_seq(self.copy.chain(key)) == without_seq(chain)
        before = self.copy.last_seq()
        import_topic(self.copy, path)  # again: nothing to do
        import_topic(self.store, path)  # into the store it came from: nothing to do
        assert self.copy.last_seq() == before
        assert self.store.last_seq() == len(self.model)

    @invariant()
    def agrees_with_the_model(self) -> None:
        assert self.store.last_seq() == len(self.model)
        assert self.store.topics() == list(dict.fromkeys(e.key for e in self.model))


class MemoryStoreMachine(StoreMachine):
    def make_store(self, root: Path) -> EventStore:
        return MemoryEventStore()


class SQLiteStoreMachine(StoreMachine):
    def make_store(self, root: Path) -> EventStore:
        return SQLiteEventStore(root / "events.db", durable=False)

    @precondition(lambda self: bool(self.model))
    @rule()
    def reopen(self) -> None:
        """Close the file and open it again: nothing is lost, the log carries on."""
        self.store.close()
        self.store = self.make_store(self.root)
        assert self.store.read_after(0) == self.model


FAST = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MemoryStoreMachine.TestCase.settings = FAST
SQLiteStoreMachine.TestCase.settings = FAST
TestMemoryStoreStateful = MemoryStoreMachine.TestCase
TestSQLiteStoreStateful = SQLiteStoreMachine.TestCase
