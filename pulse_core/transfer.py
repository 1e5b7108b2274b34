"""Topic files: one topic as a self-contained JSON Lines file, to export, import and replay.

Line 1 is a header, ``{"format": "pulse-topic", "version": 2, "key": ..., "events": N}``.
Each further line is one event, in version order, with every field and its content inline::

    {"id", "occurred_at", "kind", "key", "version", "hash", "meta", "code_rev", "chain",
     "content"}

plus ``"attachments": {name: text}`` when the event's meta names attachments (see
``workflow.ATTACHMENTS``), so the file needs no object store. Text is UTF-8; ``occurred_at``
is ISO 8601 with its UTC offset; ``seq`` is not written (it is one store's commit order).

``chain`` is the event's hash chain (``pulse_core.chain``); version 1 files, written
before it, have none and are still read (their chain is computed, not checked).

Reading checks every line (JSON, fields, versions 1..N, each text against its hash, each
chain hash against the line before, the event count of the header) and raises ``TopicFileError`` naming the 1-based line of the first
problem. ``import_topic`` validates the whole file before it writes anything and keeps the
event ids, so importing a file again is a no-op and an interrupted import can be re-run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .chain import GENESIS, draft_chain, event_chain
from .errors import ConflictError, InvalidEventError, PulseError, TopicFileError
from .events import Draft, Event
from .ids import is_ulid
from .limits import LimitError, bounded_lines, clip, parse_json
from .objects import digest_of, put_all
from .store import BatchAppend, EventStore
from .tempfiles import atomic_write
from .workflow import ATTACHMENTS

__all__ = [
    "TOPIC_FORMAT",
    "TOPIC_FORMAT_VERSION",
    "TopicFile",
    "export_topic",
    "export_topic_lines",
    "import_topic",
    "load_topic_file",
    "parse_topic",
]

TOPIC_FORMAT = "pulse-topic"
TOPIC_FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)  # 1: no chain hashes

_HEADER_FIELDS = ("format", "version", "key", "events")
_EVENT_FIELDS: dict[str, type] = {
    "id": str,
    "occurred_at": str,
    "kind": str,
    "key": str,
    "version": int,
    "hash": str,
    "meta": dict,
    "code_rev": str,
    "content": str,
}
_OPTIONAL_EVENT_FIELDS: dict[str, type] = {"attachments": dict}


@dataclass(frozen=True, slots=True)
class TopicFile:
    """A topic read from a file: its events (with ``seq`` = ``version``) and their texts.

    ``events`` pairs each event with its content; ``texts`` holds every text of the file
    (contents and attachments) by hash, already checked against it.
    """

    path: str
    key: str
    version: int
    events: tuple[tuple[Event, str], ...]
    texts: Mapping[str, str]

    @property
    def chain(self) -> list[Event]:
        """The events alone, in version order."""
        return [event for event, _ in self.events]

    def attachment(self, event: Event, name: str) -> str | None:
        """The text of one attachment of ``event``, or None when it has none of that name."""
        digest = _attachment_hashes(event.meta).get(name)
        return None if digest is None else self.texts[digest]


# -- export -------------------------------------------------------------------------------
def _attachment_hashes(meta: Mapping[str, Any]) -> dict[str, str]:
    names = meta.get(ATTACHMENTS)
    if names is None:
        return {}
    if not isinstance(names, dict) or not all(
        isinstance(name, str) and isinstance(digest, str) for name, digest in names.items()
    ):
        raise InvalidEventError(f"meta[{ATTACHMENTS!r}] must map names to object hashes")
    return names


def _text(store: EventStore, digest: str, what: str) -> str:
    try:
        return store.objects.get(digest).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidEventError(f"{what} is not UTF-8 text: {exc}") from exc


def _event_line(store: EventStore, event: Event, previous: str) -> str:
    record: dict[str, Any] = {
        "id": event.id,
        "occurred_at": event.occurred_at.isoformat(),
        "kind": event.kind,
        "key": event.key,
        "version": event.version,
        "hash": event.hash,
        "meta": event.meta,
        "code_rev": event.code_rev,
        "chain": event.chain or event_chain(previous, event),  # a store not yet migrated
        "content": _text(store, event.hash, f"content of event {event.id}"),
    }
    attachments = _attachment_hashes(event.meta)
    if attachments:
        record["attachments"] = {
            name: _text(store, digest, f"attachment {name!r} of event {event.id}")
            for name, digest in sorted(attachments.items())
        }
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def export_topic_lines(store: EventStore, key: str) -> list[str]:
    """The lines of ``key``'s topic file, without line ends: the header, then each event."""
    chain = store.chain(key)
    if not chain:
        raise PulseError(f"no topic {key} in the store")
    header = {
        "format": TOPIC_FORMAT,
        "version": TOPIC_FORMAT_VERSION,
        "key": key,
        "events": len(chain),
    }
    lines = [json.dumps(header)]
    previous = GENESIS
    for event in chain:
        lines.append(_event_line(store, event, previous))
        previous = event.chain or event_chain(previous, event)
    return lines


