"""Reading a seat's view into its ``Table``, observation by observation."""

from __future__ import annotations

from ...cast import Identity, Team
from ...config import GameConfig, Reveal
from ...visibility import Observation, SeatView
from .grammar import parse_speech
from .table import Ballot, Table, Utterance

__all__ = ["TableReader", "read_table"]

# A speech is heard by every seat of its game, mostly at the same position among their
# observations: the utterance of the same fields is one frozen object for all of them.
_HEARD: dict[tuple[int, int, int, str, bool], Utterance] = {}
_HEARD_KEPT = 8192


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
    """The observations read so far, folded (see ``TableReader``)."""

    def __init__(self) -> None:
        self.utterances: list[Utterance] = []
        self.said_by: dict[int, tuple[Utterance, ...]] = {}  # tuples: a table copies the dict
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
        self.lovers: tuple[int, ...] | None = None  # the pair of the first lovers' event
        self.idiot: int | None = None

    def add(self, order: int, obs: Observation) -> None:
        diff, detail, phase = obs.diff, obs.detail, obs.phase
        for seat, shown in detail.get("revealed", ()):  # what death revealed (config)
            self.revealed[int(seat)] = shown in (Team.WOLVES.value, Identity.WEREWOLF.value)
            self.seer_dead = self.seer_dead or shown == Identity.SEER.value
        if phase in ("day-speech", "last-words"):
            speaker = diff.get("speaker")
            if isinstance(speaker, int):
                text = str(detail.get("text", ""))
                self._heard(_utterance(order, obs.day, speaker, text, phase == "last-words"))
        elif phase == "vote":
            for voter, target in detail.get("ballots", []):
                round_ = int(detail.get("round", 1))
                self.ballots.append(Ballot(obs.day, round_, voter, target, order))
            if diff.get("exiled") is not None:
                self.exiled[obs.day] = int(diff["exiled"])
            if diff.get("revealed") is not None and self.idiot is None:
                self.idiot = int(diff["revealed"])
        elif phase == "lovers-told" and self.lovers is None:
            self.lovers = tuple(int(s) for s in diff.get("lovers", []))
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
        self.said_by[u.speaker] = (*self.said_by.get(u.speaker, ()), u)
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

    def table(self, view: SeatView, alive: tuple[int, ...]) -> Table:
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
            alive=alive,
            day=view.day,
            utterances=tuple(self.utterances),
            said_by=dict(self.said_by),
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
            partner=next((s for s in self.lovers if s != view.seat), None) if self.lovers else None,
            idiot=self.idiot,
        )


def _utterance(order: int, day: int, speaker: int, text: str, last_words: bool) -> Utterance:
    """``Utterance(order, day, speaker, parse_speech(text), text, last_words)``, shared."""
    key = (order, day, speaker, text, last_words)
    heard = _HEARD.get(key)
    if heard is None:
        if len(_HEARD) >= _HEARD_KEPT:
            _HEARD.clear()
        said = parse_speech(text)
        heard = _HEARD[key] = Utterance(order, day, speaker, said, text, last_words=last_words)
    return heard


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
