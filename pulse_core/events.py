"""The event: one immutable entry of the append-only log.

``kind`` is ``{workflow}.{role}`` (a stable string, never a class path), ``key`` the topic's
ULID, ``hash`` the SHA-256 of the content held in the object store, ``meta`` a small JSON
object of decision signals. A ``Draft`` is an event before it is appended: its id is made
first, so retrying an append is idempotent. The store adds the per-topic ``version``
(1, 2, 3, ...) and the global ``seq`` (commit order).
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from importlib import metadata
from typing import Any, TypeAlias, cast

from .errors import InvalidEventError
from .ids import is_ulid
from .limits import clip

__all__ = [
    "CODE_REV",
    "Draft",
    "Event",
    "JSONValue",
    "Meta",
    "check_kind",
    "fill_class",
    "meta_json",
    "split_kind",
]

JSONValue: TypeAlias = Any  # a value json.dumps accepts: dict, list, str, int, float, bool, None
Meta: TypeAlias = dict[str, JSONValue]

_NAME = r"[a-z_][a-z0-9_-]*"
_KIND_RE = re.compile(rf"{_NAME}\.{_NAME}")


def _code_rev() -> str:
    try:
        return metadata.version("pulse-werewolf")
    except metadata.PackageNotFoundError:
        return "0+unknown"


CODE_REV = _code_rev()


def check_kind(kind: str) -> str:
    """Return ``kind`` if it reads ``workflow.role`` (lower-case names), else raise."""
    if not _KIND_RE.fullmatch(kind):  # fullmatch: `$` would let a trailing newline in
        raise InvalidEventError(f"kind {clip(repr(kind))} is not of the form 'workflow.role'")
    return kind


def split_kind(kind: str) -> tuple[str, str]:
    """``"werewolf.vote"`` -> ``("werewolf", "vote")``."""
    workflow, _, role = check_kind(kind).partition(".")
    return workflow, role


# made once: json.dumps with options builds a new encoder on every call
_META = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _c_meta_encoder() -> Callable[[Meta, int], list[str]] | None:
    """The C encoder ``_META.encode`` builds on every call, made once (every event's meta is
    encoded), or None where this Python has no C encoder or builds it otherwise. It keeps
    no circular-reference markers: a meta that contains itself ends in RecursionError."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        encode = make(None, _META.default, json.encoder.encode_basestring, None, ":", ",",
                      True, False, False)  # fmt: skip
        sample: Meta = {"b": [1, 2.5, (None, True)], "a": "é\n", "c": {"2": {}, "1": []}}
        if "".join(encode(sample, 0)) != _META.encode(sample):
            return None
    except TypeError:
        return None
    return cast(Callable[[Meta, int], list[str]], encode)


_C_META = _c_meta_encoder()
# ``json.loads`` without its Python frames and whitespace scans: the C scanner it ends in,
# given text our own encoder wrote (one value, no surrounding space)
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def meta_json(meta: Meta) -> str:
    """The canonical JSON text of a meta object (sorted keys, no spaces, UTF-8 kept)."""
    try:
        if _C_META is not None:
            return "".join(_C_META(meta, 0))
        return _META.encode(meta)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidEventError(f"meta is not JSON: {exc}") from exc


def _storable_meta_text(meta: Meta) -> str:
    """``meta_json(meta)``, checked to be storable as UTF-8 (lone surrogates are not)."""
    try:  # meta_json, inline: every event's meta passes here
        text = "".join(_C_META(meta, 0)) if _C_META is not None else _META.encode(meta)
        if not text.isascii():  # ASCII always encodes; lone surrogates would raise here
            text.encode("utf-8")  # (a UnicodeEncodeError: not storable as UTF-8)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidEventError(f"meta is not JSON: {exc}") from exc
    return text


def _canonical_meta(meta: Meta) -> tuple[Meta, str]:
    """``meta`` as it reads back from JSON, and that JSON text: a private copy with tuples as
    lists, keys as str.

    Every store then holds exactly what a JSON round trip gives, so the in-memory store
    behaves like the SQLite one, and a caller mutating its dict later changes no event.
    """
    text = _storable_meta_text(meta)
    copy: Meta = _scan(text, 0)[0]
    return copy, text


