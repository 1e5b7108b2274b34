"""An independent referee for werewolf logs.

It reads only a log (each event's ``kind`` and ``meta``, from a list or a JSONL replay file)
and re-derives the game from the rules as documented (docs/architecture.md and the rules
reference), with its own bookkeeping: it imports nothing from ``werewolf`` or ``pulse_core``.
At every event it knows which phase must come next, who may act, what is legal and what
must follow (who dies at dawn, who is exiled, who shoots, who speaks, who won), and lists
every disagreement. The engine and this referee are written apart, so a bug has to be made
twice, the same way, to pass.

Rules it holds the log to (defaults; every variant is read from the start event's config):
- the deal is the config's deck; roles never change (the end event shows the deal);
- nights and days alternate: wolf-night N, [witch N], [seer N], dawn N, then day N;
- night actions only by living owners; targets alive; at most one wolf target a night;
- the witch: each potion once, one a night unless allowed, self-save per config, never
  poisons herself, told the target only while she holds the antidote;
- the seer learns the target's team, truthfully;
- dawn deaths are exactly the unsaved wolf target plus the poisoned, sorted, no causes;
- the hunter shoots at most once, only after a wolf kill or an exile (never poisoned) and
  only if that death did not already decide the game; a declined shot is his secret;
- every death batch is followed by a win check, and the game ends at the first that holds;
  both sides at once: the wolves (狼刀在先); a category the deck lacks cannot be wiped out
  (屠边 counts the categories dealt);
- last words for every night-1 death and every exiled player, unless the game just ended;
- each day every living player speaks once (``speech_rounds`` times, at most
  ``speech_budget`` speeches), in cyclic seat order; under bidding, every living player
  with speeches left bids 0-3 before each speech and the highest bid speaks (a tie: fewer
  speeches today, then today's order, which starts after the lowest night death, else at
  the day number); a simultaneous vote;
- the dead's team or identity is revealed with their death when the config says so;
  a first-round tie goes to one PK round (under the PK policy); a tie after it, or under
  the no-PK policy, or no votes at all, exiles nobody: at most one exile a day;
- a draw only when the day cap is reached; the end event is last;
- a seat swap (another player takes a seat when a game is resumed) is no game step: it is
  public, of the night it was made in, and never after the end.

The identities beyond the nine-player board (defaults in docs/rules.md, variants read too):
- night order cupid (night 1) -> lovers told -> guard -> doctor -> wolves -> witch -> seer,
  each only for a dealt, living holder; the first phase of a night begins it;
- the guard protects a living seat or nobody, himself only if allowed, never last night's
  seat unless allowed; the doctor a living seat on the same terms (no nobody); both private;
- the wolves' victim lives if saved, guarded or protected, except guarded and saved at once
  (同守同救), which kills under the default;
- cupid links two distinct living seats (himself only if allowed), seen by him alone; the
  lovers are told in their own event (the cards too if configured); when one lover dies
  the other dies in the same batch (named in the vote or the shot when by day); a
  heartbroken hunter shoots only if configured; a heartbroken lover gives last words when
  his partner does (night 1, an exile), right after him;
- an exiled idiot who has not shown his card reveals it and lives (the vote names him);
  from then on he never votes, and he can be voted again only if configured; a win check
  follows the reveal (with ``idiot_counts_as_god = false`` he stops counting as a god);
- a wolf and a good lover make a third side with cupid: it wins when only its members are
  left; while the lovers live nobody else wins; its members count for no camp; cupid is
  neither god nor villager for 屠边;
- the kaggle-8 fields: ``seer_before_wolves`` puts the seer after the doctor, before the
  wolves; ``seer_learns = "identity"`` adds the target's true identity to her check;
  ``wolf_kill = "vote"``: no wolf talk, one ballot per living wolf, the most-voted dies;
  ``wolf_abstain`` (without empty kills): a ballot may abstain, and if all do a living
  non-wolf is drawn; ``night_fallback = "nothing"``: a seer or doctor who failed (a
  fallback recorded for her) checks or protects nobody, and only then;
  ``tie_policy = "random"`` and ``all_abstain = "random"`` exile a drawn seat; every draw
  is recorded (``detail.draw``: key, the exact set it picked among, a member of it that the
  event applied) exactly where the rules call for one; ``speech_order = "seat"`` opens
  each day at the lowest living seat; ``last_words = false``: nobody gives last words;
- ``doctor_told_save``: right after a dawn whose wolves' victim lived under the living
  doctor's protection, she alone is told (``doctor-told``, before any shot or last words);
  ``retry_illegal = false`` changes nothing a log shows but how soon a fallback comes;
- with ``referee_record``: every decision's recorded offer (``offered/<seat>/<decision>``
  attachments, given as ``attachments`` beside ``meta``) is exactly the legal set, and the
  end names the hunter shots and last words the deciding deaths cut off (``skipped``); a
  wolf's speech records the self-destruct it offered (a white wolf king's: the seats).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tests.oracle_sheriff import ELECTION, SHERIFF_CONFIG, SHERIFF_OFFERS, SheriffReferee

__all__ = ["check_log", "check_replay", "read_replay"]

WOLF, SEER, WITCH, HUNTER, VILLAGER = "werewolf", "seer", "witch", "hunter", "villager"
GUARD, IDIOT, CUPID, DOCTOR, KNIGHT = "guard", "idiot", "cupid", "doctor", "knight"
GODS = frozenset({SEER, WITCH, HUNTER, GUARD, IDIOT, CUPID, DOCTOR, KNIGHT})
WOLF_KING, WHITE_KING = "wolf-king", "white-wolf-king"
WOLF_ROLES = frozenset({WOLF, WOLF_KING, WHITE_KING})  # the wolves' team
NIGHT = ("cupid-link", "lovers-told", "guard-protect", "doctor-protect", "wolf-night")
NIGHT += ("witch-action", "seer-check")
# seer_before_wolves: the seer checks after the doctor, before the wolves
SEER_FIRST = (*NIGHT[:4], "seer-check", "wolf-night", "witch-action")
DEFAULT_CONFIG: dict[str, Any] = {
    "win_rule": "side",
    "witch_self_save": "first-night",
    "witch_both_potions": False,
    "tie_policy": "pk",
    "allow_empty_kill": True,
    "wolf_self_knife": True,
    "wolf_split": "empty",
    "allow_abstain": True,
    "allow_self_vote": False,
    "day_cap": 20,
    "guard_self": True,
    "guard_repeat": False,
    "guard_witch_clash": "dies",
    "doctor_self": True,
    "doctor_repeat": True,
    "idiot_second_exile": True,
    "idiot_counts_as_god": True,
    "cupid_self": True,
    "lovers_see_identity": True,
    "heartbroken_hunter_shoots": False,
    "referee_record": False,
    "discussion": "seat-order",
    "speech_rounds": 1,
    "speech_budget": None,
    "reveal_on_death": "nothing",
    "wolf_kill": "agree",
    "all_abstain": "nobody",
    "last_words": True,
    "speech_order": "after-death",
    "seer_learns": "team",
    "seer_before_wolves": False,
    "wolf_abstain": False,
    "night_fallback": "first",
    "retry_illegal": True,
    "doctor_told_save": False,
    "self_destruct": False,
    "self_destruct_last_words": False,
    **SHERIFF_CONFIG,
}
PREFIX = "werewolf."


class _Stop(Exception):
    """The log left the rules' path: later events cannot be judged."""


