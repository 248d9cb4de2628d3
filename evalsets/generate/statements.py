"""How a fact is first said: statement templates per fact kind, the listener's reactions and the
owner's follow-up lines. Templates are str.format strings over the fact's context (see
`dialogue.fact_context`); several shapes per kind so no fixed wording marks a fact turn.
"""

from __future__ import annotations

STATEMENTS = {
    "pet": [
        "{When} we adopted {a_breed} from the shelter! {Sub}'s called {pet}.",
        "So {when} I finally did it and brought home {a_breed}. Meet {pet}!",
        "Guess who has a new roommate? I picked up {a_breed} from a rescue {when}. {pet}, {age}.",
        "I became a {species} parent {when}! {A_breed} named {pet}, {age}.",
        "{When} a {breed} called {pet} came to live with us, and I'm completely smitten.",
        "We got {a_breed} {when}. After a lot of debate, {pet} it is.",
    ],
    "rename": [
        "Small update on the {species}: {old} never really suited {obj}, so {sub}'s {new} now.",
        "We ended up renaming {old}. The vet kept mixing {obj} up with another {species}, so {sub} goes by {new} now.",
        "Don't laugh, but we renamed the {species}: {old} is officially {new}. The old name just wasn't {obj}.",
        "Name change in the house: the {species} formerly known as {old} answers to {new} these days.",
    ],
    "home": [
        "I've been in {city} almost {years} years now and I still find new coffee spots.",
        "Living in {city} has its perks. The light in the evenings is unreal this time of year.",
        "Honestly {city} rent is getting out of hand, my landlord just raised it again.",
        "Nothing beats {city} in the spring. Eight years here and I'm still not bored of it.",
        "I love {city}, but the hills here are destroying my calves.",
        "My flat in {city} is tiny, but I can walk to the market, so I forgive it.",
    ],
    "move": [
        "We did it! Moved into our new place in {new} {when}. Boxes everywhere.",
        "Big change: I packed up my life and relocated to {new} {when}. {old} already feels like a dream.",
        "Writing to you from {new}! The movers showed up {when} and somehow nothing broke.",
        "Leaving {old} was harder than I expected, but I finally moved to {new} {when}.",
        "{When} I signed the lease and moved to {new}. Still no curtains, but it's home.",
    ],
    "job": [
        "I work as {title} at {workplace}, so my days are never boring.",
        "Being {title} at {workplace} is exhausting some days, but I really do love it.",
        "Long week at {workplace}. That's the downside of being {title}, I guess.",
        "I've been {title} for about five years now, the last three at {workplace}.",
        "People are always surprised when I tell them I'm {title} at {workplace}, no idea why.",
    ],
    "job2": [
        "Huge news: I accepted an offer! I'll be {title} at {workplace}, starting {when}.",
        "I handed in my notice at {old_workplace}. {When} I start as {title} at {workplace}.",
        "Officially leaving {old_workplace}! New role is {title} at {workplace}, first day is {when}.",
        "Career change time: I'm done being {old_title}. I start at {workplace} {when} as {title}.",
    ],
    "rel_city": [
        "My {relation} {rel} lives in {rel_city}, so I visit whenever I can.",
        "I was on the phone with my {relation} {rel} for hours. {Rsub}'s been in {rel_city} a few years and adores it.",
        "Did I ever tell you my {relation} {rel} moved to {rel_city}? {Rsub} keeps begging me to visit.",
        "My {relation}, {rel}, is out in {rel_city}, which is great because free place to crash.",
    ],
    "rel_job": [
        "{rel} just landed a job as {rel_title} at {rel_workplace}! So proud of {robj}.",
        "Got a call from {rel}: {rsub} started at {rel_workplace} this week, as {rel_title}.",
        "{rel} has been at {rel_workplace} for a month now, working as {rel_title}, and already runs half the place apparently.",
        "Update from {rel}: the new gig is {rel_title} at {rel_workplace}, and {rsub} loves it so far.",
    ],
    "hobby": [
        "I signed up for {cls} {when} and I'm already hooked.",
        "{When} I tried {name} for the first time. Honestly, {detail}, but I loved it.",
        "New obsession alert: {name}. Started {when}, and {detail}.",
        "I went to {cls} {when}. {Detail}, but I'm going back next week.",
    ],
    "health": [
        "Ugh, {when} I {vp} {ctx}. Not my finest moment.",
        "So I {vp} {when}, {ctx}. Still getting my head around it.",
        "Bit of a rough patch: {when} I {vp}. {Ctx}, if you can believe it.",
        "Quick warning that I might be slow to reply, I {vp} {when}.",
    ],
    "purchase": [
        "I treated myself to {item} {when}. No regrets so far.",
        "{When} I finally caved and bought {item}. My bank account is crying.",
        "Found {item} on a resale site for half price and picked it up {when}!",
        "Okay, confession: I got {item} {when}. It was on sale, so technically I saved money.",
    ],
    "dish": [
        "If I could only eat one thing forever it'd be {dish}.",
        "There's a place near me that does incredible {dish}; I go way too often.",
        "Comfort food for me is always {dish}, no contest.",
        "I could happily have {dish} every single day of the week.",
    ],
    "trip": [
        "We booked flights to {dest}, we fly out {when}! First real holiday in ages.",
        "I'm heading to {dest} {when}. Any tips?",
        "Guess where I'm going {when}? {dest}! Already making a list of food to try.",
        "Booked it: {dest}, {when}. I need a break so badly.",
    ],
    "event": [
        "{When} I {vp}! {detail}",
        "Can't stop smiling, I {vp} {when}. {detail}",
        "So, {when} I {vp}. Still processing it.",
    ],
    "author": [
        "I'm halfway through another {author} book and can't put it down.",
        "Lately I've been reading everything by {author} I can get my hands on.",
        "Have you read any {author}? I'm obsessed right now.",
    ],
}

