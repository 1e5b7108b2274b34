"""How soundly mock players reason, measured on finished games from the god view (the
measures ``mock_quality`` prints per board; each takes whole event chains):

- misread deaths: of the statements that the wolves killed a seat ("The wolves took seat
  4", "whom the wolves killed"), those about a seat that died of something else (the
  poison, a lover's heartbreak);
- trust-then-vote: ballots against a seat the voter's speech of that day trusted;
- claim order: games where a wolf claimed the seer first on day 1, and of those the day-1
  exiles of the real seer or of a good seat the fake seer named a wolf;
- impossible checks: a seer claimer's check on a seat dead before that night, a check on
  a seat another wolf claimer had already reported (copied), or a wolf found in the only
  seat that had backed the claimer;
- teammate accusations: the share of the wolves' accusations aimed at a fellow wolf, and
  the share that choosing among the living other seats at random would give;
- block voting: vote rounds where every living wolf voting cast the same ballot, and how
  often a random group of as many good voters in the same round did.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from pulse_core import Event
from werewolf.cast import Identity, Team, team_of
from werewolf.events import meaning_of
from werewolf.game import fold_chain
from werewolf.players.mock import parse_speech
from werewolf.players.mock.lang import en, zh
from werewolf.state import Cause

__all__ = ["Reasoning", "measure_reasoning", "reasoning_report"]

# phrase keys whose variants may say the wolves killed a seat, and the field naming it
_KILLED_KEYS = {
    "open.victims": "seats",
    "open.knifed": "seats",
    "r2.start.victim": "seats",
    "why.liar.framed_victim": "b",
    "why.victim_accused": "b",
}
_WOLF_WORDS = ("wolves", "wolf", "狼")
_SEATS = r"((?:(?:seat\s*)?\d+(?:号)?(?:,\s*|\s+and\s+|、)?)+)"


@lru_cache(maxsize=1)
def _killed_forms() -> tuple[tuple[re.Pattern[str], int], ...]:
    """Each variant of ``_KILLED_KEYS`` that names the wolves, as a pattern, with the
    group that holds the seat(s)."""
    forms: list[tuple[re.Pattern[str], int]] = []
    for module in (en, zh):
        for key, field_name in _KILLED_KEYS.items():
            for template in module.PHRASES.get(key, ()):
                if not any(word in template.lower() for word in _WOLF_WORDS):
                    continue
                names = re.findall(r"\{(\w+)\}", template)
                pattern = re.escape(template)
                for name in dict.fromkeys(names):
                    part = _SEATS if name in ("seats", "Seats") else r"(\d+)"
                    pattern = pattern.replace(re.escape("{" + name + "}"), part, 1)
                    pattern = pattern.replace(re.escape("{" + name + "}"), r"\d+")
                wanted = {"seats": ("seats", "Seats")}.get(field_name, (field_name,))
                group = next((i + 1 for i, n in enumerate(dict.fromkeys(names)) if n in wanted), 0)
                if group:
                    forms.append((re.compile(pattern, re.I), group))
    return tuple(forms)


def killed_said(text: str) -> set[int]:
    """The seats a speech says the wolves killed."""
    seats: set[int] = set()
    for pattern, group in _killed_forms():
        for match in pattern.finditer(text):
            seats.update(int(s) for s in re.findall(r"\d+", match.group(group)))
    return seats


@dataclass
class Reasoning:
    killed_statements: int = 0
    misread: int = 0
    trust_votes: int = 0  # ballots by a seat that trusted someone in that day's speech
    trust_then_vote: int = 0
    wolf_first: int = 0  # games where a wolf claimed the seer first on day 1
    wolf_first_bad_exile: int = 0
    wolf_first_good_wins: int = 0
    checks: int = 0  # check reports by wolf claimers
    impossible: int = 0
    wolf_accusations: int = 0
    mate_accusations: int = 0
    chance_mates: float = 0.0  # summed chance of a fellow wolf per accusation
    wolf_rounds: int = 0  # vote rounds with two or more wolves voting
    wolf_blocks: int = 0
    good_blocks: float = 0.0  # summed chance that as many good voters voted as one


def _deal(chain: list[Event]) -> list[Identity]:
    return [Identity(i) for i in chain[0].meta["deal"]]


def measure_reasoning(chains: Iterable[list[Event]], r: Reasoning) -> None:
    for chain in chains:
        _game(chain, r)


def _game(chain: list[Event], r: Reasoning) -> None:
    cast = _deal(chain)
    wolves = {i + 1 for i, c in enumerate(cast) if team_of(c) is Team.WOLVES}
    seer = next((i + 1 for i, c in enumerate(cast) if c is Identity.SEER), None)
    final = fold_chain(chain)
    knives = {
        int(e.meta["day"]): e.meta["diff"].get("target") for e in chain if e.role == "wolf-night"
    }
    # a seat knifed and poisoned the same night died of the poison, and of the knife too
    cause = {d.seat: Cause.WOLF if knives.get(d.day) == d.seat else d.cause for d in final.deaths}
    died_at: dict[int, int] = {}  # seat -> the day (or night) it died
    alive = set(range(1, len(cast) + 1))
    trusted_today: dict[int, tuple[int, set[int]]] = {}  # seat -> (day, trusted seats)
    claim_order: list[int] = []  # seer claimers in order
    reported: dict[int, set[int]] = {}  # claimer -> seats reported
    backers: dict[int, set[int]] = {}  # claimer -> seats that trusted him
    day1_named: set[int] = set()  # good seats the first (wolf) claimer named wolves on day 1
    first_wolf = False
    for event in chain:
        meta = event.meta
        diff, detail, day = meta.get("diff", {}), meta.get("detail", {}), int(meta.get("day", 0))
        if event.role in ("day-speech", "last-words"):
            speaker, text = int(diff["speaker"]), str(detail.get("text", ""))
            for seat in killed_said(text):
                if seat in cause and seat in died_at:
                    r.killed_statements += 1
                    r.misread += cause[seat] in (Cause.POISON, Cause.LOVE)
            said = parse_speech(text)
            if event.role == "day-speech":
                trusted_today[speaker] = (day, set(said.trusts))
            for seat in said.trusts:
                backers.setdefault(seat, set()).add(speaker)
            if "seer" in said.roles and speaker not in claim_order:
                claim_order.append(speaker)
                if len(claim_order) == 1 and day == 1 and speaker in wolves:
                    first_wolf = True
            if speaker in claim_order and speaker in wolves:
                _checks(r, said.reports, speaker, died_at, reported, backers, wolves)
            if first_wolf and day == 1 and speaker == claim_order[0]:
                day1_named |= {s for _, s, w in said.reports if w and s not in wolves}
            if speaker in claim_order:
                reported.setdefault(speaker, set()).update(s for _, s, _ in said.reports)
            if speaker in wolves and event.role == "day-speech":
                others = [s for s in alive if s != speaker]
                mates = sum(s in wolves for s in others)
                for seat in set(said.accuses) - {speaker}:
                    r.wolf_accusations += 1
                    r.mate_accusations += seat in wolves
                    r.chance_mates += mates / max(len(others), 1)
        elif event.role == "vote":
            _ballots(r, detail, day, trusted_today, wolves)
            if day == 1 and first_wolf and diff.get("exiled") is not None:
                exiled = int(diff["exiled"])
                r.wolf_first_bad_exile += exiled == seer or exiled in day1_named
        for seat in dead_at(event):
            died_at.setdefault(seat, day)
            alive.discard(seat)
    if first_wolf:
        r.wolf_first += 1
        r.wolf_first_good_wins += chain[-1].meta["diff"].get("winner") == "good"


def _checks(
    r: Reasoning,
    reports: tuple[tuple[int | None, int, bool], ...],
    claimer: int,
    died_at: dict[int, int],
    reported: dict[int, set[int]],
    backers: dict[int, set[int]],
    wolves: set[int],
) -> None:
    mine = reported.get(claimer, set())
    for night, seat, wolf in reports:
        if seat in mine:
            continue  # told before: counted then
        r.checks += 1
        # a death on day or night N comes after the check of night N
        dead_before = night is not None and seat in died_at and died_at[seat] < night
        copied = any(seat in seen for o, seen in reported.items() if o != claimer and o in wolves)
        only_backer = wolf and backers.get(claimer) == {seat}
        r.impossible += dead_before or copied or only_backer


def _ballots(
    r: Reasoning,
    detail: dict[str, object],
    day: int,
    trusted_today: dict[int, tuple[int, set[int]]],
    wolves: set[int],
) -> None:
    ballots = [(int(v), t) for v, t in detail.get("ballots", [])]  # type: ignore[attr-defined]
    for voter, target in ballots:
        spoken = trusted_today.get(voter)
        if spoken is None or spoken[0] != day or not spoken[1]:
            continue
        r.trust_votes += 1
        r.trust_then_vote += target in spoken[1]
    pack = [t for v, t in ballots if v in wolves]
    good = [t for v, t in ballots if v not in wolves]
    k = len(pack)
    if k < 2 or len(good) < k:
        return
    r.wolf_rounds += 1
    r.wolf_blocks += len(set(pack)) == 1
    counts: dict[object, int] = {}
    for target in good:
        counts[target] = counts.get(target, 0) + 1
    r.good_blocks += sum(comb(n, k) for n in counts.values()) / comb(len(good), k)


def dead_at(event: Event) -> list[int]:
    """The seats an event tells the table are dead, as the registry reads it (a dawn, an
    exile, a shot, a duel, a self-destruct, a heartbreak)."""
    meta = event.meta
    return [
        seat
        for seat, _ in meaning_of(
            event.role, meta.get("diff") or {}, meta.get("detail") or {}
        ).deaths
    ]


def _pct(a: float, n: float) -> str:
    return f"{a / n:6.1%}" if n else "   n/a"


def reasoning_report(r: Reasoning) -> list[str]:
    chance = r.chance_mates / max(r.wolf_accusations, 1)
    return [
        f"  misread deaths         {r.misread:>5}/{r.killed_statements:<5} "
        f"{_pct(r.misread, r.killed_statements)}  'the wolves killed X' of a seat poisoned or heartbroken (goal <= 2%)",
        f"  trust then vote        {r.trust_then_vote:>5}/{r.trust_votes:<5} "
        f"{_pct(r.trust_then_vote, r.trust_votes)}  ballots against a seat trusted that day (goal <= 2%)",
        f"  wolf claims seer first {r.wolf_first:>5} games: day-1 exile of the real seer or the fake's "
        f"good target {_pct(r.wolf_first_bad_exile, r.wolf_first)} (goal <= 60%), good wins "
        f"{_pct(r.wolf_first_good_wins, r.wolf_first)}",
        f"  impossible checks      {r.impossible:>5}/{r.checks:<5}       by wolf claimers (goal 0)",
        f"  teammate accusations   {r.mate_accusations:>5}/{r.wolf_accusations:<5} "
        f"{_pct(r.mate_accusations, r.wolf_accusations)}  chance {chance:6.1%} (goal >= half of chance)",
        f"  wolves vote as a block {r.wolf_blocks:>5}/{r.wolf_rounds:<5} "
        f"{_pct(r.wolf_blocks, r.wolf_rounds)}  good groups as large {_pct(r.good_blocks, r.wolf_rounds)}",
    ]


def main() -> None:
    """These measures alone, per board (``mock_quality`` prints them with the rest)."""
    import argparse

    from mock_quality import BOARDS, mocks, play, progress

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per board (default 200)")
    parser.add_argument("--board", choices=sorted(BOARDS), action="append")
    args = parser.parse_args()
    for name, config in BOARDS.items():
        if args.board and name not in args.board:
            continue
        r = Reasoning()
        measure_reasoning(play(config, range(args.games), mocks), r)
        progress(f"board {name}: {args.games} games played")
        print("\n".join([f"board {name}: {args.games} games", *reasoning_report(r)]), flush=True)


if __name__ == "__main__":
    main()
