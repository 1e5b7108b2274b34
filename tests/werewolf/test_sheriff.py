"""The sheriff (警长): scripted games for each line of his rules, re-judged from their logs
and read by the oracle (tests/oracle.py).

Deck (seat numbers): 1-3 wolves, 4 seer, 5 witch, 6 hunter, 7-9 villagers, with the
config's ``sheriff`` on. Nobody runs unless the script says so; the election is held after
night 1's phases, before its dawn.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rich.console import Console

from pulse_core import Event
from tests.oracle import check_log, read_replay
from werewolf.config import GameConfig
from werewolf.decisions import Answer, Choice, DecisionKind, WitchChoice
from werewolf.replay.judge import rejudge
from werewolf.replay.render import StoryRenderer
from werewolf.replay.views import ViewKind, ViewSpec, ViewStream
from werewolf.state import initial_state
from werewolf.visibility import view

from .scripted import DEAL, Played, kill, play, votes


def _play(script: dict[str, Answer], **fields: object) -> Played:
    fields.setdefault("day_cap", 2)  # the quiet script's games would run to the cap: keep it short
    config = GameConfig(identities=DEAL, referee_record=True, sheriff=True, **fields)  # type: ignore[arg-type]
    played = play(script, config=config, deal=DEAL)
    assert check_log([{"kind": e.kind, "meta": e.meta} for e in played.chain]) == []
    rejudge(played.chain, lambda e: e.role)  # every event follows from the rules
    return played


def _run(*seats: int) -> dict[str, Answer]:
    return {f"d1.sheriff-run.s{s}": Choice(1) for s in seats}


def _elect(*ballots: tuple[int, int | None], rnd: int = 1) -> dict[str, Answer]:
    return {f"d1.sheriff-vote.r{rnd}.s{v}": Choice(t) for v, t in ballots}


def _roles(played: Played, day: int = 1) -> list[str]:
    return [e.role for e in played.chain if e.meta.get("day") == day and e.role != "__start__"]


def _one(played: Played, phase: str) -> Event:
    (event,) = played.events(phase)
    return event


def _speakers(played: Played, day: int) -> list[int]:
    return [
        e.meta["diff"]["speaker"]
        for e in played.events("day-speech")
        if e.meta["day"] == day and not e.meta["detail"]["pk"]
    ]


def test_nobody_runs_no_sheriff_and_the_dawn_follows() -> None:
    played = _play({})
    roles = _roles(played)
    run = roles.index("sheriff-run")
    assert roles[run + 1] == "dawn"
    assert _one(played, "sheriff-run").meta["diff"] == {"candidates": [], "sheriff": None}
    assert played.state.sheriff is None
    assert "sheriff-order" not in played.phases()


def test_the_election_comes_after_the_night_before_its_dawn() -> None:
    played = _play({**_run(4), **kill(1, 7)})
    roles = _roles(played)
    assert roles.index("seer-check") < roles.index("sheriff-run") < roles.index("dawn")


def test_one_candidate_is_elected_without_a_vote() -> None:
    played = _play(_run(4))
    assert _one(played, "sheriff-run").meta["diff"] == {"candidates": [4], "sheriff": 4}
    assert "sheriff-vote" not in played.phases()
    assert "sheriff-speech" not in played.phases()
    assert played.events("sheriff-order")[0].meta["diff"]["sheriff"] == 4


def test_candidates_speak_withdraw_and_those_who_never_ran_vote() -> None:
    script = {**_run(4, 7, 8), "d1.sheriff-withdraw.s8": Choice(1)}
    script |= _elect((1, 7), (2, 7), (3, 4), (5, 4), (6, 4), (9, None))
    played = _play(script)
    speeches = [e.meta["diff"]["speaker"] for e in played.events("sheriff-speech")]
    assert speeches == [4, 7, 8]
    assert _one(played, "sheriff-withdraw").meta["diff"] == {
        "lost": False,
        "sheriff": None,
        "withdrawn": [8],
    }
    vote = _one(played, "sheriff-vote")
    assert [v for v, _ in vote.meta["detail"]["ballots"]] == [1, 2, 3, 5, 6, 9]
    assert vote.meta["diff"] == {"lost": False, "pk": [], "sheriff": 4}
    asked = played.asked_for("d1.sheriff-vote.r1.s1")[0]
    assert asked.options == (4, 7, None)  # the withdrawn is no longer a candidate
    assert played.state.sheriff == 4


def test_a_withdrawal_that_leaves_one_elects_him() -> None:
    played = _play({**_run(4, 7), "d1.sheriff-withdraw.s7": Choice(1)})
    assert _one(played, "sheriff-withdraw").meta["diff"]["sheriff"] == 4
    assert "sheriff-vote" not in played.phases()


def test_a_tie_goes_to_a_pk_and_a_second_tie_loses_the_badge() -> None:
    split = ((1, 4), (2, 4), (3, 7), (5, 7), (6, None), (8, None), (9, None))
    played = _play({**_run(4, 7), **_elect(*split), **_elect(*split, rnd=2)})
    first, second = played.events("sheriff-vote")
    assert first.meta["diff"] == {"lost": False, "pk": [4, 7], "sheriff": None}
    pk = [e for e in played.events("sheriff-speech") if e.meta["detail"]["pk"]]
    assert [e.meta["diff"]["speaker"] for e in pk] == [4, 7]
    assert second.meta["detail"]["round"] == 2
    assert [v for v, _ in second.meta["detail"]["ballots"]] == [1, 2, 3, 5, 6, 8, 9]
    assert second.meta["diff"] == {"lost": True, "pk": [], "sheriff": None}
    assert played.state.sheriff is None
    assert played.state.election_over


def test_the_pk_elects_on_a_clear_second_vote() -> None:
    split = ((1, 4), (2, 4), (3, 7), (5, 7))
    played = _play({**_run(4, 7), **_elect(*split), **_elect(*split, (6, 7), rnd=2)})
    assert played.events("sheriff-vote")[-1].meta["diff"]["sheriff"] == 7


def test_without_sheriff_pk_a_tie_loses_the_badge_at_once() -> None:
    played = _play({**_run(4, 7), **_elect((1, 4), (2, 7))}, sheriff_pk=False)
    assert _one(played, "sheriff-vote").meta["diff"] == {"lost": True, "pk": [], "sheriff": None}


def test_nobody_left_to_vote_loses_the_badge() -> None:
    played = _play(_run(*range(1, 10)))
    assert _one(played, "sheriff-withdraw").meta["diff"] == {
        "lost": True,
        "sheriff": None,
        "withdrawn": [],
    }
    assert "sheriff-vote" not in played.phases()
    assert played.state.sheriff is None


def test_the_exiled_sheriff_passes_the_badge_before_his_last_words() -> None:
    played = _play({**_run(4), **votes(1, 4), "d1.badge.s4": Choice(5)})
    roles = _roles(played)
    assert roles.index("vote") < roles.index("sheriff-badge") < roles.index("last-words")
    assert _one(played, "sheriff-badge").meta["diff"] == {"holder": 4, "to": 5}
    assert played.events("sheriff-order")[-1].meta["diff"]["sheriff"] == 5  # day 2


def test_a_sheriff_killed_at_night_passes_the_badge_before_the_hunters_shot() -> None:
    script = {**_run(6), **kill(1, 6), "d1.badge.s6": Choice(9), "d1.hunter.s6": Choice(1)}
    played = _play(script)
    roles = _roles(played)
    assert roles.index("dawn") < roles.index("sheriff-badge") < roles.index("hunter-shot")
    assert played.state.sheriff == 9


def test_the_badge_never_goes_to_a_seat_dead_in_the_same_batch_and_an_heir_shot_passes_it() -> None:
    script: dict[str, Answer] = {**_run(6), **kill(1, 6), "n1.witch.s5": WitchChoice(poison=7)}
    script |= {"d1.badge.s6": Choice(8), "d1.hunter.s6": Choice(8), "d1.badge.s8": Choice(9)}
    played = _play(script)
    offered = played.asked_for("d1.badge.s6")[0].options
    assert {6, 7}.isdisjoint(offered)
    assert None in offered
    badges = [e.meta["diff"] for e in played.events("sheriff-badge")]
    assert badges[:2] == [{"holder": 6, "to": 8}, {"holder": 8, "to": 9}]
    roles = _roles(played)
    assert roles.index("hunter-shot") < [i for i, r in enumerate(roles) if r == "sheriff-badge"][1]


def test_a_torn_badge_leaves_no_sheriff() -> None:
    played = _play({**_run(4), **votes(1, 4)})  # the script's default tears it
    assert _one(played, "sheriff-badge").meta["diff"] == {"holder": 4, "to": None}
    assert played.state.sheriff is None
    assert len(played.events("sheriff-order")) == 1  # day 1 only


def test_badge_tear_false_offers_no_tearing() -> None:
    played = _play({**_run(4), **votes(1, 4)}, badge_tear=False)
    assert None not in played.asked_for("d1.badge.s4")[0].options


def test_the_sheriffs_half_vote_breaks_a_tie() -> None:
    ballots = {f"d1.vote.r1.s{s}": Choice(t) for s, t in ((4, 1), (7, 1), (2, 7), (3, 7))}
    played = _play({**_run(4), **ballots})
    vote = played.events("vote")[0]
    assert vote.meta["diff"]["exiled"] == 1
    assert vote.meta["diff"]["pk"] == []
    assert vote.meta["detail"]["counts"] == [[1, 2.5], [7, 2]]
    assert vote.meta["detail"]["sheriff"] == 4
    unweighed = _play(ballots)  # nobody ran: the same ballots tie
    assert unweighed.events("vote")[0].meta["diff"]["pk"] == [1, 7]


def test_a_weight_of_two_makes_a_tie() -> None:
    ballots = {f"d1.vote.r1.s{s}": Choice(t) for s, t in ((4, 1), (2, 7), (3, 7))}
    played = _play({**_run(4), **ballots}, sheriff_weight=2.0)
    vote = played.events("vote")[0]
    assert vote.meta["diff"]["pk"] == [1, 7]
    assert vote.meta["detail"]["counts"] == [[1, 2], [7, 2]]


def test_the_sheriff_chooses_the_direction_and_speaks_last() -> None:
    played = _play({**_run(4), **kill(1, 7), "d1.order.s4": Choice(6)})
    asked = played.asked_for("d1.order.s4")[0]
    assert asked.options == (8, 6)  # to the right of the dead seat 7, or to its left
    assert _one_day(played, 1)["diff"] == {"first": 6, "left": True, "sheriff": 4}
    assert _speakers(played, 1) == [6, 5, 3, 2, 1, 9, 8, 4]


def test_to_the_right_after_a_peaceful_night_starts_beside_the_sheriff() -> None:
    played = _play(_run(4))
    assert played.asked_for("d1.order.s4")[0].options == (5, 3)
    assert _speakers(played, 1) == [5, 6, 7, 8, 9, 1, 2, 3, 4]


def _one_day(played: Played, day: int) -> dict[str, object]:
    (event,) = [e for e in played.events("sheriff-order") if e.meta["day"] == day]
    return dict(event.meta)


def test_the_election_is_public() -> None:
    split = ((1, 4), (2, 4), (3, 7), (5, 7))
    played = _play({**_run(4, 7), **_elect(*split), **_elect(*split, (6, 7), rnd=2)})
    election = {"sheriff-run", "sheriff-speech", "sheriff-withdraw", "sheriff-vote"}
    for event in played.chain:
        if event.role in election | {"sheriff-order"}:
            assert event.meta["visible_to"] is None
    seen = [o.phase for o in view(played.chain, 9).observations]
    for phase in election | {"sheriff-order"}:
        assert phase in seen
    asked = {r.kind for r in played.asked}
    assert {DecisionKind.SHERIFF_RUN, DecisionKind.SHERIFF_VOTE} <= asked


def test_the_public_view_draws_the_election_the_badge_and_the_weighed_vote() -> None:
    split = ((1, 4), (2, 4), (3, 7), (5, 7))
    script = {**_run(4, 7, 8), "d1.sheriff-withdraw.s8": Choice(1)}
    script |= {**_elect(*split), **_elect(*split, (6, 7), rnd=2)}
    script |= {"d1.vote.r1.s7": Choice(2), "d1.vote.r1.s1": Choice(7), "d1.badge.s7": Choice(9)}
    script |= {f"d1.vote.r1.s{s}": Choice(7) for s in (2, 3)}
    played = _play(script)
    stream = ViewStream(ViewSpec(ViewKind.PUBLIC))
    renderer = StoryRenderer(ViewSpec(ViewKind.PUBLIC), initial_state(played.chain[0].meta))
    console = Console(width=120, record=True, color_system=None)
    for event in played.chain:
        for entry in stream.feed(event):
            for renderable in renderer.entry(entry):
                console.print(renderable)
    drawn = console.export_text()
    assert "Sheriff election. Running: 4 Dana, 7 Gus, 8 Hana." in drawn
    assert "Withdrawn (退水): 8 Hana." in drawn
    assert "Tie between 4 Dana, 7 Gus: they speak again, then a re-vote." in drawn
    assert "7 Gus ★ is elected sheriff." in drawn
    assert "7 Gus (sheriff, ×1.5)" in drawn  # his ballot in the exile vote
    assert "passes the badge to 9 Ivo ★." in drawn
    assert "Election PK speech of 4 Dana" in drawn


CLI = [sys.executable, "-c", "import sys; from werewolf.cli import main; sys.exit(main())"]


def test_the_sheriff_flag_elects_one_on_the_nine_seat_board(tmp_path: Path) -> None:
    store = tmp_path / "g.sqlite3"
    argv = ["play", "--board", "standard-9", "--sheriff", "--seed", "5", "-q", "--store"]
    subprocess.run([*CLI, *argv, str(store)], capture_output=True, text=True, check=True)
    records = read_replay(next(tmp_path.glob("*.jsonl")))
    assert records[0]["meta"]["game"]["config"]["sheriff"] is True
    assert "werewolf.sheriff-run" in [r["kind"] for r in records]
    assert check_log(records) == []
    refused = subprocess.run(
        [*CLI, "play", "--sheriff", "--no-sheriff", "-q"], capture_output=True, text=True
    )
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1
    assert "--no-sheriff: not allowed with argument --sheriff" in refused.stderr
