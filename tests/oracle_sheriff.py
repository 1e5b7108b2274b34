"""The oracle's own reading of the sheriff's rules (``sheriff``): the election after night
1's phases and before its dawn (who runs; one is elected unopposed, none leaves no
sheriff; the candidates speak by seat; the withdrawals, one left elected, none left or
nobody left to vote loses the badge; those who never ran vote among those standing; a
tie goes to a PK round under ``sheriff_pk``, a second tie or no ballot loses the badge),
the badge passed or torn (``badge_tear``) before any shot or last words of the death,
the direction chosen before a day's first speech with the sheriff speaking last, and his
ballot counting ``sheriff_weight``. A wolf's election speech may be a self-destruct
(``self_destruct``): the election stops and is held after the next night, or the badge is
lost when it had been postponed already (``second_destruct_loses_badge``). Written from
the rules text, not from the engine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

__all__ = ["SHERIFF_CONFIG", "SheriffReferee"]

SHERIFF_CONFIG: dict[str, Any] = {
    "sheriff": False,
    "sheriff_weight": 1.5,
    "sheriff_pk": True,
    "badge_tear": True,
    "second_destruct_loses_badge": True,
}
ELECTION = ("sheriff-run", "sheriff-speech", "sheriff-withdraw", "sheriff-vote")
SHERIFF_OFFERS = {
    "sheriff-run": {"sheriff-run"},
    "sheriff-withdraw": {"sheriff-withdraw"},
    "sheriff-badge": {"badge"},
    "sheriff-order": {"order"},
}


class SheriffReferee:
    """Mixed into the oracle's ``Referee``: the names below are the referee's own."""

    cfg: dict[str, Any]
    alive: set[int]
    night: int
    stage: str
    spoken: list[int]
    night_dead: list[int]
    deal: list[str]
    pk: list[int]
    destruct_due: tuple[int, int | None] | None

    def require(self, ok: bool, message: str) -> None:
        raise NotImplementedError

    def destruct_legal(self, seat: int, take: Any) -> bool:
        raise NotImplementedError

    def sheriff_init(self) -> None:
        self.sheriff: int | None = None
        self.badge_due: int | None = None
        self.running: list[int] | None = None  # None: no election under way
        self.withdrawn: list[int] = []
        self.election_pk: list[int] = []
        self.election_spoken: list[int] = []
        self.election_step = ""
        self.election_done = False
        self.election_day = 1  # the night the election follows; a self-destruct moves it on
        self.ordered: tuple[int, bool] | None = None

    # -- what is due -----------------------------------------------------------------------
    def election_due(self) -> str | None:
        if not self.cfg["sheriff"] or self.election_done or self.night != self.election_day:
            return None
        if self.running is None:
            return "sheriff-run"
        return {"speech": "sheriff-speech", "withdraw": "sheriff-withdraw"}.get(
            self.election_step, "sheriff-vote"
        )

    def order_due(self) -> bool:
        return (
            self.sheriff is not None
            and self.sheriff in self.alive
            and not self.spoken
            and self.stage != "pk"
            and self.cfg["discussion"] != "bidding"
            and self.cfg["speech_order"] != "seat"
            and (self.ordered is None or self.ordered[0] != self.night)
        )

    def standing(self) -> list[int]:
        if self.election_pk:
            return list(self.election_pk)
        return [s for s in self.running or [] if s not in self.withdrawn]

    def electors(self) -> list[int]:
        return [s for s in sorted(self.alive) if s not in (self.running or [])]

    def sheriff_order(self) -> list[int] | None:
        """Today's order with a living sheriff, else None (the plain order)."""
        sheriff = self.sheriff
        if sheriff is None or sheriff not in self.alive:
            return None
        if self.cfg["speech_order"] == "seat":
            return [s for s in sorted(self.alive) if s != sheriff] + [sheriff]
        n = len(self.deal)
        base = min(self.night_dead) if self.night_dead else sheriff
        left = self.ordered is not None and self.ordered == (self.night, True)
        step = -1 if left else 1
        ring = [((base - 1 + step * i) % n) + 1 for i in range(1, n + 1)]
        return [s for s in ring if s in self.alive and s != sheriff] + [sheriff]

    # -- the events ------------------------------------------------------------------------
    def elected(self, seat: int | None) -> None:
        self.sheriff = seat
        self.running, self.election_done = None, True

    def sheriff_run(self, diff: Mapping[str, Any]) -> None:
        running = [int(s) for s in diff.get("candidates", [])]
        self.require(running == sorted(set(running)), f"candidates {running}")
        self.require(set(running) <= self.alive, f"a dead candidate in {running}")
        alone = running[0] if len(running) == 1 else None
        self.require(diff.get("sheriff") == alone, f"sheriff {diff.get('sheriff')}, not {alone}")
        if len(running) < 2:
            self.elected(alone)
            return
        self.running, self.election_step, self.election_spoken = running, "speech", []
        self.withdrawn = []  # a postponed election starts afresh: everyone alive may run

    def sheriff_speech(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        due = [s for s in self.standing() if s not in self.election_spoken]
        speaker = diff.get("speaker")
        self.require(bool(due) and speaker == due[0], f"election speech by {speaker}, not {due}")
        self.require(detail.get("pk") is bool(self.election_pk), "wrong pk flag")
        if "self_destruct" in diff:  # a wolf blew up: the election stops
            take = diff.get("take")
            self.require(self.destruct_legal(int(speaker or 0), take), f"self-destruct {diff}")
            self.require(detail.get("text") == "", "a self-destruct with words")
            self.destruct_due = (int(speaker or 0), take)
            self.running, self.election_pk = None, []
            if self.cfg["second_destruct_loses_badge"] and self.election_day > 1:
                self.election_done = True  # the second one: the badge is lost
            else:
                self.election_day = self.night + 1
            return
        self.election_spoken.append(int(speaker or 0))
        if len(due) == 1:
            self.election_step = "vote" if self.election_pk else "withdraw"

    def sheriff_withdraw(self, diff: Mapping[str, Any]) -> None:
        out = [int(s) for s in diff.get("withdrawn", [])]
        running = self.running or []
        self.require(set(out) <= set(running), f"withdrawn {out} never ran")
        standing = [s for s in running if s not in out]
        alone = standing[0] if len(standing) == 1 else None
        lost = not standing or (alone is None and not self.electors())
        self.require(diff.get("sheriff") == alone, f"sheriff {diff.get('sheriff')}, not {alone}")
        self.require(diff.get("lost") is lost, f"lost {diff.get('lost')}, not {lost}")
        if alone is not None or lost:
            self.elected(alone)
            return
        self.withdrawn, self.election_step = out, "vote"

    def sheriff_vote(self, diff: Mapping[str, Any], detail: Mapping[str, Any]) -> None:
        round_no = 2 if self.election_pk else 1
        self.require(detail.get("round") == round_no, "wrong election round")
        ballots = [(int(v), t) for v, t in detail.get("ballots", [])]
        self.require([v for v, _ in ballots] == self.electors(), f"election ballots {ballots}")
        standing = self.standing()
        for voter, target in ballots:
            ok = target in standing or (target is None and self.cfg["allow_abstain"])
            self.require(ok, f"seat {voter} voted {target} in the election")
        counts = Counter(t for _, t in ballots if t is not None)
        want = [[s, counts[s]] for s in sorted(counts)]
        self.require([list(c) for c in detail.get("counts", [])] == want, "election counts")
        top = max(counts.values(), default=0)
        leaders = sorted(s for s, n in counts.items() if n == top)
        elected = leaders[0] if len(leaders) == 1 else None
        pk = leaders if len(leaders) > 1 and round_no == 1 and self.cfg["sheriff_pk"] else []
        self.require(diff.get("sheriff") == elected, f"elected {diff.get('sheriff')}")
        self.require(list(diff.get("pk", [])) == pk, f"election pk {diff.get('pk')}, not {pk}")
        self.require(diff.get("lost") is (elected is None and not pk), "lost badge flag")
        if pk:
            self.election_pk, self.election_spoken, self.election_step = pk, [], "speech"
            return
        self.elected(elected)

    def sheriff_badge(self, diff: Mapping[str, Any]) -> None:
        holder, heir = self.badge_due, diff.get("to")
        self.require(diff.get("holder") == holder, f"badge of {diff.get('holder')}, not {holder}")
        ok = heir in self.alive or (heir is None and (self.cfg["badge_tear"] or not self.alive))
        self.require(ok, f"the badge went to {heir}")
        self.badge_due, self.sheriff = None, heir

    def sheriff_order_event(self, diff: Mapping[str, Any]) -> None:
        self.require(diff.get("sheriff") == self.sheriff, "the order of another seat")
        firsts = self.order_firsts()
        first, left = diff.get("first"), diff.get("left")
        self.require(first in firsts, f"seat {first} may not open the day ({firsts})")
        self.require(left is (len(firsts) > 1 and first == firsts[1]), "the direction's flag")
        self.ordered = (self.night, bool(left))

    def order_firsts(self) -> list[int]:
        firsts: list[int] = []
        for left in (False, True):
            self.ordered = (self.night, left)
            order = self.sheriff_order() or []
            if len(order) > 1 and order[0] not in firsts:
                firsts.append(order[0])
        self.ordered = None
        return firsts or [self.sheriff or 0]

    def sheriff_dies(self, batch: Mapping[int, str], decided: bool) -> dict[str, Any] | None:
        """A death batch holding the sheriff: his badge is due, or cut off (returned)."""
        sheriff = self.sheriff
        if sheriff is None or sheriff not in batch:
            return None
        self.sheriff = None
        if decided:
            return {"phase": "sheriff-badge", "seat": sheriff}
        self.badge_due = sheriff
        return None

    def weighed(self, ballots: list[tuple[int, Any]]) -> dict[int, float]:
        counts: dict[int, float] = dict(Counter(t for _, t in ballots if t is not None))
        sheriff = self.sheriff
        mine = dict(ballots).get(sheriff) if sheriff is not None else None
        if mine is not None:
            counts[mine] += float(self.cfg["sheriff_weight"]) - 1
        return counts

    def sheriff_legal(self, decision: str, seat: int) -> set[Any] | None:
        if decision in ("sheriff-run", "sheriff-withdraw"):
            return {1, None}
        if decision == "sheriff-vote":
            return set(self.standing()) | ({None} if self.cfg["allow_abstain"] else set())
        if decision == "badge":
            living = set(self.alive)
            return living | ({None} if self.cfg["badge_tear"] or not living else set())
        if decision == "order":
            return set(self.order_firsts())
        return None
