"""Seat specs and lineups: who plays each seat, checked before a game starts.

A seat spec comes from the command line (``--seat 3=llm:gpt-4o-mini``, ``--seat 5=human``, ``--seat 5=web``,
``--seat 6=py:mybots:make``) or from a TOML lineup file (``--lineup FILE``)::

    [defaults]                 # every seat not named below
    kind = "mock"

    [seats.3]
    kind = "llm"
    model = "deepseek-chat"
    base_url = "https://api.deepseek.com/v1"
    api_key_env = "DEEPSEEK_API_KEY"   # the NAME of the variable; keys never enter files
    temperature = 0.7
    personality = "calm and logical"

    [seats.6]                  # a Python player: its factory and keyword arguments
    kind = "py"
    factory = "mybots:make"
    options = { word = "howdy" }

    [prices."deepseek-chat"]   # optional: USD per million tokens, for a cost figure
    prompt = 0.27
    completion = 1.10

    [budget]
    tokens = 500000            # stop the game cleanly past this many tokens

LLM seats default to ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``, as the openai client does.
Problems (unknown fields, unknown seats, an LLM seat without a model, a key variable that
is not set) are reported together, each with its path, before anything runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pulse_core.limits import LimitError, clip, parse_toml, read_bounded

from .argtypes import is_number
from .errors import ConfigError
from .filemodels import from_file

__all__ = [
    "DEFAULT_KEY_ENV",
    "KINDS",
    "MAX_PRICE",
    "PEOPLE",
    "Budget",
    "Lineup",
    "Price",
    "SeatSpec",
    "load_lineup",
    "parse_seat_arg",
]

KINDS = ("mock", "random", "llm", "human", "web", "py")
PEOPLE = frozenset({"human", "web"})  # the kinds a person plays: at the terminal, in a browser
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_BASE_URL_ENV = "OPENAI_BASE_URL"
MAX_PRICE = 1e6  # USD per million tokens: far above any list price, and no figure overflows


def installed_kinds() -> list[str]:
    """The seat kinds installed packages offer (entry-point group ``werewolf.players``)."""
    from .players.python import installed_players  # read only when a kind is not built in

    return sorted(installed_players())


class SeatSpec(BaseModel):
    """Who plays one seat. Only the LLM fields' names are stored, never a key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = "mock"
    factory: str | None = Field(
        None, description="a py seat's factory: MODULE:FACTORY, e.g. mypkg.bots:make"
    )
    options: tuple[tuple[str, str | int | float | bool], ...] | None = Field(
        None, description="keyword arguments a py or installed seat's factory is called with"
    )
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = Field(None, description="the name of the variable holding the key")
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_tokens: int | None = Field(None, ge=16)
    timeout: float = Field(60.0, gt=0, description="seconds per request")
    patience: float = Field(
        300.0, ge=0, description="seconds the endpoint may stay down before the game stops"
    )
    tool_mode: Literal["tools", "json"] = Field(
        "tools", description="'json' for endpoints without tool calls"
    )
    enum_targets: bool = Field(
        False,
        description="list the legal seats in each request's function schema (an enum) instead "
        "of one tools array for the whole game, which a provider's prompt cache can reuse",
    )
    personality: str | None = None
    name: str | None = None

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind not in KINDS and kind not in installed_kinds():
            known = ", ".join([*KINDS, *installed_kinds()])
            raise ValueError(f"unknown seat kind {kind!r}: use one of {known}")
        return kind

    @field_validator("options", mode="before")
    @classmethod
    def _options_table(cls, options: Any) -> Any:
        """A table (TOML, JSON) is kept as sorted pairs: a spec stays hashable."""
        return tuple(sorted(options.items())) if isinstance(options, Mapping) else options

    def factory_options(self) -> dict[str, Any]:
        """The keyword arguments a py or installed seat's factory gets besides the seed
        and the seat (a py seat's ``factory`` among them)."""
        options: dict[str, Any] = dict(self.options or ())
        if self.factory is not None:
            options["factory"] = self.factory
        return options

    @model_validator(mode="after")
    def _factory_for_py(self) -> SeatSpec:
        if self.kind == "py" and not self.factory:
            raise ValueError("a py seat names its factory: factory = 'MODULE:FACTORY'")
        if self.kind != "py" and self.factory is not None:
            raise ValueError(f"only py seats name a factory, not {self.kind} seats")
        if self.options is not None and self.kind in KINDS and self.kind != "py":
            raise ValueError(f"{self.kind} seats take no options table")
        return self

    def label(self) -> str:
        """A short public description, e.g. ``llm:gpt-4o-mini`` or ``py:mypkg.bots:make``
        (never a key or URL)."""
        if self.factory:
            return f"py:{self.factory}"
        return f"{self.kind}:{self.model}" if self.model else self.kind

    def key_env(self) -> str:
        return self.api_key_env or DEFAULT_KEY_ENV

    def resolved_base_url(self, env: Mapping[str, str]) -> str | None:
        return self.base_url or env.get(DEFAULT_BASE_URL_ENV) or None

    def public(self) -> dict[str, Any]:
        """What the game log records of this seat: kind, factory and options (a Python
        seat is rebuilt from them on resume), model, personality, name."""
        return {
            k: v
            for k, v in (
                ("kind", self.kind),
                ("factory", self.factory),
                ("options", None if self.options is None else dict(self.options)),
                ("model", self.model),
                ("personality", self.personality),
                ("name", self.name),
            )
            if v is not None
        }


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    prompt: float = Field(ge=0, le=MAX_PRICE, description="USD per million prompt tokens")
    completion: float = Field(ge=0, le=MAX_PRICE, description="USD per million completion tokens")

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt + completion_tokens * self.completion) / 1_000_000


