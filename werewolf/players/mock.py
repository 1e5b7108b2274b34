"""The mock player: seeded heuristics that play like people, from the seat's view only.

A ``MockPlayer`` reads nothing but the request: the seat's ``SeatView`` (own card, fellow
wolves, public deaths, the events it may see), the legal options, the witch's options and
the phase's context. Every choice is drawn from ``decision_rng(game_seed, seat, key)``, so
it depends only on the game seed, the seat and the decision, and a resumed game plays
exactly as an uninterrupted one. The personality (``cautious``, ``steady``, ``bold``) only
moves thresholds; it is drawn from the seed and the seat unless given.

How they play: the seer checks the most suspected unchecked seat; she claims when she finds
a wolf, meets a counter-claim or is accused, and from day 2 on (day 1 unless cautious), and
then reports every check in each speech. The wolves follow the first wolf's proposal at night (a claimed seer first,
a claimed hunter last), and may plan a fake seer who reports good players as wolves; by
day they back their fake seer or blend in, never vote for each other, and sell out
("bus") a fellow wolf only when he is exposed and doomed. The witch saves on night 1 as a
rule and poisons a seat only on strong evidence; the hunter shoots the most suspected seat.
Good players trust a lone seer claim; between counter-claims they weigh the evidence (a
claimer killed at night, a claimer who called *them* a wolf, reports that fit the night
kills); without claims they follow the most accused seat.

Claim grammar
-------------
Mock speeches carry their claims as plain sentences that ``parse_speech`` reads back. Each
is an honest statement of what the speaker claims (the wolves lie in it as they would in
words), so a reader of the log sees the same thing the mocks see. Matching is
case-insensitive, anywhere in the text, seats as digits (``seat 4``, ``seat #4``)::

    I am the seer.                        a role claim (seer, witch or hunter)
    Night 2: I checked seat 4: a wolf.    a check report ("good" for good; "Night N:" optional)
    Seat 4 is a wolf. / Seat 4 is good.   an opinion ("a wolf" also accuses; from a seer
                                          claimer it is a report without a night)
    I suspect seat 4.                     an accusation
    Vote seat 4.                          the seat the speaker will vote for (an accusation)
    I trust seat 4.                       support, e.g. for a seer claimer
    I saved seat 4. / I poisoned seat 4.  a witch's account
    Kill seat 4. / Kill nobody.           (the wolves' night talk) the proposed victim
    Seat 4 will claim seer. / Nobody will claim seer.   (the wolves' night talk) the plan

Speeches that use none of these sentences (LLM or human ones, usually) are simply not
understood: they add no claims and no accusations.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from random import Random
from typing import Any

from ..cast import Identity
from ..decisions import Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from ..errors import ConfigError, GameStateError
from ..visibility import SeatView
from .random_player import decision_rng

__all__ = [
    "PERSONALITIES",
    "MockPlayer",
    "Said",
    "Table",
    "Temper",
    "parse_speech",
    "pick_personality",
    "read_table",
]


# -- personalities ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Temper:
    """The thresholds a personality moves."""

    name: str
    noise: float  # spread of the random part of suspicion
    seer_claims_early: bool  # the seer claims on day 1 even without a wolf to report
    save_first_night: float  # chance the witch saves the night-1 victim
    save_later: float  # chance she saves on a later night
    poison_at: float  # suspicion a seat needs before the witch poisons it
    fake_claim: float  # chance the first wolf plans a fake seer claim
    jump_when_exposed: float  # chance an exposed wolf counter-claims seer
    attack_seer: float  # chance a wolf openly doubts a lone seer claimer instead of blending
    follow: float  # weight of each accusation heard today (how much the seat follows the table)
    bus: float  # chance a wolf votes out an exposed and doomed fellow wolf
    self_knife: float  # chance the first wolf proposes himself on night 1 (to bait the antidote)


PERSONALITIES: dict[str, Temper] = {
    "cautious": Temper(
        name="cautious",
        noise=0.6,
        seer_claims_early=False,
        save_first_night=0.95,
        save_later=0.15,
        poison_at=5.0,
        fake_claim=0.35,
        jump_when_exposed=0.25,
        attack_seer=0.2,
        follow=0.5,
        bus=0.03,
        self_knife=0.0,
    ),
    "steady": Temper(
        name="steady",
        noise=0.9,
        seer_claims_early=True,
        save_first_night=0.9,
        save_later=0.3,
        poison_at=4.0,
        fake_claim=0.5,
        jump_when_exposed=0.45,
        attack_seer=0.4,
        follow=0.4,
        bus=0.06,
        self_knife=0.02,
    ),
    "bold": Temper(
        name="bold",
        noise=1.2,
        seer_claims_early=True,
        save_first_night=0.8,
        save_later=0.45,
        poison_at=3.5,
        fake_claim=0.65,
        jump_when_exposed=0.65,
        attack_seer=0.6,
        follow=0.3,
        bus=0.1,
        self_knife=0.05,
    ),
}


def pick_personality(game_seed: int, seat: int) -> str:
    """The personality of a seat, drawn from the game seed and the seat only."""
    return decision_rng(game_seed, seat, "personality", "mock").choice(sorted(PERSONALITIES))


# -- the claim grammar ------------------------------------------------------------------------
_SEAT = r"seat\s*#?\s*(\d+)"
_WOLF_OR_GOOD = r"(a\s+wolf|a\s+werewolf|wolf|werewolf|good)"
_ROLE_CLAIM = re.compile(r"\bI\s+am\s+the\s+(seer|witch|hunter)\b", re.I)
_REPORT = re.compile(
    r"(?:\bnight\s+(\d+)\s*[:,.-]?\s*)?\bI\s+checked\s+" + _SEAT + r"\s*[:,.-]?\s*(?:is\s+)?"
    rf"{_WOLF_OR_GOOD}\b",
    re.I,
)
_OPINION = re.compile(r"\b" + _SEAT + rf"\s+is\s+{_WOLF_OR_GOOD}\b", re.I)
_SUSPECT = re.compile(r"\bI\s+suspect\s+" + _SEAT, re.I)
_VOTE = re.compile(r"\bvote\s+(?:for\s+)?" + _SEAT, re.I)
_TRUST = re.compile(r"\bI\s+trust\s+" + _SEAT, re.I)
_SAVED = re.compile(r"\bI\s+saved\s+" + _SEAT, re.I)
_POISONED = re.compile(r"\bI\s+poisoned\s+" + _SEAT, re.I)
_KILL = re.compile(r"\bkill\s+(?:" + _SEAT + r"|(nobody))", re.I)
_PLAN = re.compile(r"\b(?:" + _SEAT + r"|(nobody))\s+will\s+claim\s+(?:the\s+)?seer", re.I)


@dataclass(frozen=True, slots=True)
class Said:
    """What one speech claims, read with the claim grammar."""

    roles: tuple[str, ...] = ()  # identities claimed ("seer", "witch", "hunter")
    reports: tuple[tuple[int | None, int, bool], ...] = ()  # (night or None, seat, wolf)
    opinions: tuple[tuple[int, bool], ...] = ()  # (seat, wolf) from "Seat N is ..."
    accuses: tuple[int, ...] = ()  # "I suspect seat N", "Vote seat N"
    trusts: tuple[int, ...] = ()
    saved: tuple[int, ...] = ()
    poisoned: tuple[int, ...] = ()
    kill: int | None = None  # "Kill seat N"
    kill_said: bool = False  # a kill sentence was there ("Kill nobody" gives kill=None)
    fake_seer: int | None = None  # "Seat N will claim seer"
    plan_said: bool = False


def _is_wolf(word: str) -> bool:
    return "wolf" in word.lower()


@lru_cache(maxsize=8192)
def parse_speech(text: str) -> Said:
    """Read the claim grammar out of free text (see the module docstring). Pure; sentences
    that do not match are ignored, and so are seat numbers out of any game's range."""

    def seats(pattern: re.Pattern[str]) -> tuple[int, ...]:
        return tuple(int(m.group(1)) for m in pattern.finditer(text) if _valid(m.group(1)))

    reports = tuple(
        (int(m.group(1)) if m.group(1) else None, int(m.group(2)), _is_wolf(m.group(3)))
        for m in _REPORT.finditer(text)
        if _valid(m.group(2))
    )
    opinions = tuple(
        (int(m.group(1)), _is_wolf(m.group(2)))
        for m in _OPINION.finditer(text)
        if _valid(m.group(1))
    )
    kill_match = _KILL.search(text)
    plan_match = _PLAN.search(text)
    return Said(
        roles=tuple(m.group(1).lower() for m in _ROLE_CLAIM.finditer(text)),
        reports=reports,
        opinions=opinions,
        accuses=tuple(
            dict.fromkeys(seats(_SUSPECT) + seats(_VOTE) + tuple(s for s, w in opinions if w))
        ),
        trusts=seats(_TRUST),
        saved=seats(_SAVED),
        poisoned=seats(_POISONED),
        kill=_seat_or_none(kill_match),
        kill_said=kill_match is not None and _valid_or_nobody(kill_match),
        fake_seer=_seat_or_none(plan_match),
        plan_said=plan_match is not None and _valid_or_nobody(plan_match),
    )


