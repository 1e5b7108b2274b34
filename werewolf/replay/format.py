"""The replay format as pydantic models: one model per event kind's ``meta``, and the lines.

An event kind's ``diff`` and ``detail`` are modelled once, beside its fold step, as the
TypedDicts of its ``EventSpec`` (``werewolf/events``); the meta models here put them on
the parts every phase event shares (day, audience, fallbacks, usage, attachments).

A replay file is a pulse topic file (``pulse_core.transfer``): a header line, then one line
per event with its content and attachments inline. These models pin what a werewolf game
writes into each event's ``meta``; ``replay_schema()`` exports them as the JSON Schema
checked in as ``docs/replay-schema.json`` (regenerate with ``scripts/gen_schema.py``), and
``check_meta`` is how the loader validates a log. Every model refuses unknown fields, so a
change in what the phases write shows up in the tests, not in a reader's surprise.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    create_model,
)

from pulse_core.limits import clip

from ..cast import Identity
from ..config import GameConfig
from ..decisions import DecisionKind
from ..errors import GameFileError
from ..events.types import Count, Seat
from ..registry import EventSpec, event_spec, event_specs

__all__ = [
    "CONTROL_KINDS",
    "EVENTS_VERSION",
    "FORMAT_VERSION",
    "KIND_PREFIX",
    "META_MODELS",
    "EventLine",
    "HeaderLine",
    "check_meta",
    "replay_schema",
]

FORMAT_VERSION = 2
"""The pulse topic file version this code writes (the header's ``version``); version 1
files, without chain hashes, are still read."""
EVENTS_VERSION = 4
"""The version of what werewolf events hold (the models below). 2 added the guard, doctor,
cupid and lovers events, the idiot's reveal and heartbreak deaths in the vote and the shot,
the lovers' win and the referee's record; 3 the kaggle-8 fields (the seer's identity, the
recorded random draws, the doctor told of a save); 4 the sheriff's events (the election, the
badge, the speaking order), the self-destruct, the knight's duel, the wolf king's ``card``
on a shot, a day speech's ``self_destruct`` and a vote's ``sheriff`` with counts in halves.
Every older log is a valid version-4 log."""
KIND_PREFIX = "werewolf."
"""Every event of a werewolf game has a kind starting with this."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- parts shared by phase events ----------------------------------------------------------
class FallbackRecord(_Strict):
    """An answer the rules kept refusing, replaced by the legal fallback."""

    seat: Seat
    decision: DecisionKind
    key: str = Field(description="the decision's key, unique in the game, e.g. d1.vote.r1.s5")
    reason: str | None = Field(description="why the last answer was refused")


class UsageRecord(_Strict):
    """What one decision of one seat cost (LLM seats)."""

    seat: Seat
    decision: DecisionKind
    prompt_tokens: Count
    completion_tokens: Count
    latency_ms: float = Field(ge=0)
    calls: Count = Field(description="answered requests, each billed")
    retries: Count = Field(
        0, description="requests sent again after a transient fault (timeout, 5xx, ...)"
    )
    mode: Literal["json"] | None = Field(
        None, description="json: the seat was asked for JSON (its endpoint refuses tool calls)"
    )
    key: str | None = Field(None, description="the decision's key, e.g. d1.vote.r1.s5")
    recovered: bool = Field(
        False,
        description="true: billed to a process that stopped before recording it, found in "
        "the store's bill ledger when the game was taken up again",
    )
    estimated: bool = Field(
        False,
        description="true: the endpoint reported no usage, the tokens are estimated from "
        "the text (about 4 characters a token)",
    )


class _PhaseMeta(_Strict):
    day: Annotated[int, Strict()] = Field(
        ge=1, description="the night number, and the day that follows it"
    )
    visible_to: list[Seat] | None = Field(description="the audience: null is public")
    fallbacks: list[FallbackRecord] = Field(default_factory=list)
    usage: list[UsageRecord] = Field(default_factory=list)
    attachments: dict[str, str] = Field(
        default_factory=dict,
        description="reasoning/<seat>/<decision> -> object hash of that private reasoning; "
        "exchange/<seat>/<decision> -> the model exchanges behind it (JSON Lines); with "
        "referee_record, offered/<seat>/<decision> -> the legal options of each ask (JSON "
        "Lines: key and options, or the witch's told/can_save/poison/both; a wolf's speech "
        "or election speech: the self-destruct's, null taking nobody)",
    )


