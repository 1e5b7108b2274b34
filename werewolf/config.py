"""The validated game config: the board and every rule variant as a field.

Defaults are the Chinese nine-player board (预女猎 9人局); the fields of the guard, idiot,
cupid and doctor take the common Chinese rules as defaults. ``werewolf.ruletext`` writes the
rules players are told from the same fields the engine reads, so the two cannot drift, and
``werewolf.boards`` names the presets (``standard-9``, ``guard-12``, ...).
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .cast import Identity, Team, team_of
from .errors import ConfigError
from .filemodels import from_file
from .registry import unique_identities

__all__ = [
    "DISCUSSION_FIELDS",
    "MAX_SEATS",
    "MIN_SEATS",
    "QUIET_FIELDS",
    "STANDARD_NINE",
    "AllAbstain",
    "Discussion",
    "GameConfig",
    "GuardClash",
    "NightFallback",
    "Reveal",
    "SeerLearns",
    "SelfSave",
    "SpeechOrder",
    "TiePolicy",
    "WinRule",
    "WolfKill",
    "WolfSplit",
    "field_range",
    "parse_config",
]

MIN_SEATS, MAX_SEATS = 4, 20  # the smallest and largest table a game is dealt to

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


class WolfKill(StrEnum):
    AGREE = "agree"  # the wolves talk, then propose until they agree (two rounds at most)
    VOTE = "vote"  # no talk: each wolf casts one ballot; the most-voted dies, a tie drawn at random


class TiePolicy(StrEnum):
    PK = "pk"  # tied players speak again, the others re-vote; a second tie exiles nobody
    NONE = "none"  # a tie exiles nobody
    RANDOM = "random"  # one of the tied is drawn at random (from the game's seed) and exiled


class AllAbstain(StrEnum):
    """A day vote in which nobody votes for anyone."""

    NOBODY = "nobody"  # nobody is exiled
    RANDOM = "random"  # a living player drawn at random (from the game's seed) is exiled


class SeerLearns(StrEnum):
    TEAM = "team"  # good or wolf
    IDENTITY = "identity"  # the target's identity (and so the team)


class SpeechOrder(StrEnum):
    AFTER_DEATH = "after-death"  # cyclic from the seat after the lowest night death, else the day
    SEAT = "seat"  # from the lowest living seat up, every day


class NightFallback(StrEnum):
    """What a seer or doctor who keeps answering illegally is given."""

    FIRST = "first"  # the first legal option: she checks or protects the lowest legal seat
    NOTHING = "nothing"  # no check, no protection that night


class Discussion(StrEnum):
    SEAT_ORDER = "seat-order"  # speeches in today's order, round after round
    BIDDING = "bidding"  # every living player bids for the floor; the highest bid speaks


class Reveal(StrEnum):
    NOTHING = "nothing"  # the dead's identity stays hidden
    TEAM = "team"  # everyone learns whether the dead was a wolf
    IDENTITY = "identity"  # everyone learns the dead's identity


class GuardClash(StrEnum):
    """A player both guarded and saved by the witch on one night (同守同救)."""

    DIES = "dies"  # the two protections cancel out (the common Chinese rule)
    LIVES = "lives"


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
        "kills the most-proposed seat (without 空刀, the lowest of the leading seats dies either way)",
    )
    wolf_kill: WolfKill = Field(
        WolfKill.AGREE,
        description="how the wolves choose: 'agree' (they talk, then propose until they agree, "
        "two rounds at most) or 'vote' (no talk: one ballot each, the most-voted dies, a tie "
        "is drawn at random from the game's seed)",
    )
    wolf_abstain: bool = Field(
        False,
        description="wolf_kill = 'vote' without empty kills: a wolf may abstain, and a ballot "
        "he fails to give counts as an abstention; if every wolf abstains, a living non-wolf "
        "drawn from the game's seed dies (with empty kills, abstaining is a ballot for nobody)",
    )
    allow_abstain: bool = Field(True, description="may a voter abstain")
    allow_self_vote: bool = Field(False, description="may a voter vote for themself")
    all_abstain: AllAbstain = Field(
        AllAbstain.NOBODY,
        description="a day vote where everyone abstains: 'nobody' is exiled, or a 'random' "
        "living player (drawn from the game's seed)",
    )
    last_words: bool = Field(
        True, description="night-1 victims and every exiled player give last words"
    )
    day_cap: int = Field(20, ge=1, le=200, description="days after which the game is a draw")
    # -- the discussion and what death reveals (see DISCUSSION_FIELDS) --
    discussion: Discussion = Field(
        Discussion.SEAT_ORDER,
        description="who speaks next in a day's discussion: 'seat-order' (today's order, "
        "round after round) or 'bidding' (every living player bids 0-3 for the floor, the "
        "highest bid speaks; ties go to who spoke least today, then to today's order)",
    )
    speech_order: SpeechOrder = Field(
        SpeechOrder.AFTER_DEATH,
        description="where a day's speeches start: 'after-death' (the seat after the lowest "
        "night death, else the seat the day number points at) or 'seat' (the lowest living seat)",
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
    # -- identities beyond the nine-player board (see QUIET_FIELDS) --
    guard_self: bool = Field(True, description="may the guard protect himself")
    guard_repeat: bool = Field(
        False, description="may the guard protect the same player two nights running"
    )
    guard_witch_clash: GuardClash = Field(
        GuardClash.DIES,
        description="a player guarded and saved by the witch the same night (同守同救)",
    )
    seer_learns: SeerLearns = Field(
        SeerLearns.TEAM, description="what the seer learns of her target: its 'team' or 'identity'"
    )
    seer_before_wolves: bool = Field(
        False,
        description="the seer checks before the wolves, together with the doctor (false: "
        "after the wolves and the witch)",
    )
    night_fallback: NightFallback = Field(
        NightFallback.FIRST,
        description="a seer or doctor who keeps answering illegally: 'first' (the first "
        "legal seat is checked or protected) or 'nothing' (no check, no protection)",
    )
    retry_illegal: bool = Field(
        True,
        description="an illegal answer is asked again, with the reason, twice before its "
        "fallback is taken (false: the fallback at once, as the Kaggle environment does)",
    )
    doctor_self: bool = Field(True, description="may the doctor protect herself")
    doctor_repeat: bool = Field(
        True, description="may the doctor protect the same player two nights running"
    )
    doctor_told_save: bool = Field(
        False,
        description="the doctor is told, privately, after the dawn when her protection saved "
        "the wolves' victim (as the Kaggle environment tells her)",
    )
    idiot_second_exile: bool = Field(
        True,
        description="a revealed idiot may be voted out again, and then dies (false: he can "
        "no longer be voted for)",
    )
    idiot_counts_as_god: bool = Field(
        True, description="a revealed idiot counts as a living god for the side win rule"
    )
    cupid_self: bool = Field(True, description="may cupid make himself one of the lovers")
    lovers_see_identity: bool = Field(
        True, description="each lover is told the other's identity, not only the seat"
    )
    heartbroken_hunter_shoots: bool = Field(
        False, description="a hunter who dies of heartbreak (殉情) may shoot"
    )
    self_destruct: bool = Field(
        False,
        description="a living wolf may self-destruct (自爆) in place of a day speech: he dies at "
        "once, the day ends without a vote and night follows (on by default on the 12-seat "
        "boards)",
    )
    self_destruct_last_words: bool = Field(
        False, description="a wolf who self-destructs gives last words"
    )
    second_destruct_loses_badge: bool = Field(
        True,
        description="a self-destruct in an election postponed by one already loses the badge "
        "(false: each postpones it again)",
    )
    # -- the sheriff (警长): an election on day 1 and the badge's 1.5 vote --
    sheriff: bool = Field(
        False,
        description="elect a sheriff on day 1, before the night's deaths are told: his vote "
        "counts sheriff_weight, he chooses the speaking direction and speaks last, and when "
        "he dies he passes the badge on or tears it",
    )
    sheriff_weight: float = Field(
        1.5, ge=1.0, le=2.0, description="what the sheriff's vote counts in an exile vote"
    )
    sheriff_pk: bool = Field(
        True,
        description="a tied election: the tied candidates speak again and the same voters "
        "vote between them, a second tie loses the badge (false: a tie loses it at once)",
    )
    badge_tear: bool = Field(
        True, description="may a dying sheriff tear the badge (撕警徽) instead of passing it"
    )
    referee_record: bool = Field(
        False,
        description="record for an outside referee each decision's legal options (god view "
        "only) and the steps skipped because the game was decided",
    )

    @model_validator(mode="after")
    def _check_deck(self) -> GameConfig:
        counts = Counter(self.identities)
        if not MIN_SEATS <= len(self.identities) <= MAX_SEATS:
            raise ValueError(f"a game needs {MIN_SEATS} to {MAX_SEATS} seats")
        wolves = sum(n for i, n in counts.items() if team_of(i) is Team.WOLVES)
        if wolves == 0:
            raise ValueError("the deck needs at least one werewolf")
        if wolves * 2 >= len(self.identities):
            raise ValueError("wolves must be fewer than half the seats")
        for identity in sorted(unique_identities()):
            if counts[identity] > 1:
                raise ValueError(f"at most one {identity}")
        return self

    @property
    def seats(self) -> int:
        return len(self.identities)

    def has(self, identity: Identity) -> bool:
        return identity in self.identities

    def dump(self) -> dict[str, Any]:
        """The config as the start event records it: the discussion, reveal and identity
        fields only where they differ from their defaults, so a game that uses none of them
        logs exactly what it logged before they existed (a reader fills in the defaults)."""
        data = self.model_dump(mode="json")
        for name in (*DISCUSSION_FIELDS, *QUIET_FIELDS):
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

QUIET_FIELDS = (
    "guard_self",
    "guard_repeat",
    "guard_witch_clash",
    "doctor_self",
    "doctor_repeat",
    "idiot_second_exile",
    "idiot_counts_as_god",
    "cupid_self",
    "lovers_see_identity",
    "heartbroken_hunter_shoots",
    "self_destruct",
    "self_destruct_last_words",
    "second_destruct_loses_badge",
    "referee_record",
    "wolf_kill",
    "all_abstain",
    "last_words",
    "speech_order",
    "seer_learns",
    "seer_before_wolves",
    "wolf_abstain",
    "night_fallback",
    "retry_illegal",
    "doctor_told_save",
    "sheriff",
    "sheriff_weight",
    "sheriff_pk",
    "badge_tear",
)
"""The fields added after the nine-player board (the guard, idiot, cupid and doctor, the
referee's record, the Kaggle-style variants of kaggle-8): written to a log only when changed."""


def field_range(name: str) -> tuple[int, int]:
    """The least and the most a whole-number field of ``GameConfig`` takes (its ``ge`` and
    ``le``), so an option that sets it can say so before the config is built."""
    low: int | None = None
    high: int | None = None
    for constraint in GameConfig.model_fields[name].metadata:
        low = getattr(constraint, "ge", low)
        high = getattr(constraint, "le", high)
    if low is None or high is None:
        raise TypeError(f"GameConfig.{name} has no range")
    return low, high


def parse_config(data: dict[str, Any], *, strict: bool = False) -> GameConfig:
    """Validate ``data``; raise ConfigError listing every problem with its field path.
    ``strict``: ``data`` was read from a file, and is held to strict types (``filemodels``)."""
    try:
        if strict:
            return from_file(GameConfig, data)
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
