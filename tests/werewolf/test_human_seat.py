"""The human seat, through a real pseudo-terminal: ``werewolf play --seat 5=human`` runs as
a subprocess whose terminal is a pty; the test reads what the person would see and types
answers, bad ones first. The person sees only their seat's view, is asked again after bad
input, and Ctrl-D stops the game so that it can be resumed.
"""

from __future__ import annotations

import asyncio
import os
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pulse_core import Event, MemoryEventStore, SQLiteEventStore, WorkflowRule
from werewolf.cast import Identity
from werewolf.cli import main
from werewolf.decisions import DecisionKind, Request, Speech, WitchChoice
from werewolf.game import fold_chain, start_game, werewolf_workflow
from werewolf.players import SeatLeftError, mock_seating
from werewolf.players.human import HumanPlayer
from werewolf.rules import WitchOptions
from werewolf.visibility import view

PROMPT = "seat 5 > "
DEADLINE = 60.0  # seconds for one whole game; a hang fails instead of blocking the suite
_MENU = re.compile(r"^\s+\[(\d+)\] ", re.MULTILINE)


@dataclass
class Terminal:
    """A child process on a pseudo-terminal, and everything it wrote."""

    process: subprocess.Popen[bytes]
    master: int
    output: str = ""
    typed: list[str] = field(default_factory=list)

    @classmethod
    def spawn(cls, *argv: str) -> Terminal:
        master, slave = os.openpty()
        env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "120"}
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from werewolf.cli import main; sys.exit(main())",
                *argv,
            ],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        return cls(process, master)

    def read_until_prompt(self, deadline: float) -> str | None:
        """Output up to the next prompt (None when the process ended first)."""
        start = len(self.output)
        while not self.output[start:].endswith(PROMPT):
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt in time; last output:\n{self.output[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                if self.process.poll() is not None:
                    return None
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed the terminal
                return None
            if not chunk:
                return None
            self.output += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return self.output[start:]

    def type(self, line: str) -> None:
        self.typed.append(line)
        os.write(self.master, (line + "\n").encode())

    def end_of_input(self) -> None:
        os.write(self.master, b"\x04")  # Ctrl-D at the start of a line

    def finish(self) -> int:
        try:
            while self.read_until_prompt(time.monotonic() + 10) is not None:
                raise AssertionError("the game asked again after it should have ended")
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            os.close(self.master)


def _play_as_seat_5(store: Path, seed: int) -> tuple[Terminal, int, set[str]]:
    """Play a whole game as seat 5: bad input once per kind of question, then legal input."""
    term = Terminal.spawn(
        "play", "--seat", "5=human", "--seed", str(seed), "-q", "--store", str(store)
    )
    deadline = time.monotonic() + DEADLINE
    tried_bad: set[str] = set()
    try:
        question = ""
        while (screen := term.read_until_prompt(deadline)) is not None:
            if "===" in screen:  # a new question (else the last one, asked again)
                question = screen.rsplit("===", 1)[-1]
            if "Type your words" in question:
                if "speech" not in tried_bad:
                    tried_bad.add("speech")
                    term.type("   ")  # nothing to say is not a speech
                    continue
                term.type("I am a simple villager; seat 3 worries me.")
                continue
            codes = _MENU.findall(question)
            assert codes, f"a question without options:\n{question}"
            if "choice" not in tried_bad:
                tried_bad.add("choice")
                term.type("banana")
                continue
            if "range" not in tried_bad:
                tried_bad.add("range")
                term.type("77")
                continue
            term.type(f"{codes[0]} my private note")
        return term, term.finish(), tried_bad
    finally:
        if term.process.poll() is None:
            term.process.kill()


def test_a_person_plays_seat_5_at_the_terminal(tmp_path: Path) -> None:
    store = tmp_path / "w.sqlite3"
    term, code, tried_bad = _play_as_seat_5(store, seed=21)
    out = term.output
    assert code == 0, out[-3000:]
    assert tried_bad == {"speech", "choice", "range"}
    assert "Say something: type at least one character." in out
    assert "'banana' is not one of the options: type one of" in out
    assert "'77' is not one of the options" in out
    assert "Traceback" not in out
    assert "=== seat 5 (Eli), " in out
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
        chain = s.chain(game)
    assert chain[-1].role == "game-end"
    state = fold_chain(chain)
    identity = state.identity(5)
    # exactly seat 5's view: no other seat's secrets, and no one's private reasoning
    if identity is not Identity.WEREWOLF:
        assert "wolves' den" not in out
        assert "Your pack" not in out
    if identity is not Identity.SEER:
        assert "(the seer) checked" not in out
    if identity is not Identity.WITCH:
        assert "(the witch)" not in out
    assert "thinks (" not in out
    # what the person typed is in the log, and the note after a number is private reasoning
    speeches = [
        e
        for e in chain
        if e.role in ("day-speech", "last-words") and e.meta["diff"]["speaker"] == 5
    ]
    assert speeches
    assert all(
        e.meta["detail"]["text"] == "I am a simple villager; seat 3 worries me." for e in speeches
    )
    notes = [
        e for e in chain if any(k.startswith("reasoning/5/") for k in e.meta.get("attachments", {}))
    ]
    assert notes


def test_end_of_input_stops_the_game_and_resume_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    term = Terminal.spawn("play", "--seat", "5=human", "--seed", "21", "-q", "--store", str(store))
    try:
        assert term.read_until_prompt(time.monotonic() + DEADLINE) is not None
        term.end_of_input()
        code = term.finish()
    finally:
        if term.process.poll() is None:
            term.process.kill()
    assert code == 1, term.output[-2000:]
    assert "SeatLeftError: seat 5 (human) left the game: the input ended" in term.output
    assert "Or go on with another player in seat 5:" in term.output
    assert "Traceback" not in term.output
    with SQLiteEventStore(store) as s:
        [game] = s.topics()
    assert main(["resume", game, "--store", str(store), "--seat", "5=mock", "-q"]) == 0
    capsys.readouterr()
    with SQLiteEventStore(store) as s:
        chain = s.chain(game)
    roles = [e.role for e in chain]
    assert roles[-1] == "game-end"
    swap = chain[roles.index("seat-swap")].meta["detail"]
    assert (swap["seat"], swap["from"], swap["to"]) == (5, "human", "mock")


# -- the seat's questions, answered through a scripted terminal ----------------------------------
class ScriptedTerminal:
    """A ``Terminal`` that types the given lines and keeps what was shown."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.shown: list[str] = []

    def show(self, text: str) -> None:
        self.shown.append(text)

    def read_line(self, prompt: str) -> str:
        self.shown.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def _start_chain() -> list[Event]:
    store = MemoryEventStore()
    rule = WorkflowRule(werewolf_workflow(mock_seating()), store)
    return store.chain(start_game(rule, seed=11))


def test_a_human_wolf_is_told_the_pack_and_the_witch_gets_a_menu_of_legal_uses() -> None:
    chain = _start_chain()
    state = fold_chain(chain)
    wolf = state.wolves[0]
    terminal = ScriptedTerminal("Let us kill seat 9.")
    player = HumanPlayer(wolf, terminal=terminal)
    request = Request(
        DecisionKind.WOLF_TALK, wolf, view(chain, wolf), "n1.wolf-talk", context={"night": 1}
    )
    answer = asyncio.run(player.decide(request))
    assert answer == Speech("Let us kill seat 9.")
    shown = "\n".join(terminal.shown)
    assert (
        "Your pack: the wolves are "
        + ", ".join(f"seat {w} ({state.names[w - 1]})" for w in state.wolves)
        in shown
    )
    witch = state.seat_of(Identity.WITCH)
    assert witch is not None
    options = WitchOptions(witch, 3, True, (1, 3), False)
    terminal = ScriptedTerminal("9", "3 the poison, now")
    request = Request(DecisionKind.WITCH, witch, view(chain, witch), "n1.witch", witch=options)
    answer = asyncio.run(HumanPlayer(witch, terminal=terminal).decide(request))
    shown = "\n".join(terminal.shown)
    assert "  [1] use no potion" in shown
    assert "  [2] save seat 3 (Cai) with the antidote" in shown
    assert "  [3] poison seat 1 (Ada)" in shown
    assert "'9' is not one of the options: type one of 1, 2, 3, 4." in shown
    assert answer == WitchChoice(poison=1, reasoning="the poison, now")


def test_the_end_of_input_is_a_resumable_stop() -> None:
    chain = _start_chain()
    request = Request(DecisionKind.SEER, 2, view(chain, 2), "n1.seer", options=(1, 3))
    with pytest.raises(SeatLeftError, match="seat 2 \\(human\\) left the game"):
        asyncio.run(HumanPlayer(2, terminal=ScriptedTerminal()).decide(request))