def _valid(digits: str | None) -> bool:
    return digits is not None and 1 <= int(digits) <= 99


def _seat_or_none(match: re.Match[str] | None) -> int | None:
    if match is None or not _valid(match.group(1)):
        return None
    return int(match.group(1))


def _valid_or_nobody(match: re.Match[str]) -> bool:
    return _valid(match.group(1)) or match.group(2) is not None


# -- reading the table ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Utterance:
    """One speech, last words or PK speech, as heard."""

    order: int  # position among the seat's observations
    day: int
    speaker: int
    said: Said
    last_words: bool = False


@dataclass(frozen=True, slots=True)
class Ballot:
    day: int
    round: int
    voter: int
    target: int | None


@dataclass(frozen=True, slots=True)
class Table:
    """What a seat has gathered from its view: public claims, reports, accusations and
    votes, and its private knowledge (checks, potions, the wolves' plan)."""

    me: int
    identity: Identity
    wolves: tuple[int, ...]  # fellow wolves (all wolf seats), for a wolf only
    alive: tuple[int, ...]
    day: int  # the day (or night) of the latest observation
    utterances: tuple[Utterance, ...]
    seer_claims: dict[int, int]  # seat -> order of its first seer claim
    role_claims: dict[str, tuple[int, ...]]  # "witch"/"hunter" -> claimers
    reports: dict[int, dict[int, bool]]  # seer claimer -> seat -> wolf
    report_nights: dict[int, frozenset[int]]  # seer claimer -> nights already reported
    night_deaths: dict[int, tuple[int, ...]]  # night -> seats found dead at its dawn
    exiled: dict[int, int]  # day -> exiled seat
    ballots: tuple[Ballot, ...]
    shooter: int | None  # the hunter, once he has shot in public
    my_checks: dict[int, tuple[int, bool]]  # seer: night -> (seat, wolf)
    told: dict[int, int | None]  # witch: night -> the wolves' victim she was told
    saved: tuple[int, ...]  # witch: seats she saved
    poisoned: tuple[int, ...]  # witch: seats she poisoned
    fake_seer: int | None  # wolves: the teammate planned to claim seer

    @property
    def night_killed(self) -> frozenset[int]:
        return frozenset(s for seats in self.night_deaths.values() for s in seats)

    def is_alive(self, seat: int) -> bool:
        return seat in self.alive

    @property
    def vouched(self) -> frozenset[int]:
        """Seats the public has reason to think good: the hunter who shot, a lone witch or
        hunter claimer, and the seats a lone witch claimer says she saved."""
        seats = {self.shooter} if self.shooter is not None else set()
        for role in ("witch", "hunter"):
            if len(self.role_claims.get(role, ())) == 1:
                seats.add(self.role_claims[role][0])
        witches = self.role_claims.get("witch", ())
        if len(witches) == 1:
            for u in self.utterances:
                if u.speaker == witches[0]:
                    seats.update(u.said.saved)
        return frozenset(s for s in seats if s is not None)

    def claims_seer(self, seat: int) -> bool:
        return seat in self.seer_claims

    def accusations(self, seat: int, *, since_day: int = 0) -> list[Utterance]:
        """Speeches since ``since_day`` that accused ``seat``."""
        return [u for u in self.utterances if u.day >= since_day and seat in u.said.accuses]


