"""The seats of ``play`` and ``resume``: their options, the live view a human seat may see,
how the game is watched, and the result as it is printed."""

from __future__ import annotations

import argparse
import dataclasses
import re
import shlex
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from rich.console import Console

from pulse_core import Event, EventStore

from ..app import GameResult, Table
from ..argtypes import int_in
from ..errors import ConfigError
from ..lineup import KINDS, PEOPLE, SeatSpec
from ..players.endpoints import SeatRetry, retry_line
from ..players.prompting import LANGS
from ..players.setup import failure_hint, usage_lines
from ..players.web import WebHost
from ..pricing import with_bundled
from ..replay import LiveReplay, ViewKind
from ..replay.words import result_line
from .common import EXIT_FAILED, say, view_spec

__all__ = [
    "add_seats",
    "browser_seats",
    "default_view",
    "print_result",
    "resume_command",
    "table_options",
    "watching",
]

_ASKED_SEAT = re.compile(r"^\w+Error: seat (\d+)\b")  # a seat's failure names the seat
_STOP_REASONS = {  # what a human is told, by the error's class
    "SeatUnavailableError": "an LLM endpoint failed",
    "BudgetExceededError": "the game's token budget is spent",
}


def add_seats(parser: argparse.ArgumentParser, *, resume: bool) -> None:
    seats = parser.add_argument_group(
        "seats (see docs/llm-players.md)"
        + (": the seats recorded in the log, unless these say otherwise" if resume else "")
    )
    seats.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="N=KIND[:MODEL]",
        help=f"who plays seat N: {', '.join(KINDS)} or an installed player (werewolf players), "
        "e.g. 3=llm:gpt-4o-mini, 4=mock:bold (a mock personality), 5=human (this terminal), "
        "5=web (a browser tab) or 6=py:mybots:make (a Python player's factory) (repeatable; "
        "wins over --lineup)",
    )
    seats.add_argument("--lineup", type=Path, metavar="FILE", help="a TOML lineup of every seat")
    seats.add_argument(
        "--web-port",
        type=int_in(0, 65535, "0: a free port"),
        default=0,
        metavar="PORT",
        help="the port of a web seat's page on 127.0.0.1 (default: a free one; the URL is "
        "printed at start)",
    )
    seats.add_argument(
        "--lang", choices=LANGS, help="the language of LLM prompts and the human or web seat (en)"
    )
    cassette = seats.add_mutually_exclusive_group()
    cassette.add_argument(
        "--record", type=Path, metavar="FILE", help="append every LLM request and answer to FILE"
    )
    cassette.add_argument(
        "--replay-llm",
        type=Path,
        metavar="FILE",
        help="answer LLM seats from a recorded FILE, with no network",
    )


def resume_command(game_id: str, args: argparse.Namespace) -> str:
    """The ``werewolf resume`` command that goes on with this game: the store, and the
    lineup and seats this command was given (an LLM seat's endpoint comes from them)."""
    words = ["werewolf", "resume", game_id, "--store", str(args.store)]
    if args.lineup is not None:
        words += ["--lineup", str(args.lineup)]
    seats = {seat.partition("=")[0].strip(): seat for seat in args.seat}  # the last one wins
    for seat in seats.values():
        words += ["--seat", seat]
    return shlex.join(words)


def browser_seats(args: argparse.Namespace, specs: Mapping[int, SeatSpec], table: Table) -> Table:
    """``table`` serving the browser seats of ``specs`` on ``--web-port`` (bound now: a
    port in use is refused before the game is touched), each URL told on one line."""
    browser = sorted(seat for seat, spec in specs.items() if spec.kind == "web")
    if not browser:
        return table
    host = WebHost(args.web_port)
    for seat in browser:
        say(f"seat {seat} plays in the browser: {host.url(seat)}")
    sys.stderr.flush()
    return dataclasses.replace(table, web=host)


def table_options(args: argparse.Namespace, *, pace: float = 0.0) -> Table:
    """The cassette, language and lock notices the options ask for (no live view yet)."""
    return Table(
        lang=args.lang,
        record=args.record,
        cassette=args.replay_llm,
        notice=say,
        pace=pace,
    )


