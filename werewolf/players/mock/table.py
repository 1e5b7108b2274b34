"""Reading the table: what a seat has gathered from its own view, and nothing else.

``read_table(view)`` turns a ``SeatView`` into a ``Table``: the public claims, reports,
accusations, votes, deaths and last words as this seat heard them, and its private
knowledge (its checks, its potions, the wolves' night plan). Beliefs are built on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cast import Identity, Team
from ...config import GameConfig, Reveal
from ...visibility import Observation, SeatView
from .grammar import Said, parse_speech

__all__ = ["Ballot", "Table", "TableReader", "Utterance", "read_table"]


@dataclass(frozen=True, slots=True)
class Utterance:
    """One speech, last words or PK speech, as heard."""

    order: int  # position among the seat's observations
    day: int
    speaker: int
    said: Said
    text: str = ""
    last_words: bool = False


@dataclass(frozen=True, slots=True)
class Ballot:
    day: int
    round: int
    voter: int
    target: int | None
    order: int = 0  # position among the seat's observations


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
    shot: int | None  # whom he shot
    my_checks: dict[int, tuple[int, bool]]  # seer: night -> (seat, wolf)
    told: dict[int, int | None]  # witch: night -> the wolves' victim she was told
    saved: tuple[int, ...]  # witch: seats she saved
    poisoned: tuple[int, ...]  # witch: seats she poisoned
    fake_seer: int | None  # wolves: the teammate planned to claim seer
    seat_count: int
    wolf_count: int  # wolves in the deck
    deck: tuple[Identity, ...] = ()  # every identity dealt (whom a quiet night points to)
    knifed: dict[int, int | None] = field(default_factory=dict)  # wolves: night -> our target
    shield_repeats: bool = False  # a doctor or guard in the deck may protect a seat every night
    revealed: dict[int, bool] = field(default_factory=dict)  # a dead seat shown: -> a wolf
    death_shows: bool = False  # death shows the team or the card (config reveal_on_death)
    seer_dead: bool = False  # death showed the seer's card: no seer report will come

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

    @property
    def blocked(self) -> dict[int, int]:
        """Wolves: the seats our knife reached that lived (protected or saved), with how
        many times."""
        found: dict[int, int] = {}
        for night, target in self.knifed.items():
            lived = night in self.night_deaths and target not in self.night_deaths[night]
            if target is not None and lived:
                found[target] = found.get(target, 0) + 1
        return found

    @property
    def my_checks_by_seat(self) -> dict[int, bool]:
        """The seer's own checks: seat -> wolf."""
        return {seat: wolf for seat, wolf in self.my_checks.values()}

    def claims_seer(self, seat: int) -> bool:
        return seat in self.seer_claims

    def spoken(self, seat: int, day: int | None = None) -> bool:
        """True when ``seat`` has spoken (on ``day``, or ever): only then can its words count."""
        return any(u.speaker == seat and (day is None or u.day == day) for u in self.utterances)

    def my_texts(self) -> list[str]:
        """Everything this seat has said in public so far."""
        return [u.text for u in self.utterances if u.speaker == self.me]

    def accusations(self, seat: int, *, since_day: int = 0) -> list[Utterance]:
        """Speeches since ``since_day`` that accused ``seat``."""
        return [u for u in self.utterances if u.day >= since_day and seat in u.said.accuses]


def read_table(view: SeatView) -> Table:
    """Gather claims, reports, accusations, votes and private knowledge from a seat view."""
    return TableReader().read(view)


class TableReader:
    """``read_table`` for one player over many decisions: a seat's observations only grow,
    so the fold of those already read is kept and extended with the new ones. The kept
    prefix is compared with the view's (identical objects compare at once), so a view of
    another game, seat or an earlier point starts the fold afresh: same Table as
    ``read_table`` always. A view that adds nothing to the last one read gives the same
    Table object back (so what was derived from it may be reused)."""

    __slots__ = ("_fold", "_last", "_read")

    def __init__(self) -> None:
        self._read: tuple[Observation, ...] = ()
        self._fold = _Fold()
        self._last: tuple[tuple[object, ...], Table] | None = None

    def read(self, view: SeatView) -> Table:
        observations, done = view.observations, len(self._read)
        if len(observations) < done or observations[:done] != self._read:
            self._fold, done, self._last = _Fold(), 0, None
        for order in range(done, len(observations)):
            self._fold.add(order, observations[order])
        self._read = observations
        key: tuple[object, ...] = (len(observations), view.seat, view.identity, view.wolves)
        key += (view.alive, view.day, view.names, view.config)
        if self._last is None or self._last[0] != key:
            self._last = key, self._fold.table(view)
        return self._last[1]