def read_table(view: SeatView) -> Table:
    """Gather claims, reports, accusations, votes and private knowledge from a seat view."""
    utterances: list[Utterance] = []
    ballots: list[Ballot] = []
    night_deaths: dict[int, tuple[int, ...]] = {}
    exiled: dict[int, int] = {}
    shooter: int | None = None
    my_checks: dict[int, tuple[int, bool]] = {}
    told: dict[int, int | None] = {}
    saved: list[int] = []
    poisoned: list[int] = []
    fake_seer: int | None = None
    for order, obs in enumerate(view.observations):
        diff, detail, phase = obs.diff, obs.detail, obs.phase
        if phase in ("day-speech", "last-words"):
            speaker = diff.get("speaker")
            if isinstance(speaker, int):
                said = parse_speech(str(detail.get("text", "")))
                utterances.append(
                    Utterance(order, obs.day, speaker, said, last_words=phase == "last-words")
                )
        elif phase == "vote":
            for voter, target in detail.get("ballots", []):
                ballots.append(Ballot(obs.day, int(detail.get("round", 1)), voter, target))
            if diff.get("exiled") is not None:
                exiled[obs.day] = int(diff["exiled"])
        elif phase == "dawn":
            night_deaths[obs.day] = tuple(int(s) for s in diff.get("died", []))
        elif phase == "hunter-shot" and diff.get("target") is not None:
            shooter = int(diff["shooter"])
        elif phase == "seer-check":
            my_checks[obs.day] = (int(diff["target"]), bool(diff["wolf"]))
        elif phase == "witch-action":
            told[obs.day] = detail.get("told_target")
            if diff.get("save") and detail.get("told_target") is not None:
                saved.append(int(detail["told_target"]))
            if diff.get("poison") is not None:
                poisoned.append(int(diff["poison"]))
        elif phase == "wolf-night":
            for line in detail.get("discussion", []):
                said = parse_speech(str(line.get("text", "")))
                if said.plan_said and fake_seer is None:
                    fake_seer = said.fake_seer
    seer_claims: dict[int, int] = {}
    role_claims: dict[str, list[int]] = {"witch": [], "hunter": []}
    reports: dict[int, dict[int, bool]] = {}
    report_nights: dict[int, set[int]] = {}
    for u in utterances:
        for role in u.said.roles:
            if role == "seer":
                seer_claims.setdefault(u.speaker, u.order)
            elif u.speaker not in role_claims[role]:
                role_claims[role].append(u.speaker)
        if u.speaker in seer_claims:
            found = reports.setdefault(u.speaker, {})
            for night, seat, wolf in u.said.reports:
                found[seat] = wolf
                if night is not None:
                    report_nights.setdefault(u.speaker, set()).add(night)
            for seat, wolf in u.said.opinions:
                found.setdefault(seat, wolf)
    if shooter is not None and shooter not in role_claims["hunter"]:
        role_claims["hunter"].append(shooter)
    return Table(
        me=view.seat,
        identity=view.identity,
        wolves=view.wolves,
        alive=view.alive,
        day=view.day,
        utterances=tuple(utterances),
        seer_claims=seer_claims,
        role_claims={k: tuple(v) for k, v in role_claims.items()},
        reports=reports,
        report_nights={k: frozenset(v) for k, v in report_nights.items()},
        night_deaths=night_deaths,
        exiled=exiled,
        ballots=tuple(ballots),
        shooter=shooter,
        my_checks=my_checks,
        told=told,
        saved=tuple(saved),
        poisoned=tuple(poisoned),
        fake_seer=fake_seer,
    )


# -- beliefs ----------------------------------------------------------------------------------
@dataclass
class Suspicion:
    """Scores per seat (higher: more wanted out) with the reasons behind them: a private
    note for the reasoning, and a sentence the seat may say in public (or None)."""

    scores: dict[int, float] = field(default_factory=dict)
    reasons: dict[int, list[tuple[float, str, str | None]]] = field(default_factory=dict)

    def add(self, seat: int, points: float, why: str, say: str | None = None) -> None:
        if seat not in self.scores or points == 0:
            return
        self.scores[seat] += points
        self.reasons.setdefault(seat, []).append((points, why, say))

    def best(self, options: Iterable[int | None]) -> int | None:
        """The highest scored seat among ``options`` (lowest seat on a tie), or None."""
        seats = [s for s in options if s is not None and s in self.scores]
        if not seats:
            return None
        return max(seats, key=lambda s: (self.scores[s], -s))

    def why(self, seat: int) -> str:
        """The main reasons behind a seat's score, for the private reasoning."""
        reasons = sorted(self.reasons.get(seat, []), key=lambda r: -abs(r[0]))[:2]
        if not reasons:
            return f"nothing against seat {seat}, a hunch"
        return "; ".join(why for _, why, _ in reasons)

    def say(self, seat: int) -> str | None:
        """The strongest public sentence against a seat, if any."""
        public = [(p, say) for p, _, say in self.reasons.get(seat, []) if say and p > 0]
        return max(public, key=lambda r: r[0])[1] if public else None


