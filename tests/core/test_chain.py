"""The hash chain: every store computes the same chain as it appends, a topic file carries
it through export and import, and ``first_broken`` names the first event that was edited."""

from __future__ import annotations

import dataclasses
from hashlib import sha256
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pulse_core import MemoryEventStore, SQLiteEventStore, export_topic, import_topic
from pulse_core.chain import _RECORD, GENESIS, chain_hash, event_chain, first_broken
from tests.core.test_transfer import fill_topic


def test_every_store_chains_the_same_hashes(tmp_path: Path) -> None:
    memory = MemoryEventStore()
    key = fill_topic(memory)
    export_topic(memory, key, tmp_path / "t.jsonl")
    with SQLiteEventStore(tmp_path / "s.sqlite3") as sqlite:
        import_topic(sqlite, tmp_path / "t.jsonl")
        stored = sqlite.chain(key)
    kept = memory.chain(key)
    assert [e.chain for e in stored] == [e.chain for e in kept]
    assert len({e.chain for e in kept}) == len(kept)
    assert kept[0].chain == event_chain(GENESIS, kept[0])
    assert first_broken(stored) is None


def test_the_first_edited_event_is_named() -> None:
    memory = MemoryEventStore()
    chain = memory.chain(fill_topic(memory))
    edited = [*chain]
    edited[1] = dataclasses.replace(chain[1], meta={**chain[1].meta, "x": 1})
    assert first_broken(edited) == 1
    assert first_broken([chain[0], chain[2]]) == 1  # a removed event
    assert first_broken([dataclasses.replace(chain[0], kind="game.other"), *chain[1:]]) == 0


@given(
    st.text(),
    st.text(),
    st.text(),
    st.integers() | st.booleans(),
    st.text(),  # lone surrogates included: the hash writes them with surrogatepass
    st.text(),
)
def test_the_chain_hash_is_of_what_the_json_encoder_writes(
    previous: str, kind: str, key: str, version: int, meta_text: str, content: str
) -> None:
    record = [previous, kind, key, version, meta_text, content]
    written = _RECORD.encode(record).encode("utf-8", "surrogatepass")
    assert (
        chain_hash(previous, kind, key, version, meta_text, content) == sha256(written).hexdigest()
    )
