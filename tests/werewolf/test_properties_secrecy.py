"""Secrecy over generated games: each seat's view holds what the rules let it know, no more.

A seat may know its own card, the wolf seats if it is a wolf, the events whose audience
names it (the wolves' night, the witch's potions, the seer's checks) and the public ones,
which reveal roles only where the rules do: the hunter's card when he shoots, and every
card at the end. Twin games that differ only in hidden facts must look the same to the
seats that cannot see those facts, and private reasoning must never reach any view.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from pulse_core import Event
from pulse_core.workflow import read_attachment, read_content
from tests.oracle import check_log
from tests.strategies import (
    MARKER,
    OTHER_DECKS,
    WITCH,
    PlayedGame,
    ScriptPlayer,
    Transcript,
    V,
    W,
    checks_game,
    configs,
    game_settings,
    games,
    play,
    replay_on_failure,
    role_key,
    witch_answers,
)
from werewolf.boards import board_config
from werewolf.cast import Identity, Team, team_of
from werewolf.config import STANDARD_NINE, GameConfig
from werewolf.decisions import Choice, DecisionKind, WitchChoice, problem
from werewolf.players.random_player import RandomPlayer
from werewolf.visibility import SeatView, ViewCache, can_see, view

GAMES = game_settings(0.3)
TWINS = game_settings(0.3)
WITCH_GAMES = games(  # the twin games about the witch need a deck with a witch
    config=configs(st.sampled_from([d for d in (STANDARD_NINE, *OTHER_DECKS) if WITCH in d]))
)

IDENTITY_WORDS = {i.value for i in Identity}
ROLE_KEYS = {"deal", "identities", "identity", "role", "roles", "seed"}


def may_see(e: Event, seat: int, deal: Sequence[Identity]) -> bool:
    """The audience table of the rules, written apart from the engine's ``visible_to``."""
    card = deal[seat - 1]
    if e.role == "__start__":
        return False
    if e.role == "hunter-shot":  # a kept bullet: the shooter's (the hunter, the wolf king)
        return e.meta["diff"]["target"] is not None or e.meta["diff"]["shooter"] == seat
    if e.role == "wolf-night":  # every wolf seat, the wolf kings too
        return team_of(card) is Team.WOLVES
    owner = {
        "witch-action": WITCH,
        "seer-check": Identity.SEER,
        "guard-protect": Identity.GUARD,  # the 12-seat boards' protector
        "doctor-protect": Identity.DOCTOR,
        "doctor-told": Identity.DOCTOR,
        "cupid-link": Identity.CUPID,
    }  # every other event is public: the election, the badge, a self-destruct, a vote
    return e.role not in owner or card is owner[e.role]


def public_deaths(e: Event) -> list[int]:
    return public_deaths_of(e.role, e.meta["diff"])


def public_deaths_of(phase: str, diff: dict[str, Any]) -> list[int]:
    if phase == "dawn":
        return list(diff["died"])
    if phase in ("vote", "hunter-shot"):
        seat = diff.get("exiled") if phase == "vote" else diff.get("target")
        return [] if seat is None else [seat]
    if phase == "self-destruct":  # the wolf, and whom the white wolf king took
        return sorted(s for s in (diff["wolf"], diff.get("target")) if s is not None)
    if phase == "knight-duel":  # a wolf dueled dies, else the knight
        return [diff["target"] if diff["wolf"] else diff["knight"]]
    return []


def role_mentions(value: Any) -> list[str]:
    """Identity names and role-bearing keys anywhere in a JSON-like value."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in ROLE_KEYS:
                found.append(f"key {key!r}")
            found += role_mentions(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            found += role_mentions(inner)
    elif isinstance(value, str) and value in IDENTITY_WORDS:
        found.append(value)
    return found


def _fields(value: Any) -> Any:
    """A dataclass as a dict of its fields (json.dumps recurses into them), anything else
    JSON cannot hold as its ``str``: every text of a view, without ``asdict``'s deep copy."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    return str(value)


