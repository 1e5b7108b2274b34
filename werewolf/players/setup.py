"""From seat options to checked seat specs, and what a game's seats cost: the parts of
``werewolf play`` and ``werewolf resume`` that are about players, kept out of the CLI.

- ``play_specs``: ``--players`` (every seat), then a ``--lineup`` file, then each ``--seat
  N=KIND[:MODEL]``; checked before the game starts (unknown seats, an LLM seat without a
  model, a key variable that is not set: every problem in one ``ConfigError``).
- ``resume_specs``: the seats the log records (start, then swaps), overridden the same way.
- ``usage_lines``: tokens per seat and for the game, with a cost when the lineup prices the
  models, from the ``usage`` the events recorded; ``tokens_spent`` feeds the budget.
- ``failure_hint``: what to type when a seat stopped the game.

When LLM answers come from a cassette (``replay=True``) no endpoint is called, so key
variables need not be set.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

from pulse_core import Event
from pulse_core.limits import clip

from ..errors import ConfigError
from ..lineup import KINDS, Lineup, Price, SeatSpec, load_lineup, parse_seat_arg
from .mock import PERSONALITIES
from .swaps import SWAP_PHASE, recorded_specs

__all__ = [
    "command_with",
    "failure_hint",
    "play_specs",
    "resume_specs",
    "tokens_spent",
    "usage_lines",
]

_SEAT_FAILURE = re.compile(r"^(SeatUnavailableError|SeatLeftError): seat (\d+)\b")


def _load(lineup: str | PathLike[str] | None) -> Lineup:
    return load_lineup(lineup) if lineup is not None else Lineup()


def _seat_overrides(seat_args: Sequence[str]) -> dict[int, SeatSpec]:
    return dict(parse_seat_arg(text) for text in seat_args)


def _check(
    lineup: Lineup,
    seats: int,
    env: Mapping[str, str],
    *,
    replay: bool,
    source: str | PathLike[str] | None = None,
) -> dict[int, SeatSpec]:
    if replay:  # answers come from a cassette: no key is sent anywhere
        env = {**env, **{spec.key_env(): "cassette" for spec in lineup.resolve(seats).values()}}
    specs = lineup.check(seats, env)
    _check_personalities(lineup, specs, source)
    _check_python_seats(specs)
    return specs


def _check_python_seats(specs: Mapping[int, SeatSpec]) -> None:
    """A Python seat's factory is imported and called once now, before a store is opened,
    so a factory that cannot be imported or makes no player is refused with nothing on
    disk."""
    from .seatings import make_player  # the player kinds: only when a seat needs them

    for seat, spec in specs.items():
        if spec.kind not in KINDS or spec.kind == "py":
            make_player(spec.kind, game_seed=0, seat=seat, **spec.factory_options())


def _check_personalities(
    lineup: Lineup, specs: Mapping[int, SeatSpec], source: str | PathLike[str] | None
) -> None:
    """A mock seat's personality must be one the mock knows: refused here, with the file
    and seat, before a store is opened (not when the seat is first made)."""
    problems: list[tuple[str, str]] = []
    for seat, spec in specs.items():
        if spec.kind == "mock" and spec.personality and spec.personality not in PERSONALITIES:
            where = f"seats.{seat}.personality" if seat in lineup.seats else "defaults.personality"
            problems.append(
                (
                    f"{source}: {where}" if source is not None else where,
                    f"seat {seat}: unknown personality {clip(repr(spec.personality))}: use "
                    f"{', '.join(sorted(PERSONALITIES))}",
                )
            )
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))


def play_specs(
    seats: int,
    *,
    players: str | None = None,
    lineup: str | PathLike[str] | None = None,
    seat_args: Sequence[str] = (),
    env: Mapping[str, str],
    replay: bool = False,
) -> tuple[dict[int, SeatSpec], Lineup]:
    """Every seat's spec for a new game, checked; and the lineup (prices, budget)."""
    loaded = _load(lineup)
    if players is not None:
        loaded = loaded.model_copy(update={"defaults": SeatSpec.model_validate({"kind": players})})
    loaded = loaded.with_seats(_seat_overrides(seat_args))
    return _check(loaded, seats, env, replay=replay, source=lineup), loaded


def resume_specs(
    chain: Sequence[Event],
    *,
    lineup: str | PathLike[str] | None = None,
    seat_args: Sequence[str] = (),
    env: Mapping[str, str],
    replay: bool = False,
) -> tuple[dict[int, SeatSpec], Lineup]:
    """The seats of a game to resume: as recorded, then the lineup's, then ``--seat``."""
    recorded = recorded_specs(chain)
    seats = len(recorded)
    loaded = _load(lineup)
    wanted = dict(recorded)
    if lineup is not None:
        wanted.update(loaded.resolve(seats))
    wanted.update(_seat_overrides(seat_args))
    merged = loaded.model_copy(update={"seats": wanted})
    return _check(merged, seats, env, replay=replay, source=lineup), merged


