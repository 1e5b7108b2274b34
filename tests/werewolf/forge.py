"""Forging replay files in tests: recompute the hash chain after an edit, as someone who
knows the format would, so the checks behind the chain are tested too."""

from __future__ import annotations

import hashlib
from typing import Any

from pulse_core.chain import GENESIS, chain_hash
from pulse_core.events import meta_json


def rechain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set every event record's ``chain`` (records[0] is the header) to follow the edits."""
    previous = GENESIS
    for record in records[1:]:
        if isinstance(record.get("meta"), dict) and "chain" in record:
            record["chain"] = previous = chain_hash(
                previous,
                record["kind"],
                record["key"],
                record["version"],
                meta_json(record["meta"]),
                record["hash"],
            )
    return records


def renumber(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """After events were removed, added or moved: versions 1..N in file order and the
    header's event count, as a forger would set them (then ``rechain``)."""
    for version, record in enumerate(records[1:], start=1):
        record["version"] = version
    records[0]["events"] = len(records) - 1
    return records


def set_content(record: dict[str, Any], text: str) -> None:
    """Give an event record new content, with the hash that goes with it."""
    record["content"] = text
    record["hash"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