def as_text(seat_view: SeatView) -> str:
    return json.dumps(seat_view, default=_fields, ensure_ascii=False)


def seats(game: PlayedGame) -> range:
    return range(1, game.config.seats + 1)


# -- what a view holds ------------------------------------------------------------------------
@GAMES
@given(game=games())
@checks_game
def test_a_view_holds_exactly_what_the_seat_may_know(game: PlayedGame) -> None:
    """At every prefix, a seat's view is its own card, the wolf seats for a wolf, and the
    events the audience table gives it; no identity shows anywhere but the game's end."""
    views_hold_what_the_seats_may_know(game)


# the sheriff's election (the runs, the speeches, the withdrawals, the ballots), the badge,
# the direction, the self-destructs (the white wolf king's take) and the wolf king's shot
SHERIFF_EVENTS = frozenset(
    {"sheriff-run", "sheriff-speech", "sheriff-withdraw", "sheriff-vote", "sheriff-badge"}
    | {"sheriff-order", "self-destruct", "hunter-shot"}
)


@pytest.mark.parametrize(("board", "seed"), [("wolf-king-12", 2), ("white-wolf-king-12", 2)])
def test_every_seat_sees_the_election_the_badge_the_blasts_and_the_kings_shot(
    board: str, seed: int
) -> None:
    """A random game on each wolf-king board with every sheriff event, a self-destruct and
    a king's shot (the white wolf king's take): each is public, as the table sees it, and no
    view shows a card it does not reveal."""
    game = play(board_config(board), seed, lambda seat: RandomPlayer(seed))
    roles = {e.role for e in game.chain}
    assert roles >= SHERIFF_EVENTS - ({"hunter-shot"} if board == "white-wolf-king-12" else set())
    blasts = [e.meta["diff"] for e in game.chain if e.role == "self-destruct"]
    shots = [e.meta["diff"] for e in game.chain if e.role == "hunter-shot"]
    assert any(b["target"] is not None for b in blasts) or any("card" in s for s in shots)
    for e in game.chain[1:]:
        if e.role in SHERIFF_EVENTS and e.role != "hunter-shot":
            assert e.meta["visible_to"] is None, f"{e.role} is not public"
    views_hold_what_the_seats_may_know(game)


def views_hold_what_the_seats_may_know(game: PlayedGame) -> None:
    deal = game.deal
    wolves = tuple(s for s in seats(game) if team_of(deal[s - 1]) is Team.WOLVES)
    # each prefix's view from one cache per seat, as the engine builds them (the prefix
    # test checks the cache against view() at every prefix; the whole game's is checked here)
    views = {seat: ViewCache() for seat in seats(game)}
    for k in range(1, len(game.chain) + 1):
        prefix = game.chain[:k]
        for seat in seats(game):
            seen = views[seat].view(prefix, seat)
            if k == len(game.chain):
                assert seen == view(prefix, seat)
            visible = [e for e in prefix[1:] if may_see(e, seat, deal)]
            assert [(o.index, o.phase, o.day, o.diff, o.detail) for o in seen.observations] == [
                (i, e.role, e.meta["day"], e.meta["diff"], e.meta["detail"])
                for i, e in enumerate(visible, start=1)
            ]
            assert seen.identity is deal[seat - 1]
            assert seen.wolves == (wolves if seat in wolves else ())
            assert seen.dead == tuple(sorted(s for e in visible for s in public_deaths(e)))
            for o in seen.observations:
                if o.phase != "game-end":
                    # the config may reveal the dead (reveal_on_death): only them, truly
                    told = o.detail.get("revealed") or []
                    dead = public_deaths_of(o.phase, o.diff)
                    assert [s for s, _ in told] == (
                        [] if game.config.reveal_on_death.value == "nothing" else dead
                    )
                    for s, what in told:
                        truth = deal[s - 1]
                        assert what == (
                            team_of(truth).value
                            if game.config.reveal_on_death.value == "team"
                            else truth.value
                        )
                    rest = {k: v for k, v in o.detail.items() if k != "revealed"}
                    diff = dict(o.diff)
                    checked = o.diff.get("target")  # None: the seer checked nobody
                    if o.phase == "seer-check" and game.config.seer_learns.value == "identity":
                        # the seer alone is told her target's card, truly (none for nobody)
                        assert deal[seat - 1] is Identity.SEER
                        card = diff.pop("identity", None)
                        assert card == (None if checked is None else deal[checked - 1].value)
                    if o.phase == "hunter-shot" and "card" in diff:  # the wolf king's shot
                        assert diff.pop("card") == deal[o.diff["shooter"] - 1].value
                    mentions = role_mentions([diff, rest])
                    assert not mentions, f"{o.phase} shows seat {seat} {mentions}"