def _noisy(rng: Random, spread: float, seats: Iterable[int]) -> Suspicion:
    """A suspicion over ``seats`` starting from a small random hunch each."""
    ordered = sorted(seats)
    return Suspicion(scores={s: rng.uniform(0.0, spread) for s in ordered})


@dataclass(frozen=True, slots=True)
class SeerBelief:
    """Which seer claimer a good player believes, how firmly (0..1), and who lies."""

    trusted: int | None
    confidence: float
    liars: tuple[int, ...]


def claim_credibility(table: Table, claimer: int) -> float:
    """How believable a seer claim is to this (good) seat: a claimer the wolves killed at
    night is likely real; one who called me (good) a wolf, or the hunter, or the wolves'
    own victim a wolf, is lying; so, likely, is one who calls a publicly vouched seat (a
    lone witch or hunter claimer, a seat the witch saved) a wolf; reports that fit the
    night kills count a little."""
    points = 3.0 if claimer in table.night_killed else 0.0
    vouched = table.vouched
    for seat, wolf in table.reports.get(claimer, {}).items():
        if seat == table.me:
            points += -10.0 if wolf else 1.0
        elif wolf and (seat == table.shooter or seat in table.told.values()):
            points -= 4.0
        elif wolf and seat in vouched:
            points -= 3.0
        elif seat in table.night_killed:
            points += -1.5 if wolf else 1.0
    return points


def seer_belief(table: Table) -> SeerBelief:
    """Trust a lone seer claim; between several, the best evidence; the rest are liars."""
    if table.identity is Identity.SEER:
        others = tuple(s for s in table.seer_claims if s != table.me)
        return SeerBelief(table.me, 1.0, others)
    claimers = sorted(
        (s for s in table.seer_claims if s != table.me), key=lambda s: table.seer_claims[s]
    )
    if not claimers:
        return SeerBelief(None, 0.0, ())
    if len(claimers) == 1:
        if claim_credibility(table, claimers[0]) <= -4.0:  # a lone claimer caught lying
            return SeerBelief(None, 0.0, (claimers[0],))
        return SeerBelief(claimers[0], 1.0, ())
    # the earlier claim gets a small edge: a real seer tends to speak up first
    rated = [
        (claim_credibility(table, c) + (0.5 if i == 0 else 0.0), c) for i, c in enumerate(claimers)
    ]
    rated.sort(key=lambda r: (-r[0], table.seer_claims[r[1]]))
    (top, trusted), (second, _) = rated[0], rated[1]
    confidence = min(1.0, 0.4 + 0.15 * (top - second))
    return SeerBelief(trusted, confidence, tuple(c for c in claimers if c != trusted))


def good_suspicion(table: Table, temper: Temper, rng: Random) -> tuple[Suspicion, SeerBelief]:
    """A good seat's suspicion of every other living seat: the hard evidence first (checks,
    seer claims, role claims, ballots), then what was said, each accuser heard as much as
    that evidence lets him be trusted."""
    sus = _noisy(rng, temper.noise, (s for s in table.alive if s != table.me))
    belief = seer_belief(table)
    _weigh_evidence(table, belief, sus)
    _weigh_words(table, belief, sus, temper)
    return sus, belief


def _weigh_evidence(table: Table, belief: SeerBelief, sus: Suspicion) -> None:
    conf = belief.confidence
    for night, (seat, wolf) in sorted(table.my_checks.items()):
        sus.add(seat, 100.0 if wolf else -100.0, f"I checked seat {seat} on night {night}")
    for liar in belief.liars:
        sus.add(
            liar, 3.0 + 2.0 * conf, f"seat {liar} is a false seer", f"Seat {liar} is a false seer."
        )
    trusted = belief.trusted
    if trusted is not None and trusted != table.me:
        sus.add(trusted, -4.0 * conf, f"I trust seat {trusted} as the seer")
        for seat, wolf in table.reports.get(trusted, {}).items():
            found = f"seer seat {trusted} found seat {seat} " + ("a wolf" if wolf else "good")
            sus.add(seat, (6.0 if wolf else -3.0) * conf, found, found.capitalize() + ".")
    for seat in table.saved:
        sus.add(seat, -2.0, f"I saved seat {seat} from the wolves")
    for role in ("witch", "hunter"):
        claimers = table.role_claims.get(role, ())
        if table.identity.value == role:
            for claimer in claimers:
                sus.add(claimer, 6.0, f"seat {claimer} claims my role, the {role}")
        elif len(claimers) == 1:
            sus.add(claimers[0], -1.5, f"seat {claimers[0]} claims the {role}")
    for b in table.ballots:
        if b.target is None or b.voter == table.me:
            continue
        if b.target == trusted:
            said = f"seat {b.voter} voted against the seer"
            sus.add(b.voter, 1.5 * conf, said, said.capitalize() + ".")
        elif b.target == table.me:
            said = f"seat {b.voter} voted against me"
            sus.add(b.voter, 0.7, said, said.capitalize() + ".")


