"""The event store conformance suite: one contract, checked against every store.

Subclass ``EventStoreConformance`` in a test module under a ``Test...`` name and implement
``make_store(tmp_path)``; pytest collects every ``test_*`` method for that store::

    class TestMemoryStore(EventStoreConformance):
        def make_store(self, tmp_path: Path) -> EventStore:
            return MemoryEventStore()

The base class is not named ``Test...``, so pytest never collects it on its own. The suite
needs pytest only as its runner (for the ``tmp_path`` argument); it imports nothing from it.
Its parts check one area each (``appends``, ``batches``, ``reads``, ``values``). Its checks
are plain ``assert`` statements: register the package for pytest's assertion rewriting
(``pytest.register_assert_rewrite("pulse_core.conformance")`` in a conftest, which covers
its modules) to get detailed failure messages.
"""

from __future__ import annotations

from .appends import AppendChecks
from .batches import BatchChecks
from .reads import ReadChecks
from .values import ValueChecks

__all__ = ["EventStoreConformance"]


class EventStoreConformance(AppendChecks, BatchChecks, ReadChecks, ValueChecks):
    """The contract of ``pulse_core.store.EventStore``, as tests."""
