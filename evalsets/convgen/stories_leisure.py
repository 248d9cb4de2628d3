"""Leisure and the people around: two trips (which came first?), a run of hobbies tried and
dropped (aggregation), a book recommended and later finished by the other speaker, a home
project, and two stories about the third person one speaker keeps mentioning."""

from __future__ import annotations

from evalsets.convgen import pools
from evalsets.convgen.model import NM, Ctx, Line, Story
from evalsets.convgen.style import reaction

TRIP_DOINGS = ("did a cooking class and ate far too much street food", "hiked up to a viewpoint at sunrise",
               "spent a whole day in a bathhouse", "rented bikes and got lost on purpose",
               "went to a football match and cheered for the home team", "took a boat out to a tiny island")


def trips(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2, 0, ctx.n - 1)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    one, two = ctx.fresh(pools.CITIES, key=lambda c: c.name), ctx.fresh(pools.CITIES, key=lambda c: c.name)
    did_one, did_two = rng.sample(TRIP_DOINGS, 2)
    w1 = ctx.past(s[0])
    w2 = ctx.future(s[1], "weekday", "week", "fortnight", "ordinal")
    s2 = ctx.after(w2.day, s[1] + 1)
    if s2 is None:
        return None
    st = Story("trip", o, words={"city": one.name})
    st.beat(s[0], Line(o, rng.choice([f"back from {one.name}! we flew out {w1.phrase} and I already want to go back",
                                      (f"just got home from {one.name}. we left {w1.phrase} and it was the best trip "
                                      f"in years")]), "one", long=True), Line(f, "ok tell me everything"),
            Line(o, f"we {did_one}. and the food, oh my god", "one_do", caption=f"a busy street in {one.name} at night"))
    st.beat(s[1], Line(o, rng.choice([f"guess who just booked {two.name} 😎 leaving {w2.phrase}",
                                      f"ok {two.name} is happening!! we fly {w2.phrase}"]), "two"),
            Line(f, rng.choice(["you're never home anymore lol", "jealous!!", "again?? living the life"])))
    st.beat(s2, Line(f, "how was the trip??", "ask"),
            Line(o, f"unreal. we {did_two}. I'm already planning the next one", "two_do", long=True),
            Line(f, reaction(rng, "good")))
    st.qa(1, f"Which trip did {P} take first, {two.name} or {one.name}?", one.name, "one", "two")
    st.qa_either(rng, 2, w1.answer, (f"When did {P} fly out to {one.name}?", ("one",)),
                 (f"When did {P} set off on the trip where {p.sub} {did_one}?", ("one", "one_do")))
    st.qa_either(rng, 2, w2.answer, (f"When was {P} leaving for {two.name}?", ("two",)),
                 (f"When was {P} flying out for the trip on which {p.sub} {did_two}?", ("two", "two_do")))
    st.qa(4, f"What did {P} get up to in {one.name}?", did_one, "one", "one_do")
    st.qa(1, f"What did {P} do on the trip to {two.name}?", did_two, "two", "two_do")
    if two.language != "English":
        st.qa(3, f"Which language would locals have been speaking around {P} on the {two.name} trip?",
              two.language, "two")
    st.qa(3, f"Which country did {P} visit when {p.sub} went to {one.name}?", one.country, "one")
    st.qa(5, f"Who travelled with {F} to {one.name}?", NM, "one")
    return st


