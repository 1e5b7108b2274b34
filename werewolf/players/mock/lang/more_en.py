"""More English phrasings of the shared lines, and the fillers a short speech grows by
(``fill.*``: no claim in them). Added after ``en``'s own (see ``lang.phrasings``)."""

from __future__ import annotations

_FIRST: dict[str, tuple[str, ...]] = {
    "fill.wait": (
        "I want to hear the later speakers before I settle.",
        "Let's keep the vote on one seat today.",
        "I'll be watching who votes against their own words.",
        "Everyone should leave a clear read today.",
    ),
    "fill.ask": (
        "Whoever speaks after me, please give a name and a reason.",
        "A split vote only helps the wolves.",
        "Check every claim against last night before you believe it.",
        "Keep an eye on who changes their story.",
    ),
    "fill.more": (
        "I'll keep my notes on everyone's votes.",
        "Let's not hand the wolves a free day.",
        "Votes say more than words; I'll compare them.",
        "I'm writing down who names whom.",
    ),
    "trust": (
        "I trust seat {a} as the seer; the checks fit what happened.",
        "I believe seat {a} is the real seer.",
        "I trust seat {a}: that claim has held up against the deaths.",
    ),
    "liar": (
        "Seat {a} is a wolf, and that seer claim was a bluff.",
        "Seat {a} is a wolf who jumped as seer to steer us.",
    ),
    "why.accused_by": (
        "Seat {b} reached seat {a} on their own, which I find telling.",
        "I'm not alone on seat {a}: seat {b} got there too.",
    ),
    "why.quiet": (
        "On day {n} seat {a} spoke a lot and said nothing.",
        "Seat {a} stayed vague on day {n}, no name and no reason.",
        "Seat {a} was slippery on day {n}: all talk, no stance.",
    ),
    "why.voted_seer": (
        "Seat {a} voted the seer, seat {b}, on day {n}, and never explained it.",
        "I can't get past seat {a}'s day-{n} vote on seat {b}, our seer.",
    ),
    "why.shielded": (
        "On day {n} seat {a} dodged the vote on seat {b}, the seer's wolf.",
        "Seat {a} kept the vote off seat {b} on day {n}, after the seer's report.",
    ),
    "why.voted_wolf": ("Seat {a} put a vote on seat {b}.", "Seat {a}'s ballot went to seat {b}."),
    "why.voted_me": (
        "Seat {a} voted me on day {n}, and I know I'm good.",
        "On day {n} seat {a}'s vote came at me.",
    ),
    "why.seer_found": (
        "Seat {b} checked seat {a} and found a wolf.",
        "Seat {a} is the seer's wolf: seat {b} checked that seat.",
    ),
    "why.seer_cleared": ("Seat {b} checked seat {a} and found a good player.",),
    "why.attacks_seer": ("Seat {a} has been pushing against seat {b}, the seer, all game.",),
    "why.backs_liar": ("Seat {a} defended seat {b}'s fake seer claim.",),
    "why.victim_accused": ("Seat {b} named seat {a} and was killed that night.",),
    "why.night_victim": ("Seat {a} was killed in the night.",),
    "why.gut": (
        "Call it instinct, but seat {a} doesn't sit right.",
        "Nothing hard on seat {a}, just a feeling.",
    ),
    "r2.agree": (
        "Seat {a} said what I was thinking about seat {b}.",
        "Seat {a}'s read on seat {b} matches mine.",
    ),
    "r2.noted": (
        "Seat {a} named seat {b}; I'd like seat {b}'s answer first.",
        "I've noted seat {a}'s case on seat {b}, but I'm not there yet.",
    ),
    "r2.doubt": (
        "Seat {a} is pushing seat {b} too hard for how little there is.",
        "I don't see what seat {a} sees in seat {b}.",
    ),
    "r2.accused": (
        "Seat {a} came after me with nothing; I'm good, so why the rush?",
        "Seat {a} wants me out, and I am good. That tells me about seat {a}.",
    ),
    "r2.start.victim": ("Let's start with {seats}: whose case died with that seat?",),
    "r2.start.votes": ("Let's start from yesterday's votes; they don't lie.",),
    "lw.reads": (
        "If I could still vote, I'd go {seats}, in that order.",
        "My wolf list, most likely first: {seats}.",
        "Look at {seats}, in that order.",
    ),
    "lw.clean": (
        "In my book seat {a} is on the good side; don't waste a vote there.",
        "Keep seat {a}; I believe that seat.",
    ),
    "lw.good": ("I'm a good player, for the record.", "For the record, I was on the good side."),
    "open.peaceful": ("A quiet night: nobody died.", "Nobody died; the knife missed."),
    "open.protected": ("A peaceful night: the protection was on the right seat.",),
    "framed": ("Seat {a} calls me a wolf. I'm good, so seat {a} is lying about the seer.",),
    "doubt_seer": ("Seat {a}'s seer claim doesn't hold; I suspect seat {a}.",),
    "follow_seer": ("Unless the seer reports a wolf; then I follow the seer.",),
    "hunter.warn": ("If you exile me, I'm taking my best suspect with me.",),
    "witch.kept": ("The poison is still in my hand.",),
    "open.first": (
        "Nothing to go on yet but the speeches, so let me use them.",
        "Day one; I'll keep it honest and short.",
        "We start blind, so the speeches are all we have.",
    ),
    "open.later": (
        "Day {n}. Let me walk through it.",
        "Day {n}, so here is my reading of the table.",
        "We're on day {n}; let me sum up.",
    ),
    "open.victims": (
        "{Seats} didn't survive the night.",
        "Last night cost us {seats}.",
        "{Seats} won't be voting today.",
    ),
    "no_read": (
        "I can't put a wolf's face on anyone yet.",
        "Everyone has sounded plausible so far.",
        "No one stands out to me yet.",
    ),
    "safe": (
        "Seat {a} has said nothing I'd hold against that seat.",
        "I'd keep seat {a} around for now.",
    ),
    "lean": (
        "Seat {a} is the one I'd look at first, but it's early.",
        "Something about seat {a} is off, though not enough for a vote.",
    ),
    "also": ("Seat {a} has my attention too.", "Seat {a} is also on my mind."),
    "suspect": (
        "I suspect seat {a}, and here's the short version.",
        "I lean towards seat {a} now.",
    ),
    "vote": ("I'm voting seat {a}.", "Voting seat {a}."),
    "r2.still": ("That round didn't change my mind.", "Still no one I'd vote on."),
    "r2.no_name": ("No new name from me.", "I'm not adding a name."),
    "r2.nobody": (
        "Not one name in the whole first round.",
        "Round one ended without a single accusation.",
    ),
    "lw.farewell": ("So that's me done. A few words.", "I'm going, so let me be useful."),
    "pk.defend": (
        "I'm good, and I'd ask you to look at my votes.",
        "Exiling me helps only the wolves.",
    ),
    "why.claims_my_role": ("Seat {a} says they're the {role}; that's a lie, I know it.",),
    "why.claims_role": ("Seat {a} has come out as the {role}.",),
    "why.shooter": ("Seat {a} fired the hunter's shot.",),
    "why.wolves_target": ("The wolves aimed at seat {a}.",),
    "why.revealed": ("Seat {a}'s card was shown at death.",),
    "why.trusted_seer": ("Seat {a}'s seer claim holds together.",),
    "why.liar.lies": ("Seat {a}'s checks don't add up.",),
    "why.liar.changed_report": ("Seat {a} changed a check between speeches.",),
    "why.attacks_cleared": ("Seat {a} went after seat {b}, who was checked good.",),
}
_FURTHER: dict[str, tuple[str, ...]] = {
    "why.seer_found": ("Seat {b} reported seat {a} as a wolf.",),
    "why.voted_seer": ("Seat {a} went against our seer, seat {b}, on day {n}.",),
    "why.shielded": ("Seat {a} voted away from seat {b} on day {n}, even after the report.",),
    "why.accused_by": ("Seat {b} is on seat {a} as well.",),
    "why.quiet": ("Seat {a} gave us nothing to work with on day {n}.",),
    "why.liar.counter_claim": ("Of the two seer claims, seat {b}'s fits; seat {a}'s doesn't.",),
    "why.liar.framed_victim": (
        "Seat {a} called seat {b} a wolf, and the wolves then killed seat {b}.",
    ),
    "why.liar.framed_vouched": ("Seat {a}'s report on seat {b} can't be true.",),
    "why.backs_liar": ("Seat {a} keeps covering for seat {b}, the fake seer.",),
    "why.attacks_seer": ("Seat {a} keeps trying to discredit seat {b}, our seer.",),
    "why.voted_me": ("Seat {a} put a vote on me on day {n}.",),
    "why.accused_me": ("Seat {a} is pushing me out with no case.",),
    "r2.agree": ("Seat {a} and I ended up in the same place on seat {b}.",),
    "r2.noted": ("Seat {a} raised seat {b}; fair, but not yet enough for me.",),
}

