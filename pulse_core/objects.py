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
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Protocol, runtime_checkable

from .errors import CorruptObjectError, ObjectNotFoundError

__all__ = [
    "FileObjectStore",
    "MemoryObjectStore",
    "ObjectStore",
    "PutMany",
    "digest_of",
    "put_all",
]

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


def put_all(objects: ObjectStore, blobs: Sequence[bytes]) -> list[str]:
    """Store ``blobs`` in ``objects``, all at once where the store can; their hashes."""
    if isinstance(objects, PutMany):
        return objects.put_many(blobs)
    return [objects.put(blob) for blob in blobs]


class MemoryObjectStore:
    """An object store in a dict, for tests and throwaway runs."""

    def __init__(self) -> None:
        self._objects: dict[str, bytes] = {}

    def put(self, data: bytes) -> str:
        digest = digest_of(data)
        self._objects.setdefault(digest, bytes(data))
        return digest

    def put_hashed(self, digest: str, data: bytes) -> None:
        """``put(data)`` for a caller that has ``digest_of(data)`` already (an adapter hashes
        every content for its draft): trusted, not computed again."""
        self._objects.setdefault(digest, bytes(data))

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


def _all_done(job: Callable[[str], None], paths: Iterable[str]) -> None:
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
    """Objects as files under ``root`` (``root/ab/cdef...``), written atomically.

    ``lazy``: ``root`` is made by the first write rather than on opening (the SQLite store's
    large objects: most stores never write one, and a read-only store never makes it).
    """

    def __init__(
        self, root: str | os.PathLike[str], *, durable: bool = True, lazy: bool = False
    ) -> None:
        self.root = Path(root)
        self._root = str(self.root)
        if not lazy:
            self.root.mkdir(parents=True, exist_ok=True)
        self._durable = durable
        self._counter = 0
        self._lock = threading.Lock()
        self.swept = self.sweep_temp_files()

    def path_of(self, digest: str) -> Path:
        return Path(self._path(digest))

    def _path(self, digest: str) -> str:
        # a string, not a Path: building Paths was a measurable share of a write
        if _HEX64.fullmatch(digest) is None:  # never a path outside the store
            raise ObjectNotFoundError(digest)
        return f"{self._root}{os.sep}{digest[:2]}{os.sep}{digest[2:]}"

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
        final = self._path(digest)
        if not os.path.exists(final):
            self._put_new(final, data)
        return digest

    def _put_new(self, final: str, data: bytes) -> None:
        tmp = self._write_temp(final, data, sync=self._durable)
        try:
            os.replace(tmp, final)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        if self._durable:
            self._fsync_dir(os.path.dirname(final))

    def put_many(self, blobs: Iterable[bytes]) -> list[str]:
        """Store many objects; their hashes in order. When durable, the new files and then
        their folders are synced in parallel: the disk is waited for about once, not once
        per object. Each object is whole and durable before this returns, as with ``put``."""
        digests: list[str] = []
        new: dict[str, bytes] = {}
        for data in blobs:
            digest = digest_of(data)
            digests.append(digest)
            final = self._path(digest)
            if final not in new and not os.path.exists(final):
                new[final] = data
        if not self._durable or len(new) < 2:
            for final, data in new.items():
                self._put_new(final, data)
            return digests
        temps: dict[str, str] = {}

        def write(final: str) -> None:
            temps[final] = self._write_temp(final, new[final], sync=True)

        try:
            _all_done(write, new)
            for final in list(temps):
                os.replace(temps[final], final)
                del temps[final]
            _all_done(self._fsync_dir, {os.path.dirname(final) for final in new})
        finally:
            for tmp in temps.values():  # written but never renamed: a failure part way
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
        return digests

    def _write_temp(self, final: str, data: bytes, *, sync: bool) -> str:
        """``data`` in a new temp file beside ``final`` (synced if ``sync``)."""
        with self._lock:
            self._counter += 1
            n = self._counter
        # pid first (the sweep reads it), then a per-instance counter and a random token, so
        # two stores in one process writing the same content never share a temp file
        tmp = f"{final}.{os.getpid()}.{n}-{os.urandom(4).hex()}{_TMP_SUFFIX}"
        try:
            try:
                fh = open(tmp, "wb")  # noqa: SIM115 - closed by the with below
            except FileNotFoundError:  # the object's fan-out folder does not exist yet
                self._make_folder(os.path.dirname(final))
                fh = open(tmp, "wb")  # noqa: SIM115
            with fh:
                fh.write(data)
                if sync:
                    fh.flush()
                    os.fsync(fh.fileno())
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        return tmp

    def _make_folder(self, folder: str) -> None:
        """Make ``folder`` (and the root, when lazy); when durable, sync each new folder's
        parent, so the new entry survives a power cut as the object in it does."""
        parent = os.path.dirname(folder)
        if parent == self._root and not os.path.isdir(parent):
            self._make_folder(parent)
        try:
            os.mkdir(folder)
        except FileExistsError:  # made by another writer
            return
        if self._durable:
            self._fsync_dir(parent)

    @staticmethod
    def _fsync_dir(path: str) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def get(self, digest: str) -> bytes:
        path = self._path(digest)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            raise ObjectNotFoundError(digest) from None
        if digest_of(data) != digest:
            raise CorruptObjectError(digest, path)
        return data

    def has(self, digest: str) -> bool:
        try:
            return os.path.exists(self._path(digest))
        except ObjectNotFoundError:
            return False