def tries(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    domain = rng.choice(sorted(pools.TRIES))
    options, outing = pools.TRIES[domain]
    x1, x2, x3 = rng.sample(options, 3)
    why, why_answer = rng.choice(pools.QUIT_REASONS)
    w = ctx.past(s[2])
    st = Story("tries", o, words={"thing": x1})
    st.beat(s[0], Line(o, rng.choice([f"I signed up for {x1} lessons!! everyone has to start somewhere right",
                                      f"new thing: I'm learning {x1}. first class was humbling"]), "one", long=True),
            Line(f, reaction(rng, "good")))
    st.beat(s[1], Line(f, f"still doing {x1}?", "ask"),
            Line(o, f"ha. no. {why}. I've switched to {x2} instead", "two", long=True), Line(f, reaction(rng, "meh")))
    st.beat(s[2], Line(o, f"new obsession, started {x3} {w.phrase} and I think this one might stick", "three", long=True),
            Line(f, rng.choice(["third time lucky", "you said that last time lol", "ok this one suits you"])))
    st.qa(1, f"Which {domain} has {P} tried so far?", f"{x1}, {x2} and {x3}", "one", "two", "three")
    st.qa(4, f"Why did {P} give up on {x1}?", why_answer, "ask", "two")
    st.qa(1, f"What did {P} take up after dropping {x1}, and what came after that?", f"{x2}, then {x3}",
          "two", "three")
    st.qa(2, f"When did {P} start {x3}?", w.answer, "three")
    st.qa(3, f"Would {P} probably enjoy {outing}?", f"Likely yes, {P} keeps trying new {domain}", "one", "three")
    st.qa(5, f"Which of the {domain} has {F} been learning?", NM, "one")
    return st


def book(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    title, author = ctx.fresh(pools.BOOKS, key=lambda b: b[0])
    w = ctx.past(s[0])
    feeling, felt = rng.choice([("cried at the end", "Cried at the end"),
                                ("stayed up until 2am to finish it", "Stayed up until 2am to finish it"),
                                ("want to read it again already", "Wanted to read it again right away")])
    st = Story("book", o, words={"title": title})
    st.beat(s[0], Line(o, rng.choice([f"you HAVE to read {title}. finished it {w.phrase} and I keep thinking about it",
                                      f"finished {title} {w.phrase}. it wrecked me. you need to read it, I'm serious"]),
                       "rec", long=True), Line(f, "adding it to the list, promise"))
    st.beat(s[1], Line(f, "ok I'm halfway through the one you made me buy", "half"),
            Line(o, "AND??"), Line(f, "and I'm obsessed, you were right, don't let it go to your head"))
    st.beat(s[2], Line(f, f"finished it. {feeling}", "done", long=True), Line(o, reaction(rng, "good")))
    st.qa(3, f"Who wrote the book {P} recommended to {F}?", author, "rec")
    st.qa(1, f"Which novel did {F} finish reading on {P}'s advice?", title, "rec", "half", "done")
    st.qa(2, f"When did {P} finish reading {title}?", w.answer, "rec")
    st.qa(4, f"How did {F} react to the ending of the book {P} suggested?", felt, "done")
    st.qa(5, f"Which book did {F} recommend to {P}?", NM, "rec")
    return st


def reno(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    room, colour = rng.choice(pools.ROOMS), rng.choice(pools.COLOURS)
    target, done = rng.choice(pools.RENO_NEXT)
    w = ctx.past(s[0])
    weekends = rng.choice(["three", "four", "five"])
    st = Story("reno", o, words={"room": room})
    st.beat(s[0], Line(o, rng.choice([f"we finally painted the {room} {w.phrase}!",
                                      f"the {room} got a fresh coat of paint {w.phrase}, look!!"]), "paint",
                       caption=f"a freshly painted {colour} wall with a ladder in front of it"),
            Line(f, rng.choice(["the colour!!", "ok that's gorgeous", "so brave"])))
    st.beat(s[1], Line(o, f"next up in there: {target}. it has to go", "next"), Line(f, reaction(rng, "meh")))
    st.beat(s[2], Line(f, "did you finish the thing in the house?", "ask"),
            Line(o, f"yes! {done}. took {weekends} weekends and most of my patience", "done", long=True))
    st.qa(4, f"What colour are the walls of {P}'s {room} now?", colour, "paint")
    st.qa_either(rng, 2, w.answer, (f"When did {P} paint the {room}?", ("paint",)),
                 (f"When did the {room} at {P}'s place turn {colour}?", ("paint",)))
    st.qa(1, f"What has {P} changed in the {room}?", f"Painted it {colour} and {done}", "paint", "next", "done")
    st.qa(4, f"How long did {P}'s second home project take?", f"{weekends.capitalize()} weekends", "ask", "done")
    st.qa(3, f"Would {P} likely be interested in a DIY workshop?", f"Yes, {P} paints and renovates at home",
          "paint", "done")
    st.qa(5, f"What colour did {F} paint the {room}?", NM, "paint")
    return st


def third_hobby(ctx: Ctx, o: str) -> Story | None:
    t = ctx.third
    s = ctx.sessions(2, 0, ctx.n - 1)
    if t is None or s is None:
        return None
    rng, f = ctx.rng, ctx.other(o)
    P, T = ctx.p(o).name, t.name
    hobby, proud, contest = rng.choice(pools.THIRD_HOBBIES)
    w = ctx.future(s[1], "weekday", "week", "ordinal", "fortnight")
    s2 = ctx.after(w.day, s[1] + 1)
    if s2 is None:
        return None
    place = rng.choice(["second", "third", "first"])
    st = Story("third_hobby", o, words={"hobby": hobby})
    st.beat(s[0], Line(o, f"{T} has gotten really into {hobby}. {t.sub} {proud} and won't stop talking about it",
                       "hobby", long=True), Line(f, rng.choice(["love that for them", "tell them I'm impressed"])))
    st.beat(s[1], Line(o, f"{T} signed up for {contest} {w.phrase}, the nerves!!", "contest"),
            Line(f, "good luck to them!!"))
    st.beat(s2, Line(f, f"how did {T} do??", "ask"), Line(o, f"came {place}!!! {t.sub}'s unbearable now", "result"),
            Line(f, reaction(rng, "good")))
    st.qa(4, f"What has {P}'s {t.relation} been spending free time on?", hobby, "hobby")
    st.qa_either(rng, 2, w.answer, (f"When was {T}'s competition?", ("contest",)),
                 (f"When did {P}'s {t.relation} compete in {contest}?", ("contest",)))
    st.qa(1, f"Where did {P}'s {t.relation} place in {contest}?", place, "contest", "ask", "result")
    st.qa(3, f"Would {T} appreciate a gift related to {hobby}?", f"Yes, {T} is very into {hobby}", "hobby")
    st.qa(5, f"What did {T} win at {contest}?", NM, "result")
    return st


def third_party(ctx: Ctx, o: str) -> Story | None:
    t = ctx.third
    s = ctx.sessions(1, 0, ctx.n - 1)
    if t is None or s is None:
        return None
    rng, f = ctx.rng, ctx.other(o)
    P, F, T = ctx.p(o).name, ctx.p(f).name, t.name
    venue = rng.choice(pools.VENUES)
    w = ctx.future(s[0], "weekday", "week", "ordinal", "fortnight")
    s1 = ctx.after(w.day, s[0] + 1)
    if s1 is None:
        return None
    st = Story("third_party", o, words={"venue": venue})
    st.beat(s[0], Line(o, f"it's {T}'s birthday {w.phrase}. I'm throwing a surprise thing at {venue}, "
                          f"do NOT let it slip", "plan", long=True), Line(f, "my lips are sealed 🤐"))
    st.beat(s1, Line(f, f"did {t.sub} suspect anything??", "ask"),
            Line(o, f"not a clue! {t.sub} walked in and just froze. then cried a little", "result", long=True))
    st.qa_either(rng, 2, w.answer, (f"When is {T}'s birthday?", ("plan",)),
                 (f"On what day did {P}'s {t.relation} turn a year older?", ("plan",)))
    st.qa(4, f"Where did {P} hold the surprise celebration?", venue, "plan")
    st.qa(1, f"Was {P}'s surprise for {ctx.p(o).pos} {t.relation} a success?", f"Yes, {T} had no idea and cried a little",
          "plan", "ask", "result")
    st.qa(5, f"Where did {F} celebrate {ctx.p(f).pos} last birthday?", NM, "plan")
    return st
