"""A rule-based werewolf player written against the Python API (docs/python-api.md).

The rules it plays by, all from its own view of the game:

- the seer checks a living seat she has not checked yet, and tells the table each day
  what her checks found ("I am the seer: seat 4 is a wolf, seat 6 is good");
- everyone remembers what a claimed seer said (a speech of the shape above) and votes for
  a living seat called a wolf, else for the seat the most ballots went to before, never
  for one called good (while there is another);
- the witch saves the wolves' victim on the first night and keeps her poison for a seat
  the seer called a wolf; the guard protects a claimed seer, else nobody twice running;
- a wolf never votes for or kills a fellow wolf and kills a claimed seer first;
- a hunter shoots a seat called a wolf (else declines).

Run it::

    python examples/rule_based_agent.py            # seat 3 against mock players
"""

from __future__ import annotations

import random
import re
from collections import Counter

from werewolf import Choice, DecisionKind, Identity, Request, SeatView, Speech, WitchChoice
from werewolf.decisions import Answer

CLAIM = re.compile(r"seat (\d+) is (a wolf|good)")


class RuleBasedAgent:
    """One seat's player; a new one per game (it remembers the game it is in)."""

    kind = "rule-based"
    immediate = True  # decide never waits on I/O: the game runs without a task per answer

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.checks: dict[int, bool] = {}  # the seer's own checks: seat -> is a wolf
        self.called: dict[int, bool] = {}  # what a claimed seer told the table
        self.seer_claim: int | None = None  # the seat that claimed the seer
        self.last_guarded: int | None = None
        self.decisions = 0  # every decision asked of this seat, across the game

    async def decide(self, request: Request) -> Answer:
        self.decisions += 1
        view = request.view
        self._read(view)
        if request.kind.speaks:
            return Speech(self._speech(request))
        if request.kind is DecisionKind.WITCH:
            return self._witch(request)
        return Choice(self._target(request), reasoning=self._why(request))

    # -- memory -------------------------------------------------------------------------
    def _read(self, view: SeatView) -> None:
        """What the seat learnt since its last decision: its checks, the seer's claims."""
        for seen in view.observations:
            if seen.phase.endswith("seer-check"):
                self.checks[int(seen.diff["target"])] = bool(seen.diff["wolf"])
            if seen.phase.endswith(("day-speech", "last-words")):
                speaker = int(seen.diff["speaker"])
                text = str(seen.detail.get("text", "")).lower()
                if speaker != view.seat and "i am the seer" in text:
                    self.seer_claim = speaker
                    for seat, verdict in CLAIM.findall(text):
                        self.called[int(seat)] = verdict == "a wolf"

    def _wolves_called(self, view: SeatView) -> list[int]:
        known = self.checks if view.identity is Identity.SEER else self.called
        return [s for s, wolf in sorted(known.items()) if wolf and s in view.alive]

    # -- answers ------------------------------------------------------------------------
    def _speech(self, request: Request) -> str:
        view = request.view
        if view.identity is Identity.SEER and self.checks:
            found = ", ".join(
                f"seat {s} is {'a wolf' if wolf else 'good'}" for s, wolf in self.checks.items()
            )
            return f"I am the seer: {found}."
        if request.kind is DecisionKind.WOLF_TALK:
            return "Let us take a quiet seat tonight."
        wolves = self._wolves_called(view)
        if wolves and view.seat not in view.wolves:
            return f"The seer called seat {wolves[0]} a wolf; I vote with the seer."
        return "I have nothing certain yet; I will follow the evidence."

    def _witch(self, request: Request) -> WitchChoice:
        options = request.witch
        if options is None:
            return WitchChoice()
        if options.can_save and options.told_target is not None and request.view.day <= 1:
            return WitchChoice(save=True, reasoning="save on the first night")
        poison = [s for s in self._wolves_called(request.view) if s in options.poison_targets]
        if poison:
            return WitchChoice(poison=poison[0], reasoning="the seer called this seat a wolf")
        return WitchChoice()

    def _target(self, request: Request) -> int | None:
        view, options = request.view, request.options
        allowed = [o for o in options if o is not None and o != view.seat]
        if view.seat in view.wolves:
            allowed = [o for o in allowed if o not in view.wolves] or allowed
        kind = request.kind
        if kind is DecisionKind.SEER:
            unchecked = [o for o in allowed if o not in self.checks]
            return self.rng.choice(unchecked or allowed) if allowed else None
        if kind is DecisionKind.GUARD:
            pick = self.seer_claim if self.seer_claim in allowed else None
            if pick == self.last_guarded:
                pick = None
            self.last_guarded = pick
            return pick if pick in options else (None if None in options else options[0])
        if kind is DecisionKind.WOLF_KILL and self.seer_claim in allowed:
            return self.seer_claim
        if kind in (DecisionKind.VOTE, DecisionKind.HUNTER, DecisionKind.KNIGHT):
            called = [s for s in self._wolves_called(view) if s in allowed]
            if view.seat not in view.wolves and called:
                return called[0]
            if kind is not DecisionKind.VOTE:
                return None if None in options else allowed[0]
            known = self.checks if view.identity is Identity.SEER else self.called
            cleared = {s for s, wolf in known.items() if not wolf}
            return self._most_voted(view, [o for o in allowed if o not in cleared] or allowed)
        if kind is DecisionKind.BID or not allowed:
            return options[0]
        return self.rng.choice(allowed)

    def _most_voted(self, view: SeatView, allowed: list[int]) -> int | None:
        votes: Counter[int] = Counter()
        for seen in view.observations:
            if seen.phase.endswith("vote"):
                votes.update(t for _v, t in seen.detail.get("ballots", []) if t in allowed)
        if votes:
            return votes.most_common(1)[0][0]
        return self.rng.choice(allowed) if allowed else None

    def _why(self, request: Request) -> str:
        return f"rule-based {request.kind.value} as seat {request.seat}"


def make_agent(game_seed: int, seat: int) -> RuleBasedAgent:
    """A factory for ``play_game(seats={3: make_agent})``: a fresh agent per game."""
    return RuleBasedAgent(seed=game_seed * 100 + seat)


def main() -> None:
    from werewolf import play_game

    result = play_game(board="standard-9", seed=7, seats={3: make_agent})
    print(f"winner: {result.winner} ({result.reason})")
    print(result.view(3))


if __name__ == "__main__":
    main()
