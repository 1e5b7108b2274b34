"""The conformance suite (werewolf.conformance) against every identity, event kind and
board the package ships: one generated test class each, so a new identity, event or board
is checked by the same contract as the built-in ones, with no list to update here."""

from __future__ import annotations

from pathlib import Path

from werewolf.boards import BOARDS
from werewolf.conformance import BoardConformance, EventConformance, IdentityConformance
from werewolf.registry import event_specs, identity_specs


def _class_name(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_"))


for _identity in identity_specs():
    _name = f"TestIdentity{_class_name(_identity.identity.value)}"
    globals()[_name] = type(_name, (IdentityConformance,), {"identity": _identity.identity})

for _event in event_specs():
    _name = f"TestEvent{_class_name(_event.kind)}"
    globals()[_name] = type(_name, (EventConformance,), {"kind": _event.kind})

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
_SAMPLES = {"standard-9": REPLAYS / "good-win.jsonl"}  # the other boards' are named for them

for _board in BOARDS.values():
    _name = f"TestBoard{_class_name(_board.name)}"
    _reference = _SAMPLES.get(_board.name, REPLAYS / f"{_board.name}.jsonl")
    globals()[_name] = type(
        _name,
        (BoardConformance,),
        {"config": _board.config(), "seeds": (1, 2), "reference": _reference},
    )


def test_every_board_has_a_reference_replay() -> None:
    for board in BOARDS:
        assert _SAMPLES.get(board, REPLAYS / f"{board}.jsonl").is_file(), board