@dataclass(frozen=True, slots=True)
class Draft:
    """An event before it is appended.

    ``occurred_at`` is converted to UTC and ``meta`` to its JSON round trip (a private copy),
    so what a store gives back equals the draft whatever the store; ``meta_text`` is that
    JSON, which a store writes as it is.
    """

    id: str
    occurred_at: datetime
    kind: str
    key: str
    hash: str
    meta: Meta = field(default_factory=dict)
    code_rev: str = CODE_REV
    meta_text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_kind(self.kind)
        if not is_ulid(self.id):
            raise InvalidEventError(f"event id {clip(repr(self.id))} is not a ULID")
        if not is_ulid(self.key):
            raise InvalidEventError(f"topic key {clip(repr(self.key))} is not a ULID")
        if self.occurred_at.utcoffset() is None:
            raise InvalidEventError("occurred_at must be timezone-aware (UTC)")
        if not isinstance(self.meta, dict):
            raise InvalidEventError("meta must be a JSON object")
        # Normalise once here so that every store keeps, and gives back, the same values.
        object.__setattr__(self, "occurred_at", self.occurred_at.astimezone(UTC))
        meta, text = _canonical_meta(self.meta)
        object.__setattr__(self, "meta", meta)
        object.__setattr__(self, "meta_text", text)

    @classmethod
    def trusted(
        cls,
        id: str,
        occurred_at: datetime,
        kind: str,
        key: str,
        hash: str,
        meta: Meta,
        *,
        canonical: bool = False,
    ) -> Draft:
        """A draft whose id, time, kind and key its maker already knows are well formed (an
        adapter's own: ids from its ``IdSource``, kinds of its workflow's roles, keys of
        topics that began): only ``meta`` is checked and copied, or with ``canonical``
        (``RoleResult.canonical``: it already is its own JSON round trip) checked and kept.
        Use the constructor for anything else."""
        if not isinstance(meta, dict):
            raise InvalidEventError("meta must be a JSON object")
        if canonical:
            copy, text = meta, _storable_meta_text(meta)
        else:
            copy, text = _canonical_meta(meta)
        draft: Any = object.__new__(_DRAFT_FILL)  # filled as a plain object, then made a Draft
        draft.id = id
        draft.occurred_at = occurred_at
        draft.kind = kind
        draft.key = key
        draft.hash = hash
        draft.meta = copy
        draft.code_rev = CODE_REV
        draft.meta_text = text
        draft.__class__ = cls
        return cast(Draft, draft)


@dataclass(frozen=True, slots=True)
class Event:
    """An appended event. Treat ``meta`` as read-only: the log is immutable."""

    id: str
    occurred_at: datetime
    kind: str
    key: str
    hash: str
    meta: Meta
    code_rev: str
    version: int
    seq: int
    # the hash chain over the topic's events (``pulse_core.chain``); derived, so not compared
    chain: str = field(default="", compare=False)
    # split from ``kind`` once here: folds, moderators and views read them many times
    workflow: str = field(init=False, repr=False, compare=False)
    role: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        workflow, _, role = self.kind.partition(".")
        object.__setattr__(self, "workflow", workflow)
        object.__setattr__(self, "role", role)

    @classmethod
    def from_draft(cls, draft: Draft, version: int, seq: int, chain: str = "") -> Event:
        # set field by field, as the generated __init__ and __post_init__ would: a store
        # makes one for every append, and a draft's fields are already checked
        event: Any = object.__new__(_EVENT_FILL)  # filled as a plain object, then made an Event
        event.id = draft.id
        event.occurred_at = draft.occurred_at
        event.kind = draft.kind
        event.key = draft.key
        event.hash = draft.hash
        event.meta = draft.meta
        event.code_rev = draft.code_rev
        event.version = version
        event.seq = seq
        event.chain = chain
        event.workflow, _, event.role = draft.kind.partition(".")
        event.__class__ = cls
        return cast(Event, event)

    def draft(self) -> Draft:
        """This event as the draft that appends it (to copy it into another store)."""
        return Draft(
            id=self.id,
            occurred_at=self.occurred_at,
            kind=self.kind,
            key=self.key,
            hash=self.hash,
            meta=self.meta,
            code_rev=self.code_rev,
        )

    def same_draft(self, draft: Draft) -> bool:
        """True when this stored event is exactly what ``draft`` asked to append."""
        return (
            self.id == draft.id
            and self.occurred_at == draft.occurred_at
            and self.kind == draft.kind
            and self.key == draft.key
            and self.hash == draft.hash
            and meta_json(self.meta) == draft.meta_text
            and self.code_rev == draft.code_rev
        )


def fill_class(cls: type, names: tuple[str, ...]) -> type:
    """A plain class with the slots of the frozen slots dataclass ``cls``, whose fields must
    be ``names``, in order (raises TypeError otherwise): an instance of it is filled by plain
    slot stores, then made a ``cls`` by setting its ``__class__`` (Python allows that between
    classes of the same slots, checked here once). A frozen instance is otherwise written
    only through each slot's ``__set__`` called as a function, several times slower, and
    ``trusted`` and ``from_draft`` make one for every event."""
    if names != tuple(f.name for f in fields(cls)):
        raise TypeError(f"{cls.__name__}'s fields are not {names}")  # kept in step
    fill = type(f"_{cls.__name__}Fill", (), {"__slots__": names})
    probe: Any = object.__new__(fill)
    probe.__class__ = cls  # raises TypeError now if the layouts differ
    return fill


_DRAFT_FILL = fill_class(
    Draft, ("id", "occurred_at", "kind", "key", "hash", "meta", "code_rev", "meta_text")
)
_EVENT_FILL = fill_class(
    Event,
    ("id", "occurred_at", "kind", "key", "hash", "meta", "code_rev", "version", "seq", "chain",
     "workflow", "role"),
)  # fmt: skip
