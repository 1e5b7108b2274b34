"""Two object stores over one folder in one process, writing the same content at once."""

from __future__ import annotations

import threading
from pathlib import Path

from pulse_core.objects import FileObjectStore, digest_of


def test_two_stores_in_one_process_never_share_a_temp_file(tmp_path: Path) -> None:
    first, second = FileObjectStore(tmp_path), FileObjectStore(tmp_path)
    blobs = [f"blob {i} ".encode() * 500 for i in range(200)]
    errors: list[BaseException] = []

    def put_all(store: FileObjectStore) -> None:
        for blob in blobs:
            try:
                store.put(blob)
            except OSError as exc:
                errors.append(exc)

    threads = [threading.Thread(target=put_all, args=(s,)) for s in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(first.get(digest_of(blob)) == blob for blob in blobs)
    assert list(tmp_path.glob("*/*.tmp")) == []
