"""The independent oracle (tests/oracle.py) re-derives the sheriff's election, the badge's
path, the weighed votes, the self-destructs and the kings' shots from the rules: a real log
it accepts, forged at one of those, it refuses, naming what broke. The logs are random games
on the wolf-king boards (each seed chosen for what it holds) with the referee's record."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from tests.oracle import check_log
from tests.strategies import play
from werewolf.boards import board_config
from werewolf.players.random_player import RandomPlayer

Records = list[dict[str, Any]]


@cache
def _game(board: str, seed: int) -> tuple[dict[str, Any], ...]:
    game = play(board_config(board), seed, lambda seat: RandomPlayer(seed))
    return tuple(game.records)


def _records(board: str, seed: int) -> Records:
    return copy.deepcopy(list(_game(board, seed)))


def _at(r: Records, role: str, nth: int = 0, where: Callable[[Any], bool] = bool) -> Any:
    """The meta of the ``nth`` event of ``role`` whose meta ``where`` holds."""
    metas = [x["meta"] for x in r if x["kind"] == f"werewolf.{role}" and where(x["meta"])]
    return metas[nth]


def _index(r: Records, meta: Any) -> int:
    return next(i for i, x in enumerate(r) if x["meta"] is meta)


# wolf-king-12 seed 37: an election blown up and held the next day with a PK, a sheriff
# who votes, the badge passed before the wolf king's shot; seed 5: two blasts in the
# election; white-wolf-king-12 seed 2: the white wolf king takes a seat with him
KING, LOST, WHITE = ("wolf-king-12", 37), ("wolf-king-12", 5), ("white-wolf-king-12", 2)


def _elected_in_a_tie(r: Records) -> None:
    meta = _at(r, "sheriff-vote", where=lambda m: m["diff"]["pk"])
    meta["diff"].update(sheriff=meta["diff"]["pk"][0], pk=[])


def _elected_another(r: Records) -> None:
    meta = _at(r, "sheriff-withdraw", where=lambda m: m["diff"]["sheriff"] is not None)
    meta["diff"]["sheriff"] = meta["diff"]["withdrawn"][0]


def _pk_dropped(r: Records) -> None:
    meta = _at(r, "sheriff-vote", where=lambda m: m["diff"]["pk"])
    meta["diff"].update(pk=[], lost=True)


def _election_counts(r: Records) -> None:
    meta = _at(r, "sheriff-vote")
    meta["detail"]["counts"] = [[s, n + 1] for s, n in meta["detail"]["counts"]]


def _candidate_votes(r: Records) -> None:
    meta = _at(r, "sheriff-vote")
    candidate = meta["detail"]["counts"][0][0]
    meta["detail"]["ballots"] = sorted([*meta["detail"]["ballots"], [candidate, candidate]])


def _election_not_postponed(r: Records) -> None:
    """The election blown up on day 1 goes on as if nothing happened: its dawn is due."""
    blast = _at(r, "sheriff-speech", where=lambda m: "self_destruct" in m["diff"])
    i = _index(r, blast)
    r[i + 1 : i + 2] = []  # the self-destruct phase dropped: the dawn comes at once


def _second_blast_keeps_the_badge(r: Records) -> None:
    """After the second blast in the election, a third election is held."""
    blast = _at(r, "sheriff-speech", 1, lambda m: "self_destruct" in m["diff"])
    runs = [x for x in r if x["kind"] == "werewolf.sheriff-run"]
    later = copy.deepcopy(runs[-1])
    later["meta"]["day"] = blast["day"] + 1
    dawn = next(
        i
        for i, x in enumerate(r)
        if x["kind"] == "werewolf.dawn" and x["meta"]["day"] == blast["day"] + 1
    )
    r.insert(dawn, later)


def _badge_to_the_dead(r: Records) -> None:
    meta = _at(r, "sheriff-badge", where=lambda m: m["diff"]["to"] is not None)
    meta["diff"]["to"] = meta["diff"]["holder"]  # he is dying: the badge may not stay


def _badge_after_the_shot(r: Records) -> None:
    meta = _at(r, "sheriff-badge", where=lambda m: m["diff"]["to"] is not None)
    i = _index(r, meta)
    r[i], r[i + 1] = r[i + 1], r[i]


def _unweighed_counts(r: Records) -> None:
    meta = _at(r, "vote", where=lambda m: m["detail"].get("sheriff") is not None)
    counts: dict[int, float] = {}
    for _, target in meta["detail"]["ballots"]:
        if target is not None:
            counts[target] = counts.get(target, 0) + 1
    meta["detail"]["counts"] = [[s, counts[s]] for s in sorted(counts)]


def _sheriff_not_named(r: Records) -> None:
    _at(r, "vote", where=lambda m: m["detail"].get("sheriff") is not None)["detail"]["sheriff"] = (
        None
    )


def _blast_by_another_wolf(r: Records) -> None:
    meta = _at(r, "self-destruct")
    meta["diff"]["wolf"] = next(s for s in range(1, 13) if s != meta["diff"]["wolf"])


def _take_changed(r: Records) -> None:
    meta = _at(r, "self-destruct", where=lambda m: m["diff"]["target"] is not None)
    meta["diff"]["target"] = None


def _good_seat_blasts(r: Records) -> None:
    deal = r[0]["meta"]["deal"]
    good = next(s for s in range(1, 13) if "wolf" not in deal[s - 1])
    meta = _at(r, "day-speech", where=lambda m: "self_destruct" in m["diff"])
    meta["diff"]["speaker"] = good


def _king_card_hidden(r: Records) -> None:
    del _at(r, "hunter-shot", where=lambda m: "card" in m["diff"])["diff"]["card"]


def _king_shoots_the_dead(r: Records) -> None:
    meta = _at(r, "hunter-shot", where=lambda m: "card" in m["diff"])
    meta["diff"]["target"] = meta["diff"]["shooter"]


def _offer_dropped(r: Records) -> None:
    for x in r:
        names = [n for n in x["meta"].get("attachments", {}) if n.endswith("/speech")]
        for name in names:
            del x["meta"]["attachments"][name]
            del x["attachments"][name]
        if names:
            return


def _offer_changed(r: Records) -> None:
    for x in r:
        names = [n for n in x["attachments"] if n.endswith("/speech")]
        if names:
            offer = json.loads(x["attachments"][names[0]])
            x["attachments"][names[0]] = json.dumps(offer | {"options": [None, 1, 2]})
            return


FORGERIES: list[tuple[str, tuple[str, int], Callable[[Records], None], str]] = [
    ("elected-in-a-tie", KING, _elected_in_a_tie, "elected 6"),
    ("elected-another", KING, _elected_another, "sheriff 5, not 8"),
    ("election-pk-dropped", KING, _pk_dropped, "election pk"),
    ("election-counts", KING, _election_counts, "election counts"),
    ("a-candidate-votes", KING, _candidate_votes, "election ballots"),
    ("election-not-postponed", KING, _election_not_postponed, "expected self-destruct"),
    ("second-blast-keeps-the-badge", LOST, _second_blast_keeps_the_badge, "expected dawn"),
    ("badge-to-the-dying", KING, _badge_to_the_dead, "the badge went to"),
    ("badge-after-the-shot", KING, _badge_after_the_shot, "expected sheriff-badge"),
    ("unweighed-counts", KING, _unweighed_counts, "do not add up the ballots"),
    ("sheriff-not-named", KING, _sheriff_not_named, "vote's sheriff"),
    ("blast-by-another", KING, _blast_by_another_wolf, "self-destruct {"),
    ("take-changed", WHITE, _take_changed, "self-destruct {"),
    ("a-good-seat-blasts", KING, _good_seat_blasts, "self-destructs"),
    ("king-card-hidden", KING, _king_card_hidden, "card None"),
    ("king-shoots-himself", KING, _king_shoots_the_dead, "shot"),
    ("blast-offer-dropped", KING, _offer_dropped, "offers recorded for []"),
    ("blast-offer-changed", KING, _offer_changed, "offered [1, 2, None]"),
]


def test_the_real_logs_are_accepted() -> None:
    for board, seed in (KING, LOST, WHITE):
        assert check_log(_records(board, seed)) == []


@pytest.mark.parametrize(
    ("game", "forge", "problem"), [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES]
)
def test_a_forged_sheriff_blast_or_kings_shot_is_refused(
    game: tuple[str, int], forge: Callable[[Records], None], problem: str
) -> None:
    records = _records(*game)
    forge(records)
    problems = check_log(records)
    assert any(problem in p for p in problems), problems
