"""The fold steps every killing event shares: a batch of deaths (with the lovers who die of
heartbreak at once) and what follows it (a due shot, due last words), or, when the batch
decides the game, the record of what it would have led to."""

from __future__ import annotations

from ..records import replace
from ..registry import shots
from ..state import Cause, Death, GameState, Phase
from ..win import winner

__all__ = ["after_deaths", "kill", "shoots"]

_HUNTER, _LAST_WORDS, _BADGE = Phase.HUNTER.value, Phase.LAST_WORDS.value, Phase.BADGE.value


def kill(state: GameState, deaths: list[Death]) -> tuple[GameState, list[Death]]:
    """Apply a batch of deaths (with the lovers who die of heartbreak at once) and the win
    check that follows every batch; returns the state and the whole batch."""
    dying = {d.seat for d in deaths}
    for death in list(deaths):
        partner = state.partner(death.seat)
        if partner is not None and partner in state.alive and partner not in dying:
            deaths.append(Death(partner, death.day, Cause.LOVE))
            dying.add(partner)
    alive = state.alive - dying
    state = replace(state, alive=alive, deaths=state.deaths + tuple(deaths))
    state = replace(state, winner=winner(state))
    sheriff = state.sheriff
    if sheriff is not None and sheriff in dying:  # the badge passes before anything else
        if state.winner is None:
            state = replace(state, sheriff=None, badge_due=sheriff)
        else:
            state = replace(state, sheriff=None, skipped=(*state.skipped, (_BADGE, sheriff)))
    return state, deaths


def shoots(state: GameState, death: Death) -> bool:
    """Whether this death gives its seat a shot (the hunter's, the wolf king's: the
    identity's ``registry.Shot``)."""
    shot = shots().get(state.identity(death.seat))
    return shot is not None and shot.allowed(state, death.cause)


def after_deaths(
    state: GameState, deaths: list[Death], *, last_words: tuple[int, ...]
) -> GameState:
    """Who shoots and who speaks after a batch of deaths, unless the game is decided."""
    if state.winner is not None:  # the game ends at once: note what the deaths would have led to
        skipped = [(_HUNTER, d.seat) for d in deaths if shoots(state, d)]
        skipped += [(_LAST_WORDS, s) for s in (*state.last_words_due, *last_words)]
        return replace(
            state, hunter_due=None, last_words_due=(), skipped=state.skipped + tuple(skipped)
        )
    hunter_due = state.hunter_due
    for death in deaths:
        if shoots(state, death):
            hunter_due = death.seat
    return replace(
        state, hunter_due=hunter_due, last_words_due=state.last_words_due + tuple(last_words)
    )
