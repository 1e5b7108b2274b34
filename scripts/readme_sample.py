"""The README's arena sample is what `werewolf arena baseline` prints at 80 columns.

    .venv/bin/python scripts/readme_sample.py          # rewrite the sample in README.md
    .venv/bin/python scripts/readme_sample.py --check  # exit 1, with a diff, if it differs

The sample is the report's summary and leaderboard; the games are the mock baseline, so
a change to the mock players or the figures shows up here (and in the test that runs
``--check``).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import sys
import tempfile
from pathlib import Path

from werewolf.cli import main as werewolf

README = Path(__file__).resolve().parent.parent / "README.md"
START = "```text\nArena run baseline"
END = "...\n```"


def sample() -> str:
    """The summary and the leaderboard of a fresh baseline run, at 80 columns."""
    with tempfile.TemporaryDirectory() as folder:
        out = io.StringIO()
        store = str(Path(folder) / "s.sqlite3")
        with contextlib.redirect_stdout(out):
            code = werewolf(["arena", "baseline", "--store", store, "--width", "80", "-q"])
        if code != 0:
            raise SystemExit(f"werewolf arena baseline exited with {code}")
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    first = next(i for i, line in enumerate(lines) if line.startswith("Arena run baseline"))
    end = lines.index("", first)  # the leaderboard ends at the first blank line
    return "\n".join(lines[first:end]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = README.read_text(encoding="utf-8")
    start = text.index(START) + len("```text\n")
    end = text.index(END, start)
    now, fresh = text[start:end], sample()
    if now == fresh:
        return 0
    if args.check:
        sys.stdout.writelines(
            difflib.unified_diff(
                now.splitlines(keepends=True), fresh.splitlines(keepends=True), "README", "now"
            )
        )
        print("README.md's arena sample is out of date: run scripts/readme_sample.py")
        return 1
    README.write_text(text[:start] + fresh + text[end:], encoding="utf-8")
    print("README.md: arena sample rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
