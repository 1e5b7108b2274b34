"""Every shortcut of a mock player's inference gives the plain computation's beliefs, bit for
bit: each decision of real games, as the player made it, against a table read afresh from the
same view and ``infer`` from scratch (the wolves' shared picture of the table included)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.werewolf.test_mock_memory import logs
from werewolf.cast import Identity
from werewolf.decisions import Answer, Request
from werewolf.players import MockPlayer
from werewolf.players.mock import beliefs, read_table
from werewolf.players.mock.beliefs import Mind, infer, public_mind
from werewolf.players.mock.gut import Gut
from werewolf.players.mock.table import Table
from werewolf.players.random_player import decision_rng

Made = tuple[MockPlayer, Request, Table, tuple[Mind, Mind | None]]


def decisions(monkeypatch: pytest.MonkeyPatch, seeds: list[int]) -> list[Made]:
    """Every decision of the games of ``seeds``, with the minds the player decided on."""
    made: list[Made] = []
    answer = MockPlayer.answer

    def spy(self: MockPlayer, request: Request) -> Answer:
        decided = answer(self, request)
        assert self._last_minds is not None
        table, (mind, picture) = self._last_minds  # a wolf's picture is weighed when read
        made.append((self, request, table, (mind, picture() if callable(picture) else picture)))
        return decided

    monkeypatch.setattr(MockPlayer, "answer", spy)
    logs(seeds, None)
    monkeypatch.undo()
    return made


def plain(player: MockPlayer, request: Request) -> tuple[Mind, Mind | None]:
    """The minds from scratch: a fresh table, the day's gut drawn from its own generator,
    the impressions of seer claimers from the game's (they hold from day to day)."""
    table = read_table(request.view)
    calm = replace(player.temper, noise=0.0)
    if table.identity is Identity.WEREWOLF:
        public = infer(table, calm, Gut.calm(table.seat_count), public=True)
        return infer(table, player.temper, Gut.calm(0)), public
    rng = decision_rng(player.game_seed, player.seat, f"gut.d{table.day}", "mock")
    day = Gut.draw(rng, table.seat_count - 1, player.temper.noise)
    duel = decision_rng(player.game_seed, player.seat, "duel", "mock").random()
    return infer(table, player.temper, Gut(duel, day.feelings)), None


def test_every_decision_believes_what_a_fresh_reading_infers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    beliefs._PUBLIC.clear()
    made = decisions(monkeypatch, [41, 42, 43])
    assert len(made) > 150
    for player, request, table, minds in made:
        assert table == read_table(request.view)  # the fold extended as read afresh
        assert minds == plain(player, request)


def test_the_wolves_share_one_picture_of_an_equal_record_and_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    beliefs._PUBLIC.clear()
    made = decisions(monkeypatch, [44])
    pictures = [minds[1] for _, _, _, minds in made if minds[1] is not None]
    assert len({id(p) for p in pictures}) < len(pictures)  # wolves asked of the same record
    player, request, _, _ = next(m for m in made if m[3][1] is not None)
    table = read_table(request.view)
    calm = replace(player.temper, noise=0.0)
    mind = public_mind(table, calm)
    assert public_mind(read_table(request.view), calm) is mind  # an equal record: reused
    # a record that differs where the slot does not look: weighed afresh
    other = replace(table, exiled={**table.exiled, 99: 1})
    assert public_mind(other, calm) == infer(other, calm, Gut.calm(other.seat_count), public=True)
    assert public_mind(table, calm) == infer(table, calm, Gut.calm(table.seat_count), public=True)
