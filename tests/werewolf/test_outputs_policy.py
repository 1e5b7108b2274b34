"""The command never writes over or into a file it did not write for that purpose.

Every output option of every subcommand is given each kind of file werewolf knows (a
store, a replay, an arena run file, a cassette, each export), a file of the user's, a
folder and a pipe: it refuses the wrong kinds in one line with exit 2, and the refused
command leaves the whole folder as it was (every file's bytes, no file more or less). A
store path that holds another program's SQLite file is refused the same way by every
command that opens a store. An output may replace an earlier output of its own kind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from werewolf.cli import main
from werewolf.outputs import Kind, classify

WRONG = ["store", "replay", "run", "cassette", "notes", "folder", "foreign"]
"""Files no output of a werewolf command may replace (each is also a wrong kind for
``--record``)."""


def _snapshot(root: Path) -> dict[str, str]:
    """Every entry under ``root``: a file's SHA-256, else its type (a pipe is never read)."""
    seen: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        mode = path.lstat().st_mode
        if stat.S_ISREG(mode):
            seen[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            seen[str(path)] = stat.filemode(mode)
    return seen


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one of each kind of file: a store with a game and two arena runs, the
    game's replay, run files, a report of run k, exports, a cassette, a user's notes and
    another program's SQLite file."""
    root = tmp_path_factory.mktemp("site")
    store = root / "games" / "w.sqlite3"
    assert main(["play", "--seed", "3", "--store", str(store), "-q"]) == 0
    for name in ("k", "other"):
        argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", name]
        assert main([*argv, "--workers", "1", "-q", "--store", str(store)]) == 0
    assert main(["arena", "report", "k", "--store", str(store), "--bootstrap", "10"]) == 0
    replay = next((root / "games").glob("*.jsonl"))
    shutil.copy(replay, root / "games" / "replay.jsonl")
    assert main(["replay", str(replay), "--html", str(root / "page.html")]) == 0
    assert main(["replay", str(replay), "--markdown", str(root / "game.md")]) == 0
    answer = {"hash": "0" * 64, "status": 200, "response": "{}"}
    cassette = [{"session": 0}, answer, {"session": 100_000}, answer]  # another game's
    (root / "c.jsonl").write_text("".join(json.dumps(line) + "\n" for line in cassette))
    (root / "notes.txt").write_text("my notes\n")
    (root / "folder").mkdir()
    with contextlib.closing(sqlite3.connect(store)) as db:  # all of it in the one file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = sqlite3.connect(root / "foreign.db")
    db.execute("CREATE TABLE events (x)")  # another program's table of the same name
    db.commit()
    db.close()
    return root


@pytest.fixture
def site(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(template, root, ignore=shutil.ignore_patterns("*-wal", "*-shm"))
    os.mkfifo(root / "pipe")
    return root


def _path(site: Path, kind: str) -> Path:
    return {
        "store": site / "games" / "w.sqlite3",
        "replay": site / "games" / "replay.jsonl",
        "run": site / "games" / "arena" / "k.json",
        "other-run": site / "games" / "arena" / "other.json",
        "cassette": site / "c.jsonl",
        "html": site / "page.html",
        "markdown": site / "game.md",
        "report": site / "games" / "arena" / "k.md",
        "report-json": site / "games" / "arena" / "k.report.json",
        "notes": site / "notes.txt",
        "folder": site / "folder",
        "foreign": site / "foreign.db",
        "pipe": site / "pipe",
    }[kind]


def _game(site: Path) -> str:
    return next(p.stem for p in (site / "games").glob("*.jsonl") if p.stem != "replay")


def _werewolf(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command in its own process (a pipe it wrongly opened would block it)."""
    code = "import sys; from werewolf.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def refused(capsys: pytest.CaptureFixture[str], site: Path, *argv: str) -> str:
    """Run the command in process: exit 2, one line on stderr, nothing under ``site``
    changed; the line."""
    before = _snapshot(site)
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert _snapshot(site) == before
    return err.strip()


def refused_in_process_of_its_own(site: Path, *argv: str) -> str:
    before = _snapshot(site)
    try:
        done = _werewolf(*argv, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"werewolf {' '.join(argv)} did not refuse: it blocked or kept running")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert _snapshot(site) == before
    return done.stderr.strip()


# -- replay --html / --markdown ---------------------------------------------------------------
@pytest.mark.parametrize("kind", [*WRONG, "markdown", "report", "report-json", "other-run"])
def test_replay_html_refuses_every_file_but_an_earlier_page(
    site: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = _path(site, kind)
    replay = _path(site, "replay")
    line = refused(capsys, site, "replay", str(replay), "--html", str(target))
    assert f"--html: {target} is " in line


@pytest.mark.parametrize("kind", [*WRONG, "html", "report", "report-json"])
def test_replay_markdown_refuses_every_file_but_an_earlier_export(
    site: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = _path(site, kind)
    line = refused(capsys, site, "replay", str(_path(site, "replay")), "--markdown", str(target))
    assert f"--markdown: {target} is " in line


def test_an_export_replaces_an_earlier_one_of_its_kind_and_an_empty_file(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = str(_path(site, "replay"))
    page, markdown = _path(site, "html"), _path(site, "markdown")
    page.write_bytes(page.read_bytes().replace(b"</html>", b"<!-- old --></html>"))
    empty = site / "empty.html"
    empty.touch()
    link = site / "link.html"
    link.symlink_to(page)
    for target in (page, empty, link):
        assert main(["replay", replay, "--seat", "2", "--html", str(target)]) == 0
    assert main(["replay", replay, "--public", "--markdown", str(markdown)]) == 0
    capsys.readouterr()
    assert b"<!-- old -->" not in page.read_bytes()
    assert empty.read_bytes() == page.read_bytes()
    assert link.is_symlink()  # the link stays; its target was replaced
    assert "(public view)" in markdown.read_text().splitlines()[0]


def test_html_and_markdown_naming_one_file_are_refused(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(site / "both.out")
    line = refused(
        capsys, site, "replay", str(_path(site, "replay")), "--html", out, "--markdown", out
    )
    assert "--markdown: names the --html file" in line


@pytest.mark.parametrize("option", ["--html", "--markdown"])
def test_an_export_is_never_written_over_a_pipe(site: Path, option: str) -> None:
    pipe = _path(site, "pipe")
    line = refused_in_process_of_its_own(
        site, "replay", str(_path(site, "replay")), option, str(pipe)
    )
    assert "is not a regular file" in line
    assert stat.S_ISFIFO(pipe.lstat().st_mode)


# -- arena report --markdown / --json / --plot ------------------------------------------------
@pytest.mark.parametrize("option", ["--markdown", "--json"])
@pytest.mark.parametrize("kind", [*WRONG, "other-run", "html", "markdown"])
def test_arena_report_refuses_every_file_but_an_earlier_report(
    site: Path, capsys: pytest.CaptureFixture[str], option: str, kind: str
) -> None:
    """Run ``other`` has no record cache yet: a refused report writes none."""
    target = _path(site, kind)
    store = str(_path(site, "store"))
    argv = ["arena", "report", "other", "--store", store, "--bootstrap", "10"]
    line = refused(capsys, site, *argv, option, str(target))
    assert f"{option}: {target} is " in line
    assert not (site / "games" / "arena" / ".cache" / "other.records.json").exists()


def test_an_arena_report_replaces_its_earlier_files(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(_path(site, "store"))
    report, figures = _path(site, "report"), _path(site, "report-json")
    argv = ["arena", "report", "other", "--store", store, "--bootstrap", "10"]
    assert main([*argv, "--markdown", str(report), "--json", str(figures)]) == 0
    capsys.readouterr()
    assert report.read_text().startswith("# Arena run `other`")
    assert json.loads(figures.read_text())["run"]["name"] == "other"


@pytest.mark.parametrize("kind", ["notes", "pipe", "foreign"])
def test_arena_report_plot_refuses_a_file_as_its_folder(site: Path, kind: str) -> None:
    pytest.importorskip("matplotlib")
    store = str(_path(site, "store"))
    argv = ["arena", "report", "other", "--store", store, "--bootstrap", "10"]
    line = refused_in_process_of_its_own(site, *argv, "--plot", str(_path(site, kind)))
    assert "--plot: " in line


@pytest.mark.parametrize("kind", ["notes", "pipe", "html"])
def test_arena_report_plot_never_writes_over_a_file_of_another_kind(site: Path, kind: str) -> None:
    pytest.importorskip("matplotlib")
    charts = site / "charts"
    charts.mkdir()
    chart = charts / "ratings.png"
    source = _path(site, kind)
    if kind == "pipe":
        os.mkfifo(chart)
    else:
        shutil.copy(source, chart)
    store = str(_path(site, "store"))
    argv = ["arena", "report", "other", "--store", store, "--bootstrap", "10"]
    line = refused_in_process_of_its_own(site, *argv, "--plot", str(charts))
    assert f"--plot: {chart} is " in line


def test_arena_baseline_refuses_a_report_file_it_did_not_write_before_playing(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = site / "b" / "s.sqlite3"
    (site / "b" / "arena").mkdir(parents=True)
    shutil.copy(_path(site, "notes"), site / "b" / "arena" / "baseline.md")
    line = refused(capsys, site, "arena", "baseline", "--games", "12", "--store", str(store), "-q")
    assert "--markdown: " in line
    assert not store.exists()


def test_arena_run_refuses_a_pipe_as_its_run_file(site: Path) -> None:
    os.mkfifo(site / "games" / "arena" / "piped.json")
    store = str(_path(site, "store"))
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "piped"]
    line = refused_in_process_of_its_own(site, *argv, "--store", store, "-q")
    assert "piped.json is not a regular file" in line


# -- --record ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [*WRONG, "html", "report-json"])
def test_play_record_refuses_every_existing_file(
    site: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = _path(site, kind)
    store = str(site / "new" / "s.sqlite3")
    line = refused(
        capsys, site, "play", "--seed", "4", "--store", store, "-q", "--record", str(target)
    )
    assert f"--record: {target} is " in line
    assert not (site / "new").exists()


def test_play_record_refuses_a_pipe(site: Path) -> None:
    store = str(site / "new" / "s.sqlite3")
    pipe = str(_path(site, "pipe"))
    line = refused_in_process_of_its_own(site, "play", "--store", store, "-q", "--record", pipe)
    assert "is not a regular file" in line


@pytest.mark.parametrize("kind", [*WRONG, "html"])
def test_resume_record_refuses_every_file_but_this_games_cassette(
    site: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = _path(site, kind)
    store = str(_path(site, "store"))
    argv = ["resume", _game(site), "--store", store, "-q", "--record", str(target)]
    line = refused(capsys, site, *argv)
    assert f"--record: {target} is " in line
    if kind == "cassette":
        assert "a cassette of another game" in line


def test_resume_continues_the_cassette_its_game_was_recorded_into(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stopped on its LLM seat (an endpoint that refuses connections), resumed with
    a mock there: the resume appends its own part to the game's cassette."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        closed = free.getsockname()[1]  # nothing listens there once the socket is closed
    monkeypatch.setenv("WEREWOLF_TEST_KEY", "sk-test")
    lineup = site / "r" / "lineup.toml"
    lineup.parent.mkdir(parents=True, exist_ok=True)
    lineup.write_text(
        '[seats.1]\nkind = "llm"\nmodel = "m"\n'
        f'base_url = "http://127.0.0.1:{closed}/v1"\napi_key_env = "WEREWOLF_TEST_KEY"\n',
        encoding="utf-8",
    )
    store = site / "r" / "s.sqlite3"
    cassette = site / "r" / "game.cassette.jsonl"
    argv = ["--seed", "5", "--store", str(store), "-q", "--record", str(cassette)]
    assert main(["play", "--lineup", str(lineup), *argv]) == 1  # stopped, resumable
    game = next(p for p in (site / "r").glob("*.jsonl") if p != cassette)
    assert main(["resume", game.stem, "--lineup", str(lineup), "--seat", "1=mock", *argv[2:]]) == 0
    capsys.readouterr()
    sessions = [
        json.loads(line)["session"]
        for line in cassette.read_text().splitlines()
        if "session" in json.loads(line)
    ]
    assert sessions[0] == 0
    assert len(sessions) == 2
    assert sessions[1] > 0
    # the replay file still loads: nothing was appended to it
    assert main(["replay", str(game), "--markdown", str(site / "r" / "g.md")]) == 0


def test_resume_refuses_a_replay_file_name_that_holds_something_else(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(site)
    shutil.copy(_path(site, "notes"), site / "games" / f"{game}.jsonl")
    store = str(_path(site, "store"))
    line = refused(capsys, site, "resume", game, "--store", store, "-q")
    assert f"{game}.jsonl is a file werewolf did not write" in line


# -- stores -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--seed", "1", "-q"],
        ["resume", "01J00000000000000000000000", "-q"],
        ["games"],
        ["replay", "01J00000000000000000000000"],
        ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "f", "-q"],
        ["arena", "baseline", "--games", "12", "--workers", "1", "-q"],
        ["arena", "report", "k"],
        ["arena", "list"],
        ["arena", "rm", "k"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
@pytest.mark.parametrize("kind", ["foreign", "replay", "notes"])
def test_every_command_refuses_a_store_that_is_not_one(
    site: Path, capsys: pytest.CaptureFixture[str], argv: list[str], kind: str
) -> None:
    """``foreign.db`` is another program's SQLite file: it is not switched to WAL, given
    tables or a lock file; the arena commands use the runs beside the store."""
    store = _path(site, kind)
    arena = site / "arena"
    shutil.copytree(site / "games" / "arena", arena)
    line = refused(capsys, site, *argv, "--store", str(store))
    assert str(store) in line
    assert "Traceback" not in line


@pytest.mark.parametrize("kind", ["foreign", "pipe"])
def test_serve_refuses_a_store_that_is_not_one_at_start(site: Path, kind: str) -> None:
    pytest.importorskip("uvicorn")
    store = str(_path(site, kind))
    line = refused_in_process_of_its_own(site, "serve", "--store", store, "--port", "0")
    assert store in line


def test_arena_rm_removes_only_the_report_files_it_wrote(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arena = site / "games" / "arena"
    shutil.copy(_path(site, "notes"), arena / "other.md")
    shutil.copy(_path(site, "html"), arena / "other.report.json")
    store = str(_path(site, "store"))
    assert main(["arena", "rm", "other", "--store", store]) == 0
    assert main(["arena", "rm", "k", "--store", store]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in arena.iterdir()) == ["other.md", "other.report.json"]
    assert (arena / "other.md").read_bytes() == _path(site, "notes").read_bytes()


def test_arena_report_markdown_and_json_naming_one_file_are_refused(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(site / "both.out")
    store = str(_path(site, "store"))
    argv = ["arena", "report", "other", "--store", store, "--markdown", out, "--json", out]
    assert "--json: names the Markdown report's file" in refused(capsys, site, *argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--seed", "1", "-q"],
        ["games"],
        ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "f", "-q"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
@pytest.mark.parametrize(
    ("kind", "what"),
    [
        ("replay", "a replay file"),
        ("run", "an arena run file"),
        ("cassette", "a cassette"),
        ("html", "an HTML export of a replay"),
    ],
)
def test_a_werewolf_file_given_as_the_store_is_named_for_what_it_is(
    site: Path, capsys: pytest.CaptureFixture[str], argv: list[str], kind: str, what: str
) -> None:
    """Not "the store file is damaged ... recover it with sqlite3": it is no store at all."""
    store = str(_path(site, kind))
    line = refused(capsys, site, *argv, "--store", store)
    assert f"{store} is {what}, not a store" in line, line


# -- a path's folders ---------------------------------------------------------------------------
OUTPUTS = {  # an output option, the command around it
    "replay --html": ["replay", "{replay}", "--html"],
    "replay --markdown": ["replay", "{replay}", "--markdown"],
    "arena report --markdown": ["arena", "report", "k", "--store", "{store}", "--markdown"],
    "arena report --json": ["arena", "report", "k", "--store", "{store}", "--json"],
    "play --record": ["play", "-q", "--seat", "3=llm:m", "--store", "{store}", "--record"],
}


def _output_argv(site: Path, option: str, value: Path) -> list[str]:
    where = {"{replay}": str(_path(site, "replay")), "{store}": str(_path(site, "store"))}
    return [where.get(word, word) for word in OUTPUTS[option]] + [str(value)]


@pytest.mark.parametrize("option", sorted(OUTPUTS))
@pytest.mark.parametrize("kind", ["notes", "store", "cassette"])
def test_an_output_through_a_folder_not_made_yet_is_the_file_it_leads_to(
    site: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    kind: str,
) -> None:
    """``new/../notes.txt`` is notes.txt once ``new`` is made: it was written over."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # play --record gets to its check
    target = _path(site, kind)
    line = refused(
        capsys, site, *_output_argv(site, option, target.parent / "new" / ".." / target.name)
    )
    assert f"{option.split()[-1]}: " in line, line
    assert "is what this command reads" in line or "left as it is" in line, line


@pytest.mark.parametrize("option", sorted(OUTPUTS))
def test_an_output_under_a_file_names_the_option_and_the_file(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    notes = _path(site, "notes")
    line = refused(capsys, site, *_output_argv(site, option, notes / "sub" / "out.x"))
    assert f"{option.split()[-1]}: " in line, line
    assert f"{notes} is not a folder" in line, line


@pytest.mark.parametrize("option", sorted(OUTPUTS))
def test_an_output_that_is_a_symlink_loop_is_named_as_one(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    loop = site / "loop"
    loop.symlink_to(loop.name)
    line = refused(capsys, site, *_output_argv(site, option, loop))
    assert "loop is a path that cannot be read (a symlink loop" in line, line


@pytest.mark.parametrize(
    "argv",
    [["play", "--seed", "1", "-q"], ["arena", "run", "--players", "mock,random", "--name", "f"]],
    ids=lambda argv: " ".join(argv[:2]),
)
@pytest.mark.parametrize("kind", ["folder-not-made", "loop", "dangling", "under-a-file"])
def test_a_store_path_that_leads_nowhere_is_refused_before_anything_is_made(
    site: Path, capsys: pytest.CaptureFixture[str], argv: list[str], kind: str
) -> None:
    (site / "loop").symlink_to("loop")
    (site / "dangling").symlink_to("gone/w.sqlite3")
    store = {
        "folder-not-made": site / "new" / ".." / "notes.txt",
        "loop": site / "loop",
        "dangling": site / "dangling",
        "under-a-file": site / "notes.txt" / "w.sqlite3",
    }[kind]
    line = refused(capsys, site, *argv, "--store", str(store))
    assert str(store) in line or f"{site / 'notes.txt'} is " in line, line
    assert "unable to open" not in line, line
    assert "File exists" not in line, line
    assert "damaged" not in line, line


def test_a_store_symlink_to_a_file_not_made_yet_makes_it_there(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a symlink that leads nowhere is refused: one into a folder makes its store."""
    link = site / "link.sqlite3"
    link.symlink_to(site / "folder" / "w.sqlite3")
    assert main(["play", "--seed", "1", "-q", "--store", str(link)]) == 0
    capsys.readouterr()
    assert classify(site / "folder" / "w.sqlite3") is Kind.STORE
    assert link.is_symlink()


def test_serve_refuses_a_symlink_loop_as_its_store(site: Path) -> None:
    pytest.importorskip("uvicorn")
    (site / "loop").symlink_to("loop")
    line = refused_in_process_of_its_own(site, "serve", "--store", str(site / "loop"))
    assert "--store: " in line
    assert "symbolic links" in line


@pytest.mark.parametrize(
    "argv",
    [["play", "--seed", "1", "-q"], ["arena", "run", "--players", "mock,random", "--name", "f"]],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_store_with_another_databases_wal_beside_it_is_left_as_it_is(
    site: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """SQLite reads a WAL beside the file whatever database wrote it: the store then reads
    as another program's file, and closing the connection that checked it checkpointed that
    WAL into the store (its games gone, the file 8 KiB)."""
    other = site / "other.db"
    with contextlib.closing(sqlite3.connect(other)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE t (x)")
        db.commit()
        store = _path(site, "store")
        shutil.copy(site / "other.db-wal", store.with_name(store.name + "-wal"))
    files = [store, store.with_name(store.name + "-wal")]
    before = [path.read_bytes() for path in files]
    code = main([*argv, "--store", str(store)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "an SQLite file of another program" in err
    assert [path.read_bytes() for path in files] == before


@pytest.mark.parametrize("option", ["replay --html", "replay --markdown"])
def test_an_output_that_cannot_be_written_names_the_option(
    site: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """/proc takes no new file, even from root: a folder this process may not write."""
    line = refused(capsys, site, *_output_argv(site, option, Path("/proc/out.x")))
    assert f"{option.split()[-1]}: /proc/out.x: cannot write it: " in line, line


@pytest.mark.parametrize("option", sorted(OUTPUTS))
def test_an_output_that_is_a_symlink_to_nothing_is_refused(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """It was written through, making the folders it named (--html), or failed half-way in
    the game naming the store (--record)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    link = site / "link"
    link.symlink_to(site / "gone" / "out.x")
    line = refused(capsys, site, *_output_argv(site, option, link))
    assert f"{option.split()[-1]}: {link} is a symlink to nothing" in line, line
