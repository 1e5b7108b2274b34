"""Properties of the guard, the doctor, the idiot, cupid and the lovers, the knight, over generated games
on every deck that holds them (tests.strategies.IDENTITY_DECKS, every config variant).

Each invariant is written from the log (kinds and metas), apart from the engine; the
independent referee (tests/oracle.py) re-judges every game as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given

from pulse_core import Event
from tests.oracle import check_log
from tests.strategies import PlayedGame, checks_game, game_settings, games, identity_configs
from werewolf.cast import Identity
from werewolf.game import fold_chain
from werewolf.state import Outcome
from werewolf.visibility import view

GAMES = game_settings(0.4)
IDENTITY_GAMES = games(config=identity_configs())


def _seat_of(deal: Sequence[Identity], identity: Identity) -> int | None:
    return next((s for s, i in enumerate(deal, start=1) if i is identity), None)


def _events(game: PlayedGame, role: str) -> list[Event]:
    return [e for e in game.chain if e.role == role]


@game_settings(0.6)
@given(game=IDENTITY_GAMES)
@checks_game
def test_the_oracle_accepts_every_game_with_the_new_identities(game: PlayedGame) -> None:
    assert check_log(game.records) == []


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_protections_follow_the_config_and_stay_private(game: PlayedGame) -> None:
    """The guard never protects one seat two nights running (unless allowed), nor himself
    (unless allowed); the doctor likewise; only the protector sees the choice."""
    for role, identity, repeat, self_ok in (
        ("guard-protect", Identity.GUARD, game.config.guard_repeat, game.config.guard_self),
        ("doctor-protect", Identity.DOCTOR, game.config.doctor_repeat, game.config.doctor_self),
    ):
        me = _seat_of(game.deal, identity)
        last: tuple[int, int | None] | None = None  # (night, seat)
        for e in _events(game, role):
            assert e.meta["visible_to"] == [me]
            target, night = e.meta["diff"]["target"], e.meta["day"]
            if identity is Identity.DOCTOR and target is None:
                # she protects someone every night, unless an illegal answer took its
                # fallback at once (retry_illegal = false, as on Kaggle: she does nothing)
                assert not game.config.retry_illegal
                assert [f["seat"] for f in e.meta.get("fallbacks", [])] == [me]
            if target == me:
                assert self_ok
            if last is not None and last[0] == night - 1 and target is not None:
                # the doctor repeats only when nobody else is left to protect
                alive = fold_chain(game.chain[: game.chain.index(e)]).alive
                others = [s for s in alive if s != last[1] and (self_ok or s != me)]
                forced = identity is Identity.DOCTOR and not others
                assert repeat or forced or target != last[1], f"{role} repeated seat {target}"
            last = (night, target)


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_guarded_and_saved_follows_the_clash_rule(game: PlayedGame) -> None:
    """同守同救: a wolves' victim both guarded and saved by the witch dies under 'dies'."""
    by_night: dict[int, dict[str, Event]] = {}
    for e in game.chain[1:]:
        if e.role in ("guard-protect", "wolf-night", "witch-action", "dawn"):
            by_night.setdefault(e.meta["day"], {})[e.role] = e
    for events in by_night.values():
        if not {"guard-protect", "wolf-night", "witch-action", "dawn"} <= set(events):
            continue
        target = events["wolf-night"].meta["diff"]["target"]
        guarded = events["guard-protect"].meta["diff"]["target"]
        saved = events["witch-action"].meta["diff"]["save"]
        if target is not None and saved and guarded == target:
            died = target in events["dawn"].meta["diff"]["died"]
            assert died == (game.config.guard_witch_clash == "dies")


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_a_revealed_idiot_lives_on_and_never_votes(game: PlayedGame) -> None:
    idiot = _seat_of(game.deal, Identity.IDIOT)
    revealed_on: int | None = None
    for e in game.chain:
        if e.role != "vote":
            continue
        if revealed_on is not None:
            voters = [v for v, _ in e.meta["detail"]["ballots"]]
            assert idiot not in voters, "a revealed idiot voted"
            if not game.config.idiot_second_exile:
                assert all(t != idiot for _, t in e.meta["detail"]["ballots"])
        if e.meta["diff"].get("revealed") is not None:
            assert e.meta["diff"]["revealed"] == idiot == e.meta["diff"]["exiled"]
            assert revealed_on is None, "the idiot revealed twice"
            revealed_on = e.meta["day"]
    final = fold_chain(game.chain)
    if revealed_on is not None and idiot is not None:
        assert final.idiot_revealed
        # the reveal itself never killed him
        assert all(not (d.seat == idiot and d.day == revealed_on and d.cause == "exile")
                   for d in final.deaths) or game.config.idiot_second_exile  # fmt: skip


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_lovers_die_together_and_their_link_stays_secret(game: PlayedGame) -> None:
    final = fold_chain(game.chain)
    links = _events(game, "cupid-link")
    if not links:
        assert final.lovers == ()
        return
    cupid = _seat_of(game.deal, Identity.CUPID)
    lovers = links[0].meta["diff"]["lovers"]
    assert links[0].meta["visible_to"] == [cupid]
    told = _events(game, "lovers-told")
    assert told
    assert told[0].meta["visible_to"] == sorted(lovers)
    dead = {d.seat for d in final.deaths}
    assert (lovers[0] in dead) == (lovers[1] in dead), "one lover outlived the other"
    for seat in range(1, game.config.seats + 1):
        phases = {o.phase for o in view(game.chain, seat).observations}
        assert ("lovers-told" in phases) == (seat in lovers)
        assert ("cupid-link" in phases) == (seat == cupid)


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_a_third_side_wins_only_when_only_it_is_left(game: PlayedGame) -> None:
    final = fold_chain(game.chain)
    end = game.chain[-1].meta
    if end["diff"]["winner"] != Outcome.LOVERS:
        return
    a, b = final.lovers
    assert (game.deal[a - 1] is Identity.WEREWOLF) != (game.deal[b - 1] is Identity.WEREWOLF)
    cupid = _seat_of(game.deal, Identity.CUPID)
    assert set(end["detail"]["alive"]) <= {a, b, cupid}
    assert {a, b} <= set(end["detail"]["alive"])


@GAMES
@given(game=IDENTITY_GAMES)
@checks_game
def test_a_knight_duels_once_and_a_wolf_dueled_ends_the_day(game: PlayedGame) -> None:
    """At most one duel a game; it kills the wolf named (and the day ends: no speech, no
    vote after it that day) or the knight; a declined offer is the knight's alone."""
    knight = _seat_of(game.deal, Identity.KNIGHT)
    duels = [e for e in _events(game, "knight-duel") if e.meta["diff"]["target"] is not None]
    assert len(duels) <= 1
    for e in _events(game, "knight-duel"):
        assert e.meta["diff"]["knight"] == knight
        if e.meta["diff"]["target"] is None:
            assert e.meta["visible_to"] == [knight]
    for duel in duels:
        diff, day = duel.meta["diff"], duel.meta["day"]
        dead = diff["target"] if diff["wolf"] else knight
        final = fold_chain(game.chain)
        assert any(d.seat == dead and d.cause == "duel" for d in final.deaths)
        after = game.chain[game.chain.index(duel) + 1 :]
        later = [e.role for e in after if e.meta.get("day") == day]
        if diff["wolf"]:
            assert "day-speech" not in later
            assert "vote" not in later
