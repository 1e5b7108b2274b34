"""Storage faults on real files: a full disk, a read-only file system, a damaged store file,
a missing or damaged content object. Each is one line naming the store and what to do,
nothing already written is lost, and a damaged store is never written again.

The full disk and the read-only file system are real: a small tmpfs and a read-only bind
mount in a user namespace (``unshare -rm``), a loop-mounted ext4 image with 1 KB blocks
(root only), a folder another user may not write (root only, to become that user); where
the system does not allow one, those tests are skipped.
"""

from __future__ import annotations

import functools
import html
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from pulse_core import FileObjectStore, SQLiteEventStore
from werewolf.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _wrapper(folder: Path) -> Path:
    """A ``werewolf`` command for the shell scripts below, on this interpreter."""
    path = folder / "ww"
    path.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c "
        "'import sys; from werewolf.cli import main; sys.exit(main(sys.argv[1:]))' \"$@\"\n"
    )
    path.chmod(0o755)
    return path


@functools.cache
def _namespaces() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        [
            "unshare",
            "-rm",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k tmpfs /mnt || mount -t tmpfs -o size=64k tmpfs /tmp",
        ],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


needs_namespaces = pytest.mark.skipif(
    not _namespaces(), reason="needs unshare -rm (user and mount namespaces)"
)


