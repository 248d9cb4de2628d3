"""Life stories: a new pet, a move to another city, a sibling far away, a relationship that
ends, an injury and the recovery, a diet. Each places a few beats in sessions chosen by the
context and proposes questions whose evidence is the tags of the lines that answer them.
Questions are worded apart from the lines (paraphrase) unless a name has to be said."""

from __future__ import annotations

from evalsets.convgen import pools
from evalsets.convgen.model import NM, Ctx, Line, Story
from evalsets.convgen.style import reaction


def pet(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    species, breed, young, walks = rng.choice(pools.PETS)
    name = ctx.fresh(pools.PET_NAMES)
    it, _its = rng.choice([("him", "his"), ("her", "her")])
    src, chewed = rng.choice(pools.PET_SOURCES), rng.choice(pools.CHEWED)
    w = ctx.past(s[0])
    st = Story("pet", o, words={"species": species, "young": young})
    if rng.random() < 0.5:
        adopt = Line(o, f"ok news: {w.phrase} we adopted a {breed}! picked {it} up from {src}", "adopt", long=True)
    else:
        adopt = Line(o, f"meet the newest member of the household. we brought {it} home from {src} {w.phrase}",
                     "adopt", caption=f"a {breed} {young} curled up on a {rng.choice(pools.COLOURS)} blanket")
    st.beat(s[0], adopt, Line(f, rng.choice(["omg!!! name??", "STOP. I need to meet this baby",
                                             "wait how did I not know this was happening"])),
            Line(o, rng.choice(["still arguing about the name lol", "no name yet, the family vote is a mess",
                                "we can't agree on what to call them, it's a whole debate"])))
    st.beat(s[1], Line(f, rng.choice([f"how's the little {young} settling in?", f"ok {young} update please",
                                      f"how's the new baby? the {young} I mean lol"]), "ask"),
            Line(o, rng.choice([f"{name} has destroyed {chewed} so far. so, great",
                                f"oh {name} is thriving. ate {chewed} on day two. we're working on it",
                                f"{name} is perfect and also a criminal. {chewed}, gone"]), "name", long=True),
            Line(f, reaction(rng, "meh")))
    habit = {"dog": f"{name} and I do 6am walks now, I have seen more sunrises this month than in my whole life",
             "cat": f"{name} has claimed the windowsill and silently judges everyone who walks past",
             "rabbit": f"{name} worked out how to open the cupboard where the hay lives. genius. menace."}[species]
    st.beat(s[2], Line(o, habit, "habit", long=True), Line(f, reaction(rng, "meh")))
    st.qa(4, f"What sort of animal did {P} take in?", f"A {breed}", "adopt")
    st.qa(4, f"What did {P} end up calling the new {young}?", name, "ask", "name")
    st.qa_either(rng, 2, w.answer, (f"When did {P} adopt {p.pos} {species}?", ("adopt",)),
                 (f"When did the {breed} come to live with {P}?", ("adopt",)),
                 (f"When did {name} join {P}'s household?", ("adopt", "name")))
    st.qa(3, f"Does {P}'s new pet need to be taken out every day?",
          f"Yes, it is a dog ({breed})" if walks else f"No, it is a {species}, not a dog", "adopt")
    st.qa(5, f"What is the name of {F}'s {species}?", NM, "name")
    st.qa(5, f"How old was the {species} when {P} got {it}?", NM, "adopt")
    st.qa(1, f"What has {P}'s {breed} wrecked?", chewed, "adopt", "name")
    quirk = {"dog": "early-morning walks at 6am", "cat": "it sits on the windowsill judging passers-by",
             "rabbit": "it opens the cupboard where the hay is kept"}[species]
    st.qa(1, f"What new routine or quirk came with the {breed} {P} adopted?", quirk, "adopt", "habit")
    return st


REASONS = (("my partner got a job offer there", "Their partner got a job offer there"),
           ("it's closer to my parents", "To be closer to their parents"),
           ("the rent will literally be half", "The rent is half as much"),
           ("I've wanted to live by the sea forever", "They always wanted to live by the sea"),
           ("my company opened an office there", "Their company opened an office there"))
AFTER_MOVE = (("a bakery downstairs", "there's a bakery downstairs, so I smell bread from 5am"),
              ("a tram stop at the door", "the tram stops right outside the door, it's dangerous how lazy I'm getting"),
              ("a park across the street", "there's a park across the street with a lake and grumpy geese"),
              ("a noisy bar next door", "the bar next door plays salsa until 2am, every night"))


def move(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2, 0, ctx.n - 2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    home, new = p.city, ctx.fresh(pools.CITIES, key=lambda c: c.name)
    w = ctx.future(s[1], "month", "fortnight", "ordinal")
    s2 = ctx.after(w.day, s[1] + 1)
    reason, because = rng.choice(REASONS)
    perk, perk_line = rng.choice(AFTER_MOVE)
    st = Story("move", o, words={"city": new.name})
    if rng.random() < 0.5:
        st.beat(s[0], Line(o, f"the trams here in {home.name} were on strike again, took me 90 minutes to get to work",
                           "home", long=True), Line(f, reaction(rng, "bad")))
    else:
        st.beat(s[0], Line(f, f"how's {home.name} treating you these days?"),
                Line(o, "honestly? the rent keeps going up and the winters are grim, but the food is still great",
                     "home", long=True))
    plan = rng.choice([f"so... we're doing it. signed a lease in {new.name}, moving {w.phrase}",
                       f"big news: we found a flat in {new.name}!! moving day is {w.phrase}",
                       f"it's official, I'm leaving. got a place in {new.name} and the movers come {w.phrase}"])
    st.beat(s[1], Line(o, plan, "plan", long=True),
            Line(f, rng.choice([f"WAIT. {new.name}?? why", f"{new.name}!! since when was that a thing"])),
            Line(o, f"{reason}, so it kind of made sense", "why"), Line(f, reaction(rng, "good")))
    st.qa(4, f"Where was {P} based before relocating?", home.name, "home")
    st.qa(4, f"What made {P} decide to relocate?", because, "plan", "why")
    st.qa_either(rng, 2, w.answer, (f"When was {P} going to move to {new.name}?", ("plan",)),
                 (f"When was {P} planning to leave {home.name}?", ("home", "plan")))
    st.qa(3, f"Which country is {P} living in after the move?", new.country, "plan")
    if new.language != "English":
        st.qa(3, f"What language would {P} mostly hear from neighbours after moving?", new.language, "plan")
    st.qa(5, f"Why did {F} move to {new.name}?", NM, "plan")
    if s2 is not None:
        st.beat(s2, Line(f, rng.choice(["how's the new place??", "ok how is that place, tell me everything"]), "ask"),
                Line(o, f"tiny! but {perk_line}", "after", long=True), Line(f, reaction(rng, "meh")))
        st.qa(1, f"What is right next to {P}'s home in {new.name}?", perk, "plan", "after")
        st.qa(5, f"How many bedrooms does {P}'s place in {new.name} have?", NM, "after")
    return st


def sibling(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    gender = rng.choice(["f", "m"])
    rel, sub, pos = ("sister", "she", "her") if gender == "f" else ("brother", "he", "his")
    N, city, job = ctx.name(gender), ctx.fresh(pools.CITIES, key=lambda c: c.name), rng.choice(pools.JOBS)
    age = rng.choice(["little", "older", "big", "younger"])
    st = Story("sibling", o, words={"rel": rel, "city": city.name})
    st.beat(s[0], Line(o, rng.choice([(f"{N}, my {age} {rel}, just moved to {city.name}! {sub} sent me the view from "
                                      f"{pos} balcony"), (f"my {age} {rel} {N} packed up {pos} whole life and moved to "
                                      f"{city.name} this week. brave or unhinged, not sure")]),
                       "city", caption=f"rooftops and a river at dusk in {city.name}"),
            Line(f, rng.choice(["that view!!", "ok I'm jealous", "wow, that's so far though"])))
    st.beat(s[1], Line(f, f"how's your {rel} doing, all settled?", "ask"),
            Line(o, rng.choice([(f"yes!! {sub} started as a {job.title} at {job.place} there. first week was "
                                f"{rng.choice(['brutal', 'chaos', 'actually fine', 'a lot'])}"),
                                f"{sub}'s good! found work as a {job.title}, at {job.place}. huge relief"]),
                 "job", long=True),
            Line(f, reaction(rng, "good")))
    w = ctx.future(s[2], "weekday", "week", "ordinal", "fortnight")
    st.beat(s[2], Line(o, f"{N} is coming to stay {w.phrase}, I need to clean the spare room lol", "visit"),
            Line(f, rng.choice(["tell them I say hi!", "aw fun", "you'll have the best time"])))
    st.qa(1, f"What does {P}'s {rel} who lives in {city.name} do for work?", job.title, "city", "job")
    st.qa(4, f"Where did {P}'s {rel} recently relocate to?", city.name, "city")
    st.qa(3, f"In which country is {P}'s {rel} living now?", city.country, "city")
    st.qa(4, f"What is {P}'s {rel} called?", N, "city")
    st.qa_either(rng, 2, w.answer, (f"When is {N} coming to stay with {P}?", ("visit",)),
                 (f"When is {P}'s {rel} from {city.name} visiting?", ("city", "visit")))
    st.qa(5, f"Where does {F}'s {rel} work?", NM, "job")
    st.qa(5, f"What did {N} study at university?", NM, "job")
    st.qa(1, f"Which city is the {job.title} in {P}'s family living in?", city.name, "city", "job")
    return st


def relationship(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    N, met, treat = ctx.name(), rng.choice(pools.MEET_PLACES), rng.choice(pools.PARTNER_TREATS)
    st = Story("relationship", o, words={"partner": N})
    st.beat(s[0], Line(f, rng.choice(["sooo how was the date?? 👀", "ok I need the date report NOW"]), "ask"),
            Line(o, rng.choice([(f"really good actually. {N} is so funny, we talked for like four hours. "
                                f"we met {met} which is a story for another day"),
                                (f"ok it was SO nice. we talked for four hours straight. {N} and I first met "
                                f"{met}, funny how these things go")]), "meet", long=True),
            Line(f, reaction(rng, "good")))
    st.beat(s[1], Line(o, f"{N} made me {treat} last night, I think I'm in trouble", "treat"),
            Line(f, rng.choice(["in trouble as in in love?", "haha cute", "marry them"])))
    w = ctx.past(s[2])
    st.beat(s[2], Line(o, rng.choice([f"{N} and I ended things {w.phrase}. it was mutual, mostly. still sad",
                                      f"so... {N} and I broke up {w.phrase}. no drama, it just wasn't working"]),
                       "end", long=True),
            Line(f, reaction(rng, "bad")), Line(o, rng.choice(["I'll be ok", "ice cream and bad tv tonight"])))
    st.qa(4, f"Where did {P} first meet {N}?", met[0].upper() + met[1:], "meet")
    st.qa(4, f"What did {N} cook for {P}?", treat, "treat")
    st.qa_either(rng, 2, w.answer, (f"When did {P} and {N} split up?", ("end",)),
                 (f"When did {P}'s relationship with the person {p.sub} met {met} end?", ("meet", "end")))
    st.qa(1, f"Is {P} still seeing the person {p.sub} met {met}?", f"No, {P} and {N} broke up", "meet", "end")
    st.qa(3, f"Did {P}'s first date with {N} go well?", "Yes, they talked for about four hours", "ask", "meet")
    st.qa(5, f"What does {N} do for a living?", NM, "meet")
    st.qa(5, f"Where did {F} meet {N}?", NM, "meet")
    return st


def health(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    what, doing, advice, part, back = rng.choice(pools.INJURIES)
    w = ctx.past(s[0])
    st = Story("health", o, words={"part": part})
    st.beat(s[0], Line(o, rng.choice([f"so I {what} {w.phrase}. {doing}. don't ask",
                                      f"guess who {what} {w.phrase}? me. {doing}. I'm an idiot"]), "hurt", long=True),
            Line(f, reaction(rng, "bad")),
            Line(o, f"the doctor says {advice}. I'm going to lose my mind", "advice"))
    st.beat(s[1], Line(f, f"how's the {part}??", "ask"),
            Line(o, f"almost back to normal! did {back} yesterday and nothing fell off", "back", long=True),
            Line(f, reaction(rng, "good")))
    st.qa(2, f"When did {P} get injured?", w.answer, "hurt")
    st.qa(4, f"What was {P} doing when the injury happened?", doing, "hurt")
    st.qa(4, f"What treatment was {P} told to follow?", advice, "advice")
    st.qa(3, f"Would it have been wise for {P} to do an intense workout the week of the injury?",
          f"No, {P} was told {advice}", "hurt", "advice")
    st.qa(1, f"What was the first activity {P} managed after recovering from the {part} injury?", back, "hurt", "back")
    st.qa(5, f"Which hospital treated {F}'s {part}?", NM, "hurt")
    return st


def diet(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    years = rng.choice(["six", "three", "ten", "almost eight", "four"])
    cuisine, dish = rng.choice(pools.CUISINES)
    place = rng.choice(["steakhouse", "barbecue joint", "burger place", "Brazilian grill"])
    st = Story("diet", o, words={"place": place})
    st.beat(s[0], Line(f, f"want to try that new {place} near the station?", "ask"),
            Line(o, rng.choice([(f"haha you know I haven't touched meat in {years} years, right? but I'll come for "
                                f"the fries"), (f"you do remember I'm the meat-free one? {years} years now lol. "
                                f"I'll have the fries")]), "state"), Line(f, rng.choice(["oh right, sorry!!", "ha I forgot", "fries it is"])))
    st.beat(s[1], Line(o, f"I've been cooking so much {cuisine} food lately, made {dish} three nights in a row",
                       "cook", long=True), Line(f, rng.choice(["invite me next time", "that sounds so good", "recipe pls"])))
    st.qa(3, f"Would a {place} be a good pick for {P}'s birthday dinner?",
          f"Probably not, {P} has not eaten meat in {years} years", "state")
    st.qa(4, f"For how long has {P} been vegetarian?", f"{years.capitalize()} years", "state")
    st.qa(4, f"Which cuisine has {P} been making at home lately?", cuisine, "cook")
    st.qa(1, f"What meat-free meal has {P} been cooking repeatedly?", dish, "state", "cook")
    st.qa(5, f"How long has {F} been vegetarian?", NM, "state")
    return st