class Budget(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tokens: int | None = Field(None, ge=1)


class Lineup(BaseModel):
    """Every seat's spec, with defaults, prices and a token budget."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    defaults: SeatSpec = SeatSpec()
    seats: dict[int, SeatSpec] = Field(default_factory=dict)
    prices: dict[str, Price] = Field(default_factory=dict)
    budget: Budget = Budget()
    beliefs: bool = Field(
        False, description="seats report P(wolf) of the others with each vote (god view only)"
    )

    def with_seats(self, overrides: Mapping[int, SeatSpec]) -> Lineup:
        """This lineup with some seats replaced (the command line wins over the file)."""
        return self.model_copy(update={"seats": {**self.seats, **overrides}})

    def spec(self, seat: int) -> SeatSpec:
        return self.seats.get(seat, self.defaults)

    def resolve(self, seat_count: int) -> dict[int, SeatSpec]:
        """The spec of every seat 1..seat_count; raises ConfigError for unknown seats."""
        unknown = sorted(s for s in self.seats if not 1 <= s <= seat_count)
        if unknown:
            raise ConfigError(
                [(f"seats.{s}", f"no seat {s}: seats are 1 to {seat_count}") for s in unknown]
            )
        return {s: self.spec(s) for s in range(1, seat_count + 1)}

    def check(self, seat_count: int, env: Mapping[str, str] | None = None) -> dict[int, SeatSpec]:
        """Resolve and check everything a game needs before it starts: every problem at once."""
        env = os.environ if env is None else env
        specs = self.resolve(seat_count)
        problems: list[tuple[str, str]] = []
        unset: dict[tuple[str, bool], list[tuple[int, str]]] = {}  # (variable, named) -> seats
        for seat, spec in specs.items():
            where = f"seats.{seat}" if seat in self.seats else "defaults"
            if spec.kind == "llm":
                if not spec.model:
                    problems.append(
                        (f"{where}.model", f"seat {seat} is an llm seat without a model")
                    )
                if not env.get(spec.key_env()):
                    unset.setdefault((spec.key_env(), spec.api_key_env is not None), []).append(
                        (seat, where)
                    )
        problems += _unset_keys(unset)
        humans = [s for s, spec in specs.items() if spec.kind == "human"]
        if len(humans) > 1:
            problems.append(("seats", f"one human seat per terminal, not {len(humans)}"))
        if problems:
            raise ConfigError(list(dict.fromkeys(problems)))  # each problem once, in order
        return specs

    def price(self, model: str | None) -> Price | None:
        return self.prices.get(model) if model else None


def _unset_keys(unset: Mapping[tuple[str, bool], list[tuple[int, str]]]) -> list[tuple[str, str]]:
    """One problem per key variable that is not set, naming the seats that need it. A
    variable the lineup named is reported at its ``api_key_env`` field; the default one at
    no field (nobody wrote it), with how to set it or name another."""
    problems: list[tuple[str, str]] = []
    for (variable, named), seats in unset.items():
        numbers = [seat for seat, _ in seats]
        who = f"seat {numbers[0]}" if len(numbers) == 1 else f"seats {_listed(numbers)}"
        needs = "needs" if len(numbers) == 1 else "need"
        if named:
            fields = list(dict.fromkeys(f"{where}.api_key_env" for _, where in seats))
            message = f"{who} {needs} an API key: the environment variable {variable} is not set"
            problems.append((", ".join(fields), message))
        else:
            problems.append(
                (
                    "",
                    f"{who} {needs} an API key: the environment variable {variable} is not set "
                    f"(set it, or name the variable that holds the key with api_key_env in a "
                    f"lineup)",
                )
            )
    return problems


def _listed(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def _validate(data: Mapping[str, Any], source: str) -> Lineup:
    try:
        return from_file(Lineup, data)
    except ValidationError as exc:
        raise ConfigError(
            [
                (f"{source}: " + ".".join(str(p) for p in err["loc"]), err["msg"])
                for err in exc.errors()
            ]
        ) from None


def _seat_keys(seats: Mapping[str, Any], source: str) -> dict[int, Any]:
    """TOML table keys are strings: ``"3"`` -> 3. Only ASCII digits, and one key per seat
    (``seats.3`` and ``seats.03`` would silently merge)."""
    found: dict[int, str] = {}
    problems: list[tuple[str, str]] = []
    for key in seats:
        if not is_number(key):
            problems.append((f"{source}: seats.{clip(key, 20)}", "a seat key is a seat number"))
        elif int(key) in found:
            problems.append(
                (
                    f"{source}: seats.{key}",
                    f"seat {int(key)} is given twice (seats.{found[int(key)]})",
                )
            )
        else:
            found[int(key)] = key
    if problems:
        raise ConfigError(problems)
    return {int(key): seats[key] for key in found.values()}


def load_lineup(path: str | os.PathLike[str]) -> Lineup:
    """Read and validate a TOML lineup file (bounded: see ``pulse_core.limits``)."""
    source = str(path)
    try:
        data = parse_toml(read_bounded(path), source)
    except LimitError as exc:
        raise ConfigError([("", str(exc))]) from None
    seats = data.get("seats")
    if isinstance(seats, dict):
        data = {**data, "seats": _seat_keys(seats, source)}
    return _validate(data, source)


def parse_seat_arg(text: str) -> tuple[int, SeatSpec]:
    """``"3=llm:gpt-4o-mini"`` -> ``(3, SeatSpec(kind="llm", model="gpt-4o-mini"))``;
    ``"3=mock:bold"`` -> ``(3, SeatSpec(kind="mock", personality="bold"))``."""
    seat_text, sep, spec_text = text.partition("=")
    shown = repr(clip(text))
    if not sep or not is_number(seat_text.strip()):
        raise ConfigError([("--seat", f"{shown}: write SEAT=KIND[:MODEL], e.g. 3=llm:gpt-4o-mini")])
    kind, _, model = spec_text.strip().partition(":")
    if kind == "py":  # 3=py:mypkg.bots:make
        from .players.python import split_target

        split_target(model)
        return int(seat_text.strip()), SeatSpec(kind="py", factory=model.strip())
    if kind not in KINDS and kind not in installed_kinds():
        known = ", ".join([*KINDS, *installed_kinds()])
        raise ConfigError([("--seat", f"{shown}: kind must be one of {known}")])
    if kind == "llm" and not model:
        raise ConfigError(
            [("--seat", f"{shown}: an llm seat names its model: {seat_text.strip()}=llm:MODEL")]
        )
    if kind == "mock" and model:  # 3=mock:bold: the part after the colon is a personality
        return int(seat_text.strip()), SeatSpec(kind="mock", personality=model)
    if kind != "llm" and model:
        raise ConfigError(
            [("--seat", f"{shown}: only llm seats take a model (mock seats a personality)")]
        )
    return int(seat_text), SeatSpec.model_validate({"kind": kind, "model": model or None})