def _in_namespace(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def _werewolf(*argv: str, user: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """``werewolf ARGV`` in a subprocess (``user``: a command that runs it as another user)."""
    return subprocess.run(
        [*user, sys.executable, "-c", _MAIN, *argv],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


_MAIN = "import sys; from werewolf.cli import main; sys.exit(main(sys.argv[1:]))"


@contextmanager
def _small_ext4(folder: Path) -> Iterator[Path]:
    """A 4 MB ext4 file system with 1 KB blocks (as mkfs makes for a small volume),
    loop-mounted at ``folder/disk``."""
    image, disk = folder / "disk.img", folder / "disk"
    with open(image, "wb") as fh:
        fh.truncate(4 * 1024 * 1024)
    mkfs = ["mkfs.ext4", "-q", "-F", "-m", "0", "-b", "1024", str(image)]
    subprocess.run(mkfs, check=True, capture_output=True)
    disk.mkdir()
    subprocess.run(["mount", "-o", "loop", str(image), str(disk)], check=True, capture_output=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False, capture_output=True)
        image.unlink()


@functools.cache
def _loop_mounts() -> bool:
    if os.geteuid() != 0 or shutil.which("mkfs.ext4") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        try:
            with _small_ext4(Path(folder)):
                return True
        except (OSError, subprocess.CalledProcessError):
            return False


needs_loop_mount = pytest.mark.skipif(
    not _loop_mounts(), reason="needs root and mount -o loop of an ext4 image"
)


def _leave(disk: Path, kilobytes: int) -> None:
    """Fill ``disk`` but for ``kilobytes`` KB (a block or two more or less)."""
    target = kilobytes * 1024

    def free() -> int:
        os.sync()
        stats = os.statvfs(disk)
        return stats.f_bavail * stats.f_frsize

    with open(disk / "filler", "wb", buffering=0) as fh:
        while (room := free() - target) > 0:
            try:
                fh.write(b"\0" * min(room, 256 * 1024))
            except OSError:  # the file's own block map took the last blocks
                break
        if free() < target:
            fh.truncate(max(0, fh.seek(0, os.SEEK_END) - (target - free())))


NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@functools.cache
def _can_be_nobody() -> bool:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    return _werewolf("--version", user=NOBODY).returncode == 0


needs_nobody = pytest.mark.skipif(
    not _can_be_nobody(), reason="needs root and setpriv, to run werewolf as another user"
)


def _idle(store: Path) -> None:
    """Close the store as its last connection does: no WAL, no index beside it."""
    raw = sqlite3.connect(store)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    assert not store.with_name(store.name + "-shm").exists()


def _play(store: Path, seed: int = 3) -> str:
    assert main(["play", "--seed", str(seed), "--store", str(store), "-q"]) == 0
    return next(store.parent.glob("*.jsonl")).stem


def _stop_midway(store: Path, seed: int = 3, at: int = 12) -> str:
    """A game whose log ends after ``at`` events (as a killed play leaves it)."""
    whole = store.parent / "whole" / "w.sqlite3"
    game = _play(whole, seed)
    replay = whole.parent / f"{game}.jsonl"
    lines = replay.read_text(encoding="utf-8").split("\n")
    header = lines[0].replace(f'"events": {len(lines) - 2}', f'"events": {at}')
    cut = store.parent / "cut.jsonl"
    cut.write_text("\n".join([header, *lines[1 : at + 1]]) + "\n", encoding="utf-8")
    from pulse_core import import_topic

    with SQLiteEventStore(store) as s:
        import_topic(s, cut)
    cut.unlink()
    shutil.rmtree(whole.parent)
    return game


def _one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    _out, err = capsys.readouterr()
    assert code == 2, err
    assert len(err.splitlines()) == 1, err
    return err.strip()


# -- full disk ---------------------------------------------------------------------------------
@needs_namespaces
def test_a_full_disk_is_one_line_with_the_resume_command_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    ww = _wrapper(tmp_path)
    # the game id is known once the play fails: its one line carries the resume command
    script = f"""
mount -t tmpfs -o size=160k tmpfs {disk} && cd {disk} || exit 99
{ww} play --seed 4 --store s/w.sqlite3 -q 2>{tmp_path}/err; echo "play=$?"; cat {tmp_path}/err
mount -o remount,size=20m {disk}
$(sed -n 's/.*then continue with: werewolf //p' {tmp_path}/err | sed 's|^|{ww} |') -q; echo "resume=$?"
{ww} replay "$(ls s/*.jsonl | head -1)" --public --no-stats > /dev/null; echo "replay=$?"
"""
    done = _in_namespace(script, tmp_path)
    lines = done.stdout.splitlines()
    assert "play=2" in lines, done
    error = lines[lines.index("play=2") + 1]
    assert error.startswith("werewolf: error: s/w.sqlite3: the disk is full"), error
    assert "then continue with: werewolf resume" in error
    assert "resume=0" in lines, done
    assert "replay=0" in lines, done


@needs_namespaces
def test_a_full_disk_under_arena_workers_is_one_line_and_the_run_continues(
    tmp_path: Path,
) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    ww = _wrapper(tmp_path)
    run = "arena run --players mock,random,mock:bold --games 24 --workers 2 -q"
    script = f"""
mount -t tmpfs -o size=400k tmpfs {disk} && cd {disk} || exit 99
{ww} {run} --store s/w.sqlite3 2>{tmp_path}/err; echo "run=$?"; cat {tmp_path}/err; echo end
mount -o remount,size=30m {disk}
{ww} {run} --store s/w.sqlite3; echo "again=$?"
"""
    done = _in_namespace(script, tmp_path)
    lines = done.stdout.splitlines()
    assert "run=2" in lines, done
    error = lines[lines.index("run=2") + 1 : lines.index("end")]
    assert len(error) == 1, done  # one line, from the worker or the parent, never a traceback
    assert error[0].startswith("werewolf: error: s/w.sqlite3: the disk is full"), done
    assert "then continue with: werewolf arena run --name arena" in error[0]
    assert "again=0" in lines, done
    assert "Run arena: 24 of 24 games ended" in done.stdout, done


_WORKER = """
import multiprocessing
from werewolf.arena.runner import _play_share
context = multiprocessing.get_context("fork")
faults = context.SimpleQueue()
args = ("s/arena/arena.json", "s/w.sqlite3", [0, 1], 2, faults, None)
worker = context.Process(target=_play_share, args=args)
worker.start()
worker.join()
print(f"exit={worker.exitcode}")
while not faults.empty():
    print("fault:", faults.get())
"""


@needs_namespaces
def test_a_worker_that_finds_the_disk_full_when_it_opens_the_store_sends_one_line(
    tmp_path: Path,
) -> None:
    """The other workers may fill the disk before one opens the store (a slow start on a
    busy machine): its line reaches the parent with the command that continues the run."""
    disk = tmp_path / "disk"
    disk.mkdir()
    ww = _wrapper(tmp_path)
    worker = tmp_path / "worker.py"
    worker.write_text(_WORKER)
    script = f"""
mount -t tmpfs -o size=400k tmpfs {disk} && cd {disk} || exit 99
{ww} arena run --players mock,random --games 2 -q --store s/w.sqlite3 2>/dev/null
dd if=/dev/zero of=fill bs=1k 2>/dev/null
{shlex.quote(sys.executable)} {worker} 2>{tmp_path}/err; cat {tmp_path}/err
"""
    done = _in_namespace(script, tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == "exit=4", done  # EXIT_STORAGE: a storage fault, sent to the parent
    assert len(lines) == 2, done  # its one line, and nothing on stderr
    assert lines[1].startswith("fault: s/w.sqlite3: the disk is full"), done
    assert lines[1].endswith(
        "then continue with: werewolf arena run --name arena --store s/w.sqlite3"
    ), done


@needs_loop_mount
@pytest.mark.parametrize("left", [4, 12, 48])
def test_a_nearly_full_ext4_is_one_line_for_writers_and_readers(tmp_path: Path, left: int) -> None:
    """With a few KB left, SQLite's WAL index (mapped into memory, its pages holes on 1 KB
    blocks) made play and every later reader die of SIGBUS, or say only "disk I/O error"."""
    with _small_ext4(tmp_path) as disk:
        store = disk / "w.sqlite3"
        game = _play(store)
        _idle(store)
        _leave(disk, left)
        for argv in (
            ["games"],
            ["play", "--seed", "5", "-q"],
            ["replay", game, "--public", "--no-stats"],
            ["resume", game, "-q"],
        ):
            done = _werewolf(*argv, "--store", str(store))
            assert done.returncode == 2, (argv, done)  # not -7: SIGBUS
            assert done.stderr == (
                f"werewolf: error: {store}: the disk is full; nothing written is lost: "
                "free some space\n"
            ), (argv, done)
        (disk / "filler").unlink()
        done = _werewolf("games", "--store", str(store))
        assert done.returncode == 0, done
        assert game in done.stdout
        with SQLiteEventStore(store) as s:
            assert s.integrity_check() == "ok"


def _get(url: str) -> tuple[int, str]:
    request = urllib.request.Request(url)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("utf-8")


@needs_loop_mount
def test_serve_on_a_nearly_full_ext4_is_one_line_at_start_and_for_each_page(
    tmp_path: Path,
) -> None:
    """serve said the store's own words at start ("No space left on device: 0 KB free, a
    store needs 128 KB"), and a store that appeared on a full disk once it was serving made
    every page a 500 and the server's log a traceback."""
    pytest.importorskip("uvicorn")
    full = "the disk is full; nothing written is lost: free some space"
    with _small_ext4(tmp_path) as disk:
        store = disk / "w.sqlite3"
        _play(store)
        _idle(store)
        _leave(disk, 4)
        done = _werewolf("serve", "--store", str(store), "--port", "0")
        assert done.returncode == 2, done
        assert done.stderr == f"werewolf: error: {store}: {full}\n", done
        (disk / "filler").unlink()
        later = disk / "later" / "w.sqlite3"
        later.parent.mkdir()
        server = subprocess.Popen(
            [sys.executable, "-c", _MAIN, "serve", "--store", str(later), "--port", "0"],
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        assert server.stderr is not None
        try:
            url = server.stderr.readline().split(" at ")[1].split()[0].rstrip("/")
            _play(later, seed=4)
            _idle(later)
            _leave(disk, 4)
            status, page = _get(url + "/")
            assert status == 503, page
            assert f"{later}: {full}" in html.unescape(page)
            (disk / "filler").unlink()
            status, page = _get(url + "/")  # tried again: the store opens now
            assert status == 200, page
            assert next(later.parent.glob("*.jsonl")).stem in page
        finally:
            server.send_signal(signal.SIGINT)
            _out, err = server.communicate(timeout=30)
        assert err == f"werewolf: {later}: {full}\nwerewolf: stopped\n"


# -- read-only file system ---------------------------------------------------------------------
@needs_namespaces
def test_read_only_commands_work_on_a_read_only_file_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "ro" / "w.sqlite3"
    argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "r", "-q"]
    assert main([*argv, "--workers", "1", "--store", str(store)]) == 0
    game = next(store.parent.glob("*.jsonl"), None)
    with SQLiteEventStore(store) as s:
        game_id = s.topics()[0]
    capsys.readouterr()
    assert game is None
    folder = store.parent
    ww = _wrapper(tmp_path)
    script = f"""
mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} || exit 99
touch {folder}/x 2>/dev/null && echo writable
{ww} replay {game_id} --store {store} --public --no-stats > /dev/null; echo "replay=$?"
{ww} arena report r --store {store} --json /tmp/r.json --markdown /tmp/r.md > /dev/null; echo "report=$?"
{ww} arena list --store {store}; echo "list=$?"
{ww} games --store {store} > /dev/null; echo "games=$?"
{ww} play --seed 1 --store {store} -q; echo "play=$?"
"""
    done = _in_namespace(script, tmp_path)
    lines = done.stdout.splitlines()
    assert "writable" not in lines
    assert "replay=0" in lines, done
    assert "report=0" in lines, done
    assert "list=0" in lines, done
    assert "games=0" in lines, done
    assert "play=2" in lines, done
    assert "cannot write here" in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


@needs_nobody
def test_a_folder_the_user_may_not_write_is_one_line_and_its_store_is_still_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = Path(tempfile.mkdtemp(prefix="werewolf-ro-"))  # /tmp: another user gets in
    try:
        folder.chmod(0o755)
        store = folder / "w.sqlite3"
        game = _play(store)
        capsys.readouterr()
        _idle(store)
        folder.chmod(0o555)
        done = _werewolf("games", "--store", str(store), user=NOBODY)
        assert done.returncode == 0, done
        assert game in done.stdout
        done = _werewolf("replay", game, "--store", str(store), "--public", user=NOBODY)
        assert done.returncode == 0, done
        for argv, where in (
            (["play", "-q"], store),
            (["resume", game, "-q"], store),
            (["play", "-q"], folder / "new" / "w.sqlite3"),
        ):
            done = _werewolf(*argv, "--store", str(where), user=NOBODY)
            assert done.returncode == 2, done
            assert done.stderr.startswith(
                f"werewolf: error: {where}: cannot write here (read-only file system or no "
                "permission); nothing written is lost: copy the store somewhere writable"
            ), done
            assert len(done.stderr.splitlines()) == 1, done
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


@needs_nobody
def test_a_report_or_export_into_a_folder_the_user_may_not_write_is_refused_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """arena report drew the whole report, then failed on its temp file with the raw
    "[Errno 13] Permission denied: '.../r.md.<pid>.tmp'"; now it says which file before
    any work, as replay --html and --markdown do."""
    folder = Path(tempfile.mkdtemp(prefix="werewolf-ro-"))  # /tmp: another user gets in
    try:
        folder.chmod(0o755)
        store = folder / "w.sqlite3"
        argv = ["arena", "run", "--players", "mock,random", "--games", "2", "--name", "r", "-q"]
        assert main([*argv, "--store", str(store)]) == 0
        game = _play(store)
        capsys.readouterr()
        _idle(store)
        (folder / "arena").chmod(0o555)
        for argv, option, target in (
            (["arena", "report", "r"], "--markdown", folder / "arena" / "r.md"),
            (["replay", game, "--html", str(folder / "g.html")], "--html", folder / "g.html"),
            (["replay", game, "--markdown", str(folder / "g.md")], "--markdown", folder / "g.md"),
        ):
            done = _werewolf(*argv, "--store", str(store), user=NOBODY)
            assert done.returncode == 2, done
            assert done.stdout == "", done  # refused before the report is drawn
            assert done.stderr == (
                f"werewolf: error: {option}: {target}: cannot write in {target.parent} "
                "(read-only file system or no permission): name a file in a folder you may "
                "write\n"
            ), done
        assert sorted(p.name for p in (folder / "arena").iterdir()) == ["r.json"]
        assert not list(folder.glob("g.*"))
    finally:
        (folder / "arena").chmod(0o755)
        shutil.rmtree(folder)


def test_read_only_commands_write_nothing_beside_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    game = _play(store)
    capsys.readouterr()
    with SQLiteEventStore(store) as s:
        s.execute_raw("PRAGMA wal_checkpoint(TRUNCATE)")
    before = store.read_bytes()
    files = {p.name for p in tmp_path.iterdir()} | {"w.sqlite3-wal", "w.sqlite3-shm"}
    assert main(["replay", game, "--store", str(store), "--public", "--width", "80"]) == 0
    assert main(["arena", "list", "--store", str(store)]) == 0
    assert store.read_bytes() == before
    assert {p.name for p in tmp_path.iterdir()} <= files  # SQLite's own WAL files at most


# -- a damaged store file ----------------------------------------------------------------------
def _damage(store: Path, page: int) -> None:
    with SQLiteEventStore(store) as s:
        s.execute_raw("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(store, "r+b") as fh:
        fh.seek(4096 * page)  # over the b-tree page header
        fh.write(b"\xff\x00garbage" * 40)


def test_a_damaged_store_is_one_line_and_never_written_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    game = _play(store)
    for seed in range(5, 9):
        _play(store, seed)
    capsys.readouterr()
    _damage(store, 3)
    damaged = store.read_bytes()
    line = _one_line(capsys, "play", "--seed", "2", "--store", str(store), "-q")
    assert f"{store}: the store file is damaged" in line
    assert "it is not written again" in line
    assert "sqlite3" in line
    line = _one_line(capsys, "resume", game, "--store", str(store), "-q")
    assert "the store file is damaged" in line
    assert store.read_bytes() == damaged


def test_a_store_that_is_not_sqlite_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    store.write_bytes(b"\x00garbage" * 1000)
    line = _one_line(capsys, "play", "--store", str(store), "-q")
    assert str(store) in line
    assert "damaged" in line
    line = _one_line(capsys, "replay", "01M8QE0ENXD7GTGJJKTJECQ375", "--store", str(store))
    assert str(store) in line


def test_a_deleted_event_row_is_named_at_its_own_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    game = _stop_midway(store)
    raw = sqlite3.connect(store, isolation_level=None)
    raw.execute("DROP TRIGGER events_no_delete")
    raw.execute("DELETE FROM events WHERE key = ? AND version = 6", (game,))
    raw.close()
    line = _one_line(capsys, "resume", game, "--store", str(store), "-q")
    assert line.endswith(
        f"{store}: game {game} version 6 is missing from the store (deleted): the events "
        "after it cannot be trusted"
    ), line
    line = _one_line(capsys, "replay", game, "--store", str(store))
    assert "version 6 is missing from the store" in line, line


# -- missing and damaged objects ---------------------------------------------------------------
@pytest.mark.parametrize("fault", ["missing", "damaged"])
@pytest.mark.parametrize("layout", ["inline", "file"])
def test_resume_checks_the_chain_objects_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str, layout: str
) -> None:
    store = tmp_path / "w.sqlite3"
    game = _stop_midway(store)
    with SQLiteEventStore(store) as s:
        victim = s.chain(game)[5]
        data = s.objects.get(victim.hash)
        version = s.version(game)
    raw = sqlite3.connect(store, isolation_level=None)
    if layout == "file" or fault == "missing":
        # the file layout of stores written before objects were inline
        raw.execute("DROP TRIGGER objects_no_delete")
        raw.execute("DELETE FROM objects WHERE hash = ?", (victim.hash,))
    if layout == "inline" and fault == "damaged":
        raw.execute("DROP TRIGGER objects_no_update")
        raw.execute("UPDATE objects SET data = ? WHERE hash = ?", (b"edited", victim.hash))
    raw.close()
    where = f"{victim.hash} in {store}" if fault == "damaged" else victim.hash
    if layout == "file":
        path = FileObjectStore(tmp_path / "objects").path_of(
            FileObjectStore(tmp_path / "objects").put(data)
        )
        if fault == "missing":
            path.unlink()
        else:
            path.write_bytes(b"edited")
            where = str(path)
    line = _one_line(capsys, "resume", game, "--store", str(store), "-q")
    assert f"game {game} version {victim.version}" in line
    assert f"{where} is {fault}" in line
    assert "restore the store and its objects/ folder from a backup" in line
    with SQLiteEventStore(store) as s:
        assert s.version(game) == version  # not a move was played


# -- another process's write lock -------------------------------------------------------------
_HOLD = (
    "import sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "db.execute('BEGIN IMMEDIATE')\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


@contextmanager
def _held(store: Path) -> Iterator[subprocess.Popen[str]]:
    """A second process holding the store's write lock (``BEGIN IMMEDIATE``) until the end
    of the block."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None
    assert holder.stdout is not None
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.stdin.close()
        holder.wait(30)


def _waiting(store: Path, holder: subprocess.Popen[str]) -> str:
    """How the notice begins: the store, and the holder's process id and command."""
    return (
        f"werewolf: {store}: waiting for the store's write lock, held by process {holder.pid} "
        f"({sys.executable} -c import sqlite3"
    )


def test_a_held_write_lock_is_named_and_the_lock_timeout_gives_up_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    _play(store)
    capsys.readouterr()
    with SQLiteEventStore(store) as s:
        before = s.last_seq()
    with _held(store) as holder:
        done = _werewolf("play", "--seed", "5", "-q", "--store", str(store), "--lock-timeout", "2")
    assert done.returncode == 2, done
    waiting, error = done.stderr.splitlines()
    assert waiting.startswith(_waiting(store, holder)), waiting
    assert waiting.endswith(
        "; Ctrl-C stops (nothing written is lost), --lock-timeout SECONDS gives up by itself"
    )
    assert error.startswith(f"werewolf: error: {store}: process {holder.pid} ("), error
    assert error.endswith(
        "holds the store's write lock; gave up after 2 s (--lock-timeout); nothing written "
        "is lost: try again when it is done"
    ), error
    with SQLiteEventStore(store) as s:
        assert s.last_seq() == before  # the refused play wrote nothing


def test_without_a_lock_timeout_play_says_who_it_waits_for_and_goes_on_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "w.sqlite3"
    _play(store)
    capsys.readouterr()
    with _held(store) as holder:
        play = subprocess.Popen(
            [sys.executable, "-c", _MAIN, "play", "--seed", "5", "-q", "--store", str(store)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        assert play.stderr is not None
        waiting = play.stderr.readline()  # said while the lock is still held
        assert waiting.startswith(_waiting(store, holder)), waiting
    _out, err = play.communicate(timeout=120)
    assert play.returncode == 0, err
    assert err == ""
    with SQLiteEventStore(store) as s:
        assert len(s.topics()) == 2