def _weigh_words(table: Table, belief: SeerBelief, sus: Suspicion, temper: Temper) -> None:
    trusted, conf = belief.trusted, belief.confidence
    standing = dict(sus.scores)  # before the words: how far each speaker is trusted
    # backing a false seer counts once the claim I believe was on the table: then he chose
    since = table.seer_claims.get(trusted) if trusted is not None else None

    def credence(speaker: int) -> float:
        if speaker in belief.liars:
            return 0.3
        if speaker not in standing:  # dead (a night victim is likely good) or me
            return 1.2 if speaker in table.night_killed else 0.8
        return min(1.5, max(0.2, 1.0 - standing[speaker] / 6.0))

    for u in table.utterances:
        if u.speaker == table.me:
            continue
        weight = (temper.follow if u.day >= table.day else temper.follow / 3) * credence(u.speaker)
        for seat in u.said.accuses:
            if seat == table.me:
                sus.add(
                    u.speaker,
                    1.0,
                    f"seat {u.speaker} accused me, and I am good",
                    f"Seat {u.speaker} accused me, and I am good.",
                )
            elif seat == trusted:
                sus.add(
                    u.speaker,
                    1.0 * conf,
                    f"seat {u.speaker} attacks the seer",
                    f"Seat {u.speaker} attacks the seer.",
                )
            elif seat != u.speaker:
                sus.add(
                    seat,
                    weight,
                    f"seat {u.speaker} accused seat {seat}",
                    f"Others suspect seat {seat} too.",
                )
        for seat in u.said.trusts:
            if seat in belief.liars and since is not None and u.order > since:
                said = f"seat {u.speaker} backs the false seer seat {seat}"
                sus.add(u.speaker, 1.5, said, said.capitalize() + ".")


def wolf_agenda(table: Table, temper: Temper, rng: Random, *, night: bool) -> Suspicion:
    """How much the wolves want each living good seat gone, by night (kill) or by day
    (exile), with cover stories to say in public."""
    sus = _noisy(rng, temper.noise, (s for s in table.alive if s not in table.wolves))
    for seat in table.seer_claims:
        if seat not in table.wolves:
            sus.add(
                seat,
                10.0 if night else 4.0,
                f"seat {seat} claims the seer",
                f"I do not believe seat {seat} is the seer.",
            )
    for claimer, found in table.reports.items():
        if claimer in table.wolves:
            for seat, wolf in found.items():
                if wolf and not night:
                    sus.add(
                        seat,
                        3.0,
                        f"our seer seat {claimer} framed seat {seat}",
                        f"Seer seat {claimer} found seat {seat} a wolf.",
                    )
                elif wolf:
                    sus.add(seat, -2.0, f"seat {seat} is framed; let the day take him")
        else:
            for seat, wolf in found.items():
                if not wolf and night:
                    sus.add(seat, 2.5, f"seat {seat} is cleared by the seer")
    for seat in table.role_claims.get("hunter", ()):
        if night:
            sus.add(seat, -6.0, f"seat {seat} claims the hunter and would shoot")
    for u in table.utterances:
        if u.day < table.day:
            continue
        for seat in u.said.accuses:
            if seat in table.wolves and night:
                sus.add(u.speaker, 1.0, f"seat {u.speaker} hunts wolves")
            elif seat not in table.wolves and not night:
                sus.add(
                    seat, 0.5, f"the table leans on seat {seat}", f"Others suspect seat {seat} too."
                )
    return sus


def _active_fake_seer(table: Table) -> int | None:
    """The wolf who plays (or is to play) the seer: planned, or already claimed."""
    for seat in sorted(table.seer_claims, key=lambda s: table.seer_claims[s]):
        if seat in table.wolves and table.is_alive(seat):
            return seat
    if table.fake_seer is not None and table.is_alive(table.fake_seer):
        return table.fake_seer
    return None


def _exposed(table: Table, wolf: int) -> bool:
    """A wolf reported as a wolf by a seer claimer who is not one of us."""
    return any(
        found.get(wolf) is True
        for claimer, found in table.reports.items()
        if claimer not in table.wolves
    )


# -- speech building --------------------------------------------------------------------------
def _report_line(night: int, seat: int, wolf: bool) -> str:
    return f"Night {night}: I checked seat {seat}: {'a wolf' if wolf else 'good'}."


def _sentences(*parts: str | None) -> str:
    return " ".join(p for p in parts if p)


# -- the player -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Turn:
    """One decision in the making: the request, the table as read, the seeded draw."""

    request: Request
    table: Table
    rng: Random
    temper: Temper

    @property
    def context(self) -> dict[str, Any]:
        return self.request.context


class MockPlayer:
    """Seeded heuristic play from the seat's view; see the module docstring."""

    kind = "mock"
    immediate = True  # decide never waits (see Player)

    def __init__(self, game_seed: int, seat: int, personality: str | None = None) -> None:
        name = personality if personality is not None else pick_personality(game_seed, seat)
        if name not in PERSONALITIES:
            known = ", ".join(sorted(PERSONALITIES))
            raise ConfigError([("personality", f"unknown personality {name!r}: use {known}")])
        self.game_seed = game_seed
        self.seat = seat
        self.personality = name
        self.temper = PERSONALITIES[name]

    async def decide(self, request: Request) -> Answer:
        return self.answer(request)

    def answer(self, request: Request) -> Answer:
        """The decision, synchronously: a function of (game seed, seat, request)."""
        if request.seat != self.seat:
            raise GameStateError(f"the mock of seat {self.seat} was asked for seat {request.seat}")
        turn = _Turn(
            request,
            read_table(request.view),
            decision_rng(self.game_seed, self.seat, request.key, "mock"),
            self.temper,
        )
        answer = _HANDLERS[request.kind](turn)
        asked = request.kind is DecisionKind.VOTE and request.context.get("beliefs")
        if asked and isinstance(answer, Choice):
            answer = replace(answer, beliefs=self.beliefs(turn))
        return answer

    def beliefs(self, turn: _Turn) -> dict[int, float]:
        """This seat's P(wolf) for every other living seat, reported with a vote when the
        game asks (config ``beliefs``). A wolf knows the wolves; a good seat spreads the
        wolves it expects among the others by its suspicion scores (a softmax, so a checked
        wolf is near 1 and a checked good seat near 0)."""
        table = turn.table
        others = [s for s in table.alive if s != table.me]
        if not others:
            return {}
        if table.wolves:
            return {s: 0.99 if s in table.wolves else 0.01 for s in others}
        rng = decision_rng(self.game_seed, self.seat, turn.request.key, "beliefs")
        sus, _ = good_suspicion(table, turn.temper, rng)
        deck = turn.request.view.config.identities
        deck_wolves = sum(1 for i in deck if i is Identity.WEREWOLF)
        seats = len(deck)
        expected = deck_wolves * len(others) / max(1, seats - 1)  # wolves among the others
        top = max(sus.scores.get(s, 0.0) for s in others)
        weight = {s: math.exp((sus.scores.get(s, 0.0) - top) / 2.0) for s in others}
        total = sum(weight.values())
        return {s: round(min(0.99, max(0.01, expected * w / total)), 4) for s, w in weight.items()}


