"""English voices: each personality's own phrasings of the lines it says most (openers,
reads, votes, fillers). A voice's lines are drawn with the shared ones and claim the same (see
``grammar``): the cautious seat hedges and explains, the steady one reasons from the
record, the bold one is short and pushes."""

from __future__ import annotations

VOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "cautious": {
        "fill.more": (
            "I'd rather be slow and right than quick and wrong.",
            "I'll keep an open mind until the vote.",
            "I may revise this after the next speeches.",
            "I'm trying not to let one speech sway me.",
        ),
        "open.first": (
            "Day one, and I would rather listen than guess, so bear with me.",
            "It is the first day; I will go carefully and not pretend to know much.",
            "We know very little yet, so I will say only what I can stand behind.",
            "First day. I will keep my reads soft until the votes give us something.",
            "I don't want to rush anyone on day one, so here is where I am, gently.",
        ),
        "open.later": (
            "Day {n}. Let me go slowly through what we actually know.",
            "Before anything else on day {n}, let me lay out the facts as I see them.",
            "Day {n}, and I want to be careful: one wrong exile now costs a lot.",
            "I have thought about last night a fair bit; here is day {n} as I read it.",
        ),
        "open.victims": (
            "We lost {seats} overnight, and I think that matters more than anything said.",
            "Sadly we lost {seats}. Let us think about why the wolves chose that.",
            "So {seats} did not make it through the night.",
            "{Seats} went down last night; I want to understand why before I vote.",
        ),
        "no_read": (
            "Honestly, I don't have a read I would bet a vote on yet.",
            "I could point at someone, but it would only be a guess, and guesses help the wolves.",
            "I'm still gathering; nobody has given me a solid reason so far.",
            "I would rather hold my vote than throw it at the wrong seat.",
            "I haven't seen enough to name anyone, and I won't fake certainty.",
            "I'd like to hear a few more speeches before I lean anywhere.",
        ),
        "lean": (
            "If I had to, I would look at seat {a} first, though I may be wrong.",
            "Seat {a} makes me slightly uneasy; I am not ready to vote on that.",
            "I'm keeping half an eye on seat {a}, carefully, nothing more.",
            "Seat {a} could be something, but I would want more before acting.",
        ),
        "safe": (
            "I think seat {a} is probably fine, from what I've heard.",
            "Seat {a} came across as sincere to me, for what it's worth.",
            "I'd be surprised if seat {a} were a wolf.",
            "I'm reasonably comfortable with seat {a} for now.",
            "I wouldn't spend a vote on seat {a} today.",
        ),
        "also": (
            "Seat {a} would be my second thought, if it comes to that.",
            "I'm also a little unsure about seat {a}.",
            "Further down my list, perhaps seat {a}.",
        ),
        "suspect": (
            "I suspect seat {a}, and I have tried to argue myself out of it.",
            "I lean towards seat {a}, though I hold it loosely.",
            "Carefully put: I suspect seat {a}.",
        ),
        "vote": (
            "So, with some reluctance, I am voting seat {a}.",
            "My vote goes to seat {a}; I'll change it if someone shows me I'm wrong.",
            "I'll be voting seat {a}, I think it is the safest choice.",
        ),
        "fill.wait": (
            "I'd like the later speakers to give a name and a reason, not just a feeling.",
            "I'll listen closely to the rest of the round before I settle.",
            "Please, let's not rush the vote today.",
            "I'm keeping notes on who says what; contradictions will show.",
        ),
        "fill.ask": (
            "If anyone has something solid, now is the time to say it.",
            "Whoever is sure of something, please explain it so the rest of us can check.",
            "I would rather we agree on one seat than split and hand the wolves a free day.",
            "Let's keep it calm and look at the votes, not at who talks loudest.",
        ),
        "r2.still": (
            "I've listened, and I still can't honestly name anyone.",
            "Nothing in that round moved me enough; still no read.",
            "I'm still where I was: not enough to vote on.",
            "Sorry, nothing new from me; I'm still unsure.",
        ),
        "r2.no_name": (
            "Beyond that, I'm not ready to name anyone myself.",
            "I won't add a name of my own yet; I'd only be guessing.",
            "I'll hold off naming anyone else for now.",
        ),
        "lw.farewell": (
            "Well, I'm out. Please hear me out for a moment.",
            "I'll try to make my last words count.",
            "Before I go, a few careful thoughts.",
            "It's a pity to go now, but here's what I'd leave you.",
        ),
        "pk.defend": (
            "I'm up here, but please think it through: I am good.",
            "I understand why you'd look at me, but you have the wrong seat; I'm good.",
            "Please don't spend the vote on me; I'm on the village's side.",
        ),
    },
    "steady": {
        "fill.more": (
            "The ballots will tell us more than the speeches.",
            "I'll check every vote against what its seat said.",
            "Facts first, impressions second.",
            "One consistent story beats a loud one.",
        ),
        "open.first": (
            "Day one: little evidence, so I'll stick to what the speeches show.",
            "First day. I'll give a read and the reason for it.",
            "Day one is thin, but speeches are evidence too.",
            "Let me say where I stand on day one, and why.",
            "First day, so let me set out what I'm watching for.",
        ),
        "open.later": (
            "Day {n}. Start from the record: deaths, claims, votes.",
            "Day {n}: here is what the record says to me.",
            "On day {n} the votes tell us more than the words; let me go through them.",
            "Let me put day {n} together piece by piece.",
        ),
        "open.victims": (
            "{Seats} died last night.",
            "The night took {seats}.",
            "Our first fact of the day: {seats} died.",
            "We are down {seats} this morning.",
        ),
        "no_read": (
            "No read I can defend yet; I'll wait for the votes.",
            "I have nothing concrete on anyone, and I won't make something up.",
            "So far nobody has done anything I can point to.",
            "I don't have a case against anyone yet.",
            "Nothing on the record points anywhere for me yet.",
        ),
        "lean": (
            "Seat {a} is closest to a suspect, but the case is not there yet.",
            "I'm watching seat {a}; one more odd vote and I'd push.",
            "Seat {a} is on my list, not at the top of anyone's yet.",
            "If the record had to pick today it would be seat {a}, narrowly.",
        ),
        "safe": (
            "Seat {a} has been consistent, which counts for something.",
            "Seat {a}'s speeches line up with the votes; I'd leave that seat.",
            "I have no problem with seat {a} so far.",
            "Seat {a} reads good to me on the record.",
        ),
        "also": (
            "Seat {a} is next on my list.",
            "After that I'd look at seat {a}.",
            "Seat {a} is my second choice.",
        ),
        "suspect": (
            "On that record, I suspect seat {a}.",
            "Putting it together, I lean towards seat {a}.",
            "I suspect seat {a}.",
        ),
        "vote": (
            "My vote goes to seat {a}.",
            "I am voting seat {a}.",
            "So I'm voting seat {a} today.",
        ),
        "fill.wait": (
            "I'll compare the later speeches with the last vote before I settle.",
            "Let's keep the vote on one seat; a split vote only helps the wolves.",
            "I want everyone to give a read with a reason today.",
            "Watch who changes their story between rounds.",
        ),
        "fill.ask": (
            "Speakers after me: a name and a reason, please.",
            "Anyone who votes differently from what they say today should explain it.",
            "Let's check every claim against the deaths before we trust it.",
            "Remember who voted with whom yesterday.",
        ),
        "r2.still": (
            "That round gave me nothing new; still no read.",
            "No change from me: still nothing solid.",
            "Same as before: no read, and I won't invent one.",
            "I have nothing to add this round.",
        ),
        "r2.no_name": (
            "I have no other name to add.",
            "Apart from that, I'm not naming anyone.",
            "That's my only point; no name of my own yet.",
        ),
        "lw.farewell": (
            "My last words, then.",
            "I'm out; here is what I leave you.",
            "One last read before I go.",
            "Last words, so let me be clear.",
        ),
        "pk.defend": (
            "I'm up for exile, but look at my record: I am good.",
            "Check my votes: they are a good player's votes.",
            "You have the wrong seat; I'm good.",
        ),
    },
    "bold": {
        "fill.more": (
            "Enough talk, let's act.",
            "Wolves love a slow day; let's not give them one.",
            "I'd rather be wrong loudly than quiet and useless.",
            "Let's get this done.",
        ),
        "open.first": (
            "Day one. I'll say it straight.",
            "No time to waste on day one.",
            "First day, and I'm not going to sit on the fence.",
            "Day one. Let's get moving.",
            "Right, day one, here's my take.",
        ),
        "open.later": (
            "Day {n}. Let's finish this.",
            "Day {n}, and I've seen enough to talk.",
            "Day {n}. No more waiting.",
            "Day {n}: here's how it is.",
        ),
        "open.victims": (
            "They got {seats}.",
            "{Seats} went down. Somebody here did that.",
            "{Seats} died last night, and I'm angry about it.",
            "We lost {seats}. Let's make them pay for it.",
        ),
        "no_read": (
            "Nothing yet, but I'm coming for whoever slips.",
            "No name from me yet. Give me one bad vote.",
            "I've got nothing solid, and I won't pretend.",
            "Nobody's slipped yet. Someone will.",
            "No read yet. Talk more and I'll have one.",
        ),
        "lean": (
            "Seat {a}, I'm watching you.",
            "Seat {a} smells off. Not a vote yet.",
            "I don't like seat {a}, but I need one more thing.",
            "Seat {a} is on thin ice.",
        ),
        "safe": (
            "Seat {a} is fine. Leave that seat alone.",
            "I'm good with seat {a}.",
            "Seat {a} is not my problem.",
            "Don't waste time on seat {a}.",
        ),
        "also": (
            "And seat {a}, you're next.",
            "Seat {a} after that.",
            "Seat {a} is on my list too.",
        ),
        "suspect": (
            "I suspect seat {a}. Simple as that.",
            "I suspect seat {a}, and I'll say it to that seat's face.",
            "I lean towards seat {a}, hard.",
        ),
        "vote": (
            "Vote seat {a}.",
            "Vote seat {a} with me.",
            "Everyone, vote seat {a}.",
            "My vote: seat {a}. Follow it.",
        ),
        "fill.wait": (
            "No fence-sitting today.",
            "Pick a seat and commit.",
            "Anyone who dodges today goes on my list.",
            "One seat, one vote, no splitting.",
        ),
        "fill.ask": (
            "Next speakers: names, not speeches.",
            "Give me a name or give me a reason to trust you.",
            "Quiet seats, I'm looking at you.",
            "Back me or tell me why not.",
        ),
        "r2.still": (
            "Nothing new. Still no name.",
            "Same as before.",
            "That round changed nothing for me.",
            "Still nothing. Moving on.",
        ),
        "r2.no_name": (
            "No other name from me.",
            "That's it from me.",
            "Nobody else yet.",
        ),
        "lw.farewell": (
            "I'm out. Listen up.",
            "Fine, I'm gone. Here it is.",
            "Last words, so pay attention.",
            "Short and sharp, then.",
        ),
        "pk.defend": (
            "Wrong seat. I'm good.",
            "Vote me and you're doing the wolves' work: I'm good.",
            "I'm good. Look elsewhere.",
        ),
    },
}
