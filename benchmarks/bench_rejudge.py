"""What re-judging costs a replay's loading: CPU milliseconds to load each shipped replay
with every event re-judged by the rules and with ``trust=True`` (the file, hashes, chain
and meta models checked alone), and the same for a long game a store holds.

    .venv/bin/python benchmarks/bench_rejudge.py                 # the least of 20 loads of each
    .venv/bin/python benchmarks/bench_rejudge.py --repeats 50
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.strategies when run as a script

from pulse_core import SQLiteEventStore  # noqa: E402
from tests.strategies import play  # noqa: E402
from werewolf.boards import board_config  # noqa: E402
from werewolf.players import make_player  # noqa: E402
from werewolf.replay import load_game, load_replay_file  # noqa: E402


def _cpu_ms(load: Callable[[], object], repeats: int) -> float:
    """The least CPU milliseconds of one ``load()`` over ``repeats`` (CPU time, and the
    least of it: what a machine busy with other work inflates least)."""
    load()  # the models built and the modules imported once, as in any process
    times = []
    for _ in range(repeats):
        start = time.process_time()
        load()
        times.append((time.process_time() - start) * 1000)
    return min(times)


def _row(label: str, events: int, judged: float, trusted: float) -> None:
    extra = judged - trusted
    print(
        f"{label:28} {events:4} events  {judged:7.2f} ms judged  {trusted:7.2f} ms trusted"
        f"  +{extra:6.2f} ms ({extra / events * 1000:.0f} us an event)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    for path in sorted((ROOT / "replays").glob("*.jsonl")):
        events = len(load_replay_file(path).chain)
        judged = _cpu_ms(lambda p=path: load_replay_file(p), args.repeats)
        trusted = _cpu_ms(lambda p=path: load_replay_file(p, trust=True), args.repeats)
        _row(path.name, events, judged, trusted)
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteEventStore(Path(tmp) / "w.sqlite3")
        # random seats on idiot-12: a long game (many days of twelve speeches and votes)
        game = play(
            board_config("idiot-12"),
            3,
            lambda seat: make_player("random", game_seed=3, seat=seat),
            store=store,
        )
        events = len(game.chain)
        judged = _cpu_ms(lambda: load_game(store, game.game_id), args.repeats)
        trusted = _cpu_ms(lambda: load_game(store, game.game_id, trust=True), args.repeats)
        _row("store: random idiot-12", events, judged, trusted)
        store.close()


if __name__ == "__main__":
    main()
