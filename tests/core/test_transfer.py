"""Topic files: export, load without a store, import, and every way a file can be damaged."""

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pulse_core import (
    ATTACHMENTS,
    Draft,
    Event,
    EventStore,
    IdSource,
    MemoryEventStore,
    PulseError,
    SQLiteEventStore,
    TopicFile,
    TopicFileError,
    digest_of,
    export_topic,
    export_topic_lines,
    import_topic,
    load_topic_file,
    read_attachment,
    read_content,
)

IDS = IdSource()
CONTENTS = ["夜晚开始 🌙", "line one\nline two\u2028same line for JSON", '{"not": "meta"}']


def append(
    store: EventStore,
    key: str,
    content: str,
    role: str = "step",
    meta: dict[str, Any] | None = None,
    attachments: dict[str, str] | None = None,
) -> Event:
    meta = dict(meta or {})
    if attachments:
        meta[ATTACHMENTS] = {
            name: store.objects.put(text.encode()) for name, text in attachments.items()
        }
    moment = IDS.now()
    draft = Draft(
        id=IDS.new(moment),
        occurred_at=moment,
        kind=f"game.{role}",
        key=key,
        hash=store.objects.put(content.encode()),
        meta=meta,
    )
    return store.append(draft, store.version(key))


def fill_topic(store: EventStore, key: str | None = None) -> str:
    key = key or IDS.new()
    append(store, key, CONTENTS[0], "__start__", {"seed": 7})
    append(
        store,
        key,
        CONTENTS[1],
        "speech",
        {"seat": 3, "visible_to": None, "nested": {"ü": [1.5, True]}},
        attachments={"reasoning": "私下的想法", "raw": "model said\nthings"},
    )
    append(store, key, CONTENTS[2], "vote", {"votes": {"1": 3}})
    return key


@pytest.fixture
def source() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
def topic(source: MemoryEventStore) -> str:
    other = fill_topic(source)  # a second topic, interleaved, that must not leak into the file
    key = fill_topic(source)
    append(source, other, "later")
    return key


@pytest.fixture
def exported(source: MemoryEventStore, topic: str, tmp_path: Path) -> Path:
    path = tmp_path / "topic.jsonl"
    assert export_topic(source, topic, path) == 3
    return path


def same_events(left: list[Event], right: list[Event]) -> None:
    """Equal but for seq, which is each store's own commit order."""
    strip = [
        (e.id, e.occurred_at, e.kind, e.key, e.version, e.hash, e.meta, e.code_rev) for e in left
    ]
    assert strip == [
        (e.id, e.occurred_at, e.kind, e.key, e.version, e.hash, e.meta, e.code_rev) for e in right
    ]


# -- the format ---------------------------------------------------------------------------
def test_the_file_is_a_header_then_one_line_per_event(
    source: MemoryEventStore, topic: str, exported: Path
) -> None:
    lines = exported.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # every line ends with a newline
    header, *events = (json.loads(line) for line in lines[:-1])
    assert header == {"format": "pulse-topic", "version": 2, "key": topic, "events": 3}
    chain = source.chain(topic)
    assert [e["id"] for e in events] == [e.id for e in chain]
    first = events[0]
    assert list(first) == [
        "id",
        "occurred_at",
        "kind",
        "key",
        "version",
        "hash",
        "meta",
        "code_rev",
        "chain",
        "content",
    ]
    assert [e["chain"] for e in events] == [e.chain for e in chain]
    assert first["occurred_at"] == chain[0].occurred_at.isoformat()
    assert first["occurred_at"].endswith("+00:00")
    assert [e["content"] for e in events] == CONTENTS
    assert [e["version"] for e in events] == [1, 2, 3]
    assert events[1]["attachments"] == {"raw": "model said\nthings", "reasoning": "私下的想法"}
    assert "attachments" not in events[2]
    assert "私下的想法" in exported.read_text(encoding="utf-8")  # UTF-8, not \u escapes


