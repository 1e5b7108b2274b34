"""The validated game config: the board and every rule variant as a field.

Defaults are the Chinese nine-player board (预女猎 9人局). ``rules_text(config)`` writes the
rules players are told from the same fields the engine reads, so the two cannot drift.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .cast import GODS, Identity
from .errors import ConfigError

__all__ = [
    "DISCUSSION_FIELDS",
    "STANDARD_NINE",
    "Discussion",
    "GameConfig",
    "Reveal",
    "SelfSave",
    "TiePolicy",
    "WinRule",
    "WolfSplit",
    "parse_config",
    "rules_text",
]

STANDARD_NINE: tuple[Identity, ...] = (
    (Identity.WEREWOLF,) * 3
    + (Identity.SEER, Identity.WITCH, Identity.HUNTER)
    + (Identity.VILLAGER,) * 3
)


class WinRule(StrEnum):
    SIDE = "side"  # 屠边: wolves win when all villagers or all gods are dead
    TOWN = "town"  # 屠城: wolves win when every good player is dead
    PARITY = "parity"  # wolves win when living wolves >= living others


class SelfSave(StrEnum):
    FIRST_NIGHT = "first-night"
    NEVER = "never"
    ALWAYS = "always"


class WolfSplit(StrEnum):
    EMPTY = "empty"  # wolves still split after the second round kill nobody (空刀)
    PLURALITY = "plurality"  # the most-proposed seat dies; a tied plurality kills nobody


class Discussion(StrEnum):
    SEAT_ORDER = "seat-order"  # speeches in today's order, round after round
    BIDDING = "bidding"  # every living player bids for the floor; the highest bid speaks


class Reveal(StrEnum):
    NOTHING = "nothing"  # the dead's identity stays hidden
    TEAM = "team"  # everyone learns whether the dead was a wolf
    IDENTITY = "identity"  # everyone learns the dead's identity


class TiePolicy(StrEnum):
    PK = "pk"  # tied players speak again, the others re-vote; a second tie exiles nobody
    NONE = "none"  # a tie exiles nobody


class GameConfig(BaseModel):
    """Seats, identities and rule variants. Unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    identities: tuple[Identity, ...] = Field(
        default=STANDARD_NINE, description="the deck: one identity per seat, dealt at random"
    )
    win_rule: WinRule = WinRule.SIDE
    witch_self_save: SelfSave = SelfSave.FIRST_NIGHT
    witch_both_potions: bool = Field(False, description="may the witch use both potions a night")
    tie_policy: TiePolicy = TiePolicy.PK
    allow_empty_kill: bool = Field(True, description="may the wolves kill nobody (空刀)")
    wolf_self_knife: bool = Field(True, description="may the wolves target a wolf (自刀)")
    wolf_split: WolfSplit = Field(
        WolfSplit.EMPTY,
        description="wolves still split after two rounds: 'empty' kills nobody, 'plurality' "
        "kills the most-proposed seat (without 空刀, the first leading seat dies either way)",
    )
    allow_abstain: bool = Field(True, description="may a voter abstain")
    allow_self_vote: bool = Field(False, description="may a voter vote for themself")
    day_cap: int = Field(20, ge=1, le=200, description="days after which the game is a draw")
    # -- the discussion and what death reveals (see DISCUSSION_FIELDS) --
    discussion: Discussion = Field(
        Discussion.SEAT_ORDER,
        description="who speaks next in a day's discussion: 'seat-order' (today's order, "
        "round after round) or 'bidding' (every living player bids 0-3 for the floor, the "
        "highest bid speaks; ties go to who spoke least today, then to today's order)",
    )
    speech_rounds: int = Field(
        1, ge=1, le=5, description="speeches each living player has in a day's discussion"
    )
    speech_budget: int | None = Field(
        None,
        ge=1,
        le=100,
        description="the most speeches a day's discussion holds (last words and PK speeches "
        "apart); none: living players x speech_rounds",
    )
    reveal_on_death: Reveal = Field(
        Reveal.NOTHING,
        description="what everyone learns of a player who dies: 'nothing', the 'team' (wolf "
        "or good) or the 'identity'",
    )
    beliefs: bool = Field(
        False,
        description="with each vote, every seat also reports its probability that each other "
        "living seat is a wolf (private: the god view and the arena's figures only)",
    )

    @model_validator(mode="after")
    def _check_deck(self) -> GameConfig:
        counts = Counter(self.identities)
        if not 4 <= len(self.identities) <= 20:
            raise ValueError("a game needs 4 to 20 seats")
        if counts[Identity.WEREWOLF] == 0:
            raise ValueError("the deck needs at least one werewolf")
        if counts[Identity.WEREWOLF] * 2 >= len(self.identities):
            raise ValueError("wolves must be fewer than half the seats")
        for god in sorted(GODS):
            if counts[god] > 1:
                raise ValueError(f"at most one {god}")
        return self

    @property
    def seats(self) -> int:
        return len(self.identities)

    def dump(self) -> dict[str, Any]:
        """The config as the start event records it: the discussion and reveal fields only
        where they differ from their defaults, so a game with the default discussion logs
        exactly what it logged before they existed (and a reader fills in the defaults)."""
        data = self.model_dump(mode="json")
        for name in DISCUSSION_FIELDS:
            if getattr(self, name) == type(self).model_fields[name].default:
                del data[name]
        return data