@GAMES
@given(game=games())
@checks_game
def test_a_view_of_a_prefix_is_a_prefix_of_the_view_of_the_game(game: PlayedGame) -> None:
    """What a seat saw earlier stays true: the view of any prefix begins the view of the
    whole game; the incremental view cache the engine uses gives the same views."""
    for seat in seats(game):
        whole = view(game.chain, seat)
        cache = ViewCache()
        for k in range(1, len(game.chain) + 1):
            part = view(game.chain[:k], seat)
            assert cache.view(game.chain[:k], seat) == part
            assert part.observations == whole.observations[: len(part.observations)]
            assert set(part.dead) <= set(whole.dead)
            assert (part.seat, part.identity, part.wolves, part.names, part.config) == (
                whole.seat,
                whole.identity,
                whole.wolves,
                whole.names,
                whole.config,
            )


@GAMES
@given(game=games())
@checks_game
def test_players_are_given_their_view_and_nothing_more(game: PlayedGame) -> None:
    """Every request a player got carries that seat's view of the chain so far."""
    for request, _ in game.transcript.asked:
        # the view as of the seat's last observation: that event's place in the chain
        seen = [i for i, e in enumerate(game.chain) if i and can_see(e, request.seat)]
        count = len(request.view.observations)
        last = seen[count - 1] + 1 if count else 1
        assert request.view == view(game.chain[:last], request.seat)


@GAMES
@given(game=games())
@checks_game
def test_private_reasoning_never_reaches_a_view(game: PlayedGame) -> None:
    """Marked reasoning is in the god view's attachments, and in no seat's view, no request
    and no event text a seat is shown."""
    planted = [
        read_attachment(game.store, e, name) or ""
        for e in game.chain
        for name in e.meta.get("attachments", {})
    ]
    assert any(MARKER in text for text in planted), "no reasoning was recorded"
    shown = [  # what a seat may be shown of an event: its text and its detail
        read_content(game.store, e) + json.dumps(e.meta.get("detail", {}), ensure_ascii=False)
        for e in game.chain
    ]
    for seat in seats(game):
        assert MARKER not in as_text(view(game.chain, seat))
        for e, text in zip(game.chain, shown, strict=True):
            assert not (may_see(e, seat, game.deal) and MARKER in text), f"{e.role} leaks"
    for request, _ in game.transcript.asked:
        assert MARKER not in as_text(request.view)
        assert MARKER not in json.dumps(request.context, default=str, ensure_ascii=False)


# -- twin games -------------------------------------------------------------------------------
def comparable(
    a: Sequence[Event], b: Sequence[Event], *, since: int = 1, free: frozenset[int] = frozenset()
) -> int:
    """How many events of twin games can be compared: up to the first where they took
    different paths (another phase, or another diff outside the ``free`` indices), or, from
    index ``since`` on (where the twins may differ), a hunter's shot, a death the config
    reveals (``reveal_on_death``) or the end, which reveal cards by the rules."""
    for j in range(1, min(len(a), len(b))):
        if a[j].role != b[j].role:
            return j
        if j >= since and a[j].role in ("hunter-shot", "game-end"):
            return j
        revealed = a[j].meta["detail"].get("revealed"), b[j].meta["detail"].get("revealed")
        if j >= since and revealed[0] != revealed[1]:  # reveal_on_death shows cards
            return j
        if j not in free and a[j].meta["diff"] != b[j].meta["diff"]:
            return j
    return min(len(a), len(b))


