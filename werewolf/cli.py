"""The ``werewolf`` command: ``play``, ``resume`` and ``replay``.

argparse and wiring only: the drawing lives in ``werewolf.replay``, the game in
``werewolf.game``. Each subcommand is one ``add_<name>(subparsers)`` function listed in
``SUBCOMMANDS``, which sets ``run`` to the function that carries it out; adding a command
is a function and a line. Bad input (options, files, game ids, configs) prints one line on
stderr and exits with 2, never a traceback; Ctrl-C exits with 130 and says how to resume.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import shlex
import sqlite3
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from pulse_core import (
    CODE_REV,
    ERROR,
    ConflictError,
    Event,
    EventStore,
    PulseError,
    SQLiteEventStore,
    WorkflowError,
    WorkflowRule,
    export_topic,
    is_ulid,
)
from pulse_core.limits import clip, read_document

from .arena.cli import add_arena
from .argtypes import (
    DEFAULT_STORE,
    EXIT_INTERRUPTED,
    add_lock_timeout,
    int_in,
    is_number,
    number_in,
    number_pair,
    seed_number,
    width,
)
from .boards import BOARDS, with_board
from .config import MAX_SEATS, GameConfig, field_range, parse_config
from .errors import ConfigError, GameFileError, StoreFault, WerewolfError
from .game import fold_chain, start_game, werewolf_workflow
from .lineup import KINDS, MAX_PRICE, Price, SeatSpec, load_lineup
from .outputs import (
    Kind,
    check_output,
    check_record,
    classify,
    one_file,
    refuse,
    write_output,
)
from .players import SpecSeating, seating_from_specs
from .players.endpoints import SeatRetry, retry_line
from .players.ledger import BillLedger, recovered_tokens
from .players.prompting import LANGS
from .players.setup import failure_hint, play_specs, resume_specs, tokens_spent, usage_lines
from .players.swaps import append_swaps
from .pricing import bundled_prices, with_bundled
from .replay import (
    LiveReplay,
    Prices,
    ViewKind,
    ViewSpec,
    check_game,
    follow,
    load_replay,
    render_replay,
    replay_html,
    replay_markdown,
)
from .replay.catalog import list_games
from .replay.judge import rejudge
from .scope import TopicScope, floor_seq
from .serve.cli import add_serve
from .state import GameState
from .storefaults import (
    STORAGE_ERRORS,
    check_chain,
    check_objects,
    explain,
    lock_notice,
    open_store,
    refuse_damaged,
)

if TYPE_CHECKING:
    from .players.cassette import CassetteTransport

__all__ = ["DEFAULT_STORE", "SUBCOMMANDS", "build_parser", "main"]

EXIT_FAILED = 1  # a game that stopped on an error (resumable)
EXIT_USAGE = 2  # bad options, files or game ids
MAX_PACE = 60.0  # seconds between two steps: slower is no game to watch
FRESH_SEEDS = 2**53  # a seed the play command draws: far past searching, exact in JSON
MAX_LISTED = 1_000_000  # games listed at most by --limit (--all lists every one)
SEAT_KINDS = ("mock", "random")  # the kinds --players can put in every seat
_ASKED_SEAT = re.compile(r"^\w+Error: seat (\d+)\b")  # a seat's failure names the seat
_STOP_REASONS = {  # what a human is told, by the error's class
    "SeatUnavailableError": "an LLM endpoint failed",
    "BudgetExceededError": "the game's token budget is spent",
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        # argparse echoes the value it refused: a pasted megabyte stays out of the line
        message = clip(_shown(" ".join(message.split())), 200)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Interrupted(Exception):
    """Ctrl-C during a game: carries what the user needs to resume it."""

    def __init__(self, game_id: str, resume: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id
        self.resume = resume


# -- shared option parsing -------------------------------------------------------------------
def _add_store(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=Path,
        default=DEFAULT_STORE,
        metavar="PATH",
        help=f"the SQLite event store (default: {DEFAULT_STORE}; objects beside it)",
    )


def _add_live_view(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--view",
        metavar="VIEW",
        help="what to show while the game runs: public (default; a human seat's own view "
        "when one plays), god, or seat:N",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        "--fast",
        dest="quiet",
        action="store_true",
        help="draw nothing while playing: print only the result",
    )


def _view_spec(word: str | None) -> ViewSpec:
    """``--view``: one word, so it never takes the game id that follows it."""
    if word is None or word == "public":
        return ViewSpec(ViewKind.PUBLIC)
    if word == "god":
        return ViewSpec(ViewKind.GOD)
    kind, colon, seat = word.partition(":")
    if kind == "seat" and colon and is_number(seat):
        return ViewSpec.of_seat(int(seat))
    raise ConfigError([("--view", f"{clip(word)!r}: use public, god or seat:N (e.g. seat:3)")])


def _check_seat(spec: ViewSpec, seats: int, option: str = "--view") -> None:
    if spec.seat is not None and not 1 <= spec.seat <= seats:
        raise ConfigError([(option, f"no seat {spec.seat}: seats are 1 to {seats}")])


def _game_id(text: str) -> str:
    """A game id as typed: ids are upper-case ULIDs, and one typed in lower case is one too."""
    return text.upper() if is_ulid(text.upper()) else text


def _resume_command(game_id: str, args: argparse.Namespace) -> str:
    """The ``werewolf resume`` command that goes on with this game: the store, and the
    lineup and seats this command was given (an LLM seat's endpoint comes from them)."""
    words = ["werewolf", "resume", game_id, "--store", str(args.store)]
    if args.lineup is not None:
        words += ["--lineup", str(args.lineup)]
    seats = {seat.partition("=")[0].strip(): seat for seat in args.seat}  # the last one wins
    for seat in seats.values():
        words += ["--seat", seat]
    return shlex.join(words)


def _open_store(
    path: Path, *, create: bool, read_only: bool = False, lock_timeout: float | None = None
) -> SQLiteEventStore:
    """The store; one that will be written must pass SQLite's quick check first, so a
    damaged store is never written to again. A write waits for another process's write
    lock up to ``lock_timeout`` seconds (None: as long as it takes, saying who holds it)."""
    if not create and not path.is_file():
        raise GameFileError(f"{path}: no such store (play a game first, or pass --store)")
    if path.exists() and not path.is_file():
        raise GameFileError(f"{path}: not a store file (a folder?): pass --store FILE")
    notice = lock_notice(path, _say)
    store = open_store(path, read_only=read_only, lock_timeout=lock_timeout, on_lock_wait=notice)
    if not read_only:
        try:
            refuse_damaged(store)
        except BaseException:
            store.close()
            raise
    return store


# -- seats -----------------------------------------------------------------------------------
def _add_seats(parser: argparse.ArgumentParser, *, resume: bool) -> None:
    seats = parser.add_argument_group(
        "seats (see docs/llm-players.md)"
        + (": the seats recorded in the log, unless these say otherwise" if resume else "")
    )
    seats.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="N=KIND[:MODEL]",
        help=f"who plays seat N: {', '.join(KINDS)}, e.g. 3=llm:gpt-4o-mini, 4=mock:bold "
        "(a mock personality) or 5=human (repeatable; wins over --lineup)",
    )
    seats.add_argument("--lineup", type=Path, metavar="FILE", help="a TOML lineup of every seat")
    seats.add_argument(
        "--lang", choices=LANGS, help="the language of LLM prompts and the human seat (en)"
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


def _spec_seating(
    args: argparse.Namespace,
    specs: Mapping[int, SeatSpec],
    *,
    lang: str,
    budget: int | None,
    ledger: BillLedger,
    spent: int = 0,
    session: int = 0,
    cassette: CassetteTransport | None = None,
) -> SpecSeating:
    humans = [seat for seat, spec in specs.items() if spec.kind == "human"]
    watched = _view_spec(args.view).seat if not args.quiet else None

    def status(retry: SeatRetry) -> None:  # on stderr, so a piped replay stays clean
        sys.stderr.write(retry_line(retry, name_seat=not humans) + "\n")
        sys.stderr.flush()

    return seating_from_specs(
        specs,
        lang=lang,
        budget=budget,
        spent=spent,
        record=None if args.record is None else str(args.record),
        replay=cassette or (None if args.replay_llm is None else str(args.replay_llm)),
        session=session,
        recap=not humans or watched != humans[0],  # the live view shows that seat already
        status=status,
        ledger=ledger,  # every answer written down in the store as it arrives
    )


def _cassette(path: Path | None, session: int = 0) -> CassetteTransport | None:
    """The ``--replay-llm`` cassette, read whole and checked: its part for the process that
    took the game up at ``session`` events (0: a new game)."""
    if path is None:
        return None
    from .players.cassette import CassetteTransport  # the HTTP stack: only when replaying

    return CassetteTransport(path, session=session)


def _humans(specs: Mapping[int, SeatSpec]) -> frozenset[int]:
    return frozenset(seat for seat, spec in specs.items() if spec.kind == "human")


def _default_view(args: argparse.Namespace, specs: Mapping[int, SeatSpec]) -> None:
    """A human seat watches the game as its own seat, unless --view says otherwise; a view
    that would show a human more than their seat may know needs their say-so."""
    humans = sorted(seat for seat, spec in specs.items() if spec.kind == "human")
    if args.view is None:
        args.view = f"seat:{humans[0]}" if humans else "public"
        return
    spec = _view_spec(args.view)
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


# -- playing ---------------------------------------------------------------------------------
async def _drive(
    rule: WorkflowRule[GameState | None],
    scope: TopicScope,
    game_id: str,
    seating: SpecSeating,
    pace: float = 0.0,
) -> str:
    """Tick until the game ends or fails; returns the status. The live view is drawn from
    the events each tick reads (the scope passes them on); ``pace`` seconds pass between
    steps, so people can follow a mock game as it is played."""
    try:
        while True:
            appended = await rule.tick()
            status = rule.status(game_id)
            if status != "running":
                scope.read_after(rule.cursor)  # the failure the last tick wrote, for the view
                return status
            if appended == 0:  # another runner holds the next step: wait for it
                await asyncio.sleep(0.05)
            elif pace:
                await asyncio.sleep(pace)
    finally:
        await seating.aclose()


def _run_game(
    store: SQLiteEventStore,
    game_id: str,
    resume: str,
    seating: SpecSeating,
    live: LiveReplay | None,
    *,
    resume_failed: bool = False,
    pace: float = 0.0,
    recovered: Sequence[dict[str, Any]] = (),
) -> str:
    scope = TopicScope(store, [game_id], on_read=None if live is None else live.feed)
    rule = WorkflowRule(werewolf_workflow(seating, carried={game_id: recovered}), scope)
    rule.cursor = floor_seq(store, [game_id])
    try:
        status = asyncio.run(_drive(rule, scope, game_id, seating, pace))
        if status == "failed" and resume_failed:
            _resume_failed(rule, game_id, store.path)
            status = asyncio.run(_drive(rule, scope, game_id, seating, pace))
    except KeyboardInterrupt:
        raise _Interrupted(game_id, resume) from None
    finally:
        seating.close()
    return status


def _resume_failed(rule: WorkflowRule[GameState | None], game_id: str, store: Path) -> None:
    """Resume a failed game; when another process resumed it first, say so."""
    try:
        rule.resume(game_id)
    except (ConflictError, WorkflowError):
        raise GameFileError(
            f"game {game_id} was resumed by another process meanwhile: watch it with "
            f"{shlex.join(['werewolf', 'replay', game_id, '--follow', '--store', str(store)])}"
        ) from None


def _replay_file(store: Path, game_id: str) -> Path:
    return store.parent / f"{game_id}.jsonl"


def _finish(
    console: Console,
    store: SQLiteEventStore,
    store_path: Path,
    game_id: str,
    status: str,
    resume: str,
    prices: Mapping[str, Price] | None = None,
    humans: Collection[int] = (),
) -> int:
    """Print the result and where the log is, export the replay file; the exit code.
    ``humans`` are the seats people play: they are told nothing another seat did at night."""
    replay_file = _replay_file(store_path, game_id)
    export_topic(store, game_id, replay_file)
    chain = store.chain(game_id)
    if status == "ended":
        end = next(e for e in reversed(chain) if e.role == "game-end").meta
        winner, reason = end["diff"]["winner"], end["detail"]["reason"]
        headline = {"wolves": "The wolves win", "good": "The good side wins"}.get(winner, "A draw")
        console.print(f"{headline}: {reason}.", markup=False, highlight=False)
    else:
        error = str(next((e.meta.get("error") for e in reversed(chain) if e.role == ERROR), ""))
        for line in _stop_lines(error, resume, humans):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if status == "ended" or not humans:  # per-seat usage tells who acted at night
        recorded = chain[0].meta.get("game", {}).get("players") or []
        # a seat may be recorded by its kind alone ("random"): no model to price
        models = (p.get("model") for p in recorded if isinstance(p, dict))
        for line in usage_lines(chain, with_bundled(prices or {}, models)):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    seed = chain[0].meta.get("game", {}).get("seed")
    # the seed gives the deal: a person at the table learns it when the game has ended
    shown = f", seed {seed}" if status == "ended" or not humans else ""
    for line in (f"Log: {store_path} (game {game_id}{shown})", f"Replay file: {replay_file}"):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0 if status == "ended" else EXIT_FAILED


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


def _live(
    args: argparse.Namespace, console: Console, store: EventStore, game_id: str
) -> LiveReplay | None:
    if args.quiet:
        return None
    return LiveReplay(console, _view_spec(args.view), store=store, game_id=game_id)


def _read_config_file(path: Path) -> dict[str, Any]:
    """A JSON (``.json``) or TOML config file, read bounded (``pulse_core.limits``)."""
    data = read_document(path)
    if not isinstance(data, dict):
        raise ConfigError([(str(path), "must hold a table of config fields")])
    return data


_VARIANT_FLAGS = {  # option dest -> GameConfig field
    "win_rule": "win_rule",
    "witch_self_save": "witch_self_save",
    "witch_both_potions": "witch_both_potions",
    "tie_policy": "tie_policy",
    "no_empty_kill": "allow_empty_kill",
    "no_self_knife": "wolf_self_knife",
    "wolf_split": "wolf_split",
    "no_abstain": "allow_abstain",
    "self_vote": "allow_self_vote",
    "day_cap": "day_cap",
    "referee_record": "referee_record",
    "discussion": "discussion",
    "speech_rounds": "speech_rounds",
    "speech_budget": "speech_budget",
    "reveal_on_death": "reveal_on_death",
    "wolf_kill": "wolf_kill",
    "all_abstain": "all_abstain",
    "no_last_words": "last_words",
    "speech_order": "speech_order",
    "seer_learns": "seer_learns",
    "seer_before_wolves": "seer_before_wolves",
    "wolf_abstain": "wolf_abstain",
    "night_fallback": "night_fallback",
    "no_retry_illegal": "retry_illegal",
    "doctor_told_save": "doctor_told_save",
}


def _game_config(args: argparse.Namespace) -> GameConfig:
    """The config file (if any), overridden by the variant flags, validated."""
    data = _read_config_file(args.config) if args.config is not None else {}
    data = with_board(data, args.board)
    flagged: dict[str, str] = {}
    for dest, name in _VARIANT_FLAGS.items():
        value = getattr(args, dest)
        if value is None or value is False:
            continue
        data[name] = not value if dest.startswith("no_") else value
        flagged[name] = "--" + dest.replace("_", "-")
    try:
        return parse_config(data, strict=True)  # the file's, and typed flags
    except ConfigError as exc:
        if args.config is None:
            raise
        # a problem of the file names the file; one of a flag, the flag
        raise ConfigError(
            [
                (flagged.get(field.partition(".")[0]) or f"{args.config}: {field}", message)
                for field, message in exc.problems
            ]
        ) from None


def _add_variants(parser: argparse.ArgumentParser) -> None:
    rules = parser.add_argument_group("rule variants (flags override --config)")
    rules.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="a TOML or JSON game config (fields: docs/rules.md)",
    )
    rules.add_argument(
        "--board",
        choices=list(BOARDS),
        help="a named board (deck and variants; default standard-9); --config and the "
        "flags below change it",
    )
    rules.add_argument(
        "--win-rule",
        choices=["side", "town", "parity"],
        help="wolves win when every villager or every god is dead (side, default), when "
        "every good player is (town), or when they are as many as the rest (parity)",
    )
    rules.add_argument(
        "--witch-self-save",
        choices=["first-night", "never", "always"],
        help="when the witch may save herself (default first-night)",
    )
    rules.add_argument(
        "--witch-both-potions",
        action="store_true",
        default=None,
        help="the witch may use both potions in one night",
    )
    rules.add_argument(
        "--tie-policy",
        choices=["pk", "none", "random"],
        help="a tied vote: the tied speak and the others vote again (pk, default), "
        "nobody is exiled (none), or one of the tied is drawn at random (random)",
    )
    rules.add_argument("--no-empty-kill", action="store_true", help="the wolves must kill")
    rules.add_argument("--no-self-knife", action="store_true", help="wolves never target wolves")
    rules.add_argument(
        "--wolf-split",
        choices=["empty", "plurality"],
        help="wolves still split after two rounds: kill nobody (default) or the most proposed",
    )
    rules.add_argument("--no-abstain", action="store_true", help="every voter must vote")
    rules.add_argument(
        "--self-vote", action="store_true", default=None, help="voters may vote for themselves"
    )
    rules.add_argument(
        "--day-cap", type=int_in(*field_range("day_cap")), metavar="N", help="a draw after N days"
    )
    rules.add_argument(
        "--discussion",
        choices=["seat-order", "bidding"],
        help="who speaks next in the day: today's seat order (default), or the highest bid "
        "for the floor (every living player bids 0-3 before each speech)",
    )
    rules.add_argument(
        "--speech-rounds",
        type=int_in(*field_range("speech_rounds")),
        metavar="N",
        help="speeches each living player has a day (default 1)",
    )
    rules.add_argument(
        "--speech-budget",
        type=int_in(*field_range("speech_budget")),
        metavar="N",
        help="the most speeches a day's discussion holds (default: every round in full)",
    )
    rules.add_argument(
        "--reveal-on-death",
        choices=["nothing", "team", "identity"],
        help="what everyone learns of a player who dies (default nothing)",
    )
    rules.add_argument(
        "--wolf-kill",
        choices=["agree", "vote"],
        help="the wolves talk and propose until they agree (agree, default), or cast one "
        "ballot each in seat order, the most-voted dying and a tie drawn at random (vote)",
    )
    rules.add_argument(
        "--wolf-abstain",
        action="store_true",
        default=None,
        help="with --wolf-kill vote and no empty kills: a wolf may abstain, a failed ballot "
        "abstains, and if all abstain a random living non-wolf dies",
    )
    rules.add_argument(
        "--night-fallback",
        choices=["first", "nothing"],
        help="a seer or doctor who keeps answering illegally checks or protects the first "
        "legal seat (first, default) or does nothing that night (nothing)",
    )
    rules.add_argument(
        "--no-retry-illegal",
        action="store_true",
        help="an illegal answer takes its fallback at once (default: it is asked again, "
        "with the reason, twice)",
    )
    rules.add_argument(
        "--doctor-told-save",
        action="store_true",
        default=None,
        help="the doctor is told, privately, when her protection saved the wolves' victim",
    )
    rules.add_argument(
        "--all-abstain",
        choices=["nobody", "random"],
        help="a day vote for nobody exiles nobody (default) or a random living player",
    )
    rules.add_argument("--no-last-words", action="store_true", help="the dead give no last words")
    rules.add_argument(
        "--speech-order",
        choices=["after-death", "seat"],
        help="a day's speeches start after the lowest night death (after-death, default) "
        "or at the lowest living seat (seat)",
    )
    rules.add_argument(
        "--seer-learns",
        choices=["team", "identity"],
        help="what the seer learns of her target (default team)",
    )
    rules.add_argument(
        "--seer-before-wolves",
        action="store_true",
        default=None,
        help="the seer checks before the wolves, with the doctor (default: after them)",
    )
    rules.add_argument(
        "--referee-record",
        action="store_true",
        default=None,
        help="record each decision's legal options (god view) and the steps skipped because "
        "the game was decided (on for every board but standard-9)",
    )


