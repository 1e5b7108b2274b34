"""The day's phase roles: the dawn, last words, the speeches and the bids for the floor."""

from __future__ import annotations

from typing import Any

from pulse_core import RoleResult

from ..decisions import Choice, DecisionKind
from ..rules import (
    BIDS,
    destruct_options,
    floor_bidders,
    floor_winner,
    next_speaker,
    resolve_night,
    speeches_left,
)
from ..state import Phase
from .context import PhaseContext, ask_all, choice_of, reveal_dead, seat_text, speech_text

__all__ = ["dawn", "day_speech", "floor_bid", "last_words"]

# the members the commonest phases name, read once: on Python 3.11 every read of an enum
# member (``Phase.SPEECH``) passes the enum metaclass, and a game runs a phase per event
_SPEECH_ASK, _BID_ASK = DecisionKind.SPEECH, DecisionKind.BID
_SPEECH, _BID = Phase.SPEECH, Phase.BID


async def dawn(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    died = resolve_night(state)
    if died:
        text = (
            f"Day {state.night} dawns. Died last night: "
            + ", ".join(seat_text(state, s) for s in died)
            + "."
        )
    else:
        text = f"Day {state.night} dawns. A peaceful night: nobody died."
    shown, detail = reveal_dead(state, died)
    return ctx.result(Phase.DAWN, text + shown, diff={"died": list(died)}, detail=detail)


async def last_words(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    speaker = state.last_words_due[0]
    request = ctx.request(
        DecisionKind.LAST_WORDS,
        speaker,
        f"d{state.night}.last-words.s{speaker}",
        context={"day": state.night},
    )
    text = speech_text(await ctx.ask(request))
    return ctx.result(
        Phase.LAST_WORDS,
        f"Last words of {seat_text(state, speaker)}: {text}",
        diff={"speaker": speaker},
        detail={"text": text},
    )


async def day_speech(ctx: PhaseContext) -> RoleResult:
    state = ctx.state
    speaker = next_speaker(state)
    assert speaker is not None  # the moderator runs this phase only while someone is to speak
    pk = bool(state.pk)
    times = state.spoken.count(speaker) + 1  # this seat's speech number today
    request = ctx.request(
        _SPEECH_ASK,
        speaker,
        f"d{state.night}.{'pk' if pk else 'speech'}.s{speaker}"
        + (f".r{times}" if times > 1 else ""),
        options=destruct_options(state, speaker),
        context={"day": state.night, "pk": pk, "candidates": list(state.pk)}
        | ({"round": times} if times > 1 and not pk else {}),  # a later round of the talk
    )
    answer = await ctx.ask(request)
    if isinstance(answer, Choice):  # a wolf's self-destruct, offered as the request's options
        return _destruct(ctx, speaker, answer.target, pk)
    text = speech_text(answer)
    label = "PK speech" if pk else "Speech"
    return ctx.result(
        _SPEECH,
        f"{label} of {seat_text(state, speaker)}: {text}",
        diff={"speaker": speaker},
        detail={"pk": pk, "text": text},
    )


def _destruct(ctx: PhaseContext, speaker: int, take: int | None, pk: bool) -> RoleResult:
    """The speech that is a self-destruct: no words; the ``self-destruct`` phase follows."""
    state = ctx.state
    diff: dict[str, Any] = {"self_destruct": True, "speaker": speaker}
    if take is not None:
        diff["take"] = take
    return ctx.result(
        _SPEECH,
        f"{seat_text(state, speaker).capitalize()} interrupts the day: he self-destructs.",
        diff=diff,
        detail={"pk": pk, "text": ""},
    )


async def floor_bid(ctx: PhaseContext) -> RoleResult:
    """Bidding discussions: every living player with speeches left bids for the floor at
    once; the highest bid speaks next (``rules.floor_winner``). The bids are public."""
    state = ctx.state
    number = len(state.spoken) + 1  # the speech the floor is bid for
    requests = [
        ctx.request(
            _BID_ASK,
            seat,
            f"d{state.night}.bid{number}.s{seat}",
            options=BIDS,
            context={
                "day": state.night,
                "speech": number,
                "left": speeches_left(state),
                "spoken": state.spoken.count(seat),
            },
        )
        for seat in floor_bidders(state)
    ]
    answers = await ask_all(ctx, requests)
    bids = {r.seat: choice_of(a) or 0 for r, a in zip(requests, answers, strict=True)}
    speaker = floor_winner(state, bids)
    shown = ", ".join(f"{s}:{b}" for s, b in sorted(bids.items()))
    return ctx.result(
        _BID,
        f"Day {state.night}, bids for speech {number}: {shown}. {seat_text(state, speaker)} speaks.",
        diff={"floor": speaker},
        detail={"bids": [[s, b] for s, b in sorted(bids.items())], "speech": number},
    )
