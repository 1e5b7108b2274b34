"""The Python API: an answer of the wrong type is refused like any illegal answer (asked
again, then a recorded fallback), never written to the log as a seat."""

from __future__ import annotations

import json

import pytest

from werewolf.decisions import Answer, Choice, Speech, WitchChoice

from .scripted import kill, play


@pytest.mark.parametrize("target", [True, 1.0, "3", 2.5])
def test_a_target_that_is_not_an_int_is_refused(target: object) -> None:
    played = play({"d1.vote.r1.s4": Choice(target)})  # type: ignore[arg-type]
    assert len(played.asked_for("d1.vote.r1.s4")) == 3  # asked again twice, then the fallback
    [vote] = [e for e in played.events("vote") if e.meta["day"] == 1]
    assert [4, None] in vote.meta["detail"]["ballots"]
    [fb] = vote.meta["fallbacks"]
    assert fb["seat"] == 4
    assert f"not {type(target).__name__} {target!r}" in fb["reason"]
    assert "true" not in json.dumps(vote.meta["detail"])


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("n1.witch.s5", WitchChoice(save=1)),  # type: ignore[arg-type]
        ("n1.witch.s5", WitchChoice(poison=True)),
        ("d1.speech.s2", Speech(7)),  # type: ignore[arg-type]
    ],
)
def test_potions_and_speeches_of_the_wrong_type_are_refused(key: str, answer: Answer) -> None:
    played = play({**kill(1, 7), key: answer})
    assert len(played.asked_for(key)) == 3
    assert any(fb["key"] == key for e in played.chain for fb in e.meta.get("fallbacks", []))
