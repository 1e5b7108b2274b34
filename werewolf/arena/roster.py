"""Arena players: a name and the seat spec that plays every seat the player holds.

On the command line a player is ``[NAME=]KIND[:ARG]``: ``mock`` (personalities drawn per
seat), ``mock:bold`` (one personality), ``random``, ``llm:MODEL``, ``py:MODULE:FACTORY``
(a Python player) or the name of an installed player (``werewolf players``); the name
defaults to the text after ``NAME=``, else to the spec (a Python player's ``name`` or
``kind`` attribute, when it has one). A roster file (TOML) names players with full seat specs, and may give
prices and a budget::

    [players.fast]
    kind = "llm"
    model = "gpt-4o-mini"
    base_url = "https://api.openai.com/v1"
    api_key_env = "OPENAI_API_KEY"

    [prices."gpt-4o-mini"]     # USD per million tokens
    prompt = 0.15
    completion = 0.60

    [budget]
    tokens = 2000000           # and/or usd = 5.0
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pulse_core.limits import LimitError, parse_toml, read_bounded

from ..errors import ConfigError
from ..filemodels import from_file
from ..lineup import Price, SeatSpec, installed_kinds
from ..players.mock import PERSONALITIES

__all__ = [
    "ARENA_KINDS",
    "ArenaBudget",
    "ArenaPlayer",
    "Roster",
    "load_roster",
    "parse_player",
    "parse_players",
]

ARENA_KINDS = ("mock", "random", "llm", "py")  # a human cannot sit through a tournament


class ArenaPlayer(BaseModel):
    """One contestant: its name in tables and the spec of every seat it holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=40)
    spec: SeatSpec

    @property
    def uses_tokens(self) -> bool:
        return self.spec.kind == "llm"


class ArenaBudget(BaseModel):
    """When a tournament stops: total tokens, total USD (either, both or neither)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tokens: int | None = Field(None, ge=1)
    usd: float | None = Field(None, gt=0)


class Roster(BaseModel):
    """Players by name, with prices and a budget, as a roster file gives them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: dict[str, SeatSpec] = Field(default_factory=dict)
    prices: dict[str, Price] = Field(default_factory=dict)
    budget: ArenaBudget = ArenaBudget()


def _checked(name: str, spec: SeatSpec, where: str) -> ArenaPlayer:
    if spec.kind not in ARENA_KINDS and spec.kind not in installed_kinds():
        raise ConfigError([(where, f"{name}: a {spec.kind} seat cannot play in the arena")])
    if spec.kind == "llm" and not spec.model:
        raise ConfigError([(where, f"{name}: an llm player names its model")])
    if (
        spec.kind == "mock"
        and spec.personality is not None
        and spec.personality not in PERSONALITIES
    ):
        known = ", ".join(sorted(PERSONALITIES))
        raise ConfigError(
            [(where, f"{name}: unknown personality {spec.personality!r}: use {known}")]
        )
    if spec.kind == "random" and spec.personality is not None:
        raise ConfigError([(where, f"{name}: the random player has no personality")])
    try:
        return ArenaPlayer(name=name, spec=spec)
    except ValidationError:
        raise ConfigError([(where, f"{name!r}: a name is 1 to 40 characters")]) from None


def parse_player(text: str, roster: Roster | None = None) -> ArenaPlayer:
    """``"mock:bold"``, ``"b=llm:gpt-4o"``, ``"random"``, or a roster player's name."""
    text = text.strip()
    if roster is not None and text in roster.players:
        return _checked(text, roster.players[text], "--players")
    name, sep, body = text.partition("=")
    if not sep:
        name, body = text, text
    kind, _, arg = body.strip().partition(":")
    if kind == "py" or kind in installed_kinds():
        return _python_player(name.strip() if sep else "", kind, arg)
    if kind not in ARENA_KINDS:
        hint = f" or a player of the roster ({', '.join(roster.players)})" if roster else ""
        raise ConfigError(
            [
                (
                    "--players",
                    f"{text!r}: write [NAME=]KIND[:ARG], KIND one of "
                    f"{', '.join(ARENA_KINDS)}{hint}",
                )
            ]
        )
    if kind == "llm" and not arg:
        raise ConfigError([("--players", f"{text!r}: an llm player names its model: llm:MODEL")])
    if kind == "random" and arg:
        raise ConfigError([("--players", f"{text!r}: the random player takes no argument")])
    spec = SeatSpec(
        kind=kind,
        model=(arg or None) if kind == "llm" else None,
        personality=(arg or None) if kind == "mock" else None,
    )
    return _checked(name.strip(), spec, "--players")


def _python_player(name: str, kind: str, target: str) -> ArenaPlayer:
    """A ``py:MODULE:FACTORY`` or installed player, named ``name`` or else by its spec (the
    ``name`` or ``kind`` attribute of a player its factory makes, when it has one)."""
    from ..players import make_player
    from ..players.python import split_target

    if kind == "py":
        split_target(target, "--players")
        spec = SeatSpec(kind="py", factory=target.strip())
    elif target:
        raise ConfigError([("--players", f"{kind!r}: an installed player takes no argument")])
    else:
        spec = SeatSpec(kind=kind)
    if not name:
        made = make_player(kind, game_seed=0, seat=1, **spec.factory_options())
        own = getattr(made, "name", None) or getattr(made, "kind", None)
        name = own if isinstance(own, str) and own.strip() else spec.label()
    return _checked(name, spec, "--players")


def parse_players(texts: Sequence[str], roster: Roster | None = None) -> list[ArenaPlayer]:
    """Players from comma-separated specs (several ``--players`` add up); names are unique."""
    players = [
        parse_player(part, roster) for text in texts for part in text.split(",") if part.strip()
    ]
    if not players and roster is not None:
        players = [_checked(n, s, f"players.{n}") for n, s in roster.players.items()]
    names = [p.name for p in players]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        raise ConfigError(
            [("--players", f"{n!r} is named twice: give one a name, e.g. b={n}") for n in doubles]
        )
    return players


def load_roster(path: str | os.PathLike[str]) -> Roster:
    """Read and validate a roster file; every problem is reported with its path."""
    path = Path(path)
    try:
        data: Mapping[str, Any] = parse_toml(read_bounded(path), str(path))
    except LimitError as exc:
        raise ConfigError([("--roster", str(exc))]) from None
    try:
        roster = from_file(Roster, data)
    except ValidationError as exc:
        raise ConfigError(
            [(f"{path}: " + ".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()]
        ) from None
    for name, spec in roster.players.items():
        _checked(name, spec, f"{path}: players.{name}")
    return roster
