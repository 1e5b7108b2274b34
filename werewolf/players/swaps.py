"""Who sits in each seat, as a game's log records it, and seat swaps.

The start event records every seat's public spec (``game.players``: ``SeatSpec.public()``,
kind, model, personality, name: never a key or an endpoint). A swap, made when a game is
resumed with another player in a seat, appends one public event::

    werewolf.seat-swap   meta {phase: "seat-swap", day, visible_to: null, diff: {},
                               detail: {seat, from: "llm:gpt-4o", to: "mock",
                                        player: {kind: "mock"}}}

The fold ignores it (its diff is empty and it is no game phase), so the game goes on where
it was; the replay shows it. ``recorded_specs(chain)`` is the seating a log describes: the
start's specs, each overridden by the seat's latest swap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pulse_core import Draft, Event, EventStore, IdSource
from pulse_core.objects import digest_of

from ..errors import GameStateError
from ..game import WORKFLOW, fold_chain
from ..lineup import SeatSpec

__all__ = ["SWAP_PHASE", "append_swaps", "recorded_specs"]

SWAP_PHASE = "seat-swap"


def _spec(data: Any) -> SeatSpec:
    if isinstance(data, str):
        return SeatSpec.model_validate({"kind": data})
    if isinstance(data, dict):
        return SeatSpec.model_validate(data)
    raise GameStateError(f"a recorded player must be a kind or a spec, not {data!r}")


def recorded_specs(chain: Sequence[Event]) -> dict[int, SeatSpec]:
    """Each seat's spec as the log says: the start event's players, then the swaps (a seat
    the start names no player for is a mock)."""
    if not chain:
        raise GameStateError("an empty log records no seats")
    start = chain[0].meta
    seats = len(start.get("deal", []))
    specs = {seat: SeatSpec() for seat in range(1, seats + 1)}
    players = start.get("game", {}).get("players")
    if isinstance(players, list):
        for seat, data in enumerate(players[:seats], start=1):
            specs[seat] = _spec(data)
    for event in chain[1:]:
        if event.role == SWAP_PHASE:
            detail = event.meta.get("detail", {})
            specs[int(detail["seat"])] = _spec(detail.get("player", {}))
    return specs


def append_swaps(
    store: EventStore,
    game_id: str,
    new: Mapping[int, SeatSpec],
    *,
    ids: IdSource | None = None,
) -> list[Event]:
    """Append a seat-swap event for every seat whose recorded spec differs (publicly) from
    ``new``; returns the events appended, in seat order."""
    ids = ids or IdSource()
    chain = store.chain(game_id)
    before = recorded_specs(chain)
    day = fold_chain(chain).night
    appended: list[Event] = []
    for seat in sorted(new):
        old, spec = before.get(seat), new[seat]
        if old is not None and old.public() == spec.public():
            continue
        was = old.label() if old is not None else "nobody"
        content = f"Seat {seat} is now played by {spec.label()} (was {was}).".encode()
        store.objects.put(content)
        moment = ids.now()
        draft = Draft(
            id=ids.new(moment),
            occurred_at=moment,
            kind=f"{WORKFLOW}.{SWAP_PHASE}",
            key=game_id,
            hash=digest_of(content),
            meta={
                "phase": SWAP_PHASE,
                "day": day,
                "visible_to": None,
                "diff": {},
                "detail": {"seat": seat, "from": was, "to": spec.label(), "player": spec.public()},
            },
        )
        appended.append(store.append(draft, store.version(game_id)))
    return appended