def run_play(args: argparse.Namespace) -> int:
    config = _game_config(args)
    spec = _view_spec(args.view)
    _check_seat(spec, config.seats)
    # a fresh seed is recorded and shown at the end; drawn from 2**53 values (exact in the
    # HTML viewer's numbers), so nobody at the table or watching can search the seeds
    # for the one whose mock seats play as they see: the seed gives the deal
    seed = args.seed if args.seed is not None else secrets.randbelow(FRESH_SEEDS)
    specs, lineup = play_specs(
        config.seats,
        players=args.players,
        lineup=args.lineup,
        seat_args=args.seat,
        env=os.environ,
        replay=args.replay_llm is not None,
    )
    _default_view(args, specs)
    _check_seat(_view_spec(args.view), config.seats)
    if lineup.beliefs and not config.beliefs:  # the lineup asks for belief reports
        config = config.model_copy(update={"beliefs": True})
    lang = args.lang or "en"
    budget = lineup.budget.tokens
    cassette = _cassette(args.replay_llm)  # read and checked before the store is made
    console = Console(highlight=False)
    if args.record is not None:
        check_record(args.record, 0)  # before the store is made: a refusal leaves no trace
    store = _open_store(args.store, create=True, lock_timeout=args.lock_timeout)
    then: list[str] = []  # the resume command, once there is a game to resume
    with _closing(store), _storage_faults(args.store, then):
        ledger = BillLedger(store.path)
        seating = _spec_seating(
            args, specs, lang=lang, budget=budget, ledger=ledger, cassette=cassette
        )
        starter = WorkflowRule(werewolf_workflow(seating), store)
        players = [specs[s].public() for s in sorted(specs)]  # recorded, for resume
        extra: dict[str, Any] = {"players": players, "lang": lang}
        if budget is not None:
            extra["budget"] = budget
        game_id = start_game(starter, seed=seed, config=config, **extra)
        live = _live(args, console, store, game_id)
        resume = _resume_command(game_id, args)
        then.append(resume)
        status = _run_game(store, game_id, resume, seating, live, pace=args.pace or 0.0)
        return _finish(
            console, store, args.store, game_id, status, resume, lineup.prices, _humans(specs)
        )


