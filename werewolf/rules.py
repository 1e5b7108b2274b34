"""The rules as pure functions of the state: legal options, night resolution, votes, wins.

No I/O, no asyncio, and no randomness but the seeded draws of ``werewolf.draws`` (a tie
broken at random), which are pure functions of the game's seed. Every function reads a
``GameState`` (and its config) and returns plain values; the phase roles call these to
decide, and the checks of player answers call them to validate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cast import Identity
from .config import AllAbstain, Discussion, GuardClash, SelfSave, SpeechOrder, TiePolicy
from .draws import Draw, draw
from .election import sheriff_order
from .registry import identity_spec
from .state import GameState, Stage
from .win import winner

__all__ = [
    "BIDS",
    "VoteResult",
    "WitchOptions",
    "destruct_options",
    "each_vote_options",
    "floor_bidders",
    "floor_winner",
    "heartbroken",
    "hunter_targets",
    "idiot_reveals",
    "next_speaker",
    "resolve_night",
    "seer_targets",
    "speaking_order",
    "speeches_left",
    "tally",
    "vote_options",
    "voters",
    "winner",
    "witch_options",
    "wolf_ballot_options",
    "wolf_ballot_target",
    "wolf_targets",
]


# -- night ------------------------------------------------------------------------------------
def wolf_targets(state: GameState) -> tuple[int | None, ...]:
    """The wolves' legal choices tonight: living seats (wolves too if 自刀 is allowed),
    and None for no kill when 空刀 is allowed."""
    config = state.config
    seats: list[int | None] = [
        s for s in state.living if config.wolf_self_knife or s not in state.wolf_seats
    ]
    if config.allow_empty_kill or not seats:
        seats.append(None)
    return tuple(seats)


def wolf_ballot_options(state: GameState) -> tuple[int | None, ...]:
    """A wolf's legal ballots (``wolf_kill = "vote"``): the kill targets, and None for an
    abstention where ``wolf_abstain`` allows it."""
    options = wolf_targets(state)
    if state.config.wolf_abstain and None not in options:
        options = (*options, None)
    return options


def wolf_ballot_target(
    state: GameState, ballots: Mapping[int, int | None]
) -> tuple[int | None, Draw | None]:
    """The victim when each wolf casts one ballot (``wolf_kill = "vote"``): the most-voted
    seat; a tie is drawn at random from the game's seed (the draw is returned to be
    recorded). No ballot for anyone kills nobody, unless every wolf abstained under
    ``wolf_abstain`` where empty kills are not allowed: then a living non-wolf is drawn."""
    counts = Counter(t for t in ballots.values() if t is not None)
    top = max(counts.values(), default=0)
    leaders = sorted(s for s, c in counts.items() if c == top)
    key = f"n{state.tonight}.wolf-kill"
    if not leaders:
        config = state.config
        prey = [s for s in state.living if s not in state.wolf_seats]
        if config.wolf_abstain and not config.allow_empty_kill and prey:
            drawn = draw(state.seed, key, prey)
            return drawn.drawn, drawn
        return None, None
    if len(leaders) == 1:
        return leaders[0], None
    drawn = draw(state.seed, key, leaders)
    return drawn.drawn, drawn


@dataclass(frozen=True, slots=True)
class WitchOptions:
    """What the witch may do tonight."""

    witch: int
    told_target: int | None  # the wolves' victim, told only while she holds the antidote
    can_save: bool
    poison_targets: tuple[int, ...]  # empty when the poison is gone
    both_allowed: bool

    def allows(self, save: bool, poison: int | None) -> str | None:
        """None when (save, poison) is legal, else the reason it is not."""
        if save and not self.can_save:
            return "you cannot use the antidote tonight"
        if poison is not None and poison not in self.poison_targets:
            return f"you cannot poison seat {poison}"
        if save and poison is not None and not self.both_allowed:
            return "at most one potion a night"
        return None


def witch_options(state: GameState) -> WitchOptions:
    witch = state.seat_of(Identity.WITCH)
    if witch is None or not state.is_alive(witch):
        raise ValueError("there is no living witch")
    target = state.wolf_target
    told = target if state.antidote else None
    self_save = state.config.witch_self_save
    self_ok = self_save is SelfSave.ALWAYS or (
        self_save is SelfSave.FIRST_NIGHT and state.night == 1
    )
    can_save = told is not None and (told != witch or self_ok)
    poison = tuple(s for s in state.living if s != witch) if state.poison else ()
    return WitchOptions(witch, told, can_save, poison, state.config.witch_both_potions)


def seer_targets(state: GameState) -> tuple[int, ...]:
    seer = state.seat_of(Identity.SEER)
    return tuple(s for s in state.living if s != seer)


def idiot_reveals(state: GameState, exiled: int | None) -> bool:
    """True when this exile only reveals the idiot instead of killing him."""
    return exiled is not None and exiled == state.idiot and not state.idiot_revealed


def _survives_the_wolves(state: GameState, target: int) -> bool:
    """The wolves' victim lives when saved by the witch, guarded or protected by the doctor;
    guarded and saved at once (同守同救) he dies unless the config says otherwise."""
    saved = state.saved == target
    guarded = state.guarded == target
    if saved and guarded:
        return state.config.guard_witch_clash is GuardClash.LIVES
    return saved or guarded or state.protected == target


def heartbroken(state: GameState, dying: set[int] | frozenset[int]) -> tuple[int, ...]:
    """The lovers who die of heartbreak (殉情) because their partner is among ``dying``."""
    out = {
        p
        for s in dying
        if (p := state.partner(s)) is not None and p in state.alive and p not in dying
    }
    return tuple(sorted(out))


def resolve_night(state: GameState) -> tuple[int, ...]:
    """Who dies at dawn: the wolves' victim unless protected, the poisoned, and a lover
    whose partner died; by seat."""
    died = set()
    if state.wolf_target is not None and not _survives_the_wolves(state, state.wolf_target):
        died.add(state.wolf_target)
    if state.poisoned is not None:
        died.add(state.poisoned)
    died &= state.alive
    return tuple(sorted(died | set(heartbroken(state, died))))


def hunter_targets(state: GameState) -> tuple[int | None, ...]:
    """A due hunter may shoot any living player, or decline (None)."""
    return (*(s for s in state.living if s != state.hunter_due), None)


# -- day --------------------------------------------------------------------------------------
# enum members read once: on Python 3.11 every read of one (``Stage.PK``) passes the enum
# metaclass's __getattr__ hook, and the discussion's rules are asked at every speech
_PK, _BY_SEAT, _BIDDING = Stage.PK, SpeechOrder.SEAT, Discussion.BIDDING


def speaking_order(state: GameState) -> tuple[int, ...]:
    """Today's order: cyclic from the seat after the lowest night death, else from the seat
    the day number points at (``speech_order = "seat"``: by seat from the lowest living
    seat); PK rounds go by seat."""
    if state.stage is _PK:
        return tuple(sorted(state.pk))
    sheriff = state.sheriff
    if sheriff is not None and sheriff in state.alive:  # he chose the direction, speaks last
        return sheriff_order(state, sheriff)
    if state.config.speech_order is _BY_SEAT:
        return state.living
    n = len(state.identities)
    start = (min(state.dawn_died) % n) + 1 if state.dawn_died else ((state.night - 1) % n) + 1
    return _cyclic(n, start, state.alive)


@lru_cache(maxsize=4096)
def _cyclic(n: int, start: int, alive: frozenset[int]) -> tuple[int, ...]:
    """The living among seats ``start``, ``start + 1``, ... of ``n``, round the table (made
    once per day: a discussion asks for its order at every speech)."""
    order = [((start - 1 + i) % n) + 1 for i in range(n)]
    return tuple(s for s in order if s in alive)


def speeches_left(state: GameState) -> int:
    """Speeches still due in today's discussion: every living player ``speech_rounds``
    times, capped by ``speech_budget`` (PK rounds: each tied player once)."""
    return _left(state, speaking_order(state))


def _left(state: GameState, order: tuple[int, ...]) -> int:
    spoken = state.spoken
    if state.stage is _PK:
        return sum(1 for s in order if s not in spoken)
    config = state.config
    total = len(order) * config.speech_rounds
    if config.speech_budget is not None:
        total = min(total, config.speech_budget)
    return max(0, total - len(spoken))


def next_speaker(state: GameState) -> int | None:
    """Who speaks next, or None when the discussion is over: in today's order, round after
    round; under bidding, the seat that won the floor (None while the floor is open)."""
    order = speaking_order(state)  # once: the moderator asks at every speech
    if _left(state, order) == 0:
        return None
    config = state.config
    if state.stage is not _PK and config.discussion is _BIDDING:
        return state.floor
    spoken = state.spoken  # a day's few speeches: counted in place, no Counter
    done = len(spoken)
    if done < len(order) and order[:done] == spoken:  # the first round so far, in order
        return order[done]
    for round_no in range(1, config.speech_rounds + 1):
        for seat in order:
            if spoken.count(seat) < round_no:
                return seat
    return None


_DAY_TALK = frozenset({Stage.MORNING, Stage.DISCUSSION, Stage.PK})


def destruct_options(state: GameState, seat: int) -> tuple[int | None, ...]:
    """What a speaker may answer instead of words (config ``self_destruct``): a living wolf,
    in the day's speeches or a PK, may self-destruct (None: taking nobody); the white wolf
    king (``destruct_takes``) may take any other living player with him; in the election's
    speeches too. () for anyone else or when the config does not allow it."""
    if not state.config.self_destruct:
        return ()
    if state.stage not in _DAY_TALK and state.election is None:
        return ()
    if seat not in state.wolf_seats:
        return ()
    if identity_spec(state.identity(seat)).destruct_takes:
        return (None, *(s for s in state.living if s != seat))
    return (None,)


def floor_bidders(state: GameState) -> tuple[int, ...]:
    """Under bidding, who may bid for the floor now: living players with speeches left
    (``speech_rounds`` each), in today's order; () when the discussion is over."""
    if speeches_left(state) == 0 or state.stage is Stage.PK:
        return ()
    spoken = Counter(state.spoken)
    rounds = state.config.speech_rounds
    return tuple(s for s in speaking_order(state) if spoken[s] < rounds)


