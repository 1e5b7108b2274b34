"""Reading a seat's view into its ``Table``, observation by observation."""

from __future__ import annotations

from collections.abc import Callable

from ...cast import Identity, Team, team_of
from ...config import GameConfig, Reveal
from ...events import meaning_of
from ...visibility import Observation, SeatView
from .grammar import parse_speech
from .table import Ballot, Table, Utterance

__all__ = ["TableReader", "read_table"]

# A speech or a ballot is seen by every seat of its game, mostly at the same position among
# their observations: the utterance (ballot) of the same fields is one frozen object for all.
_HEARD: dict[tuple[int, int, int, str, bool], Utterance] = {}
_CAST: dict[tuple[int, int, int, int | None, int], Ballot] = {}
_KEPT = 8192
_WEREWOLF = Identity.WEREWOLF
# the cards that show a wolf: a side, or any identity of the wolves' team
_WOLF_CARDS = frozenset({Team.WOLVES.value, Identity.WEREWOLF.value}) | frozenset(
    {Identity.WOLF_KING.value, Identity.WHITE_WOLF_KING.value}
)


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
        alive = view.alive  # a tuple made anew at each read: read once
        key: tuple[object, ...] = (len(observations), view.seat, view.identity, view.wolves)
        key += (alive, view.day, view.names, view.config)
        if self._last is None or self._last[0] != key:
            self._last = key, self._fold.table(view, alive)
        return self._last[1]