def export_topic(store: EventStore, key: str, path: str | os.PathLike[str]) -> int:
    """Write ``key``'s topic to ``path`` (atomically: all or nothing); return its event count."""
    lines = export_topic_lines(store, key)
    atomic_write(path, "".join(line + "\n" for line in lines).encode("utf-8"))
    return len(lines) - 1


# -- reading ------------------------------------------------------------------------------
def _json_line(source: str, number: int, raw: bytes) -> dict[str, Any]:
    try:
        value = parse_json(raw, source, number)
    except LimitError as exc:
        raise TopicFileError(source, exc.line or number, exc.detail) from None
    if not isinstance(value, dict):
        raise TopicFileError(source, number, "not a JSON object")
    return value


def _check_fields(
    source: str,
    number: int,
    record: dict[str, Any],
    required: Mapping[str, type],
    optional: Mapping[str, type],
) -> None:
    missing = [name for name in required if name not in record]
    if missing:
        raise TopicFileError(source, number, f"missing field(s): {', '.join(missing)}")
    unknown = sorted(set(record) - set(required) - set(optional))
    if unknown:
        raise TopicFileError(source, number, f"unknown field(s): {clip(', '.join(unknown))}")
    for name, kind in {**required, **optional}.items():
        value = record.get(name)
        if name in record and (not isinstance(value, kind) or isinstance(value, bool)):
            raise TopicFileError(
                source, number, f"field {name!r} must be {kind.__name__}, not {clip(repr(value))}"
            )


def _parse_header(source: str, raw: bytes) -> tuple[str, int, int]:
    record = _json_line(source, 1, raw)
    if record.get("format") != TOPIC_FORMAT:
        raise TopicFileError(source, 1, f"not a {TOPIC_FORMAT} file (header 'format' field)")
    version = record.get("version")
    if version not in _READABLE_VERSIONS or isinstance(version, bool):
        raise TopicFileError(
            source,
            1,
            f"unsupported {TOPIC_FORMAT} version {clip(repr(version))} (this code reads "
            f"{TOPIC_FORMAT_VERSION})",
        )
    types = {"format": str, "version": int, "key": str, "events": int}
    _check_fields(source, 1, record, {name: types[name] for name in _HEADER_FIELDS}, {})
    key, count = record["key"], record["events"]
    if not is_ulid(key):
        raise TopicFileError(source, 1, f"topic key {clip(repr(key))} is not a ULID")
    if count < 1:
        raise TopicFileError(source, 1, f"a topic file holds at least one event, not {count}")
    return key, count, int(version)


def _checked_text(source: str, number: int, text: str, digest: str, what: str) -> None:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise TopicFileError(source, number, f"{what} is not UTF-8 text: {exc}") from exc
    if digest_of(data) != digest:
        raise TopicFileError(source, number, f"{what} does not match its hash {digest}")


def _parse_event(
    source: str,
    number: int,
    raw: bytes,
    key: str,
    version: int,
    texts: dict[str, str],
    previous: str | None,
) -> tuple[Event, str]:
    """One event line; ``previous`` is the chain hash of the line before (None: a version 1
    file, whose lines carry no chain hash)."""
    record = _json_line(source, number, raw)
    required = _EVENT_FIELDS if previous is None else {**_EVENT_FIELDS, "chain": str}
    _check_fields(source, number, record, required, _OPTIONAL_EVENT_FIELDS)
    if record["key"] != key:
        raise TopicFileError(
            source, number, f"key {clip(repr(record['key']))} is not the header's {key}"
        )
    if record["version"] != version:
        raise TopicFileError(
            source, number, f"version {record['version']} where {version} was expected"
        )
    try:
        draft = Draft(
            id=record["id"],
            occurred_at=datetime.fromisoformat(record["occurred_at"]),
            kind=record["kind"],
            key=key,
            hash=record["hash"],
            meta=record["meta"],
            code_rev=record["code_rev"],
        )
        attachments = _attachment_hashes(draft.meta)
    except (InvalidEventError, ValueError) as exc:
        raise TopicFileError(source, number, str(exc)) from exc
    content = record["content"]
    _checked_text(source, number, content, draft.hash, "content")
    texts[draft.hash] = content
    inline: dict[str, Any] = record.get("attachments", {})
    if set(inline) != set(attachments):
        raise TopicFileError(
            source,
            number,
            f"attachments {sorted(inline)} do not match meta[{ATTACHMENTS!r}] "
            f"{sorted(attachments)}",
        )
    for name, digest in attachments.items():
        text = inline[name]
        if not isinstance(text, str):
            raise TopicFileError(source, number, f"attachment {name!r} must be text")
        _checked_text(source, number, text, digest, f"attachment {name!r}")
        texts[digest] = text
    link = draft_chain(GENESIS if previous is None else previous, draft, version)
    if previous is not None and record["chain"] != link:
        raise TopicFileError(
            source,
            number,
            "edited: its chain hash does not follow from the line before "
            "(this line, or the chain hash of the one before it, was changed)",
        )
    return Event.from_draft(draft, version=version, seq=version, chain=link), content


