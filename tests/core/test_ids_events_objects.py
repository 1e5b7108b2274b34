"""ULIDs, the event model and both object stores."""

import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulse_core import (
    CorruptObjectError,
    Draft,
    FileObjectStore,
    IdSource,
    InvalidEventError,
    MemoryObjectStore,
    ObjectNotFoundError,
    ObjectStore,
    PulseError,
    check_kind,
    digest_of,
    is_ulid,
    split_kind,
)
from pulse_core.events import Event
from pulse_core.ids import ulid_time

MOMENT = datetime(2025, 6, 1, 12, 0, 0, 123456, tzinfo=UTC)


def frozen(moment: datetime = MOMENT) -> Callable[[], datetime]:
    return lambda: moment


# -- ids ----------------------------------------------------------------------------------
def test_ids_are_monotonic_within_one_millisecond() -> None:
    ids = IdSource(clock=frozen())
    made = [ids.new() for _ in range(2000)]
    assert all(is_ulid(i) for i in made)
    assert made == sorted(made)
    assert len(set(made)) == len(made)
    assert {i[:10] for i in made} == {made[0][:10]}  # one millisecond, one time prefix


def test_ids_sort_in_creation_order_across_milliseconds() -> None:
    moments = iter(MOMENT + timedelta(microseconds=300 * i) for i in range(3000))
    ids = IdSource(clock=lambda: next(moments))
    made = [ids.new() for _ in range(3000)]
    assert made == sorted(made)
    assert len({i[:10] for i in made}) > 100


