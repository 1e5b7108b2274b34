"""The sheriff's rules (config ``sheriff``) as pure functions of the state: the election's
next step, its voters, its tally, the badge's heirs and the sheriff's choice of direction.

The election is a run of its own phases (``sheriff-run``, ``sheriff-speech``,
``sheriff-withdraw``, ``sheriff-vote``) held after the night ``state.election_day`` and
before its dawn; ``election_phase`` names the step due from ``state.election``, so a rule
that interrupts it (moving ``election_day`` on, or ending it) needs no other change here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from .config import Discussion, GameConfig, SpeechOrder
from .records import replace
from .state import Election, GameState, Phase, Stage

__all__ = [
    "ElectionResult",
    "badge_options",
    "destruct_loses_badge",
    "election_due",
    "election_phase",
    "election_speaker",
    "election_tally",
    "election_voters",
    "order_due",
    "order_options",
    "postpone",
    "rules_line",
    "sheriff_order",
]

_SPEECH, _WITHDRAW = "speech", "withdraw"


def election_due(state: GameState) -> bool:
    """Whether the election is to be held now: the night it follows is over (its phases
    all taken) and it has not ended."""
    config = state.config
    return config.sheriff and not state.election_over and state.night == state.election_day


def destruct_loses_badge(state: GameState) -> bool:
    """Whether a self-destruct in this election loses the badge: it was postponed once
    already (``election_day`` moves on only so) and ``second_destruct_loses_badge``."""
    return state.config.second_destruct_loses_badge and state.election_day > 1


def postpone(state: GameState) -> GameState:
    """A self-destruct in the election ends it: held after the next night, or never."""
    if destruct_loses_badge(state):
        return replace(state, election=None, election_over=True)
    return replace(state, election=None, election_day=state.night + 1)


def election_phase(state: GameState) -> str:
    """The election's step due: who runs, a candidate's speech, the withdrawals, the vote."""
    election = state.election
    if election is None:
        return Phase.SHERIFF_RUN
    if election.step == _SPEECH:
        return Phase.SHERIFF_SPEECH
    if election.step == _WITHDRAW:
        return Phase.SHERIFF_WITHDRAW
    return Phase.SHERIFF_VOTE


def election_speaker(election: Election) -> int | None:
    """The next candidate to speak this round (by seat), None when all have."""
    return next((s for s in election.standing if s not in election.spoken), None)


def election_voters(state: GameState, election: Election) -> tuple[int, ...]:
    """Who votes: the living who never ran (candidates and the withdrawn do not vote). At
    the night's end its victims still live: the deaths are told at the dawn after."""
    return tuple(s for s in state.living if s not in election.candidates)


@dataclass(frozen=True, slots=True)
class ElectionResult:
    counts: dict[int, int]
    sheriff: int | None
    pk: tuple[int, ...]  # non-empty: the tied candidates speak again and the voters re-vote


def election_tally(state: GameState, ballots: Mapping[int, int | None]) -> ElectionResult:
    """A unique top is elected; a first tie goes to a PK round (``sheriff_pk``); a second
    tie, or no ballot for anyone, loses the badge."""
    counts = Counter(t for t in ballots.values() if t is not None)
    ordered = dict(sorted(counts.items()))
    if not counts:
        return ElectionResult(ordered, None, ())
    top = max(counts.values())
    leaders = tuple(sorted(s for s, c in counts.items() if c == top))
    if len(leaders) == 1:
        return ElectionResult(ordered, leaders[0], ())
    election = state.election
    if state.config.sheriff_pk and election is not None and not election.pk:
        return ElectionResult(ordered, None, leaders)
    return ElectionResult(ordered, None, ())


def badge_options(state: GameState) -> tuple[int | None, ...]:
    """The dead sheriff's choices: any living player, or tearing the badge (None) where
    ``badge_tear`` allows it (or when nobody is left to take it)."""
    heirs: list[int | None] = list(state.living)
    if state.config.badge_tear or not heirs:
        heirs.append(None)
    return tuple(heirs)


# -- the day's order ------------------------------------------------------------------------
def order_due(state: GameState) -> bool:
    """Whether the living sheriff is to choose today's direction now: before the first
    speech of a day whose order starts from the night's death (or from him)."""
    sheriff = state.sheriff
    if sheriff is None or state.spoken or state.stage is Stage.PK:
        return False
    config = state.config
    if config.discussion is Discussion.BIDDING or config.speech_order is SpeechOrder.SEAT:
        return False
    ordered = state.ordered
    return ordered is None or ordered[0] != state.night