def tokens_spent(chain: Sequence[Event]) -> int:
    """Prompt plus completion tokens the game's events recorded."""
    return sum(
        int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0))
        for event in chain
        for u in event.meta.get("usage", [])
    )


def _models(chain: Sequence[Event]) -> dict[int, list[str]]:
    """Every model that played each seat (a swap may bring another)."""
    models: dict[int, list[str]] = {}
    start = recorded_specs(chain[:1])
    for seat, spec in start.items():
        if spec.model:
            models.setdefault(seat, []).append(spec.model)
    for event in chain:
        if event.role == SWAP_PHASE:
            model = event.meta.get("detail", {}).get("player", {}).get("model")
            if model:
                models.setdefault(int(event.meta["detail"]["seat"]), []).append(str(model))
    return models


def usage_lines(chain: Sequence[Event], prices: Mapping[str, Price]) -> list[str]:
    """Tokens, calls and endpoint time per seat and for the game; empty when no seat used
    any. A cost is given when every seat that used tokens had one priced model."""
    totals: dict[int, dict[str, Any]] = {}
    for event in chain:
        for u in event.meta.get("usage", []):
            row = totals.setdefault(
                int(u["seat"]), {"p": 0, "c": 0, "calls": 0, "ms": 0.0, "est": False}
            )
            row["p"] += int(u["prompt_tokens"])
            row["c"] += int(u["completion_tokens"])
            row["calls"] += int(u["calls"])
            row["ms"] += float(u["latency_ms"])
            row["est"] = row["est"] or bool(u.get("estimated"))
    if not totals:
        return []
    models = _models(chain)
    lines = ["Tokens by seat:"]
    cost: float | None = 0.0
    for seat in sorted(totals):
        t = totals[seat]
        played = models.get(seat, [])
        line = (
            f"  seat {seat} ({', '.join(played) or 'no model'}): {t['p']:,} prompt + "
            f"{t['c']:,} completion tokens{_ESTIMATED if t['est'] else ''} in {t['calls']:,} "
            f"calls, {t['ms'] / 1000:.1f} s"
        )
        price = prices.get(played[0]) if len(set(played)) == 1 else None
        if price is not None:
            seat_cost = price.cost(t["p"], t["c"])
            line += f", ${seat_cost:.4f}"
            cost = None if cost is None else cost + seat_cost
        else:
            cost = None
        lines.append(line)
    p = sum(t["p"] for t in totals.values())
    c = sum(t["c"] for t in totals.values())
    calls = sum(t["calls"] for t in totals.values())
    game = f"Game: {p:,} prompt + {c:,} completion = {p + c:,} tokens in {calls:,} calls"
    if cost is not None:
        game += f", about ${cost:.4f}"
    guessed = [seat for seat, t in totals.items() if t["est"]]
    if guessed:
        seats = f"seat{'s' if len(guessed) > 1 else ''} {', '.join(map(str, sorted(guessed)))}"
        game += (
            f" (estimated in part: the endpoint reported no usage for {seats}, whose tokens "
            "were estimated from the text)"
        )
    lines.append(game + ".")
    return lines


_ESTIMATED = " (estimated)"


def failure_hint(error: str, resume_command: str) -> str | None:
    """What to type when a seat stopped the game (``error`` as the log records it)."""
    found = _SEAT_FAILURE.match(error)
    if found is not None:
        seat = found.group(2)
        command = command_with(resume_command, "--seat", f"{seat}=mock")
        return f"Or go on with another player in seat {seat}: {command}"
    if error.startswith("BudgetExceededError"):
        command = command_with(resume_command, "--lineup", "FILE")
        return f"Or raise the budget: {command} (a lineup FILE with a larger [budget] tokens)"
    return None


def command_with(command: str, flag: str, value: str) -> str:
    """``command`` (as the shell takes it) with ``flag value`` in place of what it said
    before for the same thing: the same seat for ``--seat N=...``, else any value of
    ``flag``; so a hint never repeats an option."""
    words = shlex.split(command)
    same = value.partition("=")[0] + "=" if flag == "--seat" else None
    kept: list[str] = []
    i = 0
    while i < len(words):
        value_at = words[i + 1].replace(" ", "") if i + 1 < len(words) else None
        if (
            words[i] == flag
            and value_at is not None
            and (same is None or value_at.startswith(same))
        ):
            i += 2
            continue
        kept.append(words[i])
        i += 1
    return shlex.join([*kept, flag, value])