DISCUSSION_FIELDS = (
    "discussion",
    "speech_rounds",
    "speech_budget",
    "reveal_on_death",
    "beliefs",
)
"""The discussion format and what death reveals: written to a log only when changed."""


def parse_config(data: dict[str, Any]) -> GameConfig:
    """Validate ``data``; raise ConfigError listing every problem with its field path."""
    try:
        return GameConfig.model_validate(data)
    except ValidationError as exc:
        problems = [
            # the model-level check (an empty loc) is about the deck
            (
                ".".join(str(p) for p in err["loc"]) or "identities",
                str(err["msg"]).removeprefix("Value error, "),
            )
            for err in exc.errors()
        ]
        raise ConfigError(problems) from None


def _count(config: GameConfig, identity: Identity) -> int:
    return sum(1 for i in config.identities if i is identity)


def _split_en(config: GameConfig) -> str:
    if not config.allow_empty_kill:
        return "if they still disagree after a second round, the most-proposed seat dies"
    if config.wolf_split is WolfSplit.PLURALITY:
        return (
            "if they still disagree after a second round, the most-proposed seat dies "
            "(a tie kills nobody)"
        )
    return "if they still disagree after a second round, nobody dies"


def _discussion_en(config: GameConfig) -> str:
    budget = config.speech_budget
    cap = f", at most {budget} speeches a day" if budget is not None else ""
    if config.discussion is Discussion.BIDDING:
        each = (
            "each may speak once"
            if config.speech_rounds == 1
            else f"each may speak up to {config.speech_rounds} times"
        )
        return (
            "then the floor is bid for: before each speech every living player bids 0 to 3, "
            "the highest bid speaks (a tie: who spoke least today, then today's seat order); "
            f"{each}{cap}"
        )
    if config.speech_rounds == 1 and budget is None:
        return "every living player speaks once in turn"
    rounds = "once" if config.speech_rounds == 1 else f"{config.speech_rounds} times"
    return f"every living player speaks {rounds} in turn, round after round{cap}"


def _discussion_zh(config: GameConfig) -> str:
    budget = config.speech_budget
    cap = f"，每天最多{budget}次发言" if budget is not None else ""
    if config.discussion is Discussion.BIDDING:
        return (
            "随后竞价发言：每次发言前存活玩家各出价0到3，出价最高者发言"
            f"（平价时今天发言少者优先，再按座位顺序），每人最多发言{config.speech_rounds}次{cap}"
        )
    if config.speech_rounds == 1 and budget is None:
        return "存活玩家依次发言一次"
    return f"存活玩家依次轮流发言{config.speech_rounds}轮{cap}"


def _split_zh(config: GameConfig) -> str:
    if not config.allow_empty_kill or config.wolf_split is WolfSplit.PLURALITY:
        return "两轮后仍不一致则按多数击杀" + ("（平票空刀）" if config.allow_empty_kill else "")
    return "两轮后仍不一致则空刀"


