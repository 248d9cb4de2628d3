"""Several ways to let each kind of fact slip out in conversation.

Templates fill from a fact's slots; {when}/{When} is its relative time phrase. Word order, framing and
indirectness vary on purpose so that no question can be answered by matching one fixed sentence."""

from __future__ import annotations

TEMPLATES: dict[str, list[str]] = {
    "trait": ["{line}"],
    "hobby": [
        "I've been doing {hobby} most evenings lately, it's the only time my brain actually goes quiet.",
        "Did I ever tell you I got into {hobby}? {Made}, which I'm weirdly proud of.",
        "My new obsession is {hobby}. I'm not good at it yet but {made}.",
        "Spent basically all of Sunday on {hobby} again. {Made}, so worth it.",
        "Honestly {hobby} has become my favourite part of the week, I look forward to it every Monday.",
        "A coworker dragged me along to {hobby} ages ago and now I'm the one dragging people.",
        "If you ever need me on a Thursday night, I'm busy with {hobby}. {Made}.",
    ],
    "hobby_rec": [
        "You should honestly try {hobby}, {other}, I think you'd love it, it's so good for switching off.",
        "Have you ever thought about {hobby}? It sounds exactly like your kind of thing.",
        "Okay, hear me out: {hobby}. You'd be great at it and there's a beginners' group near you.",
        "My advice, for what it's worth: give {hobby} a go. It fixed my restless evenings completely.",
    ],
    "hobby_took": [
        "So I finally listened to you, {other}, and went to my first {hobby} session {when}. Hooked already.",
        "{When} I signed up for {hobby} like you kept telling me to, and you were completely right.",
        "Guess who started {hobby} {when}? Thanks for the push, {other}, I owe you a coffee.",
        "Remember you said I should try {hobby}? I did, {when}, and I already booked the next class.",
    ],
    "trip": [
        "I was in {city} {when} and I'm still on holiday brain, the food there was unreal.",
        "{When} I was wandering around {city} with no plan at all, best way to see a place.",
        "I finally made it to {city} {when}! The old town was even prettier than the photos.",
        "Still sorting my photos from the trip to {city} {when}, I haven't even unpacked yet.",
        "I did a last-minute trip to {city} {when}, cheap flights and I couldn't resist.",
        "{City} was amazing, by the way. I went {when} and I already miss the markets.",
    ],
    "book": [
        "I just finished {title} by {author}, it's about {about} and I couldn't put it down.",
        "Have you read {title}? I stayed up way too late with it, it's about {about}.",
        "My book club picked {title} this month and it's honestly the best thing I've read this year.",
        "I'm halfway through {title}, the one about {about}. The writing is so good.",
        "Finished {title} on the bus this morning and then just sat there staring out the window.",
    ],
    "book_rec": [
        "You have to read {title}, {other}. It's about {about} and it made me cry twice.",
        "If you need something to read, {title} is perfect, it's about {about}.",
        "I'm lending you my copy of {title} next time I see you, no arguments, {other}.",
    ],
    "book_read": [
        "I finally read {title} like you said, {other}, and wow, that ending wrecked me.",
        "Okay {other}, you were right about {title}. I read the whole thing in one weekend.",
        "Just finished the copy of {title} you lent me, I need to talk to someone about it.",
    ],
    "restaurant": [
        "We tried {place} {when}, that {cuisine} place, and I had {dish}. Absolutely going back.",
        "{When} I finally ate at {place}. Ordered {dish} and nearly licked the plate.",
        "Had dinner at {place} {when} and {dish} stole the show, everything else was just fine.",
        "Someone took me to {place} {when} and I'm still thinking about {dish}.",
        "If you're ever near {place}, get {dish}. I went {when} and it was perfect.",
    ],
    "dish": [
        "I spent the afternoon trying to make {dish} from a video and the kitchen is now a disaster.",
        "My latest kitchen project is {dish}. Third attempt was finally edible, so progress!",
        "Made {dish} at home for the first time, it took four hours but tasted so good.",
        "Don't laugh, but I've been practising {dish} every weekend, the flat smells amazing.",
    ],
    "stress": [
        "When work gets too much, {stress} is what saves me, every single time.",
        "Rough week at work, so I coped by {stress}. Works better than anything else I've tried.",
        "My trick for work stress is {stress}. Sounds silly but it resets my whole head.",
        "After that awful meeting I went straight home and started {stress}, felt human again after.",
    ],
    "band": [
        "I saw {band} live {when}, my ears are still ringing but it was so worth it.",
        "{When} I went to the {band} gig with some friends, they played for almost three hours.",
        "Finally got to see {band} {when}! The crowd sang every word of the last song.",
    ],
    "show": [
        "I've been binge-watching {show} every night, I'm fully invested in these fictional people.",
        "Are you watching {show}? I'm on season two and I have so many theories.",
        "My guilty pleasure lately is {show}, I watch an episode with dinner every evening.",
        "I started {show} on a whim and now it's all I think about on the commute.",
    ],
    "pet": [
        "Big news: we adopted a {breed} {when}! {Ps} is called {pet} and already owns the sofa.",
        "You haven't met {pet} yet, the {breed} I brought home from the shelter {when}.",
        "{When} I finally got a pet, a {breed} named {pet}. {Ps} follows me everywhere.",
        "So there's a {breed} living with me now. {Pet} arrived {when} and hasn't stopped exploring.",
    ],
    "weekend": [
        "My weekends are pretty much always {weekend}, and I genuinely wouldn't change it.",
        "Saturday went the usual way for me: {weekend}. Predictable, but I love it.",
        "People laugh at how routine my weekends are, it's just {weekend}, every single week.",
        "Ask me what I did at the weekend and the answer is always {weekend}.",
    ],
    "birthday": [
        "My birthday was {when}, I celebrated with {birthday} and I'm still recovering.",
        "{When} was my birthday! I kept it simple: {birthday}, and it was perfect.",
        "Turned another year older {when}. We did {birthday}, which was exactly what I wanted.",
    ],
    "language": [
        "I've started learning {language} {way}, mostly so I can order food without pointing.",
        "Tiny update: my {language} is improving! I've been practising {way} for a while now.",
        "Don't ask me to say anything yet, but I'm learning {language}, {way}.",
        "I've been doing {language} lessons {way}, and my pronunciation is a work in progress.",
    ],
    "milestone": [
        "{When} I {did}, and I'm still a little bit in shock about it.",
        "I can't believe I finally {did}, it happened {when} and I keep grinning about it.",
        "So, small thing, but I {did} {when}. Felt like a proper grown-up moment.",
    ],
    "job_old": [
        "Work as {a_job} has been draining lately, I don't know how much longer I can keep doing it.",
        "Being {a_job} sounds fine on paper but the hours are brutal, honestly.",
        "Long shift today, the {job} life never stops. I'm dead on my feet.",
        "Sometimes I wonder if I'm really cut out for being {a_job} for the next twenty years.",
    ],
    "job_new": [
        "Big change: I quit and started as {a_job} {when}! Scary but it feels right.",
        "I started my new job {when}, I'm {a_job} now, can you believe it?",
        "{When} was my first day as {a_job}. New desk, new people, new everything.",
        "So I took the leap and I'm working as {a_job} now, started {when}. No regrets so far.",
    ],
    "rel_intro": [
        "My {relation} works as {a_rjob} and says the hours are brutal lately, I worry a bit.",
        "You know my {relation}? The {rjob} one? {Rs} just got a promotion, so we went out to celebrate.",
        "My {relation} is {a_rjob}, so family dinners are mostly work stories from {rp} week.",
        "Had a long call with my {relation} last night. Being {a_rjob} is stressful, apparently.",
    ],
    "rel_named": [
        "{Rname}, my {relation}, is coming to stay for a few days, so the flat is chaos right now.",
        "My {relation} {rname} surprised me with a visit, we stayed up talking until three.",
        "I finally introduced my {relation} {rname} to my neighbours and {rs} charmed them all.",
        "Spent the whole afternoon with {rname}, my {relation}. We do that maybe twice a year.",
    ],
    "rel_met": [
        "Small world, {other}! I think I met your {relation} {rname} at {place}, we chatted for ages.",
        "Wait, is {rname} your {relation}? We got talking at {place} and {rname} mentioned you!",
        "Guess who I bumped into at {place}? {Rname}, your {relation}! Lovely person.",
    ],
    "rel_own": [
        "My {relation} {rname} is {a_rjob}, so I always get the inside stories, it's hilarious.",
        "Had lunch with my {relation} {rname}, who works as {a_rjob}. Good to catch up.",
        "{Rname}, my {relation}, is {a_rjob} and works crazy hours, I barely see {rname} lately.",
    ],
}


def fill(template: str, slots: dict[str, str]) -> str:
    """Format a template; Capitalised slot names give the value with a capital first letter."""
    values = dict(slots)
    for k, v in slots.items():
        values[k[:1].upper() + k[1:]] = v[:1].upper() + v[1:]
    return template.format(**values)