def test_an_id_is_the_plain_base32_of_its_milliseconds_and_random_bits() -> None:
    """An id is written in two unrolled parts, its time part kept while the millisecond
    lasts: each equals the plain Crockford base32, five bits a character, of
    ``milliseconds << 80 | random bits`` (drawn anew each millisecond, else counted up)."""
    moments = [MOMENT + timedelta(microseconds=400 * i) for i in range(300)]
    ids = IdSource(clock=iter(moments).__next__, rng=random.Random(3))
    draws, last_ms, bits = random.Random(3), -1, 0
    for moment in moments:
        ms = (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
        bits = draws.getrandbits(80) >> 1 if ms > last_ms else bits + 1
        last_ms, n = ms, ms << 80 | bits
        alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
        assert ids.new() == "".join(alphabet[n >> 5 * k & 31] for k in reversed(range(26)))


class _Bits(random.Random):
    """A generator whose every draw is ``bits``."""

    def __init__(self, bits: int) -> None:
        super().__init__(0)
        self.bits = bits

    def getrandbits(self, k: int, /) -> int:
        return self.bits


@pytest.mark.parametrize("first", [1020, (1 << 30) - 3, (1 << 79) - 1026])
def test_ids_counted_up_past_the_last_ten_bits_stay_plain_base32(first: int) -> None:
    """The random part's top 70 bits are written once while they last: counted up past a
    multiple of 1024 (and of 2^30 and 2^79), each id is still the plain base32."""
    ids = IdSource(clock=frozen(), rng=_Bits(first << 1))  # a new millisecond halves the draw
    ms = (MOMENT - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    for bits in range(first, first + 2050):
        n = ms << 80 | bits
        assert ids.new() == "".join(alphabet[n >> 5 * k & 31] for k in reversed(range(26)))


def test_ids_keep_increasing_when_the_clock_steps_back() -> None:
    times = iter([MOMENT, MOMENT - timedelta(seconds=5), MOMENT - timedelta(hours=1), MOMENT])
    ids = IdSource(clock=lambda: next(times))
    made = [ids.new() for _ in range(4)]
    assert made == sorted(made)
    assert len(set(made)) == 4


def test_ids_from_many_threads_are_unique() -> None:
    ids = IdSource(clock=frozen())
    made: list[list[str]] = [[] for _ in range(4)]

    def work(out: list[str]) -> None:
        out.extend(ids.new() for _ in range(500))

    threads = [threading.Thread(target=work, args=(out,)) for out in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    everything = [i for out in made for i in out]
    assert len(set(everything)) == 2000
    assert all(out == sorted(out) for out in made)


def test_a_seeded_source_is_reproducible() -> None:
    first = IdSource(clock=frozen(), rng=random.Random(7))
    second = IdSource(clock=frozen(), rng=random.Random(7))
    assert [first.new() for _ in range(5)] == [second.new() for _ in range(5)]
    other = IdSource(clock=frozen(), rng=random.Random(8))
    assert first.new() != other.new()


@given(st.datetimes(min_value=datetime(1970, 1, 1), timezones=st.just(UTC)))
def test_ulid_time_is_the_millisecond_of_the_moment(moment: datetime) -> None:
    made = IdSource().new(moment)
    encoded = ulid_time(made)
    assert encoded <= moment < encoded + timedelta(milliseconds=1)
    assert encoded.microsecond % 1000 == 0


def test_the_time_of_an_id_from_another_timezone_is_utc() -> None:
    tokyo = MOMENT.astimezone(timezone(timedelta(hours=9)))
    made = IdSource(clock=frozen(tokyo)).new()
    assert ulid_time(made) == MOMENT.replace(microsecond=123000)
    assert ulid_time(made).tzinfo == UTC


def test_a_naive_clock_is_rejected() -> None:
    ids = IdSource(clock=lambda: datetime(2025, 1, 1, 12, 0))
    with pytest.raises(ValueError, match="timezone-aware"):
        ids.now()
    with pytest.raises(ValueError, match="timezone-aware"):
        ids.new()
    with pytest.raises(ValueError, match="timezone-aware"):
        IdSource().new(datetime(2025, 1, 1))


def test_a_moment_before_1970_is_rejected() -> None:
    with pytest.raises(ValueError, match="1970"):
        IdSource().new(datetime(1969, 12, 31, 23, 59, tzinfo=UTC))


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("01ARZ3NDEKTSV4RRFFQ69G5FAV", True),
        ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", True),
        ("00000000000000000000000000", True),
        ("01arz3ndektsv4rrffq69g5fav", False),  # lower case
        ("01ARZ3NDEKTSV4RRFFQ69G5FA", False),  # 25 characters
        ("01ARZ3NDEKTSV4RRFFQ69G5FAVX", False),  # 27 characters
        ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", False),  # beyond 48 bits of time
        ("01ARZ3NDEKTSV4RRFFQ69G5FAI", False),  # I, L, O, U are not Crockford
        ("01ARZ3NDEKTSV4RRFFQ69G5FAL", False),
        ("01ARZ3NDEKTSV4RRFFQ69G5FAO", False),
        ("01ARZ3NDEKTSV4RRFFQ69G5FAU", False),
        ("01ARZ3NDEKTSV4RRFFQ69G5FAV\n", False),  # a trailing newline
        (" 01ARZ3NDEKTSV4RRFFQ69G5FAV", False),
        ("", False),
    ],
)
def test_is_ulid(value: str, valid: bool) -> None:
    assert is_ulid(value) is valid


def test_ulid_time_refuses_what_is_not_a_ulid() -> None:
    with pytest.raises(ValueError, match="not a ULID"):
        ulid_time("not-a-ulid")


# -- events -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kind", ["werewolf.vote", "a.b", "wolf_night.day-speech", "werewolf.__start__", "w2.r2"]
)
def test_valid_kinds(kind: str) -> None:
    assert check_kind(kind) == kind


@pytest.mark.parametrize(
    "kind",
    [
        "",
        "werewolf",
        "werewolf.",
        ".vote",
        "Werewolf.vote",
        "werewolf.Vote",
        "werewolf.vote.extra",
        "werewolf.phases.Vote",  # a class path is not a kind
        "werewolf vote",
        "werewolf.day speech",
        "1wolf.vote",
        "werewolf.vote\n",
        "狼人.vote",
    ],
)
def test_invalid_kinds(kind: str) -> None:
    with pytest.raises(InvalidEventError, match=r"workflow\.role"):
        check_kind(kind)


def test_split_kind() -> None:
    assert split_kind("werewolf.day-speech") == ("werewolf", "day-speech")
    with pytest.raises(InvalidEventError):
        split_kind("werewolf")


