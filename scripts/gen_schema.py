"""Write docs/replay-schema.json, the JSON Schema of a replay file line, from the models.

    .venv/bin/python scripts/gen_schema.py          # rewrite the file
    .venv/bin/python scripts/gen_schema.py --check  # exit 1 if it is out of date

The models are ``werewolf.replay.format``; a test fails when the checked-in file and the
models disagree.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from werewolf.replay import replay_schema

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "replay-schema.json"


def schema_text() -> str:
    return json.dumps(replay_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    text = schema_text()
    current = SCHEMA.read_text(encoding="utf-8") if SCHEMA.exists() else None
    if current == text:
        print(f"{SCHEMA.name} is up to date")
        return 0
    if args.check:
        print(f"{SCHEMA.name} is out of date: run scripts/gen_schema.py")
        return 1
    SCHEMA.write_text(text, encoding="utf-8")
    print(f"written: {SCHEMA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
