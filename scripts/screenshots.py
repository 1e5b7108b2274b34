"""Regenerate the viewer screenshots in docs/: the sample game's god view at a desk (1280 px,
light) and on a phone (360 px, dark), in headless Chromium (Debian's chromium, Playwright).

Usage: .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from werewolf.replay import load_replay_file, replay_html  # noqa: E402

SAMPLE = ROOT / "replays" / "pk-and-hunter.jsonl"
SHOTS = {  # file: (width, height, colour scheme, step, folds to open); PK: the PK day
    "viewer-1280.png": (1280, 860, "light", "Day 1", 1),
    "viewer-360.png": (360, 780, "dark", "PK", 0),
}


def main() -> int:
    executable = chromium_path()
    if executable is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 2
    log = load_replay_file(SAMPLE)
    pk_day = next(e.meta["day"] for e in log.chain if e.role == "vote" and e.meta["diff"]["pk"])
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "game.html"
        page_file.write_text(replay_html(log), encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
            for name, (width, height, scheme, step, folds) in SHOTS.items():
                page = browser.new_page(
                    viewport={"width": width, "height": height}, color_scheme=scheme
                )
                page.goto(page_file.as_uri())
                page.wait_for_selector("body[data-ready]", state="attached")
                step = f"Day {pk_day}" if step == "PK" else step
                page.click(f'#steps button:has-text("{step}")')
                for n in range(folds):
                    page.locator(".item.day-speech details.decision > summary").nth(n).click()
                if width < 700:  # on a phone: the vote picture of the PK day
                    page.locator(".item.vote").first.evaluate("e => e.scrollIntoView()")
                page.screenshot(path=str(ROOT / "docs" / name))
                print(f"wrote docs/{name}")
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
