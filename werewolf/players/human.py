"""The human seat: a person plays one seat at the terminal.

Before each decision the person is shown what their seat learned since its last decision
(the same text an LLM seat reads, from the seat's view only), the decision's context (the
wolves' talk so far, the witch's victim), and the legal options as a numbered menu. They
type a speech, or the number of a choice (a private note may follow the number: it is kept
as the decision's reasoning, which only the god view shows). Input that is not an option is
asked again with the reason, never a crash; the end of input (Ctrl-D) raises
``SeatLeftError``, which stops the game so that ``werewolf resume`` can continue it.

Input is read in a daemon thread, so the event loop keeps running (other seats' requests go
on while the person thinks) and Ctrl-C is never held up by a pending read.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Sequence
from typing import IO, Protocol

from rich.console import Console

from ..argtypes import is_number
from ..decisions import MAX_SPEECH_CHARS, Answer, Choice, Request, Speech
from ..errors import SeatLeftError
from ..text import visible
from .menus import decision_menu
from .prompting import (
    ability_line,
    history_lines,
    option_order,
    prompt_set,
    seat_label,
    task_lines,
)

__all__ = ["ConsoleTerminal", "HumanPlayer", "Terminal"]


class Terminal(Protocol):
    """Where a human seat reads and writes."""

    def show(self, text: str) -> None: ...

    def read_line(self, prompt: str) -> str:
        """One line without its newline; raises EOFError at the end of input."""
        ...


class ConsoleTerminal:
    """The process's terminal: rich for output (no markup: players' words are plain text),
    a plain line read for input."""

    def __init__(self, console: Console | None = None, stdin: IO[str] | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.stdin = stdin or sys.stdin

    def show(self, text: str) -> None:
        # other players' words are in it: shown harmless (no escape sequence, no bidi override)
        self.console.print(visible(text), markup=False, highlight=False, soft_wrap=True)

    def read_line(self, prompt: str) -> str:
        self.console.file.write(prompt)
        self.console.file.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")


DESTRUCT = "!destruct"  # what a wolf types to self-destruct instead of speaking


class HumanPlayer:
    """One seat played at the terminal; see the module docstring."""

    kind = "human"

    def __init__(
        self,
        seat: int,
        *,
        terminal: Terminal | None = None,
        lang: str = "en",
        recap: bool = True,
    ) -> None:
        self.seat = seat
        self.terminal = terminal or ConsoleTerminal()
        self.lang = lang
        self.recap = recap
        self._seen = 0  # this seat's observations up to this index were shown already
        self._introduced = False

    async def decide(self, request: Request) -> Answer:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Answer] = loop.create_future()

        def settle(answer: Answer | None, error: BaseException | None) -> None:
            if done.done():  # the game was cancelled meanwhile
                return
            if error is not None:
                done.set_exception(error)
            else:
                assert answer is not None  # one of the two is set by work()
                done.set_result(answer)

        def work() -> None:
            try:
                answer = self.answer(request)
            except EOFError:
                error = SeatLeftError(
                    self.seat, f"seat {self.seat} (human) left the game: the input ended"
                )
                loop.call_soon_threadsafe(settle, None, error)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task as is
                loop.call_soon_threadsafe(settle, None, exc)
            else:
                loop.call_soon_threadsafe(settle, answer, None)

        threading.Thread(target=work, name=f"seat-{self.seat}-input", daemon=True).start()
        return await done

    def answer(self, request: Request) -> Answer:
        """Ask at the terminal, synchronously, until the input is a legal answer."""
        ps = prompt_set(self.lang)
        view = request.view
        show = self.terminal.show
        who = seat_label(ps, view.names, view.seat)
        show("")
        show(ps.say("human.header", who=who, identity=ps.say(f"identity.{view.identity.value}")))
        if not self._introduced:  # the card's powers and, for a wolf, the pack: once
            self._introduced = True
            show(ability_line(ps, view))
            if view.wolves:
                pack = ps.say("list.sep").join(seat_label(ps, view.names, w) for w in view.wolves)
                show(ps.say("pack", seats=pack))
        if self.recap:
            fresh = history_lines(view, self.lang, after=self._seen)
            if fresh:
                show(ps.say("human.recap"))
                show("\n\n".join(fresh))
                show("")
        if view.observations:
            self._seen = view.observations[-1].index
        if request.feedback:
            show(ps.say("human.refused", reason=request.feedback))
        show("\n".join(task_lines(request, self.lang, for_model=False)))
        prompt = ps.say("human.prompt", seat=view.seat)
        if request.kind.speaks:
            return self._speech(prompt, request)
        menu = decision_menu(request, self.lang)
        for item in menu:
            show(f"  [{item.code}] {item.label}")
        code, note = self._pick(prompt, [item.code for item in menu])
        return next(item for item in menu if item.code == code).with_note(note)

    def _speech(self, prompt: str, request: Request) -> Answer:
        """Words; or, where a wolf's speech offers it, ``!destruct [SEAT]`` (a self-destruct)."""
        ps = prompt_set(self.lang)
        self.terminal.show(ps.say("human.speak"))
        offered = option_order(request.options) if request.offers_self_destruct else []
        codes = [0 if o is None else o for o in offered]
        if len(codes) > 1:
            self.terminal.show(ps.say("human.destruct.take", codes=", ".join(map(str, codes))))
        elif codes:
            self.terminal.show(ps.say("human.destruct"))
        while True:
            text = self.terminal.read_line(prompt).strip()
            word, _, rest = text.partition(" ")
            if codes and word == DESTRUCT:
                code = rest.strip() or "0"
                if is_number(code) and int(code) in codes:
                    return Choice(None if int(code) == 0 else int(code))
                listed = ", ".join(map(str, codes))
                self.terminal.show(ps.say("human.bad-choice", input=repr(text), codes=listed))
            elif not text:
                self.terminal.show(ps.say("human.empty"))
            elif len(text) > MAX_SPEECH_CHARS:
                self.terminal.show(ps.say("human.too-long", length=len(text), max=MAX_SPEECH_CHARS))
            else:
                return Speech(text)

    def _pick(self, prompt: str, codes: Sequence[int]) -> tuple[int, str]:
        """A code from ``codes`` and the note typed after it."""
        ps = prompt_set(self.lang)
        self.terminal.show(ps.say("human.choose"))
        while True:
            line = self.terminal.read_line(prompt).strip()
            first, _, note = line.partition(" ")
            if is_number(first) and int(first) in codes:
                return int(first), note.strip()
            listed = ", ".join(map(str, codes))
            self.terminal.show(ps.say("human.bad-choice", input=repr(line), codes=listed))
