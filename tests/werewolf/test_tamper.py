"""Tamper evidence: an edited replay line or stored event is named, and a forged file whose
hash chain was recomputed is still refused by the strict meta checks, never rendered."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pulse_core import SQLiteEventStore
from tests.werewolf.forge import rechain
from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "replays" / "good-win.jsonl"

Record = dict[str, Any]


def _records() -> list[Record]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def _first(records: list[Record], kind: str) -> int:
    return next(i for i, r in enumerate(records) if r.get("kind") == f"werewolf.{kind}")


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert len(err.splitlines()) == 1, err
    return err.strip()


def _write(path: Path, records: list[Record]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def _speaker_true(r: Record) -> None:
    r["meta"]["diff"]["speaker"] = True


EDITS: list[tuple[str, Callable[[Record], None]]] = [
    ("day-speech", _speaker_true),
    ("vote", lambda r: r["meta"]["detail"]["counts"][0].__setitem__(1, -2)),
    ("wolf-night", lambda r: r["meta"].update(visible_to=None)),
    ("seer-check", lambda r: r["meta"]["diff"].update(wolf=not r["meta"]["diff"]["wolf"])),
    ("dawn", lambda r: r["meta"].update(day=2)),
]


@pytest.mark.parametrize(("kind", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_line_is_named_by_the_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, edit: Callable[[Record], None]
) -> None:
    records = _records()
    index = _first(records, kind)
    edit(records[index])
    path = _write(tmp_path / "edited.jsonl", records)
    line = _refused(capsys, "replay", str(path))
    assert line.startswith(f"werewolf: error: {path}:{index + 1}: edited: its chain hash")


FORGED = [
    ("day-speech", _speaker_true, "meta.diff.speaker: Input should be a valid integer"),
    (
        "vote",
        lambda r: r["meta"]["detail"]["counts"][0].__setitem__(1, -2),
        "meta.detail.counts.0.1: Input should be greater than or equal to 0",
    ),
    (
        "wolf-night",
        lambda r: r["meta"].update(visible_to=None),
        "meta.visible_to: Input should be a valid list",
    ),
    (
        "seer-check",
        lambda r: r["meta"]["diff"].update(wolf=not r["meta"]["diff"]["wolf"]),
        "but the deal says",
    ),
    (
        "wolf-night",
        lambda r: r["meta"].update(visible_to=[1, 2, 3, 4, 5, 6, 7, 8, 9]),
        "the wolves' night is told to",
    ),
    (
        "witch-action",
        lambda r: r["meta"]["diff"].update(save=1),
        "meta.diff.save: Input should be a valid boolean",
    ),
]


@pytest.mark.parametrize(
    ("kind", "edit", "problem"), FORGED, ids=[f"{f[0]}-{i}" for i, f in enumerate(FORGED)]
)
def test_a_forged_file_with_a_recomputed_chain_is_refused_by_its_types(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    edit: Callable[[Record], None],
    problem: str,
) -> None:
    records = _records()
    index = _first(records, kind)
    edit(records[index])
    path = _write(tmp_path / "forged.jsonl", rechain(records))
    line = _refused(capsys, "replay", str(path))
    assert line.startswith(f"werewolf: error: {path}:{index + 1}: "), line
    assert problem in line


def test_the_old_format_without_chain_hashes_is_still_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    old = ROOT / "replays" / "archive" / "v1" / "good-win.jsonl"
    assert json.loads(old.read_text().splitlines()[0])["version"] == 1
    assert main(["replay", str(old), "--public", "--width", "80"]) == 0
    assert "Result, day" in capsys.readouterr().out


def test_an_event_edited_in_the_store_is_named_and_the_game_not_played_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    assert main(["play", "--seed", "5", "--store", str(store), "-q"]) == 0
    capsys.readouterr()
    with SQLiteEventStore(store) as s:
        game = s.topics()[0]
        chain = s.chain(game)
    speech = next(e for e in chain if e.role == "day-speech")
    db = sqlite3.connect(store)
    db.execute("DROP TRIGGER events_no_update")  # what an edit of the file has to do
    meta = dict(speech.meta, diff={"speaker": speech.meta["diff"]["speaker"] % 9 + 1})
    db.execute(
        "UPDATE events SET meta = ? WHERE id = ?",
        (json.dumps(meta, sort_keys=True, separators=(",", ":")), speech.id),
    )
    db.commit()
    db.close()
    line = _refused(capsys, "replay", game, "--store", str(store))
    assert f"#{game} version {speech.version} (werewolf.day-speech) was edited" in line
    with SQLiteEventStore(store) as s:
        version = s.version(game)
    line = _refused(capsys, "resume", game, "--store", str(store), "-q")
    assert f"game {game} version {speech.version} (werewolf.day-speech) was edited" in line
    with SQLiteEventStore(store) as s:
        assert s.version(game) == version