BIDS = (0, 1, 2, 3)  # 0: nothing to add now ... 3: must speak now


def floor_winner(state: GameState, bids: Mapping[int, int]) -> int:
    """The highest bid wins the floor; a tie goes to who spoke least today, then to
    today's order (so the same bids always give the same speaker)."""
    order = {s: i for i, s in enumerate(speaking_order(state))}
    spoken = Counter(state.spoken)
    return min(bids, key=lambda s: (-bids[s], spoken[s], order.get(s, len(order))))


def voters(state: GameState) -> tuple[int, ...]:
    """Who votes now: everyone alive, except the PK candidates in a PK re-vote and a
    revealed idiot."""
    mute = state.idiot if state.idiot_revealed else None
    return tuple(s for s in state.living if s not in state.pk and s != mute)


def each_vote_options(state: GameState, seats: Sequence[int]) -> list[tuple[int | None, ...]]:
    """``[vote_options(state, seat) for seat in seats]``, what the seats share worked out
    once (a vote asks every living seat, and the living are sorted anew at each ask)."""
    config = state.config
    if state.pk:
        pool: list[int] = list(state.pk)
    else:
        shut_out = state.idiot if state.idiot_revealed and not config.idiot_second_exile else None
        pool = [s for s in state.living if s != shut_out]
    same_for_all = bool(state.pk) or config.allow_self_vote
    blank = config.allow_abstain
    each: list[tuple[int | None, ...]] = []
    for seat in seats:
        targets: list[int | None] = list(pool) if same_for_all else [s for s in pool if s != seat]
        if blank or not targets:
            targets.append(None)
        each.append(tuple(targets))
    return each


