"""The hash chain that makes an edited log evident.

Each event's ``chain`` hash is the SHA-256 of its kind, key, version, meta (canonical JSON)
and content hash, together with the previous event's chain hash (``GENESIS`` before a
topic's first event). The stores compute it as they append; topic files carry it. Editing
any of those fields of one event, or removing or reordering events, breaks the chain from
that event on, and ``first_broken`` names the first event whose recorded hash no longer
follows. The content itself is covered through its hash, which the object store and topic
files check on every read. There is no secret: a chain proves a log was not edited by
accident or by someone who did not recompute every later hash, not who wrote it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from .events import Draft, Event, meta_json

__all__ = ["GENESIS", "chain_hash", "draft_chain", "event_chain", "first_broken"]

GENESIS = "0" * 64  # the previous hash of a topic's first event
# made once: json.dumps with options builds a new encoder on every call
_RECORD = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_quote = json.encoder.encode_basestring  # a JSON string, as _RECORD writes one


def chain_hash(
    previous: str, kind: str, key: str, version: int, meta_text: str, content_hash: str
) -> str:
    """The chain hash of one event (``meta_text``: its meta as ``meta_json`` writes it): of
    the JSON array ``_RECORD`` writes of these six values, here joined from the C string
    quoter, since every append makes one (``tests/core/test_chain.py``)."""
    if type(version) is int:
        q = _quote
        record = f"[{q(previous)},{q(kind)},{q(key)},{version},{q(meta_text)},{q(content_hash)}]"
    else:  # a bool or an int subclass: written as the encoder writes it
        record = _RECORD.encode([previous, kind, key, version, meta_text, content_hash])
    return hashlib.sha256(record.encode("utf-8", "surrogatepass")).hexdigest()


def draft_chain(previous: str, draft: Draft, version: int) -> str:
    """The chain hash a store gives ``draft`` when it appends it as ``version``."""
    return chain_hash(previous, draft.kind, draft.key, version, draft.meta_text, draft.hash)


def event_chain(previous: str, event: Event) -> str:
    """What ``event``'s chain hash must be, after an event whose chain hash is ``previous``."""
    return chain_hash(
        previous, event.kind, event.key, event.version, meta_json(event.meta), event.hash
    )


def first_broken(chain: Sequence[Event]) -> int | None:
    """The index of the first event of a topic (in version order, from version 1) whose
    recorded chain hash does not follow from the events before it, or None when all do."""
    previous = GENESIS
    for index, event in enumerate(chain):
        if event.chain != event_chain(previous, event):
            return index
        previous = event.chain
    return None