class _Fold:
    """The observations read so far, folded (see ``TableReader``). A container, once made,
    is never changed: news makes a new one (a few times a day), so every Table holds the
    fold's containers as they were when it was made, without a copy each."""

    def __init__(self) -> None:
        self.utterances: tuple[Utterance, ...] = ()
        self.said_by: dict[int, tuple[Utterance, ...]] = {}
        self.ballots: tuple[Ballot, ...] = ()
        self.night_deaths: dict[int, tuple[int, ...]] = {}
        self.exiled: dict[int, int] = {}
        self.shooter: int | None = None
        self.shot: int | None = None
        self.my_checks: dict[int, tuple[int, bool]] = {}
        self.told: dict[int, int | None] = {}
        self.saved: tuple[int, ...] = ()
        self.poisoned: tuple[int, ...] = ()
        self.fake_seer: int | None = None
        self.knifed: dict[int, int | None] = {}
        self.revealed: dict[int, bool] = {}
        self.seer_dead = False
        self.seer_claims: dict[int, int] = {}
        self.claim_days: dict[int, int] = {}
        self.backers: dict[int, frozenset[int]] = {}
        self.results: dict[int, dict[int, bool]] = {}  # speaker -> seat -> first result said
        self.contradicted: frozenset[int] = frozenset()
        self.role_claims: dict[str, tuple[int, ...]] = {"witch": (), "hunter": ()}
        self.reports: dict[int, dict[int, bool]] = {}
        self.report_nights: dict[int, frozenset[int]] = {}
        self.deck: _Deck | None = None  # the game's constants, read once
        self.lovers: tuple[int, ...] | None = None  # the pair of the first lovers' event
        self.idiot: int | None = None

    def add(self, order: int, obs: Observation) -> None:
        detail = obs.detail
        if "revealed" in detail:  # what death revealed (config)
            self._revealed(detail["revealed"])
        read = _READS.get(obs.phase)
        if read is not None:
            read(self, order, obs)

    def _revealed(self, shown: list[tuple[int, str]]) -> None:
        revealed = dict(self.revealed)
        for seat, card in shown:
            revealed[int(seat)] = card in _WOLF_CARDS
            self.seer_dead = self.seer_dead or card == Identity.SEER.value
        self.revealed = revealed

    def _speech(self, order: int, obs: Observation) -> None:
        speaker = obs.diff.get("speaker")
        if isinstance(speaker, int):
            text = str(obs.detail.get("text", ""))
            self._heard(_utterance(order, obs.day, speaker, text, obs.phase == "last-words"))

    def _vote(self, order: int, obs: Observation) -> None:
        diff, detail, day = obs.diff, obs.detail, obs.day
        round_ = int(detail.get("round", 1))
        cast = [
            _ballot(day, round_, voter, target, order)
            for voter, target in detail.get("ballots", [])
        ]
        if cast:
            self.ballots = (*self.ballots, *cast)
        if diff.get("exiled") is not None:
            self.exiled = {**self.exiled, day: int(diff["exiled"])}
        if diff.get("revealed") is not None and self.idiot is None:
            self.idiot = int(diff["revealed"])

    def _lovers(self, order: int, obs: Observation) -> None:
        if self.lovers is None:
            self.lovers = tuple(int(s) for s in obs.diff.get("lovers", []))

    def _dawn(self, order: int, obs: Observation) -> None:
        # the night's dead as the dawn's meaning tells them (no causes)
        died = tuple(seat for seat, _ in meaning_of(obs.phase, obs.diff, obs.detail).deaths)
        self.night_deaths = {**self.night_deaths, obs.day: died}

    def _shot(self, order: int, obs: Observation) -> None:
        if obs.diff.get("target") is not None:
            self.shooter = int(obs.diff["shooter"])
            self.shot = int(obs.diff["target"])

    def _check(self, order: int, obs: Observation) -> None:
        diff = obs.diff
        if diff.get("target") is not None:
            check = (int(diff["target"]), bool(diff["wolf"]))
            self.my_checks = {**self.my_checks, obs.day: check}

    def _potions(self, order: int, obs: Observation) -> None:
        diff, detail = obs.diff, obs.detail
        self.told = {**self.told, obs.day: detail.get("told_target")}
        if diff.get("save") and detail.get("told_target") is not None:
            self.saved = (*self.saved, int(detail["told_target"]))
        if diff.get("poison") is not None:
            self.poisoned = (*self.poisoned, int(diff["poison"]))

    def _wolf_night(self, order: int, obs: Observation) -> None:
        self.knifed = {**self.knifed, obs.day: obs.diff.get("target")}
        for line in obs.detail.get("discussion", []):
            said = parse_speech(str(line.get("text", "")))
            if said.plan_said and self.fake_seer is None:
                self.fake_seer = said.fake_seer

    def _heard(self, u: Utterance) -> None:
        """Claims and reports in one utterance, in the order they were heard."""
        speaker, said = u.speaker, u.said
        self.utterances = (*self.utterances, u)
        self.said_by = {**self.said_by, speaker: (*self.said_by.get(speaker, ()), u)}
        for role in said.roles:
            if role == "seer":
                if speaker not in self.seer_claims:
                    self.seer_claims = {**self.seer_claims, speaker: u.order}
                    self.claim_days = {**self.claim_days, speaker: u.day}
            elif speaker not in self.role_claims[role]:
                claimers = (*self.role_claims[role], speaker)
                self.role_claims = {**self.role_claims, role: claimers}
        if speaker in self.seer_claims and (
            said.reports or said.opinions or speaker not in self.reports
        ):  # a claimer's every word after the claim counts (an empty record to start)
            self._reported(speaker, said.reports, said.opinions)
        claims = self.seer_claims
        if claims and said.trusts:
            for claimer in said.trusts:  # a seer claimer he spoke up for, after her claim
                if claimer in claims and claimer != speaker:
                    backers = self.backers.get(claimer, frozenset())
                    self.backers = {**self.backers, claimer: backers | {speaker}}
        if said.reports:
            self._results(speaker, said.reports)

    def _results(self, speaker: int, reports: tuple[tuple[int | None, int, bool], ...]) -> None:
        """Whether ``speaker`` now gave a seat a result other than the first he gave it."""
        first = self.results.setdefault(speaker, {})  # the fold's own: never in a Table
        for _, seat, wolf in reports:
            if first.setdefault(seat, wolf) != wolf and speaker not in self.contradicted:
                self.contradicted = self.contradicted | {speaker}

    def _reported(
        self,
        claimer: int,
        reports: tuple[tuple[int | None, int, bool], ...],
        opinions: tuple[tuple[int, bool], ...],
    ) -> None:
        found = dict(self.reports.get(claimer, {}))
        for _, seat, wolf in reports:
            found[seat] = wolf
        for seat, wolf in opinions:
            found.setdefault(seat, wolf)
        self.reports = {**self.reports, claimer: found}
        named = {night for night, _, _ in reports if night is not None}
        if named:
            nights = self.report_nights.get(claimer, frozenset()) | named
            self.report_nights = {**self.report_nights, claimer: nights}

    def table(self, view: SeatView, alive: tuple[int, ...]) -> Table:
        """The Table so far: it holds the fold's containers, which no news changes."""
        deck = self.deck
        if deck is None or deck.config is not view.config:
            deck = self.deck = _Deck(view.config)
        role_claims, shooter, lovers = self.role_claims, self.shooter, self.lovers
        partner = next((s for s in lovers if s != view.seat), None) if lovers else None
        if shooter is not None and shooter not in role_claims["hunter"]:
            role_claims = {**role_claims, "hunter": (*role_claims["hunter"], shooter)}
        # positional, in the fields' order (a table is made at nearly every decision, and
        # matching 31 keywords costs more than the rest of its making): each names its field
        return Table(
            view.seat,  # me
            _WEREWOLF if view.wolves else view.identity,  # identity: a wolf king reads as a wolf
            view.wolves,  # wolves
            alive,  # alive
            view.day,  # day
            self.utterances,  # utterances
            self.seer_claims,  # seer_claims
            role_claims,  # role_claims
            self.reports,  # reports
            self.report_nights,  # report_nights
            self.night_deaths,  # night_deaths
            self.exiled,  # exiled
            self.ballots,  # ballots
            shooter,  # shooter
            self.shot,  # shot
            self.my_checks,  # my_checks
            self.told,  # told
            self.saved,  # saved
            self.poisoned,  # poisoned
            self.fake_seer,  # fake_seer
            len(view.names),  # seat_count
            deck.wolf_count,  # wolf_count
            deck.deck,  # deck
            self.knifed,  # knifed
            deck.shield_repeats,  # shield_repeats
            self.revealed,  # revealed
            deck.death_shows,  # death_shows
            self.seer_dead,  # seer_dead
            partner,  # partner
            self.idiot,  # idiot
            deck.election,  # election
            self.said_by,  # said_by
            self.claim_days,  # claim_days
            self.backers,  # backers
            self.contradicted,  # contradicted
        )