def assert_same_views(a: PlayedGame, b: PlayedGame, viewers: Sequence[int], until: int) -> None:
    """Each viewer's views of every prefix up to ``until`` are equal in the twins (built
    incrementally, as the engine builds them; the prefix test checks they equal ``view``)."""
    for seat in viewers:
        cache_a, cache_b = ViewCache(), ViewCache()
        for k in range(1, until + 1):
            assert cache_a.view(a.chain[:k], seat) == cache_b.view(b.chain[:k], seat), (
                f"seat {seat} tells the twins apart after {k} events"
            )


def last_answers(transcript: Transcript, kind: DecisionKind) -> dict[str, Any]:
    """The answer that stood for each decision of ``kind`` (the last attempt)."""
    return {r.key: (r, a) for r, a in transcript.asked if r.kind is kind}


@TWINS
@given(data=st.data())
def test_the_deal_among_unseen_seats_never_shows(data: st.DataObject) -> None:
    """Swap the cards of two good seats a viewer cannot see and replay the same decisions:
    the viewer's views match until the games take different paths or a card is revealed."""
    a = data.draw(games())
    deal = list(a.deal)
    viewer = data.draw(st.sampled_from(list(seats(a))), label="viewer")
    good = [s for s in seats(a) if s != viewer and team_of(deal[s - 1]) is Team.GOOD]
    pairs = [(x, y) for x in good for y in good if x < y and deal[x - 1] is not deal[y - 1]]
    assume(pairs)
    x, y = data.draw(st.sampled_from(pairs), label="swapped seats")
    deal[x - 1], deal[y - 1] = deal[y - 1], deal[x - 1]
    script = ScriptPlayer(a.transcript, key_of=role_key)
    b = play(a.config, a.seed, lambda seat: script, deal=deal)
    with replay_on_failure(a=a, b=b):
        until = comparable(a.chain, b.chain)
        event(f"compared {min(100, 20 * (until * 5 // len(a.chain)))}% of the game or more")
        assert_same_views(a, b, [viewer], until)
        assert check_log(b.records) == []


@TWINS
@given(data=st.data())
def test_the_witchs_choice_is_hidden_until_dawn(data: st.DataObject) -> None:
    """The same game with another legal witch choice one night looks the same to every
    other seat until that night's dawn."""
    a = data.draw(WITCH_GAMES)
    witch_requests = [  # a witch who kept answering illegally got the fallback instead
        (r, answer)
        for r, answer in last_answers(a.transcript, DecisionKind.WITCH).values()
        if isinstance(answer, WitchChoice) and problem(r, answer) is None
    ]
    assume(witch_requests)
    request, answer = data.draw(st.sampled_from(witch_requests), label="witch decision")
    assert request.witch is not None
    other = [
        c
        for c in witch_answers(request.witch)
        if (c.save, c.poison) != (answer.save, answer.poison)
    ]
    assume(other)
    choice = data.draw(st.sampled_from(other), label="other choice")
    script = ScriptPlayer(a.transcript, overrides={request.key: choice})
    b = play(a.config, a.seed, lambda seat: script)
    with replay_on_failure(a=a, b=b):
        night = int(request.key.split(".")[0][1:])
        dawn = next(i for i, e in enumerate(a.chain) if e.role == "dawn" and e.meta["day"] == night)
        witch_event = next(  # the night's phases may be followed by the sheriff's election
            i for i, e in enumerate(a.chain) if e.role == "witch-action" and e.meta["day"] == night
        )
        assert b.chain[witch_event].meta["diff"] == {"save": choice.save, "poison": choice.poison}
        others = [s for s in seats(a) if s != request.seat]
        assert_same_views(a, b, others, dawn)
        assert check_log(b.records) == []


