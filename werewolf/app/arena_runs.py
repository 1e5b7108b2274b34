"""The runs beside a store: their reports, the list of them, and removing one.

``build_report`` reads a run's games from the store into a ``Report`` (metrics with
intervals, ratings, cost); ``write_report`` writes its Markdown and JSON (beside the run
file unless named) and, asked, its charts, every file checked before any is written.
``list_runs`` and ``remove_run`` are what ``werewolf arena list`` and ``rm`` show and do.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from pulse_core import EventStore

from ..arena.metrics import tournament_metrics
from ..arena.record_cache import cache_path
from ..arena.report import Report
from ..arena.report_json import report_json_text
from ..arena.report_plots import CHARTS, write_plots
from ..arena.report_tables import report_markdown
from ..arena.results import run_games
from ..arena.runner import open_run_store
from ..arena.schedule import game_id
from ..arena.spec import RunSpec, load_run, run_path
from ..arena.tally import Tally
from ..errors import ConfigError, GameFileError, WerewolfError
from ..outputs import Kind, check_output, classify, one_file, refuse, write_output
from ..pricing import with_bundled

__all__ = [
    "BOOTSTRAP_ROUNDS",
    "ReportFiles",
    "RunRow",
    "build_report",
    "check_report_files",
    "list_runs",
    "remove_run",
    "run_files",
    "run_report",
    "write_report",
]


BOOTSTRAP_ROUNDS = 1000
"""Bootstrap resamples behind a report's intervals, wherever the report is drawn."""


def build_report(spec: RunSpec, store_path: Path, *, rounds: int = BOOTSTRAP_ROUNDS) -> Report:
    """The report of a run from the games in the store."""
    if not store_path.is_file():
        raise ConfigError([("--store", f"{store_path}: no such store")])
    store = open_run_store(store_path, read_only=True)
    try:
        cache = cache_path(run_path(store_path, spec.name))
        return run_report(spec, store, rounds=rounds, cache=cache)
    finally:
        store.close()


def run_report(
    spec: RunSpec, store: EventStore, *, rounds: int = BOOTSTRAP_ROUNDS, cache: Path | None = None
) -> Report:
    """The report of a run from an open store (``cache``: the record cache to read and
    keep, none for a reader that writes nothing): the one computation behind
    ``werewolf arena report`` and the web report, so both show the same intervals."""
    games = run_games(spec, store, cache)
    players = [p.name for p in spec.players]
    prices = with_bundled(spec.prices, (p.spec.model for p in spec.players if p.uses_tokens))
    metrics = tournament_metrics(
        games.records, players, prices=prices, rounds=rounds, seed=spec.seed
    )
    return Report(spec, games, metrics)


@dataclass(frozen=True)
class ReportFiles:
    """Where a run's report goes: ``markdown`` and ``json`` (None: beside the run file),
    and the folder of its charts (None: no charts)."""

    markdown: Path | None = None
    json: Path | None = None
    plot: Path | None = None

    def paths(self, store: Path, name: str) -> tuple[Path, Path]:
        run_file = run_path(store, name)
        markdown = self.markdown or run_file.with_suffix(".md")
        json_file = self.json or run_file.with_name(f"{name}.report.json")
        return markdown, json_file


def check_report_files(files: ReportFiles, store: Path, name: str) -> None:
    """Refuse every file the report would write over that is not an earlier report of its
    kind, before anything is read or written (the record cache included)."""
    markdown, json_file = files.paths(store, name)
    inputs = [run_path(store, name), store]
    if one_file(markdown, json_file):
        raise ConfigError([("--json", "names the Markdown report's file: name another")])
    check_output(markdown, "--markdown", Kind.REPORT_MARKDOWN, inputs)
    check_output(json_file, "--json", Kind.REPORT_JSON, inputs)
    if files.plot is not None:
        found = classify(files.plot)
        if found not in (Kind.MISSING, Kind.FOLDER):
            raise refuse(files.plot, "--plot", found, wanted="a folder")
        for chart in CHARTS:
            check_output(files.plot / chart, "--plot", Kind.CHART, inputs)


def write_report(report: Report, files: ReportFiles, store: Path) -> list[Path]:
    """Write the report's files (checked first); returns them."""
    name = report.spec.name
    markdown, json_file = files.paths(store, name)
    check_report_files(files, store, name)
    inputs = [run_path(store, name), store]
    write_output(markdown, report_markdown(report), "--markdown", Kind.REPORT_MARKDOWN, inputs)
    write_output(json_file, report_json_text(report), "--json", Kind.REPORT_JSON, inputs)
    written = [markdown, json_file]
    if files.plot is not None:
        written += write_plots(report, files.plot)
    return written


@dataclass(frozen=True)
class RunRow:
    """One run file beside the store: its name, and its spec and games ended (or why it
    could not be read)."""

    name: str
    spec: RunSpec | None
    ended: int = 0
    problem: str = ""


def run_files(store: Path) -> list[Path]:
    """The run files beside the store (``arena/NAME.json``), by name."""
    folder = run_path(store, "x").parent
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".report.json"))


def _ended_games(spec: RunSpec, store_path: Path) -> int:
    """How many of the run's games have ended (none when there is no store yet)."""
    if not store_path.is_file():
        return 0
    store = open_run_store(store_path, read_only=True)
    try:
        return len(Tally(spec, store).update().ended)
    finally:
        store.close()


def list_runs(store: Path) -> list[RunRow]:
    """Every run beside the store, by name."""
    rows = []
    for path in run_files(store):
        try:
            spec = load_run(path)
        except WerewolfError as exc:
            rows.append(RunRow(path.stem, None, problem=str(exc)))
            continue
        rows.append(RunRow(spec.name, spec, _ended_games(spec, store)))
    return rows


def remove_run(store: Path, name: str) -> int:
    """Remove a run's file and its default report files; its games stay in the store (the
    log is append-only), and the name is free again. Returns how many games it started."""
    run_file = run_path(store, name, "NAME")
    if not run_file.is_file():
        raise GameFileError(f"{run_file}: no such run (see werewolf arena list)")
    try:
        spec: RunSpec | None = load_run(run_file)
    except WerewolfError:
        spec = None  # a damaged run file is removed all the same
    started = 0
    if spec is not None and store.is_file():
        opened = open_run_store(store, read_only=True)
        try:
            started = sum(1 for i in range(spec.games) if opened.version(game_id(spec, i)))
        finally:
            opened.close()
    reports = {
        run_file.with_suffix(".md"): Kind.REPORT_MARKDOWN,
        run_file.with_name(f"{name}.report.json"): Kind.REPORT_JSON,
    }
    for path in (run_file, *reports, cache_path(run_file)):
        if path in reports and classify(path) is not reports[path]:
            continue  # a file of that name the report did not write stays
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # the cache folder goes with its last run
        cache_path(run_file).parent.rmdir()
    return started
