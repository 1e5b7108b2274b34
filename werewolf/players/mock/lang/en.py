"""English phrasings. Each key maps to variants; ``{a}``/``{b}`` are seats, ``{n}`` a day or
night, ``{role}`` a role, ``{seats}`` a list. Sentences marked (claim) carry the claim
grammar and must keep its form (see ``grammar``)."""

from __future__ import annotations

PHRASES: dict[str, tuple[str, ...]] = {
    # openers
    "open.first": (
        "It is early, so I will keep this short.",
        "Day one, so everything is still thin.",
        "First day: let me say where I stand.",
        "Day one, and I want to weigh every word today.",
        "This is only the first day, but it counts.",
        "Let me be brief on day one.",
    ),
    "open.victims": (
        "We lost {seats} last night.",
        "{Seats} did not wake up.",
        "The wolves took {seats} in the night.",
        "So {seats} will not speak today.",
    ),
    "open.peaceful": (
        "A quiet night: nobody died, so somebody was saved.",
        "Nobody died last night; someone was saved.",
        "A peaceful night: the wolves' knife was stopped.",
    ),
    "open.protected": (
        "Nobody died last night: someone was protected.",
        "A quiet night: the wolves' target was protected.",
        "Nobody died, so the protection landed on the right seat.",
    ),
    # a second round the same day: an answer to the first
    "r2.accused": (
        "Seat {a} pointed at me, and I am good: ask seat {a} what that rests on.",
        "Seat {a} named me. I am good, and that case has nothing under it.",
        "About seat {a} naming me: I am on the good side, and I would look at why seat {a} "
        "needs me out.",
    ),
    "r2.mistaken": (
        "Seat {a} has me wrong this time: I am good, and I hope seat {a} looks again.",
        "Seat {a} named me, and seat {a} is mistaken: I am on the good side.",
    ),
    "r2.less_sure": (
        "I named seat {a} earlier; having heard the round, I am less sure of it now.",
        "I pointed at seat {a} before, but what I heard since makes me hold back.",
    ),
    "r2.agree": (
        "Seat {a} is right about seat {b}; I came to the same place.",
        "I agree with seat {a} on seat {b}.",
        "Seat {a} made the case on seat {b}, and I share it.",
    ),
    "r2.noted": (
        "Seat {a} went after seat {b}; I want seat {b} to answer that before I join.",
        "I heard seat {a} on seat {b}. It is not enough for me yet.",
        "Seat {a} named seat {b}, and I am still weighing it.",
    ),
    "r2.doubt": (
        "I do not follow seat {a} on seat {b}: seat {b} has given me no reason.",
        "Seat {a} went after seat {b}, and I think that is the wrong seat.",
        "Seat {a}'s case on seat {b} is thin; I would not spend our vote there.",
    ),
    "r2.nobody": (
        "Nobody named anyone in the first round.",
        "Everyone held back in round one; not one seat was named.",
        "A whole round and not one name: that helps only the wolves.",
    ),
    "r2.start.victim": (
        "So let us start from the night: who gains from {seats} being gone?",
        "Then start from {seats}: the wolves chose that seat for a reason.",
        "I say we begin with why the wolves took {seats}.",
    ),
    "r2.start.votes": (
        "So let us start from the last vote: who voted with whom.",
        "Then look at yesterday's ballots; they are the one thing nobody can take back.",
    ),
    "r2.no_name": (
        "I have no name of my own yet.",
        "I am not naming anyone myself yet.",
        "Beyond that, I have no one to name.",
        "I will not add a name of my own yet.",
    ),
    "r2.still": (
        "Nothing new from me: still no read.",
        "I have nothing to add; still no read of my own.",
        "Still no read from me.",
        "Nothing more from me this round: I still have no read.",
        "Same as before: no read yet, and I will not invent one.",
        "I will keep it short: still nothing solid.",
    ),
    "open.later": (
        "Day {n}, and the picture is getting clearer.",
        "Let me go through what we know on day {n}.",
        "Here is how I read day {n}.",
        "Time to put the pieces together.",
    ),
    # claims (claim)
    "claim": ("I am the {role}.", "I'm the {role}.", "I am the {role}, and I will say it plainly."),
    "report.wolf": ("Night {n}: I checked seat {a}: a wolf.",),
    "report.good": ("Night {n}: I checked seat {a}: good.",),
    "seer.next": (
        "Tonight I look at seat {a}; if I die, start from there.",
        "My next check is seat {a}.",
        "If I live through the night, seat {a} is my next check.",
        "Seat {a} is the next one I look at, and I'll tell you what I find.",
    ),
    "liar": (
        "Seat {a} is a wolf pretending to be the seer.",
        "Seat {a} is a wolf: a fake seer.",
    ),
    "sum.open": (
        "As sheriff I speak last, so let me sum up the day.",
        "Sheriff's summary, now that everyone has spoken.",
    ),
    "sum.found": (
        "The check that stands is seat {b}'s: seat {a}, a wolf.",
        "Of all the claims today, I go with seat {b}'s check on seat {a}.",
    ),
    "sum.vote": (
        "The badge calls it: everyone, vote seat {a}.",
        "My call as sheriff: we all vote seat {a} today.",
    ),
    "trust.wait": (
        "Seat {a}'s claim stands for now; I want to hear whether anyone counters it before I back it.",
        "I'll hold my side on seat {a}'s claim until everyone has spoken.",
    ),
    "trust": (
        "I trust seat {a} as the seer.",
        "I believe seat {a} is our seer.",
        "I trust seat {a}; that seer claim holds up.",
    ),
    "doubt_seer": (
        "I do not buy seat {a} as the seer; I suspect seat {a}.",
        "That seer claim from seat {a} is too convenient. I suspect seat {a}.",
        "Seat {a} jumped as seer with nothing behind it; I suspect seat {a}.",
    ),
    "framed": (
        "Seat {a} calls me a wolf, but I am good: seat {a} is lying.",
        "I am not a wolf, whatever seat {a} says: the report on me is false.",
        "Seat {a} named me a wolf. I know what I am, so seat {a} is the liar.",
    ),
    "no_read": (
        "I have no solid read yet and will not throw a vote on a guess.",
        "I do not have enough to accuse anyone yet.",
        "Nobody has given me a real reason to suspect them yet.",
        "I am listening before I point at anyone.",
        "No strong suspicion from me so far.",
    ),
    "suspect": ("I suspect seat {a}.", "I lean towards seat {a}.", "I suspect seat {a} most."),
    "vote": (
        "Vote seat {a}.",
        "My vote goes to seat {a}.",
        "I am voting seat {a}.",
        "Vote seat {a} with me.",
    ),
    "follow_seer": (
        "Unless the seer names a wolf, then I follow the seer.",
        "If a seer comes out with a wolf, I will vote that seat instead.",
        "If the seer reports a wolf later today, my vote follows the seer.",
    ),
    "lean": (
        "Seat {a} is the closest I have to a suspect, but that is not enough for a vote yet.",
        "If I had to pick now it would be seat {a}, but I will wait.",
        "I am watching seat {a}, nothing more yet.",
        "Seat {a} bothers me a little, no more than that.",
    ),
    "safe": (
        "Seat {a} sounded honest to me.",
        "I am fairly comfortable with seat {a}.",
        "Seat {a} reads as good to me so far.",
        "I would not start with seat {a}.",
    ),
    "also": (
        "Seat {a} is my second choice.",
        "I am also watching seat {a}.",
        "After that, seat {a} worries me.",
    ),
    "witch.saved": ("I saved seat {a}.", "I used the antidote on seat {a}."),
    "witch.poisoned": ("I poisoned seat {a}.",),
    "witch.kept": ("I still hold the poison.", "My poison is still unused."),
    "hunter.warn": (
        "If I go, I take the likeliest wolf with me.",
        "Exile me and my bullet goes to the seat I trust least.",
    ),
    "hunter.shot": ("I took seat {a} with me.", "My bullet went to seat {a}."),
    "pk.defend": (
        "I am up for exile, but I am good.",
        "Do not waste a vote on me: I am on your side.",
        "You have the wrong seat: I am good.",
    ),
    # last words
    "lw.farewell": (
        "These are my last words.",
        "I am out, so listen carefully.",
        "One last thing before I go.",
        "I leave you this.",
    ),
    "lw.good": ("I was good.", "I was on the good side.", "You exiled a good player."),
    "lw.reads": (
        "My reads, most wolfish first: {seats}.",
        "If I were still voting, my order would be {seats}.",
        "Look hardest at {seats}, in that order.",
    ),
    "lw.clean": (
        "I would keep seat {a}: I believe that seat is good.",
        "Seat {a} looks good to me; do not waste a vote there.",
    ),
    # the wolves' night (claim: kill / plan sentences)
    "kill.propose": (
        "Kill seat {a}.",
        "Let's take seat {a} tonight.",
        "I say we go for seat {a}.",
        "Knife seat {a}.",
    ),
    "kill.none": ("Kill nobody tonight.", "Let's kill nobody and stay quiet."),
    "kill.agree": (
        "Agreed: kill seat {a}.",
        "Fine, take seat {a}.",
        "Seat {a} works for me: take seat {a}.",
        "Good call. Go for seat {a}.",
    ),
    "kill.counter": (
        "I would rather take seat {a}.",
        "Better: knife seat {a}.",
        "No, go for seat {a} instead.",
    ),
    "plan.fake": (
        "Seat {a} will claim seer tomorrow.",
        "Seat {a} jumps as seer and reports a good seat as a wolf.",
        "Seat {a} fakes the seer; the rest of us back that seat.",
    ),
    "plan.keep": (
        "Seat {a} plays the seer again tomorrow.",
        "Seat {a} plays the seer again; the rest of us back that seat.",
    ),
    "plan.none": (
        "Nobody claims seer; we blend in.",
        "No one claims seer: we stay quiet and vote with the table.",
        "Nobody will claim seer this time.",
    ),
    "night.seer": ("Seat {a} claimed the seer.", "Seat {a} is the seer the table listens to."),
    "night.cleared": ("The table trusts seat {a}.", "Seat {a} was cleared and will lead the vote."),
    "night.hunts": ("Seat {a} is hunting us.", "Seat {a} keeps pointing at us."),
    "night.witch": ("Seat {a} claimed the witch.",),
    "night.trusted": ("Nobody suspects seat {a}.", "Seat {a} has the table's trust."),
    "night.push": (
        "Tomorrow I keep leaning on seat {a}; the table half suspects that seat already.",
        "By day I will keep the heat on seat {a}.",
        "I will steer the vote towards seat {a} tomorrow.",
    ),
    "night.quiet": (
        "Tomorrow I keep my head down and follow the table.",
        "I will stay quiet by day and vote with the crowd.",
        "By day I say little.",
    ),
    "night.bait": ("I take the knife myself to bait the antidote.",),
    # evidence
    "why.liar.framed_me": ("Seat {a} called me a wolf, and I know I am good.",),
    "why.liar.framed_vouched": (
        "Seat {a} called seat {b} a wolf, but seat {b} is proven good.",
        "Seat {a}'s report on seat {b} cannot be true.",
    ),
    "why.liar.framed_victim": (
        "Seat {a} called seat {b} a wolf, yet the wolves killed seat {b}.",
        "The wolves killed seat {b}, the seat that seat {a} called a wolf.",
    ),
    "why.liar.changed_report": ("Seat {a} changed a report between speeches.",),
    "why.liar.contradicts_me": ("Seat {a}'s report on seat {b} contradicts what I know.",),
    "why.liar.dead_check": (
        "Seat {a} says he checked seat {b} on a night seat {b} was already dead.",
    ),
    "why.liar.checked_rival": (
        "Seat {a} spent a check on seat {b} after seat {b} claimed; a real seer knows her rival lies.",
        "A real seer would not waste a check on the other claimer, yet seat {a} checked seat {b}.",
    ),
    "why.liar.counter_claim": (
        "Seat {a} counter-claimed seat {b}, and seat {b}'s claim fits the facts better.",
        "Between the two seer claims, seat {b} is the one I believe over seat {a}.",
    ),
    "why.liar.claims_my_role": ("Seat {a} claims my role.",),
    "why.liar.revealed": ("Seat {a} claimed the seer, and death showed a wolf's card.",),
    "why.liar.rival_shown": ("Death showed that seat {b} was the seer, so seat {a} lied.",),
    "why.revealed": ("Death showed seat {a}'s card.",),
    "why.wolf_vouched": (
        "Seat {b}, a wolf by the card death showed, vouched for seat {a}.",
        "The dead wolf, seat {b}, spoke up for seat {a}.",
    ),
    "why.liar.lies": ("Seat {a}'s reports do not add up.",),
    "why.trusted_seer": ("Seat {a}'s claim holds up.",),
    "why.seer_found": (
        "The seer, seat {b}, found seat {a} a wolf.",
        "Seat {b} checked seat {a}: a wolf.",
        "Seat {b}'s check on seat {a} came back wolf.",
    ),
    "why.seer_cleared": ("Seat {b} cleared seat {a}.",),
    "why.claims_my_role": ("Seat {a} claims to be the {role}, and I know that is false.",),
    "why.claims_role": ("Seat {a} has claimed the {role}.",),
    "why.shooter": ("Seat {a} shot as the hunter.",),
    "why.wolves_target": ("The wolves went for seat {a}.",),
    "why.voted_seer": (
        "Seat {a} voted against the seer on day {n}.",
        "On day {n} seat {a} voted for the seer, seat {b}.",
        "Seat {a} put a vote on the seer, seat {b}.",
    ),
    "why.shielded": (
        "On day {n} seat {a} voted away from seat {b}, the seer's wolf.",
        "Seat {a} stayed off seat {b} on day {n}, with the seer's report on the table.",
        "Seat {a} shielded seat {b} in the day {n} vote.",
    ),
    "why.voted_wolf": ("Seat {a} voted for seat {b}.",),
    "why.voted_me": (
        "Seat {a} voted against me on day {n}.",
        "Seat {a}'s vote on day {n} came at me.",
    ),
    "why.accused_me": (
        "Seat {a} pushed on me, and I know I am good.",
        "Seat {a} went after me without a case.",
    ),
    "why.attacks_seer": (
        "Seat {a} attacked the seer, seat {b}.",
        "Seat {a} keeps going after seat {b}, our seer.",
    ),
    "why.attacks_cleared": ("Seat {a} pushed on seat {b}, who was checked good.",),
    "why.backs_liar": (
        "Seat {a} backed seat {b}, the false seer.",
        "Seat {a} stood behind seat {b}'s fake claim.",
    ),
    "why.accused_by": (
        "Seat {b} also pointed at seat {a}.",
        "Seat {b} made a case against seat {a} too.",
        "I agree with seat {b} about seat {a}.",
    ),
    "why.victim_accused": (
        "Seat {b}, whom the wolves killed, suspected seat {a}.",
        "The wolves silenced seat {b}, who had named seat {a}.",
    ),
    "why.night_victim": ("Seat {a} died at night.",),
    "why.quiet": (
        "Seat {a} spoke on day {n} and named nobody.",
        "Seat {a}'s speech on day {n} gave us nothing.",
        "Seat {a} talked on day {n} without taking a side.",
    ),
    "why.gut": ("Just a feeling about seat {a}.",),
    "why.pack": ("Seat {a} is one of us.",),
    "why.checked": ("I checked seat {a}.",),
    # nights read from one's own view: a death the seat cannot pin on the wolves
    "open.died": (
        "{Seats} died last night.",
        "We lost {seats} in the night.",
        "{Seats} did not make it through the night.",
    ),
    "open.two_deaths": (
        "Two dead last night, {seats}: one of them was the witch's poison.",
        "{Seats} both died, so the witch used her poison on one of them.",
    ),
    "open.quiet": (
        "A peaceful night: the guard or the witch kept the target alive.",
        "Nobody died, which could be the antidote or a good protection.",
        "A quiet night; I would not assume the antidote is gone, a protector may have done it.",
    ),
    "why.liar.framed_dead": ("Seat {a} called seat {b} a wolf, and seat {b} died in the night.",),
    "why.dead_accused": (
        "Seat {b}, who died in the night, suspected seat {a}.",
        "Seat {b} had named seat {a} before dying in the night.",
    ),
    "hook": (
        "I suspect seat {a} a little as well, though not enough for my vote.",
        "I lean towards seat {a} too; that seat has not convinced me yet.",
        "I suspect seat {a} somewhat too, but my vote stays where it is.",
    ),
    "lw.good.night": (
        "I was good.",
        "I was on the good side, and I did not get to fight it out by day.",
        "I was a good player; the night took me before I could help more.",
    ),
}

ROLES = {
    "seer": "seer",
    "witch": "witch",
    "hunter": "hunter",
    "guard": "guard",
    "doctor": "doctor",
    "idiot": "idiot",
    "cupid": "cupid",
    "knight": "knight",
    "villager": "villager",
    "werewolf": "werewolf",
}