@TWINS
@given(data=st.data())
def test_a_death_never_shows_its_cause(data: st.DataObject) -> None:
    """Swap the wolves' victim and the witch's poison of one night: to every seat but the
    wolves and the witch the twins look the same (until a hunter's shot or the end)."""
    a = data.draw(WITCH_GAMES)
    witch = next((s for s in seats(a) if a.deal[s - 1] is Identity.WITCH), None)
    kills = [r for r, _ in a.transcript.asked if r.kind is DecisionKind.WOLF_KILL]
    candidates = []
    for night, events in enumerate(_nights(a.chain), start=1):
        target = events["wolf-night"].meta["diff"]["target"]
        potion = events.get("witch-action")
        if target is None or potion is None or potion.meta["diff"]["save"]:
            continue
        poisoned = potion.meta["diff"]["poison"]
        first_round = [r for r in kills if r.key.startswith(f"n{night}.wolf-kill.r1.")]
        if (
            poisoned not in (None, target)
            and target != witch
            and poisoned in first_round[0].options
        ):
            candidates.append((night, target, poisoned, first_round))
    assume(candidates)
    night, target, poisoned, first_round = data.draw(st.sampled_from(candidates), label="night")
    overrides: dict[str, Any] = {r.key: Choice(poisoned) for r in first_round}
    overrides[f"n{night}.witch.s{witch}"] = WitchChoice(poison=target)
    script = ScriptPlayer(a.transcript, overrides=overrides)
    b = play(a.config, a.seed, lambda seat: script)
    with replay_on_failure(a=a, b=b):
        swapped = _nights(b.chain)[night - 1]
        assert swapped["wolf-night"].meta["diff"]["target"] == poisoned
        assert swapped["witch-action"].meta["diff"]["poison"] == target
        free = frozenset(
            a.chain.index(e) for e in _nights(a.chain)[night - 1].values() if e.role != "dawn"
        )
        viewers = [
            s
            for s in seats(a)
            if team_of(a.deal[s - 1]) is Team.GOOD and a.deal[s - 1] is not Identity.WITCH
        ]
        until = comparable(a.chain, b.chain, since=min(free), free=free)
        # the election comes before the dawn: a king's shot or the end there (a blast) may
        # stop the comparison first, as the rules show cards there
        dawn = _nights(a.chain)[night - 1].get("dawn")
        stop = a.chain[until].role if until < len(a.chain) else "game-end"
        if dawn is not None and stop not in ("hunter-shot", "game-end"):
            assert until > a.chain.index(dawn), "the dawns differ"
        assert_same_views(a, b, viewers, until)
        assert check_log(b.records) == []


def _nights(chain: Sequence[Event]) -> list[dict[str, Event]]:
    nights: list[dict[str, Event]] = []
    awake = False  # the first of these after a dawn begins a night (the seer may open it)
    for e in chain[1:]:
        if e.role in ("wolf-night", "witch-action", "seer-check", "dawn"):
            if not awake:
                nights.append({})
            awake = e.role != "dawn"
            nights[-1][e.role] = e
    return nights


def test_a_villager_cannot_tell_whether_the_dead_seat_was_the_witch() -> None:
    """Seat 5 is knifed on night 1, a witch in one game and a villager in the other (the
    witch of the other sits at 7 and does nothing): villager 8 must not tell them apart."""
    kill = {f"n1.wolf-kill.r1.s{w}": Choice(5) for w in (1, 2, 3)}
    a, b = (
        play(
            GameConfig(day_cap=2),
            1,
            lambda seat: ScriptPlayer(Transcript(), overrides=kill),
            deal=deal,
        )
        for deal in (
            (W, W, W, Identity.SEER, WITCH, Identity.HUNTER, V, V, V),
            (W, W, W, Identity.SEER, V, Identity.HUNTER, WITCH, V, V),
        )
    )
    assert view(a.chain, 8).dead == view(b.chain, 8).dead == (5,)
    assert_same_views(a, b, [8], comparable(a.chain, b.chain))  # holds up to night 2
    assert _dawn(a, seat=8, day=2) == _dawn(b, seat=8, day=2)


def _dawn(game: PlayedGame, *, seat: int, day: int) -> list[Any]:
    return [o for o in view(game.chain, seat).observations if o.phase == "dawn" and o.day == day]