def _base(state: GameState, sheriff: int) -> int:
    """Where today's order turns from: the lowest night death, else the sheriff."""
    return min(state.dawn_died) if state.dawn_died else sheriff


def order_options(state: GameState) -> tuple[int, ...]:
    """Who may speak first: the next living seat up from the base (to the right: seat
    numbers rising), then the one down (to the left); one seat when both are the same."""
    sheriff = state.sheriff
    if sheriff is None:
        return ()
    n, base, alive = len(state.identities), _base(state, sheriff), state.alive
    right = _ring(n, base, False, alive, sheriff)
    left = _ring(n, base, True, alive, sheriff)
    firsts = dict.fromkeys(order[0] for order in (right, left) if len(order) > 1)
    return tuple(firsts) or (sheriff,)


def sheriff_order(state: GameState, sheriff: int) -> tuple[int, ...]:
    """Today's order with a living sheriff: from the base's neighbour in the direction he
    chose (to the right unless he chose the left), round the table, and he speaks last
    (归票); by seat under ``speech_order = "seat"``."""
    alive = state.alive
    if state.config.speech_order is SpeechOrder.SEAT:
        return (*(s for s in state.living if s != sheriff), sheriff)
    ordered = state.ordered
    left = ordered is not None and ordered[0] == state.night and ordered[1]
    return _ring(len(state.identities), _base(state, sheriff), left, alive, sheriff)


@lru_cache(maxsize=4096)
def _ring(n: int, base: int, left: bool, alive: frozenset[int], sheriff: int) -> tuple[int, ...]:
    step = -1 if left else 1
    seats = (((base - 1 + step * i) % n) + 1 for i in range(1, n + 1))
    return (*(s for s in seats if s in alive and s != sheriff), sheriff)


def rules_line(config: GameConfig, lang: str) -> str:
    """The sheriff's line of the rules text (``ruletext``), from the config's fields."""
    weight = f"{config.sheriff_weight:g}"
    if lang == "zh":
        tie = (
            "平票时平票者再次发言、原投票人重投，再次平票则警徽流失"
            if config.sheriff_pk
            else "平票则警徽流失"
        )
        tear = "移交给一名存活玩家或撕毁" if config.badge_tear else "移交给一名存活玩家"
        return (
            f"警长：第1天公布昨夜死讯前竞选。玩家选择是否上警，候选人依座号发言，之后可以退水；"
            f"未上警的玩家在剩余候选人中投票（上警和退水的玩家不投票）。只剩一人则直接当选；"
            f"{tie}；无人可投票也流失；无人上警则没有警长。警长的票算{weight}票，"
            f"每天选择从死者（平安夜为警长）左侧或右侧开始发言，并最后发言（归票）。"
            f"警长死亡时（任何原因）先把警徽{tear}，再结算开枪等技能。"
        ) + (_DESTRUCT_ZH[config.second_destruct_loses_badge] if config.self_destruct else "")
    tie = (
        "a tie: the tied speak again and the same voters vote again, and a second tie loses "
        "the badge"
        if config.sheriff_pk
        else "a tie loses the badge"
    )
    tear = (
        "passes the badge to a living player or tears it"
        if config.badge_tear
        else ("passes the badge to a living player")
    )
    return (
        "Sheriff: elected on day 1, before the night's deaths are told. Players choose to run; "
        "the candidates speak by seat, then may withdraw; those who never ran vote among "
        "the candidates left (candidates and the withdrawn do not vote). One candidate left is "
        f"elected without a vote; {tie}; nobody left to vote loses it too; nobody running: no "
        f"sheriff. The sheriff's vote counts {weight}; each day he chooses whether the "
        "speeches start to the left or the right of the night's death (of himself after a "
        "peaceful night), and speaks last. When he dies, by any cause, he first " + tear + ", "
        "before any shot his death allows."
    ) + (_DESTRUCT_EN[config.second_destruct_loses_badge] if config.self_destruct else "")


_DESTRUCT_ZH = {
    True: "竞选发言中狼人自爆：竞选中止，推迟到下一天；再次自爆则警徽流失。",
    False: "竞选发言中狼人自爆：竞选中止，推迟到下一天。",
}
_DESTRUCT_EN = {
    True: " A wolf's self-destruct during the election ends it: it is held the next day, "
    "and a second one loses the badge.",
    False: " A wolf's self-destruct during the election ends it: it is held the next day.",
}
