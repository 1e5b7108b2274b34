"""The replay format as pydantic models: one model per event kind's ``meta``, and the lines.

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
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    create_model,
)

from pulse_core.limits import clip

from ..cast import Identity
from ..config import GameConfig
from ..decisions import DecisionKind
from ..errors import GameFileError
from ..registry import event_spec

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
EVENTS_VERSION = 3
"""The version of what werewolf events hold (the models below). 2 added the guard, doctor,
cupid and lovers events, the idiot's reveal and heartbreak deaths in the vote and the shot,
the lovers' win and the referee's record; 3 the kaggle-8 fields (the seer's identity, the
recorded random draws, the doctor told of a save). Every older log is a valid version-3 log."""
KIND_PREFIX = "werewolf."
"""Every event of a werewolf game has a kind starting with this."""


def _seat_of_the_game(seat: int, info: ValidationInfo) -> int:
    """With ``context={"seats": n}`` (the game's seat count), a seat past n is refused."""
    seats = (info.context or {}).get("seats")
    if seats is not None and seat > seats:
        raise ValueError(f"no seat {seat}: the game has {seats} seats")
    return seat


# strict: a forged ``true`` or ``"3"`` is refused, not read as seat 1 or 3
Seat = Annotated[
    int,
    Strict(),
    Field(ge=1, le=20, description="a seat number, 1-based"),
    AfterValidator(_seat_of_the_game),
]
Count = Annotated[int, Strict(), Field(ge=0)]
Flag = Annotated[bool, Strict()]


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
        "Lines: key and options, or the witch's told/can_save/poison/both)",
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


# -- phases --------------------------------------------------------------------------------
class WolfLine(_Strict):
    seat: Seat
    text: str


class WolfNightDiff(_Strict):
    target: Seat | None


class Draw(_Strict):
    """A random draw the rules called for (a tie broken, a vote for nobody), taken from the
    game's seed and recorded, so a replay needs no random generator."""

    key: str = Field(description="the decision it settled, e.g. d2.vote.r1")
    among: list[Seat] = Field(min_length=1, description="the seats it picked among, by seat")
    drawn: Seat


DRAW_HELP = "only when a random draw settled the result (a tie; a vote for nobody)"


class WolfNightDetail(_Strict):
    discussion: list[WolfLine]
    proposals: list[list[tuple[Seat, Seat | None]]] = Field(
        description="per round, [wolf, proposed target] pairs (wolf_kill = vote: one "
        "round of ballots)"
    )
    draw: Draw | None = Field(None, description=DRAW_HELP)


class _NightMeta(_PhaseMeta):
    """A night action: never public."""

    visible_to: list[Seat] = Field(description="the audience: the acting seats")


class WolfNightMeta(_NightMeta):
    phase: Literal["wolf-night"]
    diff: WolfNightDiff
    detail: WolfNightDetail


class WitchDiff(_Strict):
    save: Flag
    poison: Seat | None


class WitchDetail(_Strict):
    told_target: Seat | None = Field(description="the victim she was told, if any")
    can_save: Flag


class WitchMeta(_NightMeta):
    phase: Literal["witch-action"]
    diff: WitchDiff
    detail: WitchDetail


class SeerDiff(_Strict):
    target: Seat | None = Field(description="null: no check (night_fallback = nothing)")
    wolf: Flag | None
    identity: str | None = Field(
        None, description="the target's identity (written when seer_learns = identity)"
    )


class Empty(_Strict):
    pass


class SeerMeta(_NightMeta):
    phase: Literal["seer-check"]
    diff: SeerDiff
    detail: Empty


class DawnDiff(_Strict):
    died: list[Seat] = Field(description="sorted; no causes")


Revealed = list[tuple[Seat, str]]
REVEALED_HELP = (
    "only when the config reveals the dead (reveal_on_death): [seat, team or identity], public"
)


class Reveals(_Strict):
    revealed: Revealed | None = Field(None, description=REVEALED_HELP)


class DawnMeta(_PhaseMeta):
    phase: Literal["dawn"]
    diff: DawnDiff
    detail: Reveals


class HunterDiff(_Strict):
    shooter: Seat
    target: Seat | None
    heartbroken: list[Seat] = Field(
        default_factory=list, description="lovers who died of heartbreak (written when any)"
    )


class HunterMeta(_PhaseMeta):
    phase: Literal["hunter-shot"]
    diff: HunterDiff
    detail: Reveals


class SpeakerDiff(_Strict):
    speaker: Seat


class LastWordsDetail(_Strict):
    text: str


class LastWordsMeta(_PhaseMeta):
    phase: Literal["last-words"]
    diff: SpeakerDiff
    detail: LastWordsDetail


class SpeechDetail(_Strict):
    text: str
    pk: Flag = Field(description="a PK speech (the tied players speak again)")


class SpeechMeta(_PhaseMeta):
    phase: Literal["day-speech"]
    diff: SpeakerDiff
    detail: SpeechDetail


class BidDiff(_Strict):
    floor: Seat = Field(description="the seat that won the floor: it speaks next")


class BidDetail(_Strict):
    speech: int = Field(ge=1, description="the speech of the day the floor was bid for")
    bids: list[tuple[Seat, Literal[0, 1, 2, 3]]] = Field(description="[seat, bid], by seat")


class BidMeta(_PhaseMeta):
    """Bidding discussions (config discussion = bidding): the bids for the next speech."""

    phase: Literal["floor-bid"]
    diff: BidDiff
    detail: BidDetail


class VoteDiff(_Strict):
    exiled: Seat | None
    pk: list[Seat] = Field(description="the tied seats; non-empty: a PK round follows")
    revealed: Seat | None = Field(
        None, description="the exiled idiot, who shows his card and lives (written when so)"
    )
    heartbroken: list[Seat] = Field(
        default_factory=list, description="lovers who died of heartbreak (written when any)"
    )


class VoteDetail(_Strict):
    round: Literal[1, 2] = Field(description="2 is the PK re-vote")
    ballots: list[tuple[Seat, Seat | None]] = Field(description="[voter, target or null]")
    counts: list[tuple[Seat, Count]] = Field(description="[seat, votes], by seat")
    draw: Draw | None = Field(None, description=DRAW_HELP)
    revealed: Revealed | None = Field(None, description=REVEALED_HELP)


class VoteMeta(_PhaseMeta):
    phase: Literal["vote"]
    diff: VoteDiff
    detail: VoteDetail


class GameEndDiff(_Strict):
    winner: Literal["wolves", "good", "draw", "lovers"]


class SkippedStep(_Strict):
    phase: Literal["hunter-shot", "last-words"]
    seat: Seat


class GameEndDetail(_Strict):
    identities: list[Identity] = Field(description="revealed: the identity of each seat")
    reason: str
    alive: list[Seat]
    skipped: list[SkippedStep] = Field(
        default_factory=list,
        description="with referee_record: the shots and last words the deaths that decided "
        "the game would have led to, not run",
    )


class GameEndMeta(_PhaseMeta):
    phase: Literal["game-end"]
    diff: GameEndDiff
    detail: GameEndDetail


# -- the identities beyond the nine-player board ---------------------------------------------
class ProtectDiff(_Strict):
    target: Seat | None = Field(
        description="the protected seat; null: nobody (the guard, or a doctor's failed "
        "answer under night_fallback = nothing)"
    )


class GuardMeta(_PhaseMeta):
    phase: Literal["guard-protect"]
    diff: ProtectDiff
    detail: Empty


class DoctorMeta(_PhaseMeta):
    phase: Literal["doctor-protect"]
    diff: ProtectDiff
    detail: Empty


class DoctorToldDiff(_Strict):
    saved: Seat = Field(description="the wolves' victim her protection saved")


class DoctorToldMeta(_PhaseMeta):
    """``doctor_told_save``: after the dawn, the doctor alone learns her protection saved
    the wolves' victim."""

    phase: Literal["doctor-told"]
    diff: DoctorToldDiff
    detail: Empty


class LoversDiff(_Strict):
    lovers: tuple[Seat, Seat] = Field(description="the two lovers, sorted")


class CupidMeta(_PhaseMeta):
    phase: Literal["cupid-link"]
    diff: LoversDiff
    detail: Empty


class LoversDetail(_Strict):
    identities: tuple[Identity, Identity] | None = Field(
        description="the lovers' identities when the config tells them, else null"
    )


class LoversMeta(_PhaseMeta):
    phase: Literal["lovers-told"]
    diff: LoversDiff
    detail: LoversDetail


# -- seat swaps (werewolf resume --seat N=KIND) ---------------------------------------------
class SeatSwapDetail(_Strict):
    seat: Seat
    was: str = Field(alias="from", description="who played the seat: a label, e.g. llm:gpt-4o")
    to: str = Field(description="who plays it now: a label, e.g. mock")
    player: dict[str, Any] = Field(
        description="the new player's public spec: kind, model, personality, name"
    )


class SeatSwapMeta(_Strict):
    """Another player took a seat when the game was resumed; the game goes on."""

    phase: Literal["seat-swap"]
    day: int = Field(ge=0, description="the night number when the swap was made")
    visible_to: None = Field(description="always null: a swap is public")
    diff: Empty
    detail: SeatSwapDetail


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
    "werewolf.cupid-link": CupidMeta,
    "werewolf.lovers-told": LoversMeta,
    "werewolf.guard-protect": GuardMeta,
    "werewolf.doctor-protect": DoctorMeta,
    "werewolf.doctor-told": DoctorToldMeta,
    "werewolf.wolf-night": WolfNightMeta,
    "werewolf.witch-action": WitchMeta,
    "werewolf.seer-check": SeerMeta,
    "werewolf.dawn": DawnMeta,
    "werewolf.hunter-shot": HunterMeta,
    "werewolf.last-words": LastWordsMeta,
    "werewolf.day-speech": SpeechMeta,
    "werewolf.floor-bid": BidMeta,
    "werewolf.vote": VoteMeta,
    "werewolf.game-end": GameEndMeta,
    "werewolf.seat-swap": SeatSwapMeta,
    "werewolf.__error__": ErrorMeta,
    "werewolf.__resume__": ResumeMeta,
}
"""The meta model of every event kind a werewolf game writes."""
CONTROL_KINDS = frozenset({"werewolf.__error__", "werewolf.__resume__"})


# -- hook: the events an identity registers itself (registry.EventSpec, the knight's duel) --
@cache
def _registered_meta(kind: str) -> type[BaseModel] | None:
    """The meta model of an event kind no table above names but an identity registered:
    its phase, and its spec's typed diff and detail."""
    phase = kind.removeprefix("werewolf.")
    spec = event_spec(phase) if kind.startswith("werewolf.") else None
    if spec is None:
        return None
    fields: dict[str, Any] = {
        "phase": (Literal[phase], ...),
        "diff": (spec.diff, ...),
        "detail": (spec.detail, Field(default_factory=dict)),
    }
    name = "".join(part.title() for part in phase.split("-")) + "Meta"
    return create_model(name, __base__=_PhaseMeta, **fields)


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
