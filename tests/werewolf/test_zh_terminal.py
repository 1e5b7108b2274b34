"""A game played in Chinese is drawn in Chinese in the terminal: headers, tables, identity
names, results and the seats' names; an English game's drawing is unchanged (the goldens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from werewolf.cli import main
from werewolf.config import GameConfig, WinRule
from werewolf.game import DEFAULT_NAMES, ZH_NAMES, start_meta
from werewolf.registry import identity_specs
from werewolf.replay.words import outcome_text, result_line

_ENGLISH = re.compile(r"[A-Za-z][A-Za-z'-]+")


def _play(capsys: pytest.CaptureFixture[str], store: Path, *argv: str) -> tuple[str, str]:
    code = main(["play", "--seed", "7", "--store", str(store), "--view", "god", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, out.split("(game ")[1].split(",")[0]


def _words(drawing: str, game: str) -> set[str]:
    """The English words of a drawing, but for the game id and the log's lines."""
    drawing = "\n".join(
        line for line in drawing.splitlines() if not line.startswith(("Log: ", "Replay file: "))
    )
    return set(_ENGLISH.findall(drawing.replace(game, "")))


def test_a_zh_game_is_drawn_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, game = _play(capsys, tmp_path / "s.sqlite3", "--lang", "zh")
    # not one English word, live or in the result line; "PK" is the Chinese table's own word
    assert _words(out, game) <= {"PK"}
    for shown in ("狼人杀", "第 1 夜", "第 1 天", "座位", "身份", "角色揭晓", "狼人阵营获胜"):
        assert shown in out
    assert "小明" in out
    assert "Ada" not in out
    zh_names = {spec.names("zh") for spec in identity_specs()}
    assert any(f" {name} " in out for name in zh_names)
    for view in ([], ["--view", "seat:3"], ["--view", "public"]):
        main(["replay", game, "--store", str(tmp_path / "s.sqlite3"), "--width", "100", *view])
        drawn, err = capsys.readouterr()
        assert err == ""
        assert _words(drawn, game) <= {"P", "wolf", "PK"}  # P(wolf), the belief tables' measure
        assert "狼人杀" in drawn


def test_an_en_game_stays_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _play(capsys, tmp_path / "s.sqlite3")
    assert "Werewolf, game" in out
    assert "Night 1" in out
    assert "Ada" in out
    assert "狼" not in out


def test_seat_names_follow_the_language() -> None:
    config = GameConfig()
    assert start_meta(config, 1)["game"]["names"] == list(DEFAULT_NAMES[:9])
    assert start_meta(config, 1, lang="en")["game"]["names"] == list(DEFAULT_NAMES[:9])
    assert start_meta(config, 1, lang="zh")["game"]["names"] == list(ZH_NAMES[:9])
    assert len(set(ZH_NAMES)) == len(ZH_NAMES) == len(DEFAULT_NAMES)
    named = start_meta(config, 1, ["a", "b", "c", "d", "e", "f", "g", "h", "i"], lang="zh")
    assert named["game"]["names"][0] == "a"  # names given are kept


@pytest.mark.parametrize(
    "reason",
    [
        "every wolf is dead",
        "only cupid and the lovers are left",
        "the wolves are as many as everyone else",
        "every good player is dead",
        "every villager is dead",
        "the day cap of 20 days was reached",
        "every god (seer, witch, hunter) is dead",
        "every other god (seer, witch) is dead and the idiot is revealed",
    ],
)
def test_every_reason_a_game_ends_for_is_told_in_chinese(reason: str) -> None:
    told = outcome_text(reason, "zh")
    assert _ENGLISH.findall(told) == []
    assert outcome_text(reason, "en") == reason
    assert result_line("good", reason, "en") == f"The good side wins: {reason}."
    assert result_line("wolves", reason, "zh") == f"狼人阵营获胜：{told}。"


def test_every_win_rule_is_named_in_chinese() -> None:
    from werewolf.replay.drawbase import variants_line

    for rule in WinRule:
        line = variants_line(GameConfig(win_rule=rule), "zh")
        assert _ENGLISH.findall(line) == [], line