@contextmanager
def _storage_faults(store: Path, then: Sequence[str] = ()) -> Iterator[None]:
    """A storage fault while playing (a full disk, a damaged file or object) becomes one
    line naming the store and what to do, with the command that goes on afterwards."""
    try:
        yield
    except STORAGE_ERRORS as exc:
        raise StoreFault(explain(exc, store, then[-1] if then else "")) from None


def add_play(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a seeded mock game, shown live",
        description="Play a seeded game (mock players by default) on the embedded store, "
        "shown live as a spectator sees it, then export its replay file.",
    )
    parser.add_argument(
        "--seed", type=seed_number, help="the game seed (default: a fresh one, shown)"
    )
    parser.add_argument(
        "--players", choices=SEAT_KINDS, help="who plays every seat not named otherwise (mock)"
    )
    _add_seats(parser, resume=False)
    _add_store(parser)
    add_lock_timeout(parser)
    _add_live_view(parser)
    _add_variants(parser)
    parser.add_argument(
        "--pace",
        type=number_in(MAX_PACE, "seconds"),
        metavar="SECONDS",
        help="pause between steps, to watch a mock game being played (werewolf serve)",
    )
    parser.set_defaults(run=run_play)


# -- resuming --------------------------------------------------------------------------------
def run_resume(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    store = _open_store(args.store, create=False, lock_timeout=args.lock_timeout)
    then = [_resume_command(args.game, args)]
    with _closing(store), _storage_faults(args.store, then):
        chain = store.chain(args.game)
        if not chain:
            raise GameFileError(f"{args.store}: no game {args.game}")
        label = f"{args.store} game {args.game}"

        def where(event: Event) -> str:
            return f"{label} version {event.version}"

        check_chain(chain, f"{args.store}: game {args.game}")  # before a move is played on
        check_game(chain, where, trust=True)  # its events' shapes
        check_objects(store, chain, args.game)  # a log that was edited or lost an object
        rejudge(chain, where)  # a forged chain: what the rules give
        # the files named are checked whether or not there is anything left to play
        if args.record is not None:
            check_record(args.record, len(chain))
        cassette = _cassette(args.replay_llm, session=len(chain))
        if fold_chain(chain).ended:  # before the seats: nothing of them matters any more
            if args.view is not None:
                _view_spec(args.view)  # a mistyped option is refused all the same
            return _ended(console, store, args)
        specs, lineup = resume_specs(
            chain,
            lineup=args.lineup,
            seat_args=args.seat,
            env=os.environ,
            replay=args.replay_llm is not None,
        )
        _check_seat(_view_spec(args.view), len(specs))
        _default_view(args, specs)
        _check_replay_file(args.store, args.game)
        game = chain[0].meta.get("game", {})
        lang = args.lang or str(game.get("lang", "en"))
        budget = lineup.budget.tokens if lineup.budget.tokens is not None else game.get("budget")
        # answers a stopped process received but never recorded in an event: counted now,
        # recorded with the game's next event
        ledger = BillLedger(store.path)
        recovered = ledger.unrecorded(args.game, chain)
        spent = tokens_spent(chain) + recovered_tokens(recovered)
        seating = _spec_seating(
            args,
            specs,
            lang=lang,
            budget=budget,
            ledger=ledger,
            spent=spent,
            session=len(chain),
            cassette=cassette,
        )
        rule = WorkflowRule(werewolf_workflow(seating), TopicScope(store, [args.game]))
        if chain[-1].role == ERROR:
            _resume_failed(rule, args.game, args.store)  # first: a swap follows the failure
        append_swaps(store, args.game, specs)
        live = _live(args, console, store, args.game)  # the story so far, then the rest
        resume = _resume_command(args.game, args)
        status = _run_game(
            store, args.game, resume, seating, live, resume_failed=True, recovered=recovered
        )
        return _finish(
            console, store, args.store, args.game, status, resume, lineup.prices, _humans(specs)
        )


def _check_replay_file(store: Path, game_id: str) -> None:
    """The replay file a resumed game is exported to must be its own (or new): a file of
    that name that is something else is refused before the game goes on."""
    path = _replay_file(store, game_id)
    found = classify(path)
    if found not in (Kind.MISSING, Kind.EMPTY, Kind.REPLAY):
        raise refuse(path, "--store", found, wanted="a store whose folder holds no such file")


def _ended(console: Console, store: SQLiteEventStore, args: argparse.Namespace) -> int:
    """``resume`` of a game that has ended: the same with or without seats to change (none
    is changed, no key is needed): it says so, with the result, and exits 0, so resuming
    until a game is over never fails on the last try."""
    changes = " (--seat and --lineup change nothing)" if args.seat or args.lineup else ""
    console.print(
        f"Game {args.game} has ended: there is nothing to resume{changes}.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    prices = load_lineup(args.lineup).prices if args.lineup is not None else {}
    _check_replay_file(args.store, args.game)  # the result is exported again, to its own file
    return _finish(console, store, args.store, args.game, "ended", "", prices)


def add_resume(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resume",
        help="continue an interrupted or failed game",
        description="Continue a game that was interrupted (or stopped on an error) with the "
        "players it was started with (or, with --seat / --lineup, others: each change is "
        "recorded as a seat swap), then export its replay file.",
    )
    parser.add_argument("game", type=_game_id, metavar="GAME", help="the game id")
    _add_seats(parser, resume=True)
    _add_store(parser)
    add_lock_timeout(parser)
    _add_live_view(parser)
    parser.set_defaults(run=run_resume)


# -- replaying -------------------------------------------------------------------------------
def _prices(args: argparse.Namespace) -> Prices | None:
    default = None
    if args.price is not None:
        prompt, completion = args.price
        default = Price(prompt=prompt, completion=completion)
    by_model = load_lineup(args.prices).prices if args.prices is not None else {}
    if default is None:  # models neither file nor --price names: the bundled table
        by_model = with_bundled(by_model, bundled_prices().prices)
    return Prices(by_model, default)


def _replay_spec(args: argparse.Namespace) -> ViewSpec:
    if args.public:
        return ViewSpec(ViewKind.PUBLIC)
    if args.seat is not None:
        return ViewSpec.of_seat(args.seat)
    return ViewSpec(ViewKind.GOD)


def run_replay(args: argparse.Namespace) -> int:
    spec = _replay_spec(args)
    if not Path(args.target).exists():
        args.target = _game_id(args.target)
    console = Console(width=args.width, highlight=False)
    if args.follow:
        if args.day is not None or args.html is not None or args.markdown is not None:
            raise ConfigError([("--follow", "draws a running game: no --day, --html, --markdown")])
        store = _open_store(args.store, create=False, read_only=True)
        with _closing(store):
            live = LiveReplay(console, spec, store=store, game_id=args.target)
            follow(store, args.target, live)
        return 0
    log = load_replay(args.target, args.store, trust=args.trust)
    options: dict[str, Any] = {"from_day": args.day, "stats": not args.no_stats}
    options["prices"] = _prices(args)
    if spec.seat is not None:
        _check_seat(spec, len(log.state.identities), "--seat")
    inputs = [args.target, args.store] + ([args.prices] if args.prices else [])
    if (
        args.html is not None
        and args.markdown not in (None, "-")
        and one_file(args.html, args.markdown)
    ):  # the second write would go over the first
        raise ConfigError([("--markdown", "names the --html file: name another")])
    exports = (("--html", args.html, Kind.HTML), ("--markdown", args.markdown, Kind.MARKDOWN))
    for option, value, kind in exports:
        if value is not None and value != "-":
            check_output(Path(value), option, kind, inputs)  # both, before either is written
    if args.html is not None:
        page = replay_html(log, spec, from_day=args.day)
        write_output(args.html, page, "--html", Kind.HTML, inputs)
        _say(f"wrote {args.html}")
    if args.markdown is not None:
        text = replay_markdown(log, spec, width=args.width or 100, **options)
        if args.markdown == "-":
            sys.stdout.write(text)
        else:
            write_output(Path(args.markdown), text, "--markdown", Kind.MARKDOWN, inputs)
            _say(f"wrote {args.markdown}")
    if args.html is None and args.markdown is None:
        render_replay(console, log, spec, **options)
    return 0


def add_replay(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="draw a game from its replay file or the store",
        description="Draw a game: the god view (every private action and reasoning) by "
        "default, one seat's view, or the public one; or export it as HTML or Markdown.",
    )
    parser.add_argument("target", metavar="FILE|GAME", help="a replay file (.jsonl) or a game id")
    _add_store(parser)
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--seat", type=int_in(1, MAX_SEATS), metavar="N", help="exactly what seat N saw"
    )
    who.add_argument("--public", action="store_true", help="what a spectator saw")
    parser.add_argument(
        "--day",
        type=int_in(1, field_range("day_cap")[1]),
        metavar="K",
        help="start at day K (with the night before it; the cast is shown first)",
    )
    parser.add_argument(
        "--follow", action="store_true", help="draw a running game (by id) as it is played"
    )
    parser.add_argument("--html", type=Path, metavar="FILE", help="write a standalone HTML page")
    parser.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write Markdown for an issue (to FILE, or stdout)",
    )
    parser.add_argument("--width", type=width, metavar="COLUMNS", help="draw at this width")
    parser.add_argument("--no-stats", action="store_true", help="leave out the summary")
    parser.add_argument(
        "--price",
        type=number_pair(MAX_PRICE, "PROMPT,COMPLETION", "USD per million tokens"),
        metavar="PROMPT,COMPLETION",
        help="USD per million tokens, for a cost figure",
    )
    parser.add_argument("--prices", type=Path, metavar="LINEUP", help="prices by model (TOML)")
    parser.add_argument(
        "--trust",
        action="store_true",
        help="skip re-judging every event by the rules (faster; for a log you trust)",
    )
    parser.set_defaults(run=run_replay)


