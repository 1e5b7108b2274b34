"""A tournament's definition: its players, schedule, seeds and budget, kept in a run file.

A run is a name and a ``RunSpec``; the spec is saved as JSON next to the store
(``<store folder>/arena/<name>.json``) when the run is first made, and its games live in
the store. Everything that decides a game (players, schedule, seed, rules, creation time,
which fixes the game ids) is the run's identity and cannot change; the number of games and
the budget may grow when a run is continued.
"""

from __future__ import annotations

import json
import os
import re
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pulse_core.limits import LimitError, clip, parse_json, read_bounded
from pulse_core.tempfiles import atomic_write

from ..config import GameConfig
from ..errors import ConfigError, GameFileError
from ..filemodels import from_file
from ..lineup import Price
from .roster import ArenaBudget, ArenaPlayer

__all__ = [
    "RUN_NAME_PATTERN",
    "RunSpec",
    "Schedule",
    "balance_unit",
    "check_run_name",
    "load_run",
    "make_run",
    "run_path",
    "save_run",
]

# a plain identifier: no dot, so no name reaches outside arena/ ("..") or collides with
# another run's files ("x.report" would be the report of run "x")
RUN_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
_RUN_NAME = re.compile(RUN_NAME_PATTERN)


class Schedule(StrEnum):
    HEAD_TO_HEAD = "head-to-head"  # two players: A as wolves vs B as good, then swapped
    ROUND_ROBIN = "round-robin"  # every pair of the pool plays head-to-head
    LINEUP = "lineup"  # one player per seat, fixed; the cards rotate around the table


class RunSpec(BaseModel):
    """Everything a tournament needs to be played, and played again identically."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1] = 1
    name: str = Field(pattern=RUN_NAME_PATTERN)
    players: tuple[ArenaPlayer, ...] = Field(min_length=1)
    schedule: Schedule
    lineup: tuple[str, ...] | None = Field(
        None, description="the lineup schedule: the player of each seat, in seat order"
    )
    games: int = Field(ge=1)
    seed: int = Field(ge=0)
    config: GameConfig = GameConfig()
    lang: Literal["en", "zh"] = Field(
        "en", description="the language mock and LLM seats speak and think in"
    )
    prices: dict[str, Price] = Field(default_factory=dict)
    budget: ArenaBudget = ArenaBudget()
    created_ms: int = Field(ge=0, description="fixes the game ids (ULID time part)")

    @model_validator(mode="after")
    def _check(self) -> RunSpec:
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise ValueError("player names must be unique")
        if self.schedule is Schedule.HEAD_TO_HEAD and len(self.players) != 2:
            raise ValueError(f"head-to-head takes exactly 2 players, not {len(self.players)}")
        if self.schedule is Schedule.ROUND_ROBIN and len(self.players) < 2:
            raise ValueError("a round-robin needs at least 2 players")
        if self.schedule is Schedule.LINEUP:
            if self.lineup is None or len(self.lineup) != self.config.seats:
                raise ValueError(
                    f"the lineup schedule names a player for each of the {self.config.seats} seats"
                )
            unknown = sorted(set(self.lineup) - set(names))
            if unknown:
                raise ValueError(f"the lineup names unknown players: {', '.join(unknown)}")
        elif self.lineup is not None:
            raise ValueError("only the lineup schedule takes a lineup")
        if self.games % self.balance_unit:
            raise ValueError(
                f"--games must be a multiple of {self.balance_unit} so every player takes "
                f"every role equally often ({self.balance_reason})"
            )
        return self

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The matches of a paired schedule, in order (the first plays wolves first)."""
        names = [p.name for p in self.players]
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]

    @property
    def balance_unit(self) -> int:
        return balance_unit(self.schedule, len(self.players), self.config.seats)

    @property
    def balance_reason(self) -> str:
        if self.schedule is Schedule.LINEUP:
            return "the cards go once around the table"
        if self.schedule is Schedule.HEAD_TO_HEAD:
            return "each side is played by each player"
        return f"{len(self.pairs)} pairs, each playing both sides"

    def player(self, name: str) -> ArenaPlayer:
        for player in self.players:
            if player.name == name:
                return player
        raise ConfigError([("players", f"no player {name!r} in run {self.name}")])

    def identity(self) -> dict[str, object]:
        """The fields that decide the games: a continued run must keep them."""
        return self.model_dump(mode="json", exclude={"games", "budget", "prices"})

    @property
    def uses_tokens(self) -> bool:
        return any(p.uses_tokens for p in self.players)


def balance_unit(schedule: Schedule, players: int, seats: int) -> int:
    """The game count a run's games are a multiple of, so every player takes every role
    equally often: a turn of the cards around the table, or both sides of every pair."""
    if schedule is Schedule.LINEUP:
        return seats
    return players * (players - 1)  # 2 games (both sides) for each of the pairs


def make_run(**fields: object) -> RunSpec:
    """A validated spec; problems become one ``ConfigError`` naming each field."""
    try:
        return RunSpec.model_validate(fields)
    except ValidationError as exc:
        raise ConfigError(
            [
                (".".join(str(p) for p in e["loc"]), str(e["msg"]).removeprefix("Value error, "))
                for e in exc.errors()
            ]
        ) from None


def check_run_name(name: str, option: str = "--name") -> str:
    """``name`` if it is a run name: letters, digits, ``-`` and ``_``, at most 64."""
    if _RUN_NAME.fullmatch(name) is None:
        raise ConfigError(
            [
                (
                    option,
                    f"{clip(name)!r} is not a run name: use letters, digits, - and _ "
                    "(at most 64, starting with a letter or digit)",
                )
            ]
        )
    return name


def run_path(store: str | os.PathLike[str], name: str, option: str = "--name") -> Path:
    """Where the run file of ``name`` lives, for a store at ``store``; a name that is not a
    run name is refused here, so no command can reach a file outside ``arena/``."""
    return Path(store).parent / "arena" / f"{check_run_name(name, option)}.json"


def load_run(path: Path) -> RunSpec:
    if not path.exists():
        raise GameFileError(f"{path}: no such run (start it with werewolf arena run)")
    try:  # a run file that is no file (a FIFO, a device) is unreadable, as a damaged one
        data = parse_json(read_bounded(path), str(path))
    except LimitError as exc:
        raise GameFileError(str(exc)) from None
    try:
        return from_file(RunSpec, data)
    except ValidationError as exc:
        raise ConfigError(
            [(f"{path}: " + ".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()]
        ) from None


def save_run(path: Path, spec: RunSpec) -> None:
    """Write the run file atomically (a killed write never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(spec.model_dump(mode="json"), indent=2) + "\n"
    atomic_write(path, text.encode("utf-8"), fsync=False)
