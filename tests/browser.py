"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright.

``scripts/check`` installs both on a fresh machine (``apt-get install chromium`` when it
is missing, Playwright's Python package from PyPI); nothing downloads a browser at run time.
Where either is missing the browser tests are skipped, except under CI (``CI`` set), where
they fail: CI must run them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def off_loop(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args)`` on a worker thread: Playwright's sync API keeps an event loop running
    on this one, so code that calls ``asyncio.run`` (playing a game) must run elsewhere."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args, **kwargs).result()


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A Chromium context (Playwright on the system's Chromium, a fresh profile) for one
    module. While it is open an event loop runs on this thread, so ``asyncio.run`` there
    fails: browser tests play games through ``off_loop``, and come last in their module."""
    executable = chromium_path()
    if executable is None:
        _unavailable("no chromium on this machine (bash scripts/check installs it as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    profile = tempfile.mkdtemp(prefix="werewolf-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=[*CHROMIUM_FLAGS, "--hide-scrollbars"],
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def open_page(
    context: Any, url: str, *, width: int = 1280, ready: str = "body[data-ready]"
) -> tuple[Any, list[str]]:
    """A new tab at ``url`` once ``ready`` shows (the viewer has drawn); the list collects
    page errors,
    console errors and dialogs (an ``alert`` from injected script would land there)."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"error: {exc}"))
    page.on(
        "console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None
    )

    def dialog(d: Any) -> None:
        problems.append(f"dialog: {d.message}")
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(url)
    page.wait_for_selector(ready, state="attached")
    return page, problems
