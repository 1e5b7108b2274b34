"""One mind, two renderings: a mock seat thinks and speaks in the game's language, and the
language changes no decision; the arena passes its language to its mock seats."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pulse_core import Event, MemoryEventStore, SQLiteEventStore, WorkflowRule
from werewolf.boards import board_config
from werewolf.cli import main
from werewolf.decisions import Answer, Request
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import cached_seating
from werewolf.players.mock import MockPlayer, parse_speech

SPOKEN = ("day-speech", "last-words", "wolf-night")


class _Noted(MockPlayer):
    """A mock that also keeps every reasoning it gives, for the test to read."""

    def __init__(
        self, seed: int, seat: int, lang: str, notes: list[tuple[str, str, dict[str, Any]]]
    ) -> None:
        super().__init__(seed, seat, lang=lang)
        self.notes = notes

    async def decide(self, request: Request) -> Answer:
        answer = self.answer(request)
        self.notes.append((str(request.kind), answer.reasoning, request.context))
        return answer


def _games(
    lang: str, seeds: range, board: str, notes: list[tuple[str, str, dict[str, Any]]] | None = None
) -> list[list[Event]]:
    kept = [] if notes is None else notes
    store = MemoryEventStore()
    seating = cached_seating(lambda _, state, seat: _Noted(state.seed, seat, lang, kept))
    rule = WorkflowRule(werewolf_workflow(seating), store)
    games = [start_game(rule, seed=s, config=board_config(board)) for s in seeds]
    asyncio.run(rule.run())
    return [store.chain(g) for g in games]


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("board", ["standard-9", "guard-12"])
def test_a_chinese_game_thinks_in_chinese_and_decides_as_the_english_one(board: str) -> None:
    en_notes: list[tuple[str, str, dict[str, Any]]] = []
    zh_notes: list[tuple[str, str, dict[str, Any]]] = []
    en, zh = _games("en", range(3), board, en_notes), _games("zh", range(3), board, zh_notes)
    for a, b in zip(en, zh, strict=True):
        assert [e.role for e in a] == [e.role for e in b]
        for x, y in zip(a, b, strict=True):
            if x.role not in SPOKEN:  # every decision but the wording is the same
                assert x.meta.get("diff") == y.meta.get("diff"), x.role
    kinds = {kind for kind, _, _ in zh_notes}
    assert {"vote", "speech", "wolf-kill", "witch", "seer"} <= kinds, kinds
    assert all(_cjk(note) for _, note, _ in zh_notes), [n for n in zh_notes if not _cjk(n[1])][:5]
    assert not any(_cjk(note) for _, note, _ in en_notes)


def test_the_wolves_kill_reasoning_names_the_seat_that_proposed_the_target() -> None:
    notes: list[tuple[str, str, dict[str, Any]]] = []
    _games("en", range(4), "guard-12", notes)
    credited = 0
    for kind, note, context in notes:
        if kind != "wolf-kill" or "proposed" not in note:
            continue
        first: dict[int, int] = {}  # target -> the seat that named it first tonight
        for line in context["discussion"]:
            said = parse_speech(str(line["text"]))
            if said.kill_said and said.kill is not None:
                first.setdefault(said.kill, int(line["seat"]))
        words = note.replace(",", "").split()  # "seat T, as seat S proposed"
        assert first[int(words[1])] == int(words[4]), (note, context["discussion"])
        credited += 1
    assert credited


def test_an_arena_run_in_chinese_seats_chinese_mocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "a.sqlite3"
    argv = ["arena", "run", "--players", "mock:bold,mock:cautious", "--games", "2", "--lang"]
    assert main([*argv, "zh", "--workers", "1", "-q", "--store", str(store)]) == 0
    with SQLiteEventStore(store) as events:
        texts = [
            str(e.meta["detail"]["text"])
            for g in events.topics()
            for e in events.chain(g)
            if e.role == "day-speech"
        ]
    assert texts
    assert all(_cjk(t) for t in texts)
    code = main([*argv, "en", "--workers", "1", "-q", "--store", str(store)])
    assert code == 2  # a run keeps the language it was started in
    assert "--lang" in capsys.readouterr().err
