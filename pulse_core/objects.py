"""Content-addressed object store: content by its SHA-256, verified on every read.

``FileObjectStore`` lays objects out as ``objects/ab/cdef...``; a write goes to a temp file in
the same folder, is fsynced, then renamed into place, so a reader never sees half an object
and a crash leaves at most a temp file, which the next open sweeps away.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Protocol, runtime_checkable

from .errors import CorruptObjectError, ObjectNotFoundError

__all__ = ["FileObjectStore", "MemoryObjectStore", "ObjectStore", "PutMany", "digest_of"]

_TMP_SUFFIX = ".tmp"
_HEX64 = re.compile("[0-9a-f]{64}")


def digest_of(data: bytes) -> str:
    """The hex SHA-256 of ``data``: the object's address."""
    return hashlib.sha256(data).hexdigest()


class ObjectStore(Protocol):
    def put(self, data: bytes) -> str:
        """Store ``data``; return its hash. Storing the same bytes again is a no-op."""
        ...

    def get(self, digest: str) -> bytes:
        """The bytes under ``digest``; raises ObjectNotFoundError or CorruptObjectError."""
        ...

    def has(self, digest: str) -> bool: ...


@runtime_checkable
class PutMany(Protocol):
    """An object store that stores many objects at once, faster than one by one."""

    def put_many(self, blobs: Iterable[bytes]) -> list[str]: ...


class MemoryObjectStore:
    """An object store in a dict, for tests and throwaway runs."""

    def __init__(self) -> None:
        self._objects: dict[str, bytes] = {}

    def put(self, data: bytes) -> str:
        digest = digest_of(data)
        self._objects.setdefault(digest, bytes(data))
        return digest

    def get(self, digest: str) -> bytes:
        try:
            data = self._objects[digest]
        except KeyError:
            raise ObjectNotFoundError(digest) from None
        if digest_of(data) != digest:
            raise CorruptObjectError(digest)
        return data

    def has(self, digest: str) -> bool:
        return digest in self._objects


_SYNC_THREADS = 16
_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def _sync_pool() -> ThreadPoolExecutor:
    """The threads that wait on the disk for ``put_many``: made once per process (a fork
    gets its own, the parent's threads do not exist there), since starting a thread costs
    about as much as the fsync it would wait on."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (os.getpid(), ThreadPoolExecutor(_SYNC_THREADS, "pulse-fsync"))
        return _pool[1]


def _all_done(job: Callable[[Path], None], paths: Iterable[Path]) -> None:
    """``job`` on every path in the pool; waits for all of them (a failure too: no write
    may land after the caller cleans up), then raises the first failure."""
    futures = [_sync_pool().submit(job, path) for path in paths]
    wait(futures)
    for future in futures:
        future.result()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class FileObjectStore:
    """Objects as files under ``root`` (``root/ab/cdef...``), written atomically."""

    def __init__(self, root: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._durable = durable
        self._counter = 0
        self._lock = threading.Lock()
        self.swept = self.sweep_temp_files()

    def path_of(self, digest: str) -> Path:
        if _HEX64.fullmatch(digest) is None:  # never a path outside the store
            raise ObjectNotFoundError(digest)
        return self.root / digest[:2] / digest[2:]

    def sweep_temp_files(self) -> int:
        """Remove temp files left by writers that died; return how many were removed."""
        removed = 0
        for tmp in self.root.glob(f"*/*{_TMP_SUFFIX}"):
            # name: <rest-of-hash>.<pid>.<n>.tmp; a live writer's file is left alone
            parts = tmp.name.split(".")
            try:
                pid = int(parts[-3])
            except (IndexError, ValueError):
                pid = -1
            if pid == os.getpid() or (pid > 0 and _pid_alive(pid)):
                continue
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
                removed += 1
        return removed

    def put(self, data: bytes) -> str:
        digest = digest_of(data)
        final = self.path_of(digest)
        if final.exists():
            return digest
        tmp = self._write_temp(final, data, sync=self._durable)
        try:
            os.replace(tmp, final)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
        if self._durable:
            self._fsync_dir(final.parent)
        return digest

    def put_many(self, blobs: Iterable[bytes]) -> list[str]:
        """Store many objects; their hashes in order. When durable, the new files and then
        their folders are synced in parallel: the disk is waited for about once, not once
        per object. Each object is whole and durable before this returns, as with ``put``."""
        digests: list[str] = []
        new: dict[Path, bytes] = {}
        for data in blobs:
            digest = digest_of(data)
            digests.append(digest)
            final = self.path_of(digest)
            if final not in new and not final.exists():
                new[final] = data
        if not self._durable or len(new) < 2:
            for data in new.values():
                self.put(data)
            return digests
        temps: dict[Path, Path] = {}

        def write(final: Path) -> None:
            temps[final] = self._write_temp(final, new[final], sync=True)

        try:
            _all_done(write, new)
            for final in list(temps):
                os.replace(temps[final], final)
                del temps[final]
            _all_done(self._fsync_dir, {final.parent for final in new})
        finally:
            for tmp in temps.values():  # written but never renamed: a failure part way
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
        return digests

    def _write_temp(self, final: Path, data: bytes, *, sync: bool) -> Path:
        """``data`` in a new temp file beside ``final`` (synced if ``sync``)."""
        with self._lock:
            self._counter += 1
            n = self._counter
        # pid first (the sweep reads it), then a per-instance counter and a random token, so
        # two stores in one process writing the same content never share a temp file
        token = f"{n}-{os.urandom(4).hex()}"
        tmp = final.with_name(f"{final.name}.{os.getpid()}.{token}{_TMP_SUFFIX}")
        try:
            try:
                fh = open(tmp, "wb")  # noqa: SIM115 - closed by the with below
            except FileNotFoundError:  # the object's fan-out folder does not exist yet
                final.parent.mkdir(exist_ok=True)
                fh = open(tmp, "wb")  # noqa: SIM115
            with fh:
                fh.write(data)
                if sync:
                    fh.flush()
                    os.fsync(fh.fileno())
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
        return tmp

    @staticmethod
    def _fsync_dir(path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def get(self, digest: str) -> bytes:
        try:
            data = self.path_of(digest).read_bytes()
        except FileNotFoundError:
            raise ObjectNotFoundError(digest) from None
        if digest_of(data) != digest:
            raise CorruptObjectError(digest, str(self.path_of(digest)))
        return data

    def has(self, digest: str) -> bool:
        try:
            return self.path_of(digest).exists()
        except ObjectNotFoundError:
            return False