# -- listing ---------------------------------------------------------------------------------
def run_games(args: argparse.Namespace) -> int:
    console = Console(width=args.width, highlight=False)
    store = _open_store(args.store, create=False, read_only=True)
    with _closing(store):
        games = list_games(store, limit=None if args.all else args.limit)
        total = len(store.topics()) if not args.all else len(games)
    if not games:
        console.print(f"No games in {args.store}: play one with werewolf play.", markup=False)
        return 0
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1))
    for header in ("game (players)", "started (UTC)", "board", "seats", "winner"):
        table.add_column(header, justify="right" if header == "seats" else "left")
    for game in games:
        who = Text(game.game_id)
        players = game.players + (f"; arena run {game.run}" if game.run is not None else "")
        if players:
            who.append("\n" + players, style="dim")
        table.add_row(
            who,
            game.started.strftime("%Y-%m-%d %H:%M"),
            game.board,
            str(game.seats),
            game.result,
        )
    console.print(table)
    if total > len(games):
        console.print(
            f"The newest {len(games)} of {total} games; --all lists every one.", markup=False
        )
    console.print("Replay one: werewolf replay GAME", markup=False)
    return 0


def add_games(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the saved games, newest first",
        description="List the games in the store, newest first: id, when it started, "
        "board, winner (or whether it stopped or is in progress) and who sat at the table.",
    )
    _add_store(parser)
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--limit",
        type=int_in(1, MAX_LISTED),
        default=20,
        metavar="N",
        help="list the newest N games (default 20)",
    )
    count.add_argument("--all", action="store_true", help="list every game")
    parser.add_argument("--width", type=width, metavar="COLUMNS", help="draw at this width")
    parser.set_defaults(run=run_games)