def make_draft(**changes: object) -> Draft:
    ids = IdSource(clock=frozen())
    fields: dict[str, object] = {
        "id": ids.new(),
        "occurred_at": MOMENT,
        "kind": "werewolf.vote",
        "key": ids.new(),
        "hash": digest_of(b"content"),
        "meta": {},
    }
    fields.update(changes)
    return Draft(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": "not-a-ulid"}, "event id"),
        ({"id": "01arz3ndektsv4rrffq69g5fav"}, "event id"),
        ({"key": "topic-1"}, "topic key"),
        ({"key": "3f2b8c1e-0000-4000-8000-000000000000"}, "topic key"),
        ({"kind": "werewolf"}, r"workflow\.role"),
        ({"kind": "werewolf.vote\n"}, r"workflow\.role"),
        ({"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV\n"}, "event id"),
        ({"occurred_at": datetime(2025, 1, 1)}, "timezone-aware"),
        ({"meta": ["not", "an", "object"]}, "JSON object"),
        ({"meta": {"x": float("nan")}}, "not JSON"),
    ],
)
def test_a_draft_that_breaks_the_model_is_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidEventError, match=message) as caught:
        make_draft(**changes)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, PulseError)


def test_a_draft_holds_utc_and_its_own_copy_of_meta() -> None:
    meta: dict[str, object] = {"seats": (1, 2), "inner": {"n": 1}}
    draft = make_draft(occurred_at=MOMENT.astimezone(timezone(timedelta(hours=-7))), meta=meta)
    assert draft.occurred_at == MOMENT
    assert draft.occurred_at.tzinfo == UTC
    assert draft.meta == {"seats": [1, 2], "inner": {"n": 1}}
    meta["inner"] = {"n": 2}
    assert draft.meta["inner"] == {"n": 1}