# what each phase's observation tells a seat (a phase not here tells it nothing it keeps)
_READS: dict[str, Callable[[_Fold, int, Observation], None]] = {
    "day-speech": _Fold._speech,
    "sheriff-speech": _Fold._speech,  # a claim made running for sheriff is heard as any
    "last-words": _Fold._speech,
    "vote": _Fold._vote,
    "lovers-told": _Fold._lovers,
    "dawn": _Fold._dawn,
    "hunter-shot": _Fold._shot,
    "seer-check": _Fold._check,
    "witch-action": _Fold._potions,
    "wolf-night": _Fold._wolf_night,
}


def _utterance(order: int, day: int, speaker: int, text: str, last_words: bool) -> Utterance:
    """``Utterance(order, day, speaker, parse_speech(text), text, last_words)``, shared."""
    key = (order, day, speaker, text, last_words)
    heard = _HEARD.get(key)
    if heard is None:
        if len(_HEARD) >= _KEPT:
            _HEARD.clear()
        said = parse_speech(text)
        heard = _HEARD[key] = Utterance(order, day, speaker, said, text, last_words=last_words)
    return heard


def _ballot(day: int, round_: int, voter: int, target: int | None, order: int) -> Ballot:
    """``Ballot(day, round_, voter, target, order)``, shared."""
    key = (day, round_, voter, target, order)
    cast = _CAST.get(key)
    if cast is None:
        if len(_CAST) >= _KEPT:
            _CAST.clear()
        cast = _CAST[key] = Ballot(day, round_, voter, target, order)
    return cast


class _Deck:
    """What a game's config tells every table of it."""

    __slots__ = ("config", "death_shows", "deck", "election", "shield_repeats", "wolf_count")

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        deck = self.deck = tuple(config.identities)
        self.wolf_count = sum(1 for i in deck if team_of(i) is Team.WOLVES)
        self.death_shows = config.reveal_on_death is not Reveal.NOTHING
        self.election = config.sheriff
        # a protector in the deck may guard the same seat night after night (then a seat
        # our knife could not reach stays out of reach)
        self.shield_repeats = (Identity.DOCTOR in deck and config.doctor_repeat) or (
            Identity.GUARD in deck and config.guard_repeat
        )