# a further phrasing each of the lines a seer duel and a vote are made of
_TABLE: dict[str, tuple[str, ...]] = {
    "claim": ("I am the {role}; let me give you everything I know.",),
    "liar": ("Seat {a} is a wolf, and the claim was made to lead good players astray.",),
    "trust": ("I trust seat {a}; in this duel, that is my side.",),
    "suspect": ("I suspect seat {a}, and here is why.",),
    "vote": ("Vote seat {a}; let's not split.",),
    "hook": ("I lean towards seat {a} a bit too, not for my vote; that speech felt off.",),
    "r2.doubt": (
        "Seat {a} hit seat {b} hard and with little reason; that could be a wolf building cover.",
    ),
    "why.liar.changed_report": ("Seat {a} changed a check; that looks like backing down.",),
    "witch.saved": ("I used the antidote on seat {a}; that seat owes me one.",),
    "lw.farewell": ("Last words, then. Listen.",),
    "open.victims": ("{Seats} died in the night, and the knife itself tells us something.",),
    "no_read": ("Nobody has earned my vote yet, so I won't throw one around.",),
    "why.backs_liar": ("Seat {a} has been charging in for seat {b} all day.",),
    "why.seer_found": ("Seat {b}'s wolf check landed on seat {a}.",),
    "why.voted_seer": ("On day {n} seat {a}'s vote hung on seat {b}, the seer.",),
    "why.liar.counter_claim": ("Seat {a} stood up against seat {b}'s claim; I go with seat {b}.",),
    "seer.next": ("Seat {a} is my next check; the rest can wait for tomorrow.",),
}

MORE: dict[str, tuple[str, ...]] = {
    key: _FIRST.get(key, ()) + _FURTHER.get(key, ()) + _TABLE.get(key, ())
    for key in {**_FIRST, **_FURTHER, **_TABLE}
}