# -- main ------------------------------------------------------------------------------------
SUBCOMMANDS: list[Callable[[Any], None]] = [
    add_play,
    add_resume,
    add_replay,
    add_games,
    add_arena,
    add_serve,
]
"""One function per subcommand; each adds its parser and sets ``run``."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="werewolf",
        description="A werewolf game on pulse_core for mock, LLM and human players: play, "
        "resume, replay, list games, and run arena tournaments.",
    )
    parser.add_argument("--version", action="version", version=f"werewolf {CODE_REV}")
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


@contextmanager
def _closing(store: EventStore) -> Iterator[None]:
    try:
        yield
    finally:
        store.close()


def _say(message: str) -> None:
    sys.stderr.write(f"werewolf: {message}\n")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # what a terminal would act on, not show


def _shown(text: str) -> str:
    """``text`` with its control characters written out (``\\x1b``): a path or value that
    holds an escape sequence is shown, never played on the user's terminal."""
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    # a name that is not UTF-8 (a surrogate escape) is written out too, never an encode error
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _one_line(exc: object) -> str:
    """An error as one line of bounded length, whatever a file made it echo."""
    return clip(_shown(" ".join(str(exc).split())), 1000)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code. With no arguments, the help."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help()
        return 0
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        code: int = args.run(args)
        return code
    except _Interrupted as stop:
        _say(f"interrupted. Game {stop.game_id} is saved; continue it with: {stop.resume}")
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except (WerewolfError, PulseError, OSError) as exc:
        _say(f"error: {_one_line(exc)}")
        return EXIT_USAGE
    except sqlite3.Error as exc:  # a store fault outside a game: which store, what to do
        _say(f"error: {_one_line(explain(exc, getattr(args, 'store', DEFAULT_STORE)))}")
        return EXIT_USAGE
