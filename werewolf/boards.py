"""Named boards: the decks (and rule variants) people play, chosen by ``--board``.

``standard-9`` is the default config; a config file may name a board (``board = "..."``)
and override any field. ``board_of(config)`` names the board a config's deck comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cast import Identity
from .config import (
    STANDARD_NINE,
    AllAbstain,
    GameConfig,
    NightFallback,
    Reveal,
    SeerLearns,
    SpeechOrder,
    TiePolicy,
    WinRule,
    WolfKill,
)
from .errors import ConfigError

__all__ = ["BOARDS", "Board", "board_config", "board_of", "with_board"]

W, V = Identity.WEREWOLF, Identity.VILLAGER


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    title: str
    identities: tuple[Identity, ...]
    fields: Mapping[str, Any] = field(default_factory=dict)  # rule variants besides the deck

    def config(self) -> GameConfig:
        # the boards after the first record the referee's trail (offered options, skipped
        # steps); standard-9 keeps writing exactly the logs it always wrote
        record = {} if self.identities == STANDARD_NINE else {"referee_record": True}
        # twelve seats are played with a sheriff (警长), as online and at clubs
        if len(self.identities) == 12:
            record["sheriff"] = True
        return GameConfig(identities=self.identities, **{**record, **self.fields})


KAGGLE_RULES: Mapping[str, Any] = {
    "win_rule": WinRule.PARITY,
    "seer_before_wolves": True,
    "seer_learns": SeerLearns.IDENTITY,
    "doctor_self": True,
    "doctor_repeat": True,
    "wolf_kill": WolfKill.VOTE,
    "allow_empty_kill": False,
    "wolf_abstain": True,
    "wolf_self_knife": False,
    "night_fallback": NightFallback.NOTHING,
    "retry_illegal": False,
    "doctor_told_save": True,
    "speech_rounds": 2,
    "speech_order": SpeechOrder.SEAT,
    "last_words": False,
    "allow_self_vote": True,
    "tie_policy": TiePolicy.RANDOM,
    "all_abstain": AllAbstain.RANDOM,
    "reveal_on_death": Reveal.IDENTITY,
}
"""The rules of the Kaggle Game Arena werewolf environment (kaggle-environments, its
8-seat board), each as the config field that holds it."""

TWELVE: Mapping[str, Any] = {"self_destruct": True}
"""The rules the twelve-seat boards of clubs and online play add: wolves may self-destruct."""

BOARDS: dict[str, Board] = {
    b.name: b
    for b in (
        Board(
            "standard-9",
            "预女猎 9 seats: 3 wolves, seer, witch, hunter, 3 villagers",
            STANDARD_NINE,
        ),
        Board(
            "idiot-12",
            "预女猎白 12 seats: 4 wolves, seer, witch, hunter, idiot, 4 villagers",
            (W,) * 4 + (Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.IDIOT) + (V,) * 4,
            TWELVE,
        ),
        Board(
            "guard-12",
            "预女猎守 12 seats: 4 wolves, seer, witch, hunter, guard, 4 villagers",
            (W,) * 4 + (Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.GUARD) + (V,) * 4,
            TWELVE,
        ),
        Board(
            "wolf-king-12",
            "狼王守卫 12 seats: wolf king, 3 wolves, seer, witch, hunter, guard, 4 villagers",
            (Identity.WOLF_KING,)
            + (W,) * 3
            + (Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.GUARD)
            + (V,) * 4,
            TWELVE,
        ),
        Board(
            "white-wolf-king-12",
            "白狼王骑士 12 seats: white wolf king, 3 wolves, seer, witch, guard, knight, "
            "4 villagers",
            (Identity.WHITE_WOLF_KING,)
            + (W,) * 3
            + (Identity.SEER, Identity.WITCH, Identity.GUARD, Identity.KNIGHT)
            + (V,) * 4,
            TWELVE,
        ),
        Board(
            "knight-12",
            "预女猎骑 12 seats: 4 wolves, seer, witch, guard, knight, 4 villagers",
            (W,) * 4 + (Identity.SEER, Identity.WITCH, Identity.GUARD, Identity.KNIGHT) + (V,) * 4,
        ),
        Board(
            "cupid-10",
            "预女猎丘 10 seats: 3 wolves, seer, witch, hunter, cupid, 3 villagers",
            (W,) * 3 + (Identity.SEER, Identity.WITCH, Identity.HUNTER, Identity.CUPID) + (V,) * 3,
        ),
        Board(
            "seer-doctor-8",
            "seer-doctor 8 seats: 2 wolves, seer, doctor, 4 villagers; parity win",
            (W,) * 2 + (Identity.SEER, Identity.DOCTOR) + (V,) * 4,
            {"win_rule": WinRule.PARITY},
        ),
        Board(
            "kaggle-8",
            "Kaggle Game Arena 8 seats: 2 wolves, seer, doctor, 4 villagers; parity win, "
            "random tie-breaks, roles revealed on death",
            (W,) * 2 + (Identity.SEER, Identity.DOCTOR) + (V,) * 4,
            KAGGLE_RULES,
        ),
    )
}
"""Every named board, by name."""


def board_config(name: str, where: str = "board") -> GameConfig:
    """The config of the board ``name``; ConfigError naming ``where`` for an unknown one."""
    board = BOARDS.get(name)
    if board is None:
        known = ", ".join(BOARDS)
        raise ConfigError([(where, f"unknown board {name!r}: use one of {known}")])
    return board.config()


def with_board(data: Mapping[str, Any], board: str | None = None) -> dict[str, Any]:
    """Config fields with a board's deck and variants under them: ``board`` (the option)
    or the data's own ``board`` key fills every field the data does not set."""
    data = dict(data)
    named = data.pop("board", None)
    name = board if board is not None else named
    if name is None:
        return data
    if not isinstance(name, str):
        raise ConfigError([("board", "must be a board name")])
    base = board_config(name, "--board" if board is not None else "board")
    return {**base.model_dump(mode="json"), **data}


def board_of(config: GameConfig) -> str | None:
    """The name of the board whose deck ``config`` plays (in any order), else None; of two
    boards with one deck (seer-doctor-8, kaggle-8), the one whose rule fields it keeps."""
    deck = sorted(config.identities)
    same = [b for b in BOARDS.values() if sorted(b.identities) == deck]
    for board in sorted(same, key=lambda b: -len(b.fields)):  # the most specific first
        if all(getattr(config, k) == v for k, v in board.fields.items()):
            return board.name
    return same[0].name if same else None