class Referee(SheriffReferee):
    """Walks a log event by event; ``problems`` lists what broke the rules."""

    def __init__(self) -> None:
        self.sheriff_init()
        self.problems: list[str] = []
        self.deal: list[str] = []
        self.cfg: dict[str, Any] = dict(DEFAULT_CONFIG)
        self.alive: set[int] = set()
        self.dead: dict[int, str] = {}  # seat -> cause
        self.night = 0
        self.stage = "setup"  # setup, night, morning, day, pk, evening, over
        self.night_done: list[str] = []
        self.knife: int | None = None
        self.saved = False
        self.poisoned: int | None = None
        self.antidote = True
        self.poison = True
        self.hunter_fired = False
        self.hunter_due: int | None = None
        self.words_due: list[int] = []
        self.spoken: list[int] = []
        self.floor: int | None = None  # bidding: the seat that won the floor
        self.night_dead: list[int] = []  # who died at the last dawn (today's order starts after)
        self.pk: list[int] = []
        self.decided: str | None = None
        self.where = ""
        self.guarded: int | None = None
        self.last_guarded: int | None = None
        self.protected: int | None = None
        self.last_protected: int | None = None
        self.lovers: list[int] = []
        self.revealed = False
        self.doctor_due: int | None = None  # doctor_told_save: the seat she saved, to tell
        self.skipped: list[dict[str, Any]] = []
        self.attachments: Mapping[str, str] = {}
        self.dueled = False  # the knight's one duel is spent
        self.duel_asked: tuple[int, int, int] | None = None  # (day, knight, speeches) offered
        self.destruct_due: tuple[int, int | None] | None = None  # a wolf's speech blew up
        self.destructed = 0  # the day whose election a self-destruct ended: no talk, no vote

    # -- lookups ---------------------------------------------------------------------------
    def role(self, seat: int) -> str:
        return self.deal[seat - 1]

    def is_wolf(self, seat: int) -> bool:
        return self.role(seat) in WOLF_ROLES

    def wolf_seats(self) -> list[int]:
        return [s for s in range(1, len(self.deal) + 1) if self.is_wolf(s)]

    def seats_of(self, role: str) -> list[int]:
        return [s for s, r in enumerate(self.deal, start=1) if r == role]

    def holder(self, role: str) -> int | None:
        seats = self.seats_of(role)
        return seats[0] if seats else None

    def living(self, role: str) -> bool:
        seat = self.holder(role)
        return seat is not None and seat in self.alive

    def fail(self, message: str) -> None:
        self.problems.append(f"{self.where}: {message}")

    def require(self, ok: bool, message: str) -> None:
        if not ok:
            self.fail(message)

    # -- the rules -------------------------------------------------------------------------
    def third(self) -> set[int]:
        if len(self.lovers) != 2 or [self.is_wolf(s) for s in self.lovers].count(True) != 1:
            return set()
        return set(self.lovers) | set(self.seats_of(CUPID))

    def outcome(self) -> str | None:
        third = self.third()
        couple = bool(third) and all(s in self.alive for s in self.lovers)
        if couple and self.alive <= third:
            return "lovers"
        camp = self.alive - third
        wolves = [s for s in camp if self.is_wolf(s)]
        others = len(camp) - len(wolves)
        rule = self.cfg["win_rule"]
        if rule == "side":
            villagers = [s for s in self.seats_of(VILLAGER) if s not in third]
            gods = [  # cupid is neither god nor villager for 屠边
                s
                for s in range(1, len(self.deal) + 1)
                if self.role(s) in GODS and self.role(s) != CUPID and s not in third
            ]
            living_gods = [
                s
                for s in gods
                if s in self.alive
                and not (
                    self.role(s) == IDIOT and self.revealed and not self.cfg["idiot_counts_as_god"]
                )
            ]
            wolves_win = bool(villagers and not any(s in self.alive for s in villagers)) or bool(
                gods and not living_gods
            )
        elif rule == "town":
            wolves_win = others == 0
        else:
            wolves_win = len(wolves) >= others
        if couple:
            return None
        if wolves_win:
            return "wolves"
        return "good" if not wolves else None

    def expected(self) -> str:
        if self.stage == "over":
            return "(nothing: the game is over)"
        if self.decided is not None:
            return "game-end"
        if self.destruct_due is not None:
            return "self-destruct"
        if self.doctor_due is not None:
            return "doctor-told"
        if self.badge_due is not None:
            return "sheriff-badge"
        if self.hunter_due is not None:
            return "hunter-shot"
        if self.words_due:
            return "last-words"
        if self.stage in ("setup", "night"):
            step = self.night_step()
            election = self.election_due() if self.stage == "night" else None
            return election if step == "dawn" and election else step
        if self.stage in ("morning", "day", "pk") and self.order_due():
            return "sheriff-order"
        if self.stage in ("morning", "day", "pk"):
            if self.stage != "pk" and self.cfg["discussion"] == "bidding":
                if self.floor is not None:
                    return "knight-duel" if self.duel_due() else "day-speech"
                return "floor-bid" if self.to_speak() else "vote"
            if self.to_speak() and self.duel_due():
                return "knight-duel"
            return "day-speech" if self.to_speak() else "vote"
        return "game-end" if self.night >= self.cfg["day_cap"] else self.night_step()

    def next_speaker(self) -> int | None:
        """Who speaks next in the day's discussion (not a PK): the floor's winner when
        bidding, else the next seat in today's order."""
        left = self.to_speak()
        if not left or self.stage == "pk":
            return None
        if self.cfg["discussion"] == "bidding":
            return self.floor
        if not self.spoken or self.sheriff_order():
            return next(s for s in self.today_order() if s in left)
        last = self.spoken[-1]
        return min(left, key=lambda s: (s - last - 1) % len(self.deal))

    def duel_due(self) -> bool:
        """The knight is offered his duel before each speech of his, until he duels."""
        knight = self.holder(KNIGHT)
        if knight is None or self.dueled or knight not in self.alive:
            return False
        asked = (self.night, knight, len(self.spoken))
        return self.next_speaker() == knight and self.duel_asked != asked

    def knight_duel(self, diff: Mapping[str, Any], meta: Mapping[str, Any]) -> list[int]:
        """A wolf named dies and night falls; a good seat named lives and the knight dies."""
        knight = self.holder(KNIGHT) or 0
        self.require(diff.get("knight") == knight, f"the duel of seat {diff.get('knight')}")
        self.duel_asked = (self.night, knight, len(self.spoken))
        target = diff.get("target")
        if target is None:
            self.audience(meta, [knight])
            self.require(diff.get("wolf") is None, "a declined duel names no wolf")
            return []
        self.audience(meta, None)
        self.require(target in self.alive and target != knight, f"a duel with seat {target}")
        wolf = self.is_wolf(int(target))
        self.require(diff.get("wolf") is wolf, f"seat {target} is {self.role(int(target))}")
        dead = int(target) if wolf else knight
        broken = self.heartbreak([dead])
        self.require(diff.get("heartbroken", []) == broken, f"heartbroken: {broken}")
        self.dueled, self.floor = True, None
        self.deaths({dead: "duel"}, last_words=False)
        if wolf:
            self.stage = "evening"  # no more speeches, no vote
        return [dead, *broken]

    def night_step(self) -> str:
        night = self.night if self.stage == "night" else self.night + 1
        done = self.night_done if self.stage == "night" else []
        owners = {
            "guard-protect": GUARD,
            "doctor-protect": DOCTOR,
            "witch-action": WITCH,
            "seer-check": SEER,
        }
        for step in SEER_FIRST if self.cfg["seer_before_wolves"] else NIGHT:
            if step in done:
                continue
            if step == "cupid-link" and (night != 1 or not self.living(CUPID)):
                continue
            if step == "lovers-told" and (night != 1 or len(self.lovers) != 2):
                continue
            if step in owners and not self.living(owners[step]):
                continue
            return step
        return "dawn"

    def begin(self, step: str) -> None:
        """A night phase: the first of the night begins it."""
        if self.stage != "night":
            self.night += 1
            self.stage, self.night_done = "night", []
            self.knife, self.saved, self.poisoned = None, False, None
            self.last_guarded, self.guarded = self.guarded, None
            self.last_protected, self.protected = self.protected, None
            self.spoken, self.pk = [], []
        self.night_done.append(step)

    def to_speak(self) -> list[int]:
        """Who may still speak today (in this round, for seat order)."""
        if self.stage == "pk":
            return [s for s in self.pk if s not in self.spoken]
        rounds, budget = int(self.cfg["speech_rounds"]), self.cfg["speech_budget"]
        total = (
            len(self.alive) * rounds if budget is None else min(budget, len(self.alive) * rounds)
        )
        if len(self.spoken) >= total:
            return []
        times = Counter(self.spoken)
        if self.cfg["discussion"] == "bidding":
            return [s for s in sorted(self.alive) if times[s] < rounds]
        this_round = min(times[s] for s in self.alive) + 1
        return [s for s in sorted(self.alive) if times[s] < this_round]

    def today_order(self) -> list[int]:
        with_sheriff = self.sheriff_order() if self.stage != "pk" else None
        if with_sheriff is not None:
            return with_sheriff
        if self.cfg["speech_order"] == "seat":
            return sorted(self.alive)
        n = len(self.deal)
        start = (min(self.night_dead) % n) + 1 if self.night_dead else ((self.night - 1) % n) + 1
        return [s for s in ((start - 1 + i) % n + 1 for i in range(n)) if s in self.alive]

    def floor_bid(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        bidders = self.to_speak()
        bids = {int(s): b for s, b in detail.get("bids", [])}
        self.require(sorted(bids) == bidders, f"bids from {sorted(bids)}, bidders {bidders}")
        self.require(all(b in (0, 1, 2, 3) for b in bids.values()), f"bids out of 0-3: {bids}")
        self.require(detail.get("speech") == len(self.spoken) + 1, "bids for the wrong speech")
        if bids:
            times, order = Counter(self.spoken), self.today_order()
            top = max(bids.values())
            tied = [s for s in order if bids.get(s) == top]
            fewest = min(times[s] for s in tied)
            winner = next(s for s in tied if times[s] == fewest)
            self.require(diff.get("floor") == winner, f"floor to {diff.get('floor')}, not {winner}")
        self.floor = diff.get("floor")
        if self.stage == "morning":
            self.stage = "day"

    def reveals(self, dead: Iterable[int], detail: Mapping[str, Any]) -> None:
        mode = self.cfg["reveal_on_death"]
        dead = sorted(dead)
        if mode == "nothing" or not dead:
            self.require("revealed" not in detail, "a death revealed against the config")
            return
        told = [
            [s, ("wolves" if self.is_wolf(s) else "good") if mode == "team" else self.role(s)]
            for s in dead
        ]
        self.require(
            [list(x) for x in detail.get("revealed", [])] == told,
            f"revealed {detail.get('revealed')}, not {told}",
        )

    def heartbreak(self, dying: Iterable[int]) -> list[int]:
        dying = set(dying)
        return sorted(
            p
            for s in dying
            if s in self.lovers
            for p in self.lovers
            if p != s and p in self.alive and p not in dying
        )

    def deaths(self, batch: Mapping[int, str], *, last_words: bool) -> None:
        """A death batch: kill, check the win, then who shoots and who speaks."""
        broken = self.heartbreak(batch)
        speakers = sorted(batch) + broken  # a heartbroken lover speaks after his partner
        batch = {**batch, **{p: "heartbreak" for p in broken}}
        for seat, cause in sorted(batch.items()):
            self.require(seat in self.alive, f"seat {seat} dies but is not alive")
            self.alive.discard(seat)
            self.dead[seat] = cause
        self.decided = self.outcome()
        cut = self.sheriff_dies(batch, self.decided is not None)
        if cut is not None:
            self.skipped.append(cut)
        if self.decided is not None:
            for seat, cause in sorted(batch.items()):
                if self.shoots(seat, cause):
                    self.skipped.append({"phase": "hunter-shot", "seat": seat})
            cut = self.words_due + (
                (sorted(batch) if self.stage == "morning" else speakers) if last_words else []
            )
            self.skipped += [{"phase": "last-words", "seat": s} for s in cut]
            self.hunter_due, self.words_due = None, []
            return
        for seat, cause in batch.items():
            if self.shoots(seat, cause):
                self.hunter_due = seat
        if last_words:
            # night-1 deaths all speak; by day the exiled, then his heartbroken lover
            self.words_due += sorted(batch) if self.stage == "morning" else speakers

    def shoots(self, seat: int, cause: str) -> bool:
        """The hunter: killed by a wolf (at night, taken by the white wolf king, shot by the
        wolf king) or exiled, once; the wolf king: any death but the poison."""
        if self.role(seat) == WOLF_KING:
            return cause != "poison"
        if self.role(seat) != HUNTER or self.hunter_fired:
            return False
        if cause == "heartbreak":
            return bool(self.cfg["heartbroken_hunter_shoots"])
        return cause in ("wolf", "exile", "taken", "king_shot")

    def audience(self, meta: Mapping[str, Any], expected: list[int] | None) -> None:
        seen = meta.get("visible_to", "missing")
        if seen == "missing":
            self.fail("meta has no visible_to")
        elif expected is None:
            self.require(seen is None, f"should be public, is visible to {seen}")
        else:
            self.require(
                seen is not None and sorted(seen) == sorted(expected),
                f"should be visible to {sorted(expected)} only, is visible to {seen}",
            )

    def reasoning_from(self, meta: Mapping[str, Any], actors: Iterable[int]) -> None:
        """Private reasoning belongs to seats that acted in this event."""
        allowed = set(actors)
        for name in meta.get("attachments", {}) or {}:
            parts = str(name).split("/")
            if parts[0] == "reasoning":
                self.require(
                    len(parts) == 3 and parts[1].isdigit() and int(parts[1]) in allowed,
                    f"reasoning {name!r} from a seat that did not act",
                )

    # -- events ----------------------------------------------------------------------------
    def start(self, meta: Mapping[str, Any]) -> None:
        game = meta.get("game", {})
        self.cfg.update(game.get("config", {}))
        self.deal = [str(r) for r in meta.get("deal", [])]
        deck = [str(r) for r in self.cfg.get("identities", self.deal)]
        self.require(sorted(self.deal) == sorted(deck), f"deal {self.deal} is not the deck {deck}")
        self.require(len(game.get("names", [])) == len(self.deal), "one name per seat")
        self.require(meta.get("visible_to") == [], "the start event is for the god view only")
        if not self.deal or sorted(self.deal) != sorted(deck):
            raise _Stop
        self.alive = set(range(1, len(self.deal) + 1))

    def wolf_target_ok(self, target: int | None, options: list[int]) -> bool:
        if target is None:
            return bool(self.cfg["allow_empty_kill"]) or not options
        return target in options

    def wolf_night(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        wolves = self.wolf_seats()
        living = [s for s in wolves if s in self.alive]
        options = [
            s for s in sorted(self.alive) if self.cfg["wolf_self_knife"] or not self.is_wolf(s)
        ]
        talk = [int(d["seat"]) for d in detail.get("discussion", [])]
        if self.cfg["wolf_kill"] == "vote":
            self.wolf_ballots(talk, living, options, diff, detail)
            return
        self.require(talk == living, f"wolf talk by {talk}, living wolves are {living}")
        self.require("draw" not in detail, "a draw where the wolves agree")
        rounds = detail.get("proposals", [])
        agreed: list[Any] = []
        for number, proposals in enumerate(rounds, start=1):
            seats = [int(p[0]) for p in proposals]
            self.require(seats == living, f"round {number} proposals by {seats}, not {living}")
            targets = [p[1] for p in proposals]
            for target in targets:
                self.require(self.wolf_target_ok(target, options), f"wolves proposed {target}")
            if len(set(targets)) == 1:
                agreed.append(targets[0])
                self.require(number == len(rounds), "the wolves agreed, yet voted again")
        self.require(1 <= len(rounds) <= 2, f"{len(rounds)} proposal rounds")
        target = diff.get("target")
        if agreed:
            self.require(target == agreed[0], f"wolves agreed on {agreed[0]}, target is {target}")
        elif rounds:
            # still split: nobody dies (empty), the unique most-proposed seat (plurality),
            # or, when no kill is not allowed, the lowest of the most-proposed seats
            counts = Counter(p[1] for p in rounds[-1] if p[1] is not None)
            top = max(counts.values(), default=0)
            leaders = sorted(s for s, n in counts.items() if n == top)
            if not self.cfg["allow_empty_kill"]:
                expected = leaders[0] if leaders else None
            elif self.cfg["wolf_split"] == "plurality" and len(leaders) == 1:
                expected = leaders[0]
            else:
                expected = None
            self.require(target == expected, f"split wolves {rounds[-1]} ended on target {target}")
        self.require(self.wolf_target_ok(target, options), f"wolf target {target} is not legal")
        self.knife = target

    def wolf_ballots(
        self,
        talk: list[int],
        living: list[int],
        options: list[int],
        diff: Mapping[str, Any],
        detail: Mapping[str, Any],
    ) -> None:
        """One ballot per living wolf, no talk: the most-voted dies, a tie by a draw; under
        ``wolf_abstain`` (without empty kills) a wolf may abstain, and if all do, a living
        non-wolf is drawn."""
        self.require(not talk, f"wolf talk by {talk} where the wolves only vote")
        abstain = bool(self.cfg["wolf_abstain"]) and not self.cfg["allow_empty_kill"]
        rounds = detail.get("proposals", [])
        self.require(len(rounds) == 1, f"{len(rounds)} ballot rounds, not one")
        ballots = [(int(p[0]), p[1]) for p in (rounds[0] if rounds else [])]
        self.require([w for w, _ in ballots] == living, f"ballots by {ballots}, not {living}")
        for _, target in ballots:
            ok = self.wolf_target_ok(target, options) or (abstain and target is None)
            self.require(ok, f"a wolf voted {target}")
        counts = Counter(t for _, t in ballots if t is not None)
        top = max(counts.values(), default=0)
        leaders = sorted(s for s, n in counts.items() if n == top)
        target = diff.get("target")
        prey = [s for s in sorted(self.alive) if not self.is_wolf(s)]
        among = leaders if len(leaders) > 1 else None
        if not leaders and abstain and prey:
            among = prey
        self.drawn(detail, among, target, f"n{self.night}.wolf-kill")
        if among is None:
            want = leaders[0] if leaders else None
            self.require(target == want, f"wolf ballots {ballots} ended on target {target}")
        self.require(self.wolf_target_ok(target, options), f"wolf target {target} is not legal")
        self.knife = target

    def drawn(
        self, detail: Mapping[str, Any], among: list[int] | None, result: Any, key: str
    ) -> None:
        """A random draw is recorded exactly when the rules call for one (``among`` given):
        its key, the seats it picked among, and a pick among them that the event applied."""
        record = detail.get("draw")
        if among is None:
            self.require(record is None, f"a draw {record} the rules did not call for")
            return
        if not isinstance(record, Mapping):
            self.fail(f"no draw recorded for a pick among {among}")
            return
        self.require(record.get("key") == key, f"draw key {record.get('key')}, not {key}")
        self.require(
            record.get("among") == among, f"drawn among {record.get('among')}, not {among}"
        )
        self.require(record.get("drawn") in among, f"drew {record.get('drawn')}, not in {among}")
        self.require(result == record.get("drawn"), f"drew {record.get('drawn')}, applied {result}")

    def witch_action(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        witch = self.holder(WITCH)
        told = self.knife if self.antidote else None
        self.require(detail.get("told_target") == told, f"witch told {detail.get('told_target')}")
        policy = self.cfg["witch_self_save"]
        self_ok = policy == "always" or (policy == "first-night" and self.night == 1)
        can_save = told is not None and (told != witch or self_ok)
        self.require(detail.get("can_save") == can_save, "witch told a wrong can_save")
        save, poison = bool(diff.get("save")), diff.get("poison")
        if save:
            self.require(can_save, "the witch saved when she could not")
            self.require(told != witch or self_ok, "the witch saved herself against the config")
        if poison is not None:
            self.require(self.poison, "the witch poisoned twice")
            self.require(poison != witch, "the witch poisoned herself")
            self.require(poison in self.alive, f"the witch poisoned seat {poison}, not alive")
        if save and poison is not None:
            self.require(self.cfg["witch_both_potions"], "two potions in one night")
        self.saved, self.poisoned = save, poison
        self.antidote = self.antidote and not save
        self.poison = self.poison and poison is None

    @staticmethod
    def failed(meta: Mapping[str, Any], decision: str) -> bool:
        """Whether the event records a fallback for ``decision`` (a seat that kept failing)."""
        return any(f.get("decision") == decision for f in meta.get("fallbacks", []) or [])

    def seer_check(self, diff: Mapping[str, Any], failed: bool = False) -> None:
        seer, target = self.holder(SEER), diff.get("target")
        if target is None:  # only a failed answer under night_fallback = "nothing"
            self.require(
                failed and self.cfg["night_fallback"] == "nothing",
                "the seer checked nobody without a fallback that allows it",
            )
            self.require(diff.get("wolf") is None, f"no check, yet wolf={diff.get('wolf')}")
            self.require("identity" not in diff, "no check, yet an identity")
            return
        self.require(target in self.alive and target != seer, f"the seer checked {target}")
        if isinstance(target, int) and 1 <= target <= len(self.deal):
            truth = self.is_wolf(target)
            self.require(
                diff.get("wolf") is truth, f"seat {target} checked as wolf={diff.get('wolf')}"
            )
            told = self.role(target) if self.cfg["seer_learns"] == "identity" else None
            self.require(diff.get("identity") == told, f"seer told identity {diff.get('identity')}")

    def protect(self, role: str, diff: Mapping[str, Any], failed: bool = False) -> None:
        """The guard's or the doctor's choice, against the config."""
        me, target = self.holder(role), diff.get("target")
        last = self.last_guarded if role == GUARD else self.last_protected
        if target is None:  # the doctor: only a failed answer under night_fallback = "nothing"
            idle = failed and self.cfg["night_fallback"] == "nothing"
            self.require(role == GUARD or idle, "the doctor protected nobody")
        else:
            self.require(target in self.alive, f"the {role} protected seat {target}, not alive")
            self.require(target != me or self.cfg[f"{role}_self"], f"the {role} protected self")
            others = [s for s in self.alive if s != last and (s != me or self.cfg[f"{role}_self"])]
            self.require(
                target != last or self.cfg[f"{role}_repeat"] or (role == DOCTOR and not others),
                f"the {role} protected seat {target} two nights running",
            )
        if role == GUARD:
            self.guarded = target
        else:
            self.protected = target

    def cupid_link(self, diff: Mapping[str, Any]) -> None:
        lovers = [int(s) for s in diff.get("lovers", [])]
        cupid = self.holder(CUPID)
        self.require(self.night == 1, "cupid linked after night 1")
        self.require(
            len(lovers) == 2 and lovers[0] < lovers[1] and set(lovers) <= self.alive,
            f"lovers {lovers}",
        )
        self.require(cupid not in lovers or self.cfg["cupid_self"], "cupid linked himself")
        self.lovers = lovers

    def lovers_told(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        self.require(list(diff.get("lovers", [])) == self.lovers, "the lovers told are not linked")
        shown = detail.get("identities")
        want = [self.role(s) for s in self.lovers] if self.cfg["lovers_see_identity"] else None
        self.require(shown == want, f"the lovers were told cards {shown}, not {want}")

    def dawn(self, diff: Mapping[str, Any]) -> None:
        died: dict[int, str] = {}
        if self.knife is not None:
            guarded, doctored = self.guarded == self.knife, self.protected == self.knife
            if self.saved and guarded:
                lives = self.cfg["guard_witch_clash"] == "lives"  # 同守同救
            else:
                lives = self.saved or guarded or doctored
            if not lives:
                died[self.knife] = "wolf"
        if self.poisoned is not None:
            died[self.poisoned] = "poison"  # poison wins: a knifed and poisoned hunter is silent
        died = {s: c for s, c in died.items() if s in self.alive}  # taken in the election
        announced = diff.get("died")
        everyone = sorted({*died, *self.heartbreak(died)})
        self.require(announced == everyone, f"died {announced}, the night killed {everyone}")
        self.stage = "evening" if self.destructed == self.night else "morning"
        self.spoken, self.pk = [], []
        self.night_dead = everyone  # a heartbroken lover is a night death too
        self.deaths(died, last_words=self.night == 1 and self.cfg["last_words"])
        doctor = self.holder(DOCTOR)
        told = (
            self.cfg["doctor_told_save"]
            and self.decided is None
            and self.knife is not None
            and self.knife not in everyone
            and self.protected == self.knife
            and doctor in self.alive
        )
        self.doctor_due = self.knife if told else None

    def hunter_shot(self, diff: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
        hunter, target = self.hunter_due, diff.get("target")
        self.require(diff.get("shooter") == hunter, f"shooter {diff.get('shooter')} is not due")
        self.require(
            target is None or (target in self.alive and target != hunter), f"shot {target}"
        )
        self.audience(meta, None if target is not None else [hunter] if hunter else [])
        king = hunter is not None and self.role(hunter) == WOLF_KING
        self.require(diff.get("card") == (WOLF_KING if king else None), f"card {diff.get('card')}")
        self.hunter_fired = self.hunter_fired or not king
        self.hunter_due = None
        if target is not None and target in self.alive:
            broken = self.heartbreak([int(target)])
            self.require(diff.get("heartbroken", []) == broken, f"heartbroken: {broken}")
            self.deaths({int(target): "king_shot" if king else "shot"}, last_words=False)

    def self_destruct(self, diff: Mapping[str, Any], meta: Mapping[str, Any]) -> list[int]:
        """The wolf whose speech blew up dies, with whom the white wolf king takes; no
        vote: the evening, then the night."""
        self.audience(meta, None)
        wolf, take = self.destruct_due or (0, None)
        self.require(
            diff.get("wolf") == wolf and diff.get("target") == take, f"self-destruct {diff}"
        )
        self.destruct_due = None
        dying = {wolf: "self_destruct"} | ({} if take is None else {take: "taken"})
        broken = self.heartbreak(list(dying))
        self.require(diff.get("heartbroken", []) == broken, f"heartbroken: {broken}")
        if self.stage == "night":  # in the election: the dawn comes, its day has no talk
            self.destructed = self.night
        else:
            self.stage, self.floor, self.pk = "evening", None, []
        self.deaths(dying, last_words=False)
        if self.cfg["self_destruct_last_words"]:  # his own, when the config gives them
            if self.decided is None:
                self.words_due.append(wolf)
            else:
                self.skipped.append({"phase": "last-words", "seat": wolf})
        return sorted([*dying, *broken])

    def destruct_legal(self, seat: int, take: Any) -> bool:
        """A living wolf may blow up where the config allows; the white wolf king may take
        another living seat with him."""
        if not self.cfg["self_destruct"] or not self.is_wolf(seat) or seat not in self.alive:
            return False
        return take is None or (
            self.role(seat) == WHITE_KING and take in self.alive and take != seat
        )

    def speech(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        speaker = diff.get("speaker")
        left = self.to_speak()
        self.require(speaker in left, f"seat {speaker} may not speak now (left: {left})")
        bidding = self.stage != "pk" and self.cfg["discussion"] == "bidding"
        if bidding:
            self.require(speaker == self.floor, f"seat {speaker} spoke without the floor")
            self.floor = None
        elif self.stage != "pk" and self.sheriff_order() and speaker in left:  # he speaks last
            nxt = next(s for s in self.today_order() if s in left)
            self.require(speaker == nxt, f"seat {speaker} spoke out of turn (next: {nxt})")
        elif not self.spoken and self.stage != "pk" and self.cfg["speech_order"] == "seat":
            first = min(self.alive)
            self.require(speaker == first, f"seat {speaker} opened the day, not seat {first}")
        elif self.spoken and speaker in left:
            # cyclic seat order: the next speaker is the next seat after the last still due
            last = self.spoken[-1]
            nxt = min(left, key=lambda s: (s - last - 1) % len(self.deal))
            self.require(speaker == nxt, f"seat {speaker} spoke out of turn (next: {nxt})")
        self.require(detail.get("pk") is (self.stage == "pk"), "wrong pk flag on a speech")
        self.require(isinstance(detail.get("text"), str), "a speech without text")
        if "self_destruct" in diff:  # a wolf blew up instead of speaking
            seat = int(speaker or 0)
            take = diff.get("take")
            self.require(self.destruct_legal(seat, take), f"seat {seat} self-destructs {diff}")
            self.require(diff.get("self_destruct") is True and detail.get("text") == "", "words")
            self.destruct_due = (seat, take)
        if isinstance(speaker, int):
            self.spoken.append(speaker)
        if self.stage == "morning":
            self.stage = "day"

    def vote(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        pk_round = self.stage == "pk"
        self.require(detail.get("round") == (2 if pk_round else 1), "wrong vote round")
        voters = self.voters()
        ballots = [(int(v), t) for v, t in detail.get("ballots", [])]
        self.require([v for v, _ in ballots] == voters, f"ballots from {ballots}, voters {voters}")
        for voter, target in ballots:
            if target is None:
                blank = self.cfg["allow_abstain"] or self.legal("vote", voter, "") == {None}
                self.require(blank, f"seat {voter} abstained")
            elif pk_round:
                self.require(target in self.pk, f"seat {voter} voted {target}, not a PK candidate")
            else:
                self.require(target in self.alive, f"seat {voter} voted for dead seat {target}")
                self.require(
                    target != voter or self.cfg["allow_self_vote"], f"seat {voter} voted self"
                )
                self.require(
                    not (target == self.holder(IDIOT) and self.revealed)
                    or self.cfg["idiot_second_exile"],
                    f"seat {voter} voted for the revealed idiot",
                )
        counts = self.weighed(ballots)
        self.require(
            [list(c) for c in detail.get("counts", [])] == [[s, counts[s]] for s in sorted(counts)],
            f"counts {detail.get('counts')} do not add up the ballots",
        )
        voted = self.sheriff is not None and self.sheriff in dict(ballots)
        self.require(detail.get("sheriff") == (self.sheriff if voted else None), "vote's sheriff")
        top = max(counts.values(), default=0)
        leaders = sorted(s for s, n in counts.items() if n == top)
        exiled = leaders[0] if len(leaders) == 1 else None
        pk = leaders if len(leaders) > 1 and not pk_round and self.cfg["tie_policy"] == "pk" else []
        among: list[int] | None = None  # a draw: among the tied, or anyone when nobody voted
        if len(leaders) > 1 and self.cfg["tie_policy"] == "random":
            among = leaders
        elif not leaders and self.cfg["all_abstain"] == "random":
            idiot = (
                self.holder(IDIOT) if self.revealed and not self.cfg["idiot_second_exile"] else None
            )
            among = list(self.pk) or [s for s in sorted(self.alive) if s != idiot] or None
        self.drawn(detail, among, diff.get("exiled"), f"d{self.night}.vote.r{2 if pk_round else 1}")
        if among is not None:
            exiled = diff.get("exiled") if diff.get("exiled") in among else exiled
        self.require(
            diff.get("exiled") == exiled, f"exiled {diff.get('exiled')}, votes say {exiled}"
        )
        self.require(list(diff.get("pk", [])) == pk, f"pk {diff.get('pk')}, votes say {pk}")
        if pk:
            self.stage, self.pk, self.spoken = "pk", pk, []
            return
        self.stage, self.pk = "evening", []
        reveal = exiled is not None and exiled == self.holder(IDIOT) and not self.revealed
        self.require(
            diff.get("revealed") == (exiled if reveal else None),
            f"revealed {diff.get('revealed')}, the idiot's reveal says {exiled if reveal else None}",
        )
        if reveal:  # he lives, but may stop counting as a god: a win check as after deaths
            self.revealed = True
            self.decided = self.outcome()
        elif exiled is not None:
            broken = self.heartbreak([exiled])
            self.require(diff.get("heartbroken", []) == broken, f"heartbroken: {broken}")
            self.deaths({exiled: "exile"}, last_words=self.cfg["last_words"])

    def voters(self) -> list[int]:
        idiot = self.holder(IDIOT) if self.revealed else None
        return [s for s in sorted(self.alive) if s not in self.pk and s != idiot]

    def game_end(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        winner = self.decided if self.decided is not None else "draw"
        self.require(
            diff.get("winner") == winner, f"winner {diff.get('winner')}, should be {winner}"
        )
        self.require(detail.get("identities") == self.deal, "the end shows another deal")
        self.require(detail.get("alive") == sorted(self.alive), "the end shows other survivors")
        if self.cfg["referee_record"]:
            self.require(
                detail.get("skipped") == self.skipped,
                f"skipped {detail.get('skipped')}, the deciding deaths cut off {self.skipped}",
            )
        else:
            self.require("skipped" not in detail, "skipped steps without referee_record")
        self.require(self.night <= self.cfg["day_cap"], "the game outlived the day cap")
        self.stage = "over"

    # -- the walk --------------------------------------------------------------------------
    def event(self, index: int, kind: str, meta: Mapping[str, Any]) -> None:
        role = kind.removeprefix(PREFIX)
        self.where = f"event {index + 1} ({role})"
        if not kind.startswith(PREFIX):
            self.fail(f"not a werewolf event: {kind}")
            raise _Stop
        if index == 0:
            if role != "__start__":
                self.fail("the log does not begin with the start event")
                raise _Stop
            self.start(meta)
            return
        if role.startswith("__"):
            return  # the adapter's bookkeeping (a failure and its resume): no game step
        if role == "seat-swap":  # another player took a seat on resume: no game step
            self.require(meta.get("day") == self.night, f"a seat swap on day {meta.get('day')}")
            self.require(self.stage != "over", "a seat swap after the game's end")
            self.require(meta.get("visible_to") is None, "a seat swap is public")
            return
        want = self.expected()
        if role != want:
            self.fail(f"expected {want}")
            raise _Stop
        self.require(meta.get("phase") == role, f"meta.phase is {meta.get('phase')}")
        starts = role in NIGHT and self.stage != "night"
        day = self.night + 1 if starts else self.night
        self.require(meta.get("day") == day, f"meta.day is {meta.get('day')}, should be {day}")
        diff, detail = meta.get("diff", {}), meta.get("detail", {})
        actors: list[int] = []
        if role in NIGHT:
            self.begin(role)
        self.offers(role, meta)  # what was asked, in the state it was asked in
        if role == "wolf-night":
            living = [s for s in self.wolf_seats() if s in self.alive]
            seen = meta.get("visible_to") or []
            self.require(
                set(living) <= set(seen) <= set(self.wolf_seats()),
                f"wolf night visible to {seen}",
            )
            actors = living
            self.wolf_night(diff, detail)
        elif role == "witch-action":
            actors = [self.holder(WITCH) or 0]
            self.audience(meta, actors)
            self.witch_action(diff, detail)
        elif role == "seer-check":
            actors = [self.holder(SEER) or 0]
            self.audience(meta, actors)
            self.seer_check(diff, self.failed(meta, "seer"))
        elif role in ("guard-protect", "doctor-protect"):
            owner = GUARD if role == "guard-protect" else DOCTOR
            actors = [self.holder(owner) or 0]
            self.audience(meta, actors)
            self.protect(owner, diff, self.failed(meta, "doctor"))
        elif role == "cupid-link":
            actors = [self.holder(CUPID) or 0]
            self.audience(meta, actors)
            self.cupid_link(diff)
        elif role == "lovers-told":
            self.audience(meta, self.lovers)
            self.lovers_told(diff, detail)
        elif role == "dawn":
            self.audience(meta, None)
            self.dawn(diff)
            self.reveals(diff.get("died", []), detail)
        elif role == "doctor-told":  # only she learns her protection saved the victim
            self.audience(meta, [self.holder(DOCTOR) or 0])
            self.require(diff.get("saved") == self.doctor_due, f"told of a save of {diff}")
            self.doctor_due = None
        elif role == "hunter-shot":
            actors = [self.hunter_due or 0]
            target = diff.get("target")
            dead = [] if target not in self.alive else [target, *self.heartbreak([target])]
            self.hunter_shot(diff, meta)
            self.reveals(dead, detail)
        elif role == "last-words":
            self.audience(meta, None)
            speaker = self.words_due.pop(0)
            self.require(diff.get("speaker") == speaker, f"last words by {diff.get('speaker')}")
            actors = [speaker]
        elif role == "knight-duel":
            actors = [self.holder(KNIGHT) or 0]
            self.reveals(self.knight_duel(diff, meta), detail)
        elif role == "day-speech":
            self.audience(meta, None)
            actors = [diff.get("speaker", 0)]
            self.speech(diff, detail)
        elif role == "self-destruct":
            self.reveals(self.self_destruct(diff, meta), detail)
        elif role == "vote":
            self.audience(meta, None)
            actors = self.voters()
            exiled = diff.get("exiled")
            shows_card = exiled == self.holder(IDIOT) and not self.revealed  # he lives
            dead = [] if exiled is None or shows_card else [exiled, *self.heartbreak([exiled])]
            self.vote(diff, detail)
            self.reveals(dead, detail)
        elif role == "floor-bid":
            self.audience(meta, None)
            actors = self.to_speak()
            self.floor_bid(diff, detail)
        elif role == "game-end":
            self.audience(meta, None)
            self.game_end(diff, detail)
        elif role in ELECTION or role in ("sheriff-badge", "sheriff-order"):
            self.audience(meta, None)  # the election and the badge are public
            actors = self.sheriff_event(role, diff, detail)
        self.reasoning_from(meta, actors)

    def sheriff_event(
        self, role: str, diff: Mapping[str, Any], detail: Mapping[str, Any]
    ) -> list[int]:
        """The sheriff's events; returns the seats that acted."""
        if role == "sheriff-run":
            self.sheriff_run(diff)
            return sorted(self.alive)
        if role == "sheriff-speech":
            self.sheriff_speech(diff, detail)
            return [int(diff.get("speaker") or 0)]
        if role == "sheriff-withdraw":
            running = list(self.running or [])
            self.sheriff_withdraw(diff)
            return running
        if role == "sheriff-vote":
            electors = self.electors()
            self.sheriff_vote(diff, detail)
            return electors
        if role == "sheriff-badge":
            holder = self.badge_due or 0
            self.sheriff_badge(diff)
            return [holder]
        sheriff = self.sheriff or 0
        self.sheriff_order_event(diff)
        return [sheriff]

    # -- the referee's record: what each decision offered -----------------------------------
    def legal(self, decision: str, seat: int, key: str) -> set[Any] | None:
        """The legal options of one decision as this referee reads the rules (None: a
        decision whose offer is checked elsewhere)."""
        living = sorted(self.alive)
        cfg = self.cfg
        if decision == "wolf-kill":
            seats = [s for s in living if cfg["wolf_self_knife"] or not self.is_wolf(s)]
            abstain = cfg["wolf_kill"] == "vote" and cfg["wolf_abstain"]
            empty = cfg["allow_empty_kill"] or not seats or abstain
            return {*seats, None} if empty else set(seats)
        if decision == "seer":
            return {s for s in living if s != seat}
        if decision == "guard":
            return {
                s
                for s in living
                if (cfg["guard_self"] or s != seat)
                and (cfg["guard_repeat"] or s != self.last_guarded)
            } | {None}
        if decision == "doctor":  # last night's seat again only when nobody else is left
            mine = {s for s in living if cfg["doctor_self"] or s != seat}
            fresh = {s for s in mine if cfg["doctor_repeat"] or s != self.last_protected}
            return fresh or mine
        if decision in ("hunter", "knight", "wolf-king"):
            return {s for s in living if s != seat} | {None}
        if decision in ("speech", "sheriff-speech"):  # the self-destruct: the white king takes
            takes = self.role(seat) == WHITE_KING
            return {None} | ({s for s in living if s != seat} if takes else set())
        if decision == "vote":
            if self.pk:
                targets = set(self.pk)
            else:
                idiot = self.holder(IDIOT) if self.revealed else None
                targets = {
                    s
                    for s in living
                    if (cfg["allow_self_vote"] or s != seat)
                    and (cfg["idiot_second_exile"] or s != idiot)
                }
            return targets | ({None} if cfg["allow_abstain"] or not targets else set())
        if decision in ("sheriff-run", "sheriff-withdraw", "sheriff-vote", "badge", "order"):
            return self.sheriff_legal(decision, seat)
        if decision == "cupid":
            everyone = {s for s in living if cfg["cupid_self"] or s != seat}
            return everyone if ".a." in key else None
        return None

    def offers(self, role: str, meta: Mapping[str, Any]) -> None:
        if not self.cfg["referee_record"]:
            return
        names = [n for n in meta.get("attachments", {}) or {} if str(n).startswith("offered/")]
        decisions = {str(n).split("/")[2] for n in names}
        # a wolf's speech (the election's too) offers the self-destruct, nobody else's
        blasts = self.destruct_legal(int(meta.get("diff", {}).get("speaker") or 0), None)
        expected = {
            "day-speech": {"speech"} if blasts else set(),
            "sheriff-speech": {"sheriff-speech"} if blasts else set(),
            "wolf-night": {"wolf-kill"},
            "witch-action": {"witch"},
            "seer-check": {"seer"},
            "guard-protect": {"guard"},
            "doctor-protect": {"doctor"},
            "cupid-link": {"cupid"},
            "hunter-shot": {
                "wolf-king" if self.role(self.hunter_due or 1) == WOLF_KING else "hunter"
            },
            "vote": {"vote"} if self.voters() else set(),  # a PK of everyone asks nobody
            "floor-bid": {"bid"},  # the bids' range is checked where the bid is judged
            "knight-duel": {"knight"},
            "sheriff-vote": {"sheriff-vote"} if self.electors() else set(),
            **SHERIFF_OFFERS,
        }.get(role, set())
        self.require(decisions == expected, f"offers recorded for {sorted(decisions)}")
        for name in names:
            _, seat_text, decision = str(name).split("/")
            seat = int(seat_text)
            for line in self.attachments.get(name, "").split("\n"):
                if not line:
                    continue
                offer = json.loads(line)
                if decision == "witch":
                    self.witch_offer(seat, offer)
                    continue
                legal = self.legal(decision, seat, str(offer.get("key")))
                offered = set(offer.get("options", []))
                if decision == "cupid" and legal is None:  # the second lover: one fewer
                    legal = self.legal(decision, seat, ".a.") or set()
                    self.require(
                        offered < legal and len(legal - offered) == 1,
                        f"cupid's second choice offered {sorted(offered)}",
                    )
                    continue
                self.require(
                    legal is None or offered == legal,
                    f"{offer.get('key')} offered {sorted(offered, key=str)}, the legal set is "
                    f"{sorted(legal or [], key=str)}",
                )

    def witch_offer(self, witch: int, offer: Mapping[str, Any]) -> None:
        told = self.knife if self.antidote else None
        policy = self.cfg["witch_self_save"]
        self_ok = policy == "always" or (policy == "first-night" and self.night == 1)
        can_save = told is not None and (told != witch or self_ok)
        poison = [s for s in sorted(self.alive) if s != witch] if self.poison else []
        want = {
            "told": told,
            "can_save": can_save,
            "poison": poison,
            "both": self.cfg["witch_both_potions"],
        }
        got = {k: offer.get(k) for k in want}
        self.require(got == want, f"the witch was offered {got}, the rules give {want}")

    def finish(self) -> None:
        self.where = "end of log"
        self.require(
            self.stage == "over", f"the log stops before the game ends ({self.expected()} is due)"
        )


def check_log(events: Iterable[Mapping[str, Any]], *, finished: bool = True) -> list[str]:
    """Every rule the log ``events`` (mappings with ``kind`` and ``meta``) breaks; empty when
    it is a legal game. ``finished``: the log must end with the game's end."""
    referee = Referee()
    try:
        for index, record in enumerate(events):
            referee.attachments = record.get("attachments") or {}
            referee.event(index, str(record["kind"]), record["meta"])
        if finished:
            referee.finish()
    except _Stop:
        pass
    except (KeyError, TypeError, ValueError, IndexError) as exc:  # a malformed log is a finding
        referee.fail(f"malformed event: {type(exc).__name__}: {exc}")
    return referee.problems


def read_replay(path: str | Path) -> list[dict[str, Any]]:
    """The events of a JSONL replay (topic) file: a header line, then one event a line."""
    records = []
    # split on newlines only: str.splitlines would also cut at U+2028, U+0085 and the like,
    # which JSON may carry raw inside a speech
    for line in Path(path).read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        record = json.loads(line)
        if "kind" in record:
            records.append(
                {
                    "kind": record["kind"],
                    "meta": record["meta"],
                    "attachments": record.get("attachments", {}),
                }
            )
    return records


def check_replay(path: str | Path) -> list[str]:
    return check_log(read_replay(path))