# -- night decisions --------------------------------------------------------------------------
def _wolf_target(turn: _Turn) -> tuple[int | None, str]:
    """The victim the first wolf proposes."""
    table, options = turn.table, turn.request.options
    night = int(turn.context.get("night", table.day + 1))
    if night == 1 and table.me in options and turn.rng.random() < turn.temper.self_knife:
        return table.me, "I offer myself on night 1 to bait the witch's antidote"
    sus = wolf_agenda(table, turn.temper, turn.rng, night=True)
    target = sus.best(options)
    if target is None:
        return None, "no good seat to kill"
    return target, sus.why(target)


def _wolf_plan(turn: _Turn) -> str | None:
    """On the first night the first wolf decides whether one of us fakes the seer."""
    table = turn.table
    if table.fake_seer is not None or turn.context.get("night", 1) != 1:
        return None
    if turn.rng.random() >= turn.temper.fake_claim:
        return "Nobody will claim seer."
    living = [w for w in table.wolves if table.is_alive(w)]
    return f"Seat {turn.rng.choice(living)} will claim seer."


def _first_proposal(discussion: Sequence[dict[str, Any]]) -> tuple[bool, int | None]:
    for line in discussion:
        said = parse_speech(str(line.get("text", "")))
        if said.kill_said:
            return True, said.kill
    return False, None


def wolf_talk(turn: _Turn) -> Answer:
    discussion = turn.context.get("discussion", [])
    said, proposed = _first_proposal(discussion)
    if said and proposed in turn.request.options:
        who = "nobody" if proposed is None else f"seat {proposed}"
        return Speech(f"Agreed: kill {who}.", reasoning=f"I follow the first proposal: {who}")
    target, why = _wolf_target(turn)
    plan = _wolf_plan(turn)
    kill = "Kill nobody." if target is None else f"Kill seat {target}."
    return Speech(_sentences(kill, plan), reasoning=why + (f"; plan: {plan}" if plan else ""))


def wolf_kill(turn: _Turn) -> Answer:
    options = turn.request.options
    proposals = turn.context.get("proposals") or []
    if proposals:  # a second round: join the lowest wolf's proposal
        target = proposals[0][1]
        if target in options:
            return Choice(target, reasoning=f"joining seat {proposals[0][0]}'s proposal")
    said, proposed = _first_proposal(turn.context.get("discussion", []))
    if said and proposed in options:
        return Choice(proposed, reasoning="the first wolf's proposal")
    target, why = _wolf_target(turn)
    return Choice(target, reasoning=why)


def witch(turn: _Turn) -> Answer:
    options = turn.request.witch
    if options is None:
        return WitchChoice(reasoning="no witch options")
    table, temper, rng = turn.table, turn.temper, turn.rng
    night = int(turn.context.get("night", table.day + 1))
    sus, belief = good_suspicion(table, temper, rng)
    told = options.told_target
    if options.can_save and told is not None:
        chance = temper.save_first_night if night == 1 else temper.save_later
        if told == belief.trusted:
            chance = 1.0
        if rng.random() < chance:
            why = f"the wolves went for seat {told}" + (
                ", the seer" if told == belief.trusted else ""
            )
            return WitchChoice(save=True, reasoning=f"save: {why}")
    if options.poison_targets:
        target = sus.best(s for s in options.poison_targets if s != told)
        if target is not None and sus.scores[target] >= temper.poison_at:
            return WitchChoice(poison=target, reasoning=f"poison seat {target}: {sus.why(target)}")
    return WitchChoice(reasoning="no potion tonight: no strong suspicion")


def seer(turn: _Turn) -> Answer:
    table = turn.table
    sus, belief = good_suspicion(table, turn.temper, turn.rng)
    checked = {seat for seat, _ in table.my_checks.values()}
    fresh = [
        s
        for s in turn.request.options
        if s is not None and s not in checked and s not in belief.liars
    ]
    target = sus.best(fresh) or sus.best(turn.request.options)
    if target is None:
        target = next(s for s in turn.request.options if s is not None)
    return Choice(target, reasoning=f"check seat {target}: {sus.why(target)}")


def hunter(turn: _Turn) -> Answer:
    sus, _ = good_suspicion(turn.table, turn.temper, turn.rng)
    target = sus.best(turn.request.options)
    if target is None:
        return Choice(None, reasoning="nobody to shoot")
    return Choice(target, reasoning=f"shoot seat {target}: {sus.why(target)}")


# -- day decisions ----------------------------------------------------------------------------
def vote(turn: _Turn) -> Answer:
    options = turn.request.options
    if turn.table.identity is Identity.WEREWOLF:
        return _wolf_vote(turn)
    sus, _ = good_suspicion(turn.table, turn.temper, turn.rng)
    target = sus.best(options)
    if target is None:
        return Choice(None if None in options else options[0], reasoning="no one to vote for")
    return Choice(target, reasoning=f"vote seat {target}: {sus.why(target)}")