def test_an_event_knows_its_workflow_and_role_and_its_draft() -> None:
    draft = make_draft(kind="werewolf.day-speech", meta={"seat": 3})
    event = Event.from_draft(draft, version=2, seq=9)
    assert (event.workflow, event.role) == ("werewolf", "day-speech")
    assert (event.version, event.seq) == (2, 9)
    assert event.same_draft(draft)
    assert not event.same_draft(dataclasses.replace(draft, meta={"seat": 4}))
    assert not event.same_draft(dataclasses.replace(draft, code_rev="other"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.version = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.kind = "werewolf.vote"  # type: ignore[misc]


def test_a_trusted_draft_and_an_event_from_a_draft_equal_constructed_ones() -> None:
    """``Draft.trusted`` and ``Event.from_draft`` fill a plain class of the same slots and
    then give it the frozen class: what they make is that class, equal field by field to
    the constructed one, and as frozen."""
    plain = make_draft(kind="werewolf.day-speech", meta={"seat": 3, "words": ["a"]})
    made = Draft.trusted(plain.id, plain.occurred_at, plain.kind, plain.key, plain.hash,
                         {"words": ("a",), "seat": 3})  # fmt: skip
    event = Event.from_draft(made, 2, 9, "c" * 64)
    built = Event(plain.id, plain.occurred_at, plain.kind, plain.key, plain.hash, plain.meta,
                  plain.code_rev, 2, 9, "c" * 64)  # fmt: skip
    for fast, slow in ((made, plain), (event, built)):
        assert type(fast) is type(slow)
        assert fast == slow
        for field in dataclasses.fields(slow):
            assert getattr(fast, field.name) == getattr(slow, field.name), field.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seq = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.meta = {}  # type: ignore[misc]


# -- object stores ------------------------------------------------------------------------
@pytest.fixture(params=["memory", "file", "file-not-durable"])
def objects(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ObjectStore]:
    if request.param == "memory":
        yield MemoryObjectStore()
    else:
        yield FileObjectStore(tmp_path / "objects", durable=request.param == "file")


def test_put_get_has(objects: ObjectStore) -> None:
    digest = objects.put(b"hello")
    assert digest == digest_of(b"hello")
    assert digest == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
    assert objects.has(digest)
    assert objects.get(digest) == b"hello"
    empty = objects.put(b"")
    assert objects.get(empty) == b""
    binary = bytes(range(256)) * 4
    assert objects.get(objects.put(binary)) == binary


def test_the_same_content_twice_is_a_no_op(objects: ObjectStore) -> None:
    first = objects.put("狼".encode())
    second = objects.put("狼".encode())
    assert first == second
    assert objects.get(first) == "狼".encode()


def test_missing_objects_raise_object_not_found(objects: ObjectStore) -> None:
    missing = digest_of(b"never stored")
    assert not objects.has(missing)
    with pytest.raises(ObjectNotFoundError, match=missing) as caught:
        objects.get(missing)
    assert caught.value.digest == missing
    assert isinstance(caught.value, KeyError)
    for malformed in ("", "../../etc/passwd", "AB" * 32, missing[:-1]):
        assert not objects.has(malformed)
        with pytest.raises(ObjectNotFoundError):
            objects.get(malformed)


@pytest.mark.parametrize("durable", [True, False])
def test_put_many_stores_each_object_once_and_leaves_no_temp_file(
    tmp_path: Path, durable: bool
) -> None:
    store = FileObjectStore(tmp_path / "objects", durable=durable)
    old = store.put(b"already there")
    blobs = [f"object {i}".encode() for i in range(40)] + [b"object 3", b"already there"]
    digests = store.put_many(blobs)
    assert digests == [digest_of(b) for b in blobs]
    assert all(store.get(d) == b for d, b in zip(digests, blobs, strict=True))
    assert digests[-1] == old
    files = [p for p in (tmp_path / "objects").rglob("*") if p.is_file()]
    assert len(files) == 41
    assert not [p for p in files if p.name.endswith(".tmp")]
    assert store.put_many([]) == []


def test_file_objects_fan_out_by_the_first_two_hex_digits(tmp_path: Path) -> None:
    store = FileObjectStore(tmp_path / "objects")
    digest = store.put(b"layout")
    path = tmp_path / "objects" / digest[:2] / digest[2:]
    assert path.read_bytes() == b"layout"
    assert store.path_of(digest) == path
    assert sorted(p.name for p in (tmp_path / "objects").rglob("*")) == sorted(
        [digest[:2], digest[2:]]
    )


def test_putting_stored_content_again_leaves_the_file_alone(tmp_path: Path) -> None:
    store = FileObjectStore(tmp_path / "objects")
    digest = store.put(b"once")
    path = store.path_of(digest)
    before = path.stat()
    store.put(b"once")
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert list(path.parent.iterdir()) == [path]  # no temp file left behind


def test_a_corrupted_file_raises_corrupt_object_naming_the_hash(tmp_path: Path) -> None:
    store = FileObjectStore(tmp_path / "objects")
    digest = store.put(b"the truth")
    store.path_of(digest).write_bytes(b"the truth, edited")
    with pytest.raises(CorruptObjectError, match=digest) as caught:
        store.get(digest)
    assert caught.value.digest == digest
    assert isinstance(caught.value, PulseError)


def test_objects_written_by_one_store_are_read_by_another(tmp_path: Path) -> None:
    digest = FileObjectStore(tmp_path / "objects").put(b"shared")
    assert FileObjectStore(tmp_path / "objects").get(digest) == b"shared"


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temp_file(root: Path, digest: str, pid: int, n: int = 1) -> Path:
    folder = root / digest[:2]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{digest[2:]}.{pid}.{n}.tmp"
    path.write_bytes(b"half an obj")
    return path


def test_opening_sweeps_temp_files_of_dead_writers(tmp_path: Path) -> None:
    root = tmp_path / "objects"
    digest = digest_of(b"interrupted")
    leftovers = [temp_file(root, digest, dead_pid(), n) for n in (1, 2)]
    unnamed = root / "ab" / "garbage.tmp"
    unnamed.parent.mkdir(parents=True, exist_ok=True)
    unnamed.write_bytes(b"")
    store = FileObjectStore(root)
    assert store.swept == 3
    assert not any(p.exists() for p in [*leftovers, unnamed])
    assert not store.has(digest)
    assert store.get(store.put(b"interrupted")) == b"interrupted"


def test_opening_keeps_temp_files_of_live_writers(tmp_path: Path) -> None:
    root = tmp_path / "objects"
    digest = digest_of(b"in progress")
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        theirs = temp_file(root, digest, writer.pid)
        ours = temp_file(root, digest, os.getpid(), 2)
        store = FileObjectStore(root)
        assert store.swept == 0
        assert theirs.exists()
        assert ours.exists()
    finally:
        writer.kill()
        writer.wait()
    assert FileObjectStore(root).swept == 1  # the writer is gone now; ours stays
    assert not theirs.exists()
    assert ours.exists()


def test_put_many_works_in_a_forked_child_after_the_parent_used_it(tmp_path: Path) -> None:
    """The sync threads are per process: a fork (the arena forks its game workers) makes
    its own instead of waiting on the parent's, which do not exist in the child."""
    store = FileObjectStore(tmp_path / "objects")
    store.put_many([f"parent {i}".encode() for i in range(20)])
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit status
        signal.alarm(20)  # a child stuck waiting on threads it lacks dies, and the test fails
        try:
            digests = store.put_many([b"child 1", b"child 2", b"child 3"])
            os._exit(0 if store.get(digests[2]) == b"child 3" else 1)
        finally:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.get(digest_of(b"child 1")) == b"child 1"


# -- the canonical meta text ----------------------------------------------------------------
_json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # lone surrogates included: meta_json writes them, the draft refuses them
)
_json_values = st.recursive(
    _json_leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.text(max_size=5), _json_values, max_size=5))