class _Fold:
    """The observations read so far, folded (see ``TableReader``)."""

    def __init__(self) -> None:
        self.utterances: list[Utterance] = []
        self.ballots: list[Ballot] = []
        self.night_deaths: dict[int, tuple[int, ...]] = {}
        self.exiled: dict[int, int] = {}
        self.shooter: int | None = None
        self.shot: int | None = None
        self.my_checks: dict[int, tuple[int, bool]] = {}
        self.told: dict[int, int | None] = {}
        self.saved: list[int] = []
        self.poisoned: list[int] = []
        self.fake_seer: int | None = None
        self.knifed: dict[int, int | None] = {}
        self.revealed: dict[int, bool] = {}
        self.seer_dead = False
        self.seer_claims: dict[int, int] = {}
        self.role_claims: dict[str, list[int]] = {"witch": [], "hunter": []}
        self.reports: dict[int, dict[int, bool]] = {}
        self.report_nights: dict[int, set[int]] = {}
        self.deck: _Deck | None = None  # the game's constants, read once

    def add(self, order: int, obs: Observation) -> None:
        diff, detail, phase = obs.diff, obs.detail, obs.phase
        for seat, shown in detail.get("revealed", ()):  # what death revealed (config)
            self.revealed[int(seat)] = shown in (Team.WOLVES.value, Identity.WEREWOLF.value)
            self.seer_dead = self.seer_dead or shown == Identity.SEER.value
        if phase in ("day-speech", "last-words"):
            speaker = diff.get("speaker")
            if isinstance(speaker, int):
                text = str(detail.get("text", ""))
                said = parse_speech(text)
                last_words = phase == "last-words"
                self._heard(Utterance(order, obs.day, speaker, said, text, last_words=last_words))
        elif phase == "vote":
            for voter, target in detail.get("ballots", []):
                round_ = int(detail.get("round", 1))
                self.ballots.append(Ballot(obs.day, round_, voter, target, order))
            if diff.get("exiled") is not None:
                self.exiled[obs.day] = int(diff["exiled"])
        elif phase == "dawn":
            self.night_deaths[obs.day] = tuple(int(s) for s in diff.get("died", []))
        elif phase == "hunter-shot" and diff.get("target") is not None:
            self.shooter = int(diff["shooter"])
            self.shot = int(diff["target"])
        elif phase == "seer-check" and diff.get("target") is not None:
            self.my_checks[obs.day] = (int(diff["target"]), bool(diff["wolf"]))
        elif phase == "witch-action":
            self.told[obs.day] = detail.get("told_target")
            if diff.get("save") and detail.get("told_target") is not None:
                self.saved.append(int(detail["told_target"]))
            if diff.get("poison") is not None:
                self.poisoned.append(int(diff["poison"]))
        elif phase == "wolf-night":
            self.knifed[obs.day] = diff.get("target")
            for line in detail.get("discussion", []):
                said = parse_speech(str(line.get("text", "")))
                if said.plan_said and self.fake_seer is None:
                    self.fake_seer = said.fake_seer

    def _heard(self, u: Utterance) -> None:
        """Claims and reports in one utterance, in the order they were heard."""
        self.utterances.append(u)
        for role in u.said.roles:
            if role == "seer":
                self.seer_claims.setdefault(u.speaker, u.order)
            elif u.speaker not in self.role_claims[role]:
                self.role_claims[role].append(u.speaker)
        if u.speaker in self.seer_claims:
            found = self.reports.setdefault(u.speaker, {})
            for night, seat, wolf in u.said.reports:
                found[seat] = wolf
                if night is not None:
                    self.report_nights.setdefault(u.speaker, set()).add(night)
            for seat, wolf in u.said.opinions:
                found.setdefault(seat, wolf)

    def table(self, view: SeatView) -> Table:
        """The Table so far; it shares no mutable part with the fold, which grows on."""
        deck = self.deck
        if deck is None or deck.config is not view.config:
            deck = self.deck = _Deck(view.config)
        role_claims = {k: tuple(v) for k, v in self.role_claims.items()}
        shooter = self.shooter
        if shooter is not None and shooter not in role_claims["hunter"]:
            role_claims["hunter"] = (*role_claims["hunter"], shooter)
        return Table(
            me=view.seat,
            identity=view.identity,
            wolves=view.wolves,
            alive=view.alive,
            day=view.day,
            utterances=tuple(self.utterances),
            seer_claims=dict(self.seer_claims),
            role_claims=role_claims,
            reports={k: dict(v) for k, v in self.reports.items()},
            report_nights={k: frozenset(v) for k, v in self.report_nights.items()},
            night_deaths=dict(self.night_deaths),
            exiled=dict(self.exiled),
            ballots=tuple(self.ballots),
            shooter=shooter,
            shot=self.shot,
            my_checks=dict(self.my_checks),
            told=dict(self.told),
            saved=tuple(self.saved),
            poisoned=tuple(self.poisoned),
            fake_seer=self.fake_seer,
            seat_count=len(view.names),
            wolf_count=deck.wolf_count,
            deck=deck.deck,
            knifed=dict(self.knifed),
            shield_repeats=deck.shield_repeats,
            revealed=dict(self.revealed),
            death_shows=deck.death_shows,
            seer_dead=self.seer_dead,
        )


class _Deck:
    """What a game's config tells every table of it."""

    __slots__ = ("config", "death_shows", "deck", "shield_repeats", "wolf_count")

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        deck = self.deck = tuple(config.identities)
        self.wolf_count = sum(1 for i in deck if i is Identity.WEREWOLF)
        self.death_shows = config.reveal_on_death is not Reveal.NOTHING
        # a protector in the deck may guard the same seat night after night (then a seat
        # our knife could not reach stays out of reach)
        self.shield_repeats = (Identity.DOCTOR in deck and config.doctor_repeat) or (
            Identity.GUARD in deck and config.guard_repeat
        )