def rules_text(config: GameConfig, lang: str = "en") -> str:
    """The rules as players are told them, generated from ``config``."""
    if lang == "zh":
        return _rules_zh(config)
    if lang != "en":
        raise ConfigError([("lang", f"unknown language {lang!r}: use 'en' or 'zh'")])
    wolves = _count(config, Identity.WEREWOLF)
    lines = [
        f"{config.seats} players: {wolves} werewolves"
        + "".join(f", 1 {g}" for g in ("seer", "witch", "hunter") if _count(config, Identity(g)))
        + f", {_count(config, Identity.VILLAGER)} villagers. "
        + {
            Reveal.NOTHING: "Roles of the dead stay hidden.",
            Reveal.TEAM: "When a player dies, everyone learns whether they were a wolf.",
            Reveal.IDENTITY: "When a player dies, everyone learns their identity.",
        }[config.reveal_on_death],
        "Night: the wolves agree on one victim"
        + (" or on nobody" if config.allow_empty_kill else "")
        + (" (they may pick a wolf)" if config.wolf_self_knife else " (never a wolf)")
        + "; "
        + _split_en(config)
        + "; then the witch, then the seer act. Deaths are announced at dawn, without causes.",
    ]
    if _count(config, Identity.WITCH):
        save = {
            SelfSave.FIRST_NIGHT: "she may save herself on night 1 only",
            SelfSave.NEVER: "she may never save herself",
            SelfSave.ALWAYS: "she may save herself",
        }[config.witch_self_save]
        lines.append(
            "Witch: one antidote and one poison for the whole game; "
            + (
                "she may use both in one night; "
                if config.witch_both_potions
                else "at most one potion a night; "
            )
            + f"{save}; she learns the wolves' victim only while she holds the antidote; "
            "she never poisons herself."
        )
    if _count(config, Identity.SEER):
        lines.append("Seer: each night checks one living player and learns good or wolf.")
    if _count(config, Identity.HUNTER):
        lines.append(
            "Hunter: when killed by the wolves or exiled he may shoot one living player; "
            "not when poisoned, and not when his death already decided the game."
        )
    tie = (
        "a tie leads to one PK round (the tied speak, the others re-vote among them); "
        "a second tie exiles nobody"
        if config.tie_policy is TiePolicy.PK
        else "a tie exiles nobody"
    )
    lines.append(
        "Day: night-1 victims and every exiled player give last words; "
        + _discussion_en(config)
        + "; then everyone votes at once"
        + (" (abstaining is allowed)" if config.allow_abstain else "")
        + (", self-votes allowed" if config.allow_self_vote else ", never for yourself")
        + f"; {tie}."
    )
    win = {
        WinRule.SIDE: "wolves win when all villagers or all gods (seer, witch, hunter) are dead",
        WinRule.TOWN: "wolves win when every good player is dead",
        WinRule.PARITY: "wolves win when living wolves are at least as many as everyone else",
    }[config.win_rule]
    lines.append(
        f"Win: good wins when all wolves are dead; {win}; if both hold at once the wolves win. "
        f"After {config.day_cap} days the game is a draw."
    )
    return "\n".join(lines)


def _rules_zh(config: GameConfig) -> str:
    wolves = _count(config, Identity.WEREWOLF)
    gods = "".join(
        name
        for g, name in (
            (Identity.SEER, "、预言家"),
            (Identity.WITCH, "、女巫"),
            (Identity.HUNTER, "、猎人"),
        )
        if _count(config, g)
    )
    lines = [
        f"{config.seats}人局：{wolves}狼{gods}、{_count(config, Identity.VILLAGER)}民。"
        + {
            Reveal.NOTHING: "死者身份不公开。",
            Reveal.TEAM: "玩家死亡时公布其阵营（狼人或好人）。",
            Reveal.IDENTITY: "玩家死亡时公布其身份。",
        }[config.reveal_on_death],
        "夜晚：狼人统一击杀一人"
        + ("（可空刀）" if config.allow_empty_kill else "（不可空刀）")
        + ("（可自刀）" if config.wolf_self_knife else "（不可刀狼）")
        + "；"
        + _split_zh(config)
        + "；随后女巫、预言家行动。天亮公布死者，不公布死因。",
    ]
    if _count(config, Identity.WITCH):
        save = {
            SelfSave.FIRST_NIGHT: "仅首夜可自救",
            SelfSave.NEVER: "不可自救",
            SelfSave.ALWAYS: "可自救",
        }[config.witch_self_save]
        lines.append(
            "女巫：解药毒药各一瓶，"
            + ("同一夜可双药；" if config.witch_both_potions else "每晚最多用一瓶；")
            + f"{save}；解药用掉后不再得知刀口；不能毒自己。"
        )
    if _count(config, Identity.SEER):
        lines.append("预言家：每晚查验一名存活玩家，得知好人或狼人。")
    if _count(config, Identity.HUNTER):
        lines.append(
            "猎人：被狼杀或被放逐时可开枪带走一人；被毒不能开枪；死亡已决定胜负时不能开枪。"
        )
    tie = (
        "平票进入PK（平票者发言，其余人重投），再平票则无人出局"
        if config.tie_policy is TiePolicy.PK
        else "平票无人出局"
    )
    lines.append(
        "白天：首夜死者与每位被放逐者有遗言；"
        + _discussion_zh(config)
        + "；随后同时投票"
        + ("（可弃票）" if config.allow_abstain else "")
        + ("，可投自己" if config.allow_self_vote else "，不可投自己")
        + f"；{tie}。"
    )
    win = {
        WinRule.SIDE: "屠边：民全死或神全死则狼胜",
        WinRule.TOWN: "屠城：好人全死则狼胜",
        WinRule.PARITY: "狼人数不少于其余存活人数则狼胜",
    }[config.win_rule]
    lines.append(
        f"胜负：狼全死则好人胜；{win}；同时满足时狼胜（狼刀在先）。{config.day_cap}天后平局。"
    )
    return "\n".join(lines)