EVENTFUL = ("pet", "rename", "move", "job2", "hobby", "health", "purchase", "trip", "event", "rel_job")
LEAD_INS = ["Okay, I have news.", "You'll never guess what happened.", "Sorry I went quiet for a bit.",
            "Random update for you.", "So much has happened since we last talked.", "Before I forget!",
            "Not sure if I mentioned this.", "Brace yourself.", "Right, life update.", "Fun fact about my week."]

REACTIONS = {
    "pet": ["Aww, I need pictures immediately!", "Oh my gosh, congratulations! How's {sub} settling in?",
            "That's the best news. What made you go for {a_breed}?", "Stop it, that's adorable. Is {sub} sleeping okay?"],
    "rename": ["Ha, honestly {new} suits {obj} better.", "A name upgrade! I approve.", "Poor thing, identity crisis."],
    "home": ["I've always wanted to visit {city}.", "Sounds lovely, apart from the rent.", "You make it sound so nice."],
    "move": ["Big change! How's the new place?", "Wow, congrats on the move! Do you know anyone there yet?",
             "Moving is the worst, I hope the unpacking goes fast."],
    "job": ["That sounds intense but rewarding.", "I don't know how you do it, honestly.", "Do you still enjoy it?"],
    "job2": ["Congrats!! That's huge.", "Whoa, good for you! Nervous?", "They're lucky to have you."],
    "rel_city": ["That sounds like a great excuse for a trip.", "Do you get to see {robj} often?", "Aw, that's nice."],
    "rel_job": ["Tell {robj} congrats from me!", "That's brilliant news for {robj}.", "Good for {rel}!"],
    "hobby": ["That sounds like so much fun.", "Okay, I'm jealous. Is it hard?", "Love that you're trying new things."],
    "health": ["Ouch! I hope you heal fast.", "Oh no, that sounds miserable. Are you okay?", "Poor you. Rest up, please."],
    "purchase": ["Ooh, nice treat!", "Worth it. You deserve nice things.", "Have you used it much yet?"],
    "dish": ["Same, honestly.", "Now I'm hungry.", "Okay you have to take me there sometime."],
    "trip": ["Jealous! Have you been before?", "That's going to be amazing.", "Ooh, you need to send me photos."],
    "event": ["That's incredible, well done!", "No way! How do you feel?", "I'm so impressed."],
    "author": ["I keep meaning to read something of theirs.", "Which one should I start with?", "Nice, lend me one after?"],
}

GENERIC_REACTIONS = ["Oh, really?", "Oh nice!", "Wait, tell me more.", "Huh, I had no idea.", "Oh wow.",
                     "Honestly, that's great to hear.", "I did not know that!", "Ooh, tell me everything."]

FOLLOW_UPS = {
    "pet": ["{Sub}'s still figuring out the stairs, it's adorable.", "Sleeping is a work in progress, let's say.",
            "Mostly {sub} just follows me from room to room."],
    "rename": ["The vet's records are going to be so confused.", "Took {obj} about two days to get used to it.",
               "Honestly it suits {obj} way better."],
    "home": ["It's not perfect, but it's home.", "Come visit and I'll show you around.", "I can't imagine leaving, honestly."],
    "move": ["Still haven't found the box with the kettle.", "The neighbours seem nice so far, which is a relief."],
    "job": ["Some weeks are better than others.", "The people make it worth it, mostly.", "Never a dull day, that's for sure."],
    "job2": ["Nervous but excited, honestly.", "I need new work clothes, apparently.", "Still can't quite believe it."],
    "rel_city": ["We're overdue for a proper catch-up.", "I really should book something soon."],
    "rel_job": ["It's been a long time coming.", "I'm going to hear all about it, I'm sure.", "Proud doesn't cover it."],
    "hobby": ["The instructor is super patient, thankfully.", "Everyone there is really welcoming.",
              "I'm terrible at it, which is weirdly freeing."],
    "health": ["Nothing a week of rest won't fix, hopefully.", "I'm mostly bored, to be honest."],
    "purchase": ["I've already watched three tutorial videos.", "It's taking up more space than I thought.",
                 "Best impulse decision of the year."],
    "dish": ["I've tried making it at home, but it's never the same.", "Seriously, I'd fight someone for the last bowl.",
             "My friends are sick of hearing about it."],
    "trip": ["Mostly we just want to eat and wander.", "No plans yet beyond the flights, which is very unlike me."],
    "event": ["I'm already wondering what's next.", "Still riding the high.", "Definitely doing it again."],
    "author": ["The last chapter wrecked me.", "I've got two more on the shelf waiting.", "Reading it on the bus, in the bath, everywhere."],
}

# Prompts the listener uses to hand the floor to the fact's owner when the owner spoke last.
PROMPTS = ["What's new with you?", "So what have you been up to?",
           "How about you, anything exciting?", "Your turn, how's everything on your end?",
           "What's going on in your world?", "Tell me something good that happened to you lately.",
           "Okay, spill. How have you been?", "Anything new since last time?",
           "How's everything with you?", "What else is going on with you?", "And you? Any news?",
           "Catch me up, what's been happening?", "How are things on your side?", "Anything fun happen recently?"]