# -- the start event -----------------------------------------------------------------------
class GameInfo(BaseModel):
    """The public game description; start_game may add further fields (kept as they are)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    config: GameConfig
    names: list[str]
    seed: int


class StartMeta(_Strict):
    game: GameInfo
    deal: list[Identity] = Field(description="the identity of each seat, seat 1 first")
    visible_to: list[Seat] = Field(description="always empty: the start event is god-only")


# -- phases: each kind's diff and detail are its EventSpec's shapes (werewolf/events) -------
class _NightMeta(_PhaseMeta):
    """A night action: never public."""

    visible_to: list[Seat] = Field(description="the audience: the acting seats")


class _SwapMeta(_Strict):
    """Another player took a seat when the game was resumed; the game goes on."""

    day: int = Field(ge=0, description="the night number when the swap was made")
    visible_to: None = Field(description="always null: a swap is public")


def _meta_model(spec: EventSpec) -> type[BaseModel]:
    """The meta model of one event kind, made from its spec: the kind's diff and detail
    shapes on the parts every phase event shares."""
    name = "".join(part.capitalize() for part in spec.kind.split("-")) + "Meta"
    base = _SwapMeta if spec.kind == "seat-swap" else _NightMeta if spec.night else _PhaseMeta
    phase: Any = Literal[spec.kind]  # a literal made at run time
    model: type[BaseModel] = create_model(
        name,
        __base__=base,
        __doc__=spec.label.en,
        phase=(phase, ...),
        diff=(spec.diff, ...),
        detail=(spec.detail, ...),
    )
    return model


# -- the adapter's control events ------------------------------------------------------------
class ErrorMeta(_Strict):
    """A phase that raised: the game waits for ``werewolf resume``."""

    role: str = Field(description="the phase that failed, or (moderator)")
    error: str = Field(description="the exception, one line; the content holds the traceback")
    usage: list[UsageRecord] = Field(
        default_factory=list, description="what the failed phase was billed before it failed"
    )


class ResumeMeta(BaseModel):
    """The game was resumed after a failure (any meta the resumer gave)."""

    model_config = ConfigDict(extra="allow", frozen=True)


META_MODELS: dict[str, type[BaseModel]] = {
    "werewolf.__start__": StartMeta,
    **{KIND_PREFIX + spec.kind: _meta_model(spec) for spec in event_specs()},
    "werewolf.__error__": ErrorMeta,
    "werewolf.__resume__": ResumeMeta,
}
"""The meta model of every event kind a werewolf game writes."""
CONTROL_KINDS = frozenset({"werewolf.__error__", "werewolf.__resume__"})


@cache
def _registered_meta(kind: str) -> type[BaseModel] | None:
    """The meta model of an event kind registered after this module was loaded (an
    identity of one's own package), made as the built-in kinds' are."""
    spec = event_spec(kind.removeprefix(KIND_PREFIX)) if kind.startswith(KIND_PREFIX) else None
    return None if spec is None else _meta_model(spec)


# -- the lines of the file ---------------------------------------------------------------
class HeaderLine(_Strict):
    """Line 1 of a replay file."""

    format: Literal["pulse-topic"]
    version: Literal[1, 2] = Field(description="2; 1 (no chain hashes) is still read")
    key: str = Field(description="the game id (a ULID)")
    events: int = Field(ge=1, description="how many event lines follow")


def _event_line(kind: str, meta: type[BaseModel]) -> type[BaseModel]:
    name = "".join(part.capitalize() for part in kind.split(".")[1].strip("_").split("-"))
    fields: dict[str, Any] = {
        "id": (str, Field(description="a ULID")),
        "occurred_at": (str, Field(description="ISO 8601 with UTC offset")),
        "kind": (Literal[kind], ...),
        "key": (str, Field(description="the game id")),
        "version": (int, Field(ge=1, description="1, 2, 3, ... in file order")),
        "hash": (str, Field(description="sha256 of the UTF-8 content")),
        "meta": (meta, ...),
        "code_rev": (str, Field(description="the package version that wrote the event")),
        "chain": (
            str | None,
            Field(
                None,
                description="sha256 hash chain over kind, key, version, meta, hash and the "
                "previous event's chain (see docs/replay-format.md); required from version 2 "
                "(the reader checks it), absent in version 1",
            ),
        ),
        "content": (str, Field(description="the event's text, as the moderator would read it")),
        "attachments": (
            dict[str, str],
            Field(default_factory=dict, description="name -> text, one per meta.attachments"),
        ),
    }
    model: type[BaseModel] = create_model(
        f"{name}Event", __config__=ConfigDict(extra="forbid", frozen=True), **fields
    )
    return model


_EVENT_LINES = tuple(_event_line(kind, meta) for kind, meta in META_MODELS.items())
# one line of any event kind, told apart by its "kind" field
EventLine: Any = Annotated[Union[_EVENT_LINES], Field(discriminator="kind")]  # noqa: UP007


def replay_schema() -> dict[str, Any]:
    """The JSON Schema of one line of a replay file (a header or an event)."""
    adapter: TypeAdapter[Any] = TypeAdapter(HeaderLine | EventLine)
    schema = adapter.json_schema(ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "werewolf replay line",
        "description": (
            "One line of a werewolf replay file (JSON Lines): line 1 is the header, each "
            f"further line one event. Format version {FORMAT_VERSION}, events version "
            f"{EVENTS_VERSION}; see "
            "docs/replay-format.md."
        ),
        **schema,
    }


def check_meta(
    kind: str, meta: dict[str, Any], where: str, *, seats: int | None = None
) -> BaseModel:
    """Validate one event's meta against its kind's model; ``where`` (``file:line``) names
    the event in the GameFileError raised for an unknown kind or a meta that does not fit.
    With ``seats`` (the game's seat count), every seat-valued field must be one of them."""
    model = META_MODELS.get(kind) or _registered_meta(kind)
    if model is None:
        raise GameFileError(f"{where}: unknown event kind {clip(repr(kind))}")
    try:
        return model.model_validate(meta, context={"seats": seats})
    except ValidationError as exc:
        err = exc.errors()[0]
        path = ".".join(str(p) for p in err["loc"])
        more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise GameFileError(f"{where}: {kind} meta.{path}: {msg}{more}") from None