def test_meta_text_and_copy_are_what_the_json_encoder_and_decoder_make(
    meta: dict[str, object],
) -> None:
    from pulse_core.events import _META, _canonical_meta, meta_json

    text = meta_json(meta)
    assert text == _META.encode(meta)
    if text.isascii() or all(not "\ud800" <= c <= "\udfff" for c in text):
        assert _canonical_meta(meta) == (json.loads(text), text)
    else:  # a lone surrogate cannot be stored as UTF-8
        with pytest.raises(InvalidEventError, match="meta is not JSON"):
            _canonical_meta(meta)


def test_a_trusted_canonical_draft_keeps_its_meta_and_writes_the_same_text() -> None:
    """``Draft.trusted(..., canonical=True)`` keeps the dict it is given, with the text the
    copying path writes; a meta that is no JSON is refused all the same."""
    made = make_draft(meta={"b": [1, 2.5], "a": {"x": None}})
    meta: dict[str, object] = {"a": {"x": None}, "b": [1, 2.5]}
    args = (made.id, made.occurred_at, made.kind, made.key, made.hash)
    kept = Draft.trusted(*args, meta, canonical=True)
    copied = Draft.trusted(*args, meta)
    assert kept.meta is meta
    assert copied.meta is not meta
    assert kept == copied
    assert kept.meta_text == copied.meta_text == made.meta_text
    for bad in ({"x": object()}, {"x": "\ud800"}):
        with pytest.raises(InvalidEventError, match="meta is not JSON"):
            Draft.trusted(*args, bad, canonical=True)


def test_meta_that_contains_itself_or_no_json_is_refused() -> None:
    from pulse_core.events import meta_json

    looped: dict[str, object] = {}
    looped["self"] = [looped]
    for meta in (looped, {"x": object()}, {"x": float("inf")}, {1: 1, "a": 2}):
        with pytest.raises(InvalidEventError, match="meta is not JSON"):
            meta_json(meta)  # type: ignore[arg-type]


def test_an_event_from_a_draft_equals_one_made_by_its_constructor() -> None:
    draft = make_draft(kind="werewolf.day-speech", meta={"seat": 3})
    fast = Event.from_draft(draft, version=2, seq=9, chain="c" * 64)
    made = Event(
        id=draft.id,
        occurred_at=draft.occurred_at,
        kind=draft.kind,
        key=draft.key,
        hash=draft.hash,
        meta=draft.meta,
        code_rev=draft.code_rev,
        version=2,
        seq=9,
        chain="c" * 64,
    )
    assert fast == made
    names = [f.name for f in dataclasses.fields(Event)]
    assert [getattr(fast, n) for n in names] == [getattr(made, n) for n in names]


def test_a_trusted_draft_equals_one_made_by_its_constructor() -> None:
    draft = make_draft(meta={"seats": (1, 2), "inner": {"n": 1}})
    trusted = Draft.trusted(
        draft.id,
        draft.occurred_at,
        draft.kind,
        draft.key,
        draft.hash,
        {"seats": (1, 2), "inner": {"n": 1}},
    )
    names = [f.name for f in dataclasses.fields(Draft)]
    assert [getattr(trusted, n) for n in names] == [getattr(draft, n) for n in names]


@pytest.mark.parametrize("clock", [None, frozen(MOMENT.astimezone(timezone(timedelta(hours=5))))])
def test_a_stamp_is_a_utc_moment_and_an_id_of_that_millisecond(
    clock: Callable[[], datetime] | None,
) -> None:
    ids = IdSource() if clock is None else IdSource(clock=clock)
    moment, event_id = ids.stamp()
    assert moment.tzinfo == UTC
    assert ulid_time(event_id) == moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    assert ids.new(moment) > event_id  # the same monotonic source