def watching(
    args: argparse.Namespace, console: Console, specs: Mapping[int, SeatSpec], base: Table
) -> Table:
    """``base`` with the live view (unless ``--quiet``) and the retry lines on stderr."""
    humans = sorted(seat for seat, spec in specs.items() if spec.kind in PEOPLE)
    watched = view_spec(args.view).seat if not args.quiet else None

    def status(retry: SeatRetry) -> None:  # on stderr, so a piped replay stays clean
        sys.stderr.write(retry_line(retry, name_seat=not humans) + "\n")
        sys.stderr.flush()

    def watch(store: EventStore, game_id: str) -> Callable[[Sequence[Event]], None]:
        return LiveReplay(console, view_spec(args.view), store=store, game_id=game_id).feed

    return dataclasses.replace(
        base,
        watch=None if args.quiet else watch,
        on_retry=status,
        recap=not humans or watched != humans[0],  # the live view shows that seat already
    )


def default_view(args: argparse.Namespace, specs: Mapping[int, SeatSpec]) -> None:
    """A human seat watches the game as its own seat, unless --view says otherwise; a view
    that would show a human more than their seat may know needs their say-so."""
    humans = sorted(seat for seat, spec in specs.items() if spec.kind in PEOPLE)
    if args.view is None:
        args.view = f"seat:{humans[0]}" if humans else "public"
        return
    spec = view_spec(args.view)
    if not humans or args.quiet or spec.kind is ViewKind.PUBLIC or spec.seat in humans:
        return
    shown = "the god view" if spec.kind is ViewKind.GOD else f"seat {spec.seat}'s view"
    problem = (
        f"{shown} shows the human at seat {humans[0]} what their seat may not know"
        if len(humans) == 1
        else f"{shown} shows the humans at seats {', '.join(map(str, humans))} what their "
        "seats may not know"
    )
    if not _confirm(f"{problem[0].upper()}{problem[1:]}. Show it anyway? [y/N] "):
        raise ConfigError([("--view", f"{problem}: leave out --view, or use public")])


def _confirm(question: str) -> bool:
    """Ask a yes/no question at a terminal; without one (a pipe, a script) the answer is no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    try:
        answer = sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")


def print_result(console: Console, result: GameResult, resume: str) -> int:
    """Print the result and where the log is; the exit code. The seats people play are
    told nothing another seat did at night."""
    humans = result.humans
    chain = result.chain
    if result.ended:
        line = result_line(result.winner, result.reason, str(result.game.get("lang", "en")))
        console.print(line, markup=False, highlight=False)
    else:
        for line in _stop_lines(result.error, resume, humans):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if result.ended or not humans:  # per-seat usage tells who acted at night
        recorded = result.game.get("players") or []
        # a seat may be recorded by its kind alone ("random"): no model to price
        models = (p.get("model") for p in recorded if isinstance(p, dict))
        for line in usage_lines(chain, with_bundled(result.prices, models)):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    seed = result.game.get("seed")
    # the seed gives the deal: a person at the table learns it when the game has ended
    shown = f", seed {seed}" if result.ended or not humans else ""
    lines = (
        f"Log: {result.store_path} (game {result.game_id}{shown})",
        f"Replay file: {result.replay_file}",
    )
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0 if result.ended else EXIT_FAILED


def _stop_lines(error: str, resume: str, humans: Collection[int]) -> list[str]:
    """Why a game stopped and how to go on. With a human at the table the error is not
    shown, unless it is that human's own seat: which seat was being asked, and when, would
    tell them who acts at night."""
    asked = _ASKED_SEAT.match(error)
    if humans and (asked is None or int(asked.group(1)) not in humans):
        reason = _STOP_REASONS.get(error.partition(":")[0], "a player could not go on")
        return [f"The game stopped: {reason}. Continue it with: {resume}"]
    hint = failure_hint(error, resume)
    lines = [f"The game stopped on an error: {error}", f"Continue it with: {resume}"]
    return lines + ([hint] if hint else [])