def parse_topic(data: bytes, source: str = "<topic>") -> TopicFile:
    """Read and check a topic file's bytes; ``source`` names it in errors."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    return _parse_lines(enumerate(lines, start=1), source)


def _parse_lines(lines: Iterable[tuple[int, bytes]], source: str) -> TopicFile:
    """Check numbered lines as a topic file, one line at a time (a file is streamed)."""
    numbered = iter(lines)
    first = next(numbered, None)
    if first is None:
        raise TopicFileError(source, 1, f"empty file: expected a {TOPIC_FORMAT} header")
    key, count, file_version = _parse_header(source, first[1])
    texts: dict[str, str] = {}
    events: list[tuple[Event, str]] = []
    seen: set[str] = set()
    number = 1
    for number, raw in numbered:
        version = number - 1
        if version > count:
            raise TopicFileError(source, number, f"more events than the header's {count}")
        previous = None if file_version == 1 else (events[-1][0].chain if events else GENESIS)
        event, content = _parse_event(source, number, raw, key, version, texts, previous)
        if event.id in seen:
            raise TopicFileError(source, number, f"event id {event.id} appears twice")
        seen.add(event.id)
        events.append((event, content))
    if len(events) < count:
        raise TopicFileError(
            source,
            number + 1,
            f"file ends after {len(events)} of the header's {count} events: truncated",
        )
    return TopicFile(path=source, key=key, version=file_version, events=tuple(events), texts=texts)


def load_topic_file(path: str | os.PathLike[str]) -> TopicFile:
    """Read and check a topic file (every hash verified); no store needed. The file is
    read one bounded line at a time (``pulse_core.limits``)."""
    source = str(path)
    try:
        return _parse_lines(bounded_lines(path), source)
    except LimitError as exc:
        raise TopicFileError(source, exc.line or 0, exc.detail) from None


# -- import -------------------------------------------------------------------------------
def import_topic(
    store: EventStore,
    path: str | os.PathLike[str],
    *,
    check: Callable[[TopicFile], object] | None = None,
) -> str:
    """Append the topic in ``path`` to ``store`` and return its key.

    The whole file is checked, and compared with what the store already holds, before
    anything is written; ``check``, when given, judges the topic too (a workflow's own
    rules: it raises to refuse the file) before anything is written. Events the store already has (same id, same event) are skipped, so
    a second import is a no-op; a topic that differs from the file under the same key, or an
    id used by another event, raises ``TopicFileError`` naming the line.
    """
    topic = load_topic_file(path)
    if check is not None:
        check(topic)
    stored = store.chain(topic.key)
    drafts = [event.draft() for event, _ in topic.events]
    for (event, _), draft, mine in zip(topic.events, drafts, stored, strict=False):
        if not (mine.same_draft(draft) and mine.version == event.version):
            raise TopicFileError(
                topic.path,
                event.version + 1,
                f"topic {topic.key} already holds a different event at version "
                f"{event.version} (id {mine.id})",
            )
    missing = list(zip(topic.events[len(stored) :], drafts[len(stored) :], strict=True))
    for (event, _), _draft in missing:
        other = store.get(event.id)
        if other is not None:
            raise TopicFileError(
                topic.path,
                event.version + 1,
                f"event id {event.id} is already used by version {other.version} "
                f"of topic {other.key}",
            )
    blobs = [
        text.encode("utf-8")
        for (event, content), _draft in missing
        for text in (content, *(topic.texts[d] for d in _attachment_hashes(event.meta).values()))
    ]
    items = [(draft, event.version - 1) for (event, _), draft in missing]
    # where the store can, the contents and events in one transaction (one sync for the whole
    # topic); else every object before any event names it, then the events one by one
    if isinstance(store, BatchAppend):
        for done in store.append_batch(items, blobs):
            if isinstance(done, ConflictError):
                raise done
        return topic.key
    put_all(store.objects, blobs)
    for draft, expected_version in items:
        store.append(draft, expected_version=expected_version)
    return topic.key