def bid(turn: _Turn) -> Answer:
    """How much the seat wants the floor (bidding discussions): more before its first
    speech of the day, when it was accused today, and most as a seer with checks to tell."""
    table = turn.table
    spoken = int(turn.context.get("spoken", 0))
    level = 2 if spoken == 0 else 1
    why = "not heard yet today" if spoken == 0 else "already spoke today"
    if table.accusations(table.me, since_day=table.day):
        level, why = level + 1, "accused today"
    if table.identity is Identity.SEER and spoken == 0:
        level, why = 3, "a seer with checks to tell"
    if spoken and turn.rng.random() < 0.5:
        level, why = level - 1, "let others speak"
    return Choice(max(0, min(3, level)), reasoning=f"bid: {why}")


def _said_today(table: Table) -> Said | None:
    """My own latest speech of today (not last words), as the others heard it."""
    for u in reversed(table.utterances):
        if u.speaker == table.me and u.day == table.day and not u.last_words:
            return u.said
    return None


def _wolf_vote(turn: _Turn) -> Answer:
    """Never a fellow wolf while a good seat can be voted, except a rare bus of an exposed
    and doomed one; otherwise the seat I pushed in my speech, unless the table clearly
    leans on another good seat."""
    table, options, rng = turn.table, turn.request.options, turn.rng
    for mate in sorted(s for s in options if s is not None and s in table.wolves):
        if (
            mate != table.me
            and _exposed(table, mate)
            and len(table.accusations(mate, since_day=table.day)) >= 3
            and rng.random() < turn.temper.bus
        ):
            return Choice(mate, reasoning=f"seat {mate} is exposed and doomed: I sell him out")
    goods = [s for s in options if s is not None and s not in table.wolves]
    if not goods:
        if None in options:
            return Choice(None, reasoning="only fellow wolves to vote for: abstain")
        return Choice(options[0], reasoning="forced to vote for a fellow wolf")
    heat = {s: len(table.accusations(s, since_day=table.day)) for s in goods}
    hottest = max(goods, key=lambda s: (heat[s], -s))
    said = _said_today(table)
    pushed = next((s for s in said.accuses if s in goods), None) if said else None
    if pushed is not None and heat[hottest] < heat[pushed] + 2:
        return Choice(pushed, reasoning=f"seat {pushed}, as I said in my speech")
    if heat[hottest] >= 2:
        return Choice(hottest, reasoning=f"the table goes for seat {hottest}: a good seat out")
    sus = wolf_agenda(table, turn.temper, rng, night=False)
    target = sus.best(goods)
    return Choice(target, reasoning=f"push seat {target}: {sus.why(target) if target else ''}")


def speech(turn: _Turn) -> Answer:
    return _speak(turn, last_words=False)


def last_words(turn: _Turn) -> Answer:
    return _speak(turn, last_words=True)


def _speak(turn: _Turn, *, last_words: bool) -> Answer:
    identity = turn.table.identity
    if identity is Identity.WEREWOLF:
        return _wolf_speech(turn, last_words)
    if identity is Identity.SEER:
        return _seer_speech(turn, last_words)
    return _good_speech(turn, last_words)


_OPENERS = (
    "I have no hard information.",
    "Nothing is certain yet.",
    "Nobody has shown a card yet.",
)


_HUNCHES = (
    "I do not like how seat {} talks.",
    "Seat {} sounds evasive to me.",
    "Seat {} has said little that helps us.",
)


def _accuse(turn: _Turn, sus: Suspicion, target: int, *, hunch: bool) -> list[str]:
    """The closing sentences: why, then the vote ("I suspect" when it is only a hunch)."""
    if hunch:
        return [turn.rng.choice(_OPENERS), f"I suspect seat {target}.", f"Vote seat {target}."]
    reason = sus.say(target) or turn.rng.choice(_HUNCHES).format(target)
    return [reason, f"Vote seat {target}."]


def _seer_should_claim(turn: _Turn, last_words: bool) -> str | None:
    table = turn.table
    if last_words or table.claims_seer(table.me):
        return "I speak as the seer"
    if any(wolf and table.is_alive(s) for s, wolf in table.my_checks.values()):
        return "I found a wolf"
    if any(s != table.me for s in table.seer_claims):
        return "someone else claims my role"
    if table.me in turn.context.get("candidates", []):
        return "I am up for exile"
    if len(table.accusations(table.me, since_day=table.day)) >= 2:
        return "the table turns on me"
    if table.day >= 2 or turn.temper.seer_claims_early:
        return "time to share my checks"
    return None


def _seer_speech(turn: _Turn, last_words: bool) -> Answer:
    table = turn.table
    why = _seer_should_claim(turn, last_words)
    if why is None:
        return _good_speech(turn, last_words)
    sus, belief = good_suspicion(table, turn.temper, turn.rng)
    parts = ["I am the seer."]
    parts += [_report_line(n, s, w) for n, (s, w) in sorted(table.my_checks.items())]
    parts += [f"Seat {s} is a wolf pretending to be the seer." for s in belief.liars]
    target = sus.best(s for s in table.alive if s != table.me)
    if target is None:
        return Speech(_sentences(*parts), reasoning=why)
    found = {seat for seat, wolf in table.my_checks.values() if wolf}
    if target in found or target in belief.liars:  # the reports above say why
        parts.append(f"Vote seat {target}.")
    else:
        parts += _accuse(turn, sus, target, hunch=False)
    return Speech(_sentences(*parts), reasoning=f"{why}; vote seat {target}: {sus.why(target)}")


