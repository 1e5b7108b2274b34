"""The language changes no decision: every line a mock can say claims the same in English
and in Chinese, in every voice, and whole games in either language decide alike (seeds that
once played differently among them; ``benchmarks/quality_language.py`` runs 200 a board)."""

from __future__ import annotations

import asyncio

import pytest

from pulse_core import Event, MemoryEventStore, WorkflowRule
from werewolf.boards import BOARDS, board_config
from werewolf.game import start_game, werewolf_workflow
from werewolf.players import mock_seating
from werewolf.players.mock import PERSONALITIES, parse_speech
from werewolf.players.mock.lang import LANGS, phrasings

ROLES = ("", "seer", "witch", "hunter", "guard", "doctor", "idiot", "cupid", "knight")


def test_both_languages_have_the_same_lines() -> None:
    assert set(LANGS["en"].PHRASES) == set(LANGS["zh"].PHRASES)


@pytest.mark.parametrize("voice", ["", *sorted(PERSONALITIES)])
def test_every_line_claims_the_same_in_both_languages(voice: str) -> None:
    uneven = []
    for key in sorted(LANGS["en"].PHRASES):
        for role in ROLES:
            fields = (3, 5, 2, role, (4, 6))
            en = phrasings("en", key, *fields, voice=voice)
            zh = phrasings("zh", key, *fields, voice=voice)
            said = {text: parse_speech(text) for text in (*en, *zh)}
            if len(set(said.values())) > 1:
                uneven.append((key, role, said))
    assert not uneven, uneven[:2]


def _decisions(chain: list[Event]) -> list[tuple[object, ...]]:
    """What a game decided, event by event, without its words."""
    out: list[tuple[object, ...]] = []
    for event in chain:
        detail = event.meta.get("detail", {})
        kept = {k: v for k, v in detail.items() if k not in ("text", "discussion")}
        out.append((event.role, event.meta.get("diff"), kept))
    return out


def _games(lang: str, board: str, seeds: tuple[int, ...]) -> list[list[Event]]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating(lang=lang)), store)
    games = [start_game(rule, seed=s, config=board_config(board)) for s in seeds]
    asyncio.run(rule.run())
    return [store.chain(g) for g in games]


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_en_and_zh_games_make_the_same_decisions(board: str) -> None:
    seeds = (5, 11, 13)  # among those that once played differently
    en, zh = _games("en", board, seeds), _games("zh", board, seeds)
    for seed, a, b in zip(seeds, en, zh, strict=True):
        assert _decisions(a) == _decisions(b), (board, seed)
