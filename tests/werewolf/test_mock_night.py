"""A wolf that follows the pack's proposal reuses the lines of the night agenda it chose
its own target from, drawing the agenda's luck again as a second agenda did: its talk is
what making that second agenda says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.werewolf.test_mock_lang import _games
from werewolf.cast import Identity
from werewolf.decisions import Answer, DecisionKind
from werewolf.players.mock import strategy
from werewolf.players.mock.strategy import wolf_night
from werewolf.players.mock.turn import Turn


def test_following_the_pack_says_what_a_second_agenda_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_target = wolf_night._target
    followed: list[Answer] = []

    def without_reuse(turn: Turn) -> tuple[int | None, list[wolf_night.Line], None]:
        target, why, _ = real_target(turn)
        return target, why, None  # as if no agenda were made: the talk makes a second one

    def both(turn: Turn) -> Answer:
        fast = wolf_night.wolf_talk(replace(turn))  # a fresh turn: a fresh generator
        with monkeypatch.context() as patch:
            patch.setattr(wolf_night, "_target", without_reuse)
            plain = wolf_night.wolf_talk(replace(turn))
        assert fast == plain
        if fast.reasoning.startswith("I follow seat"):
            followed.append(fast)
        return fast

    monkeypatch.setitem(strategy.handlers(), (Identity.WEREWOLF, DecisionKind.WOLF_TALK), both)
    _games("en", range(8), "standard-9")
    assert len(followed) >= 10