def _good_speech(turn: _Turn, last_words: bool) -> Answer:
    table = turn.table
    sus, belief = good_suspicion(table, turn.temper, turn.rng)
    parts: list[str] = []
    up_for_exile = table.me in turn.context.get("candidates", [])
    if table.identity is Identity.WITCH and (last_words or up_for_exile):
        parts.append("I am the witch.")
        parts += [f"I saved seat {s}." for s in table.saved]
        parts += [f"I poisoned seat {s}." for s in table.poisoned]
    elif table.identity is Identity.HUNTER and (last_words or up_for_exile):
        parts.append("I am the hunter.")
    framed_by = [c for c in belief.liars if table.reports.get(c, {}).get(table.me) is True]
    for liar in framed_by:
        parts.append(f"Seat {liar} calls me a wolf, but I am good: seat {liar} is lying.")
    trusted = belief.trusted
    if trusted is not None and trusted != table.me and table.is_alive(trusted):
        parts.append(f"I trust seat {trusted} as the seer.")
    target = sus.best(s for s in table.alive if s != table.me)
    if target is None:
        return Speech(_sentences(*parts) or "I have nothing to add.", reasoning="no one left")
    no_seer = trusted is None or trusted == table.me  # a hidden seer talks like the rest
    hunch = no_seer and not belief.liars and sus.say(target) is None
    parts += _accuse(turn, sus, target, hunch=hunch)
    return Speech(_sentences(*parts), reasoning=f"vote seat {target}: {sus.why(target)}")


def _wolf_speech(turn: _Turn, last_words: bool) -> Answer:
    """Back our fake seer, or counter-claim when exposed, or blend in: accept a lone seer
    and push another good seat, or doubt the seer openly."""
    table, temper, rng = turn.table, turn.temper, turn.rng
    fake = _active_fake_seer(table)
    me = table.me
    exposers = [
        c for c, found in table.reports.items() if c not in table.wolves and found.get(me) is True
    ]
    jump = (
        fake is None
        and bool(exposers)
        and not table.claims_seer(me)
        and rng.random() < temper.jump_when_exposed
    )
    if fake == me or table.claims_seer(me) or jump:
        return _fake_seer_speech(turn, "I counter the claim against me" if jump else "")
    sus = wolf_agenda(table, temper, rng, night=False)
    goods = [s for s in table.alive if s not in table.wolves]
    parts: list[str] = []
    for exposer in exposers:
        parts.append(f"Seat {exposer} calls me a wolf, but I am good: seat {exposer} is lying.")
    real = [s for s in table.seer_claims if s not in table.wolves and table.is_alive(s)]
    if fake is not None and table.claims_seer(fake):
        parts.append(f"I trust seat {fake} as the seer.")
        why = f"back our seer seat {fake}"
    elif real and not exposers and rng.random() >= temper.attack_seer:
        parts.append(f"I trust seat {real[0]} as the seer.")
        goods = [s for s in goods if s not in real]
        why = f"blend in behind seer seat {real[0]}"
    else:
        why = "push a good seat"
    target = sus.best(goods)
    if target is None:
        return Speech(_sentences(*parts) or "I have nothing to add.", reasoning=why)
    hunch = not table.seer_claims and not exposers and sus.say(target) is None
    parts += _accuse(turn, sus, target, hunch=hunch)
    return Speech(_sentences(*parts), reasoning=f"{why}; {sus.why(target)}")


def _fake_checks(turn: _Turn) -> list[tuple[int, int, bool]]:
    """The fake seer's checks, one per night so far: the ones already told stay as first
    told (read back from my own speeches), each new night gets an invented one: the rival
    seer as a wolf, else mostly a good seat as a wolf, sometimes a fellow wolf as good."""
    table, rng = turn.table, turn.rng
    me = table.me
    first_told: dict[int, tuple[int, bool]] = {}
    for u in table.utterances:
        if u.speaker == me:
            for night, seat, wolf in u.said.reports:
                if night is not None:
                    first_told.setdefault(night, (seat, wolf))
    named = {seat for seat, _ in first_told.values()}
    checks: list[tuple[int, int, bool]] = []
    for night in range(1, max(table.day, 1) + 1):
        if night in first_told:
            checks.append((night, *first_told[night]))
            continue
        rivals = [s for s in table.seer_claims if s not in table.wolves and s not in named]
        goods = [s for s in table.alive if s not in table.wolves and s not in named]
        mates = [s for s in table.wolves if s != me and table.is_alive(s) and s not in named]
        heat = {s: len(table.accusations(s, since_day=table.day)) for s in goods}
        if rivals:
            pick, wolf = rivals[0], True
        elif goods and max(heat.values()) >= 1 and rng.random() < 0.6:
            pick, wolf = max(goods, key=lambda s: (heat[s], -s)), True  # the table's suspect
        elif goods and (not mates or rng.random() < 0.7):
            pick, wolf = rng.choice(goods), True
        elif mates:
            pick, wolf = rng.choice(mates), False
        else:
            continue
        named.add(pick)
        checks.append((night, pick, wolf))
    return checks


def _fake_seer_speech(turn: _Turn, why: str) -> Answer:
    table = turn.table
    checks = _fake_checks(turn)
    reports = [_report_line(n, s, w) for n, s, w in checks]
    framed = [s for _, s, w in checks if w and table.is_alive(s)]
    target = framed[-1] if framed else None
    if target is None:
        sus = wolf_agenda(table, turn.temper, turn.rng, night=False)
        target = sus.best(s for s in table.alive if s not in table.wolves)
    rivals = [s for s in table.seer_claims if s not in table.wolves and table.is_alive(s)]
    parts = ["I am the seer.", *reports]
    parts += [f"Seat {r} is a wolf pretending to be the seer." for r in rivals]
    if target is not None:
        parts.append(f"Vote seat {target}.")
    return Speech(
        _sentences(*parts),
        reasoning=(why or "I play the seer for the wolves")
        + (f"; frame seat {target}" if target else ""),
    )


_HANDLERS: dict[DecisionKind, Callable[[_Turn], Answer]] = {
    DecisionKind.WOLF_TALK: wolf_talk,
    DecisionKind.WOLF_KILL: wolf_kill,
    DecisionKind.WITCH: witch,
    DecisionKind.SEER: seer,
    DecisionKind.HUNTER: hunter,
    DecisionKind.SPEECH: speech,
    DecisionKind.LAST_WORDS: last_words,
    DecisionKind.VOTE: vote,
    DecisionKind.BID: bid,
}
