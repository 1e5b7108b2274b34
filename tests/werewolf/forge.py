"""Forging replay files in tests: recompute the hash chain after an edit, as someone who
knows the format would, so the checks behind the chain are tested too."""

from __future__ import annotations

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
