"""English voices at the table: each personality's own phrasings of the lines a seer duel,
a vote and last words are made of (the claims, the reports, the reasons). Drawn with the
voice's phrasings of ``voices_en`` and the shared ones, and claiming the same (see
``grammar``): the cautious seat hedges and explains, the steady one cites the record, the
bold one is short and pushes."""

from __future__ import annotations

VOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "cautious": {
        "trust": (
            "I trust seat {a} as the seer, though I would like one more check to be sure.",
            "On balance I believe seat {a}; the other story has more holes in it.",
            "I believe seat {a} is the seer, carefully, and I'll say so if that changes.",
        ),
        "liar": (
            "I am fairly sure now: seat {a} is a wolf, and that seer claim does not hold.",
            "I hate to be so firm, but seat {a} is a wolf who took the seer's name.",
            "Having weighed both claims, seat {a} is a wolf to me.",
        ),
        "vote": (
            "I don't take it lightly, but I'm voting seat {a}.",
            "For today, and only on what I've heard, vote seat {a}.",
            "Unless something new comes up, my vote is on seat {a}.",
        ),
        "claim": (
            "I did not want to say this so early, but I am the {role}.",
            "I think it is safer to say it now: I am the {role}.",
            "I'll be open with you, since it may save a good player: I am the {role}.",
        ),
        "seer.next": (
            "If the night allows it, I would like to look at seat {a} next.",
            "I plan to look at seat {a} next, though I may change my mind after the vote.",
            "Should I go down tonight, note that seat {a} was my next check.",
        ),
        "why.backs_liar": (
            "What worries me is that seat {a} stood so firmly behind seat {b}'s claim.",
            "I keep coming back to seat {a} backing seat {b}, the claim I don't believe.",
            "Seat {a} put their trust in seat {b}, and I can't see why, honestly.",
        ),
        "why.voted_seer": (
            "I may be reading too much into it, but seat {a}'s vote on day {n} troubles me.",
            "On day {n} seat {a} voted the way the seer's enemies would, which I noted.",
            "Seat {a} voted seat {b} on day {n}, and I still haven't heard why.",
        ),
        "why.seer_found": (
            "If seat {b} is the seer, and I believe so, then seat {b} found seat {a} a wolf.",
            "The only hard fact I have is seat {b}'s check: seat {a} came back a wolf.",
            "Seat {b} checked seat {a} and got a wolf; I take that seriously.",
        ),
        "why.liar.counter_claim": (
            "Two seers claimed, seat {a} and seat {b}, and seat {b}'s checks sit better with the deaths.",
            "I've compared seat {a}'s claim with seat {b}'s, and I find seat {b} more believable.",
            "I tried to believe both seat {a} and seat {b}; only seat {b}'s story survives the nights.",
        ),
        "lw.good": (
            "I was good, and I hope you find the wolves faster than you found me.",
            "For the record, I was good; please don't let this vote make you doubt everything.",
            "I was a good player. Think carefully before the next vote.",
        ),
        "lw.good.night": (
            "I was good; the wolves chose me, and maybe that says something about what I said.",
            "I was good. Please think about why the wolves wanted me gone.",
            "I was on your side, and I'm sorry I can't help with the next vote.",
        ),
        "lw.reads": (
            "If you want my reads, gently, in order: {seats}.",
            "I could be wrong, but I would look at {seats}, in that order.",
            "My soft order of suspects: {seats}.",
        ),
        "r2.agree": (
            "I think seat {a} is right about seat {b}, and I was leaning that way already.",
            "After hearing seat {a}, I find myself agreeing about seat {b}.",
            "Seat {a}'s case on seat {b} is careful, and I share it.",
        ),
        "follow_seer": (
            "Unless the seer names a wolf; then I would go with the seer, of course.",
            "If a seer reports a wolf before the vote, I'll move my vote there.",
            "Unless the seer gives us a wolf, in which case that check comes first.",
        ),
        "why.quiet": (
            "Seat {a} said very little on day {n}, and I found that hard to read.",
            "I noticed seat {a} avoided naming anyone on day {n}.",
            "On day {n} seat {a} kept everything vague, and I'm not sure why.",
        ),
    },
    "steady": {
        "trust": (
            "Looking at the record, I trust seat {a} as the seer.",
            "The checks and the deaths line up for seat {a}: I believe seat {a}.",
            "I trust seat {a}; that claim has matched every night so far.",
        ),
        "liar": (
            "Seat {a} is a wolf: the claim does not fit the record.",
            "On the facts, seat {a} is a wolf, and the seer claim was cover.",
            "Put the nights side by side and seat {a} is a wolf with a false claim.",
        ),
        "vote": (
            "On the record, I'm voting seat {a}.",
            "Where the evidence points, my vote goes to seat {a}.",
            "So the vote is simple for me: seat {a}. Vote seat {a}.",
        ),
        "claim": (
            "Let me put my card on the table: I am the {role}.",
            "For the record, I am the {role}.",
            "Here is the fact you need first: I am the {role}.",
        ),
        "seer.next": (
            "My next check is seat {a}; keep that on the record in case I fall.",
            "Tonight I look at seat {a}. If I die, that is where my list goes next.",
            "The order of my checks from here: seat {a} first.",
        ),
        "why.backs_liar": (
            "Seat {a} backed seat {b}, and seat {b}'s claim is the one that fails the facts.",
            "On the record, seat {a} stood with seat {b}'s false claim.",
            "Look at who backed seat {b}: seat {a}, and without a reason.",
        ),
        "why.voted_seer": (
            "Check the day-{n} votes: seat {a} voted seat {b}, the seer.",
            "The day-{n} vote is on the record: seat {a} went against seat {b}.",
            "Seat {a}'s ballot on day {n} went to seat {b}, our seer; that is a fact, not a feeling.",
        ),
        "why.seer_found": (
            "The record says seat {b} checked seat {a}: a wolf.",
            "Fact one: seat {b}'s check on seat {a} was a wolf.",
            "Seat {b} reported seat {a} as a wolf, and nothing since has contradicted it.",
        ),
        "why.liar.counter_claim": (
            "Seat {a} and seat {b} both claim seer; the nights fit seat {b}, not seat {a}.",
            "Compare the two claims with the deaths: seat {b} holds up, seat {a} doesn't.",
            "Between seat {a} and seat {b}, the record backs seat {b}.",
        ),
        "lw.good": (
            "I was good. Go back over the votes; the wolves are in there.",
            "I was good; look at who pushed me and who followed.",
            "I was good. The votes on me are your best record now.",
        ),
        "lw.good.night": (
            "I was good. Ask who gained from my death.",
            "I was good; the wolves took me for a reason, so go over what I said.",
            "I was good. Keep the vote record; it's the one thing they can't fake.",
        ),
        "lw.reads": (
            "For the record, my order of suspects: {seats}.",
            "Going by the votes, I'd look at {seats}, in that order.",
            "My list, by the record: {seats}.",
        ),
        "r2.agree": (
            "Seat {a}'s case on seat {b} fits the record; I agree.",
            "I reached seat {b} from the votes, and seat {a} got there from the speeches.",
            "Seat {a} and I read seat {b} the same way.",
        ),
        "follow_seer": (
            "Unless the seer names a wolf: a check outweighs my read.",
            "If the seer reports a wolf, that seat gets my vote instead.",
            "Unless a seer comes out with a wolf; a check beats a read.",
        ),
        "why.quiet": (
            "On day {n} seat {a} spoke and took no position at all.",
            "Seat {a}'s day-{n} speech named nobody; that is on the record.",
            "Seat {a} was the only one without a name on day {n}.",
        ),
    },
    "bold": {
        "trust": (
            "I trust seat {a}, no question.",
            "I believe seat {a}. Real seer.",
            "I trust seat {a}, full stop.",
        ),
        "liar": (
            "Seat {a} is a wolf. Fake seer.",
            "Seat {a} is a wolf, plain and simple.",
            "Seat {a} is a wolf, and a bad bluffer.",
        ),
        "vote": (
            "Vote seat {a}. All of us.",
            "Vote seat {a} and stop stalling.",
            "Everyone, vote seat {a} today.",
        ),
        "claim": (
            "I'm the {role}. No games.",
            "I am the {role}. Deal with it.",
            "I'm the {role}, and I'm not hiding it.",
        ),
        "seer.next": (
            "Next check: seat {a}.",
            "Seat {a} tonight. You'll hear it tomorrow.",
            "Tonight it's seat {a}.",
        ),
        "why.backs_liar": (
            "Seat {a} backed seat {b}'s fake claim. Busted.",
            "Seat {a} jumped behind seat {b}. Wolf move.",
            "Seat {a} covered for seat {b}. Not buying it.",
        ),
        "why.voted_seer": (
            "Seat {a} voted seat {b} on day {n}. The seer. Think about it.",
            "Day {n}, seat {a} went for seat {b}. Wolves do that.",
            "Seat {a} shot at our seer on day {n}.",
        ),
        "why.seer_found": (
            "Seat {b} checked seat {a}. Wolf.",
            "Seat {a} got a wolf check from seat {b}.",
            "Seat {b} says wolf on seat {a}. Enough for me.",
        ),
        "why.liar.counter_claim": (
            "Seat {a} counter-claimed seat {b}. Seat {b} is the real one.",
            "Two seers, seat {a} and seat {b}. Seat {b}, easy.",
            "Seat {a} jumped to cover for the pack; seat {b} is the real one.",
        ),
        "lw.good": (
            "I was good. You blew it.",
            "I was good. Wrong seat, people.",
            "I was good. Now get the right one.",
        ),
        "lw.good.night": (
            "I was good. They feared me.",
            "I was good. Avenge me.",
            "I was good, and they knew it.",
        ),
        "lw.reads": (
            "Wolves: {seats}. Go.",
            "My picks: {seats}.",
            "Hit {seats}, in that order.",
        ),
        "r2.agree": (
            "Seat {a} has it right. Seat {b}.",
            "Same as seat {a}: seat {b}.",
            "Seat {a} nailed seat {b}.",
        ),
        "follow_seer": (
            "Unless the seer names a wolf. Then that.",
            "If a seer drops a wolf, I switch.",
            "Unless the seer gives a wolf.",
        ),
        "why.quiet": (
            "Seat {a} said nothing on day {n}. Hiding.",
            "Seat {a}, day {n}: all fog.",
            "Seat {a} dodged on day {n}.",
        ),
    },
}