def test_export_is_deterministic_and_leaves_no_temp_file(
    source: MemoryEventStore, topic: str, exported: Path, tmp_path: Path
) -> None:
    again = tmp_path / "again.jsonl"
    export_topic(source, topic, again)
    assert again.read_bytes() == exported.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.jsonl", "topic.jsonl"]
    lines = export_topic_lines(source, topic)
    assert "\n".join(lines) + "\n" == exported.read_text(encoding="utf-8")


def test_exporting_an_unknown_topic_raises(source: MemoryEventStore, tmp_path: Path) -> None:
    with pytest.raises(PulseError, match="no topic"):
        export_topic(source, IDS.new(), tmp_path / "none.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_exporting_content_that_is_not_text_raises(tmp_path: Path) -> None:
    store = MemoryEventStore()
    key = IDS.new()
    moment = IDS.now()
    binary = store.objects.put(b"\xff\xfe not utf-8")
    store.append(
        Draft(id=IDS.new(moment), occurred_at=moment, kind="game.x", key=key, hash=binary), 0
    )
    with pytest.raises(PulseError, match="not UTF-8"):
        export_topic(store, key, tmp_path / "t.jsonl")


# -- loading without a store --------------------------------------------------------------
def test_load_gives_the_events_and_their_texts(
    source: MemoryEventStore, topic: str, exported: Path
) -> None:
    loaded = load_topic_file(exported)
    assert (loaded.key, loaded.version, loaded.path) == (topic, 2, str(exported))
    same_events(loaded.chain, source.chain(topic))
    assert [content for _, content in loaded.events] == CONTENTS
    assert [e.seq for e in loaded.chain] == [1, 2, 3]  # seq is the position in the file
    speech = loaded.chain[1]
    assert loaded.attachment(speech, "reasoning") == "私下的想法"
    assert loaded.attachment(speech, "raw") == "model said\nthings"
    assert loaded.attachment(speech, "absent") is None
    assert loaded.attachment(loaded.chain[0], "reasoning") is None


def test_a_file_without_a_final_newline_is_complete(exported: Path) -> None:
    exported.write_bytes(exported.read_bytes().rstrip(b"\n"))
    assert len(load_topic_file(exported).events) == 3


def test_a_missing_file_raises_topic_file_error(tmp_path: Path) -> None:
    with pytest.raises(TopicFileError, match=r"absent\.jsonl: no such file$"):
        load_topic_file(tmp_path / "absent.jsonl")


# -- import -------------------------------------------------------------------------------
@pytest.fixture(params=["memory", "sqlite"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "memory":
        yield MemoryEventStore()
    else:
        with SQLiteEventStore(tmp_path / "target" / "events.db", durable=False) as store:
            yield store


def test_import_round_trips_the_topic(
    source: MemoryEventStore, topic: str, exported: Path, target: EventStore
) -> None:
    append(target, IDS.new(), "already here")
    assert import_topic(target, exported) == topic
    imported = target.chain(topic)
    same_events(imported, source.chain(topic))
    assert [e.seq for e in imported] == [2, 3, 4]
    assert [read_content(target, e) for e in imported] == CONTENTS
    assert read_attachment(target, imported[1], "reasoning") == "私下的想法"
    assert target.topics()[1] == topic


def test_an_import_the_check_refuses_writes_nothing(
    topic: str, exported: Path, target: EventStore
) -> None:
    judged: list[str] = []

    def refuse(file: TopicFile) -> None:
        judged.append(file.key)
        raise PulseError(f"{file.path}: not a game of ours")

    with pytest.raises(PulseError, match="not a game of ours"):
        import_topic(target, exported, check=refuse)
    assert judged == [topic]
    assert target.read_after(0) == []
    assert import_topic(target, exported, check=lambda file: None) == topic
    assert len(target.chain(topic)) == 3


def test_importing_the_same_file_again_is_a_no_op(exported: Path, target: EventStore) -> None:
    import_topic(target, exported)
    before = target.read_after(0)
    import_topic(target, exported)
    assert target.read_after(0) == before


def test_importing_into_a_topic_that_moved_on_is_a_no_op(
    source: MemoryEventStore, topic: str, exported: Path
) -> None:
    append(source, topic, "after the export")
    before = source.read_after(0)
    assert import_topic(source, exported) == topic
    assert source.read_after(0) == before


def test_an_interrupted_import_is_completed_by_importing_again(
    exported: Path, target: EventStore
) -> None:
    loaded = load_topic_file(exported)
    event, content = loaded.events[0]
    target.objects.put(content.encode())
    target.append(event.draft(), 0)  # as if the process died after the first append
    import_topic(target, exported)
    same_events(target.chain(loaded.key), loaded.chain)


def test_a_different_topic_under_the_same_key_is_refused(
    topic: str, exported: Path, target: EventStore
) -> None:
    fill_topic(target, key=topic)
    before = target.read_after(0)
    with pytest.raises(TopicFileError, match="different event at version 1") as caught:
        import_topic(target, exported)
    assert caught.value.line == 2
    assert target.read_after(0) == before


def test_an_id_used_by_another_topic_is_refused(exported: Path, target: EventStore) -> None:
    loaded = load_topic_file(exported)
    taken = loaded.chain[2]
    moment = IDS.now()
    target.append(
        Draft(
            id=taken.id,
            occurred_at=moment,
            kind="game.x",
            key=IDS.new(),
            hash=target.objects.put(b"x"),
        ),
        0,
    )
    with pytest.raises(TopicFileError, match="already used") as caught:
        import_topic(target, exported)
    assert caught.value.line == 4
    assert target.last_seq() == 1
    assert target.chain(loaded.key) == []


# -- damaged files ------------------------------------------------------------------------
Lines = list[bytes]


def edit_json(index: int, change: Callable[[dict[str, Any]], None]) -> Callable[[Lines], None]:
    def apply(lines: Lines) -> None:
        record = json.loads(lines[index])
        change(record)
        lines[index] = json.dumps(record, ensure_ascii=False).encode()

    return apply


def set_field(index: int, name: str, value: Any) -> Callable[[Lines], None]:
    return edit_json(index, lambda record: record.__setitem__(name, value))


def drop_field(index: int, name: str) -> Callable[[Lines], None]:
    return edit_json(index, lambda record: record.pop(name))


def replace_line(index: int, raw: bytes) -> Callable[[Lines], None]:
    def apply(lines: Lines) -> None:
        lines[index] = raw

    return apply


def delete_line(index: int) -> Callable[[Lines], None]:
    def apply(lines: Lines) -> None:
        del lines[index]

    return apply


def cut_last_line(lines: Lines) -> None:
    lines[-1] = lines[-1][: len(lines[-1]) // 2]


def set_attachment(name: str, text: str) -> Callable[[Lines], None]:
    return edit_json(2, lambda record: record["attachments"].__setitem__(name, text))


def copy_id_of_line_2_into_line_3(lines: Lines) -> None:
    second, third = json.loads(lines[1]), json.loads(lines[2])
    third["id"] = second["id"]
    lines[2] = json.dumps(third, ensure_ascii=False).encode()


DAMAGE: dict[str, tuple[Callable[[Lines], None], int, str]] = {
    # name: (damage, 1-based line reported, words of the message)
    "header not JSON": (replace_line(0, b"pulse-topic v1"), 1, "not JSON"),
    "header not an object": (replace_line(0, b"[1, 2]"), 1, "not a JSON object"),
    "other format": (set_field(0, "format", "other"), 1, "not a pulse-topic file"),
    "newer version": (set_field(0, "version", 3), 1, "unsupported pulse-topic version 3"),
    "version as text": (set_field(0, "version", "1"), 1, "unsupported"),
    "header without count": (drop_field(0, "events"), 1, "missing field(s): events"),
    "header extra field": (set_field(0, "extra", 1), 1, "unknown field(s): extra"),
    "header bad key": (set_field(0, "key", "topic-1"), 1, "not a ULID"),
    "header zero events": (set_field(0, "events", 0), 1, "at least one event"),
    "line not JSON": (replace_line(2, b'{"id": "01'), 3, "not JSON"),
    "blank line": (replace_line(2, b""), 3, "not JSON"),
    "not UTF-8": (replace_line(2, b'{"id": "\xff"}'), 3, "not UTF-8"),
    "event not an object": (replace_line(1, b'"text"'), 2, "not a JSON object"),
    "content edited": (set_field(2, "content", "something else"), 3, "does not match its hash"),
    "hash edited": (set_field(1, "hash", digest_of(b"x")), 2, "does not match its hash"),
    "missing field": (drop_field(3, "meta"), 4, "missing field(s): meta"),
    "unknown field": (set_field(1, "seq", 1), 2, "unknown field(s): seq"),
    "version as text in event": (set_field(1, "version", "1"), 2, "must be int"),
    "version as bool": (set_field(1, "version", True), 2, "must be int"),
    "meta not an object": (set_field(1, "meta", [1]), 2, "must be dict"),
    "version gap": (set_field(2, "version", 3), 3, "version 3 where 2 was expected"),
    "other key": (set_field(2, "key", IDS.new()), 3, "is not the header's"),
    "bad kind": (set_field(3, "kind", "Game.Vote"), 4, "workflow.role"),
    "bad id": (set_field(3, "id", "id-3"), 4, "not a ULID"),
    "naive time": (set_field(1, "occurred_at", "2025-01-01T12:00:00"), 2, "timezone-aware"),
    "not a time": (set_field(1, "occurred_at", "yesterday"), 2, "isoformat"),
    "meta not JSON": (set_field(1, "meta", {"x": float("nan")}), 2, "NaN is not a number"),
    "repeated id": (copy_id_of_line_2_into_line_3, 3, "appears twice"),
    "attachment edited": (set_attachment("reasoning", "edited"), 3, "attachment 'reasoning'"),
    "attachment missing": (drop_field(2, "attachments"), 3, "do not match meta"),
    "attachment added": (set_field(1, "attachments", {"x": "y"}), 2, "do not match meta"),
    "truncated": (delete_line(3), 4, "file ends after 2 of the header's 3 events"),
    "cut last line": (cut_last_line, 4, "not JSON"),
    "event missing in the middle": (delete_line(2), 3, "version 3 where 2 was expected"),
    "more events than the header": (set_field(0, "events", 2), 4, "more events than"),
    # the hash chain: an edit of meta, kind or order that every other check lets through
    "meta edited": (edit_json(2, lambda r: r["meta"].__setitem__("x", 1)), 3, "edited: its chain"),
    "kind edited": (set_field(1, "kind", "game.other"), 2, "edited: its chain"),
    "chain edited": (set_field(2, "chain", "0" * 64), 3, "edited: its chain"),
    "chain recomputed for an edit": (set_field(1, "chain", "1" * 64), 2, "edited: its chain"),
    "chain missing": (drop_field(1, "chain"), 2, "missing field(s): chain"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_file_is_refused_at_its_line_and_nothing_is_written(
    damage: str, exported: Path, target: EventStore
) -> None:
    change, line, words = DAMAGE[damage]
    lines = exported.read_bytes().split(b"\n")[:-1]
    change(lines)
    exported.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(TopicFileError) as caught:
        import_topic(target, exported)
    error = caught.value
    assert (error.path, error.line) == (str(exported), line), str(error)
    assert words in error.detail
    assert str(error).startswith(f"{exported}:{line}: ")
    assert target.last_seq() == 0
    assert not any(target.objects.has(digest_of(text.encode())) for text in CONTENTS)


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    with pytest.raises(TopicFileError, match="empty file") as caught:
        load_topic_file(path)
    assert caught.value.line == 1


def test_a_file_cut_inside_a_multibyte_character_is_refused(exported: Path) -> None:
    data = exported.read_bytes()
    exported.write_bytes(data[: data.index("想".encode()) + 1])  # line 3 ends mid-character
    with pytest.raises(TopicFileError, match="not UTF-8") as caught:
        load_topic_file(exported)
    assert caught.value.line == 3