def vote_options(state: GameState, voter: int) -> tuple[int | None, ...]:
    config = state.config
    if state.pk:
        targets: list[int | None] = list(state.pk)
    else:
        self_vote = config.allow_self_vote
        targets = [s for s in state.living if self_vote or s != voter]
        if state.idiot_revealed and not config.idiot_second_exile:
            targets = [s for s in targets if s != state.idiot]
    if config.allow_abstain or not targets:  # nobody to vote for (a lone wolf beside a
        targets.append(None)  # revealed idiot who cannot be exiled again): the ballot is blank
    return tuple(targets)


@dataclass(frozen=True, slots=True)
class VoteResult:
    counts: dict[int, float]  # whole numbers but where the sheriff's weight makes a half
    exiled: int | None
    pk: tuple[int, ...]  # non-empty when the tie sends the tied players to a PK round
    drawn: Draw | None = None  # the random draw that chose the exiled, if one did


def _exilable(state: GameState) -> tuple[int, ...]:
    """Who a vote could exile: the PK candidates in a PK round, else the living (a
    revealed idiot only if he may be voted out again)."""
    if state.pk:
        return state.pk
    keep_idiot = not state.idiot_revealed or state.config.idiot_second_exile
    return tuple(s for s in state.living if keep_idiot or s != state.idiot)


def tally(state: GameState, ballots: Mapping[int, int | None]) -> VoteResult:
    """Count the ballots: a unique top exiles; a first tie goes to PK (if the config says
    so) or to a draw among the tied (the 'random' policy); a tie in the PK round or under
    the 'none' policy exiles nobody; no votes at all exile nobody, or a living player drawn
    at random (``all_abstain = "random"``)."""
    config = state.config
    counts: Counter[int] | dict[int, float] = Counter(t for t in ballots.values() if t is not None)
    sheriff = state.sheriff
    if sheriff is not None and (choice := ballots.get(sheriff)) is not None:
        counts = _weighed(counts, choice, config.sheriff_weight)
    ordered = dict(sorted(counts.items()))
    key = f"d{state.night}.vote.r{2 if state.pk else 1}"
    if not counts:
        pool = _exilable(state)
        if config.all_abstain is AllAbstain.RANDOM and pool:
            drawn = draw(state.seed, key, pool)
            return VoteResult(ordered, drawn.drawn, (), drawn)
        return VoteResult(ordered, None, ())
    top = max(counts.values())
    leaders = tuple(sorted(s for s, c in counts.items() if c == top))
    if len(leaders) == 1:
        return VoteResult(ordered, leaders[0], ())
    if config.tie_policy is TiePolicy.RANDOM:
        drawn = draw(state.seed, key, leaders)
        return VoteResult(ordered, drawn.drawn, (), drawn)
    first_round = not state.pk
    if first_round and config.tie_policy is TiePolicy.PK:
        return VoteResult(ordered, None, leaders)
    return VoteResult(ordered, None, ())


def _weighed(counts: Mapping[int, float], choice: int, weight: float) -> dict[int, float]:
    """The counts with the sheriff's ballot for ``choice`` weighing ``weight`` (1.5): a
    count stays a whole number (an int, as logs write it) where it is one."""
    weighed: dict[int, float] = dict(counts)
    total = weighed[choice] - 1 + weight
    weighed[choice] = int(total) if total == int(total) else total
    return weighed
