"""Work and plans: changing jobs (old job, interview, the offer told as an answer to "how did
it go?"), one's ordinary job, a work project that gets renamed and launches, a dated event
(test, race, exam) and its outcome, a purchase, and volunteering."""

from __future__ import annotations

from evalsets.convgen import dates, pools
from evalsets.convgen.dates import When, day_text
from evalsets.convgen.model import NM, Ctx, Line, Story
from evalsets.convgen.style import reaction


def job_change(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2, 0, ctx.n - 2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    old = p.job
    company = ctx.fresh([h + t for h in pools.COMPANY_HEADS for t in pools.COMPANY_TAILS])
    role = rng.choice(pools.NEW_ROLES)
    interview = ctx.future(s[1], "tomorrow", "weekday", "week", "ordinal")
    s2 = ctx.after(interview.day, s[1] + 1)
    if s2 is None:
        return None
    st = Story("job", o, words={"company": company})
    st.beat(s[0], Line(o, rng.choice([f"being a {old.title} at {old.place} is wearing me down. {old.grind}, again",
                                      f"{old.grind}. I used to love being a {old.title} but {old.place} is draining me"]),
                       "old", long=True),
            Line(f, reaction(rng, "bad")), Line(o, rng.choice(["I need a change", "something has to give",
                                                               "I've started looking around, quietly"])))
    st.beat(s[1], Line(o, rng.choice([(f"ok don't tell anyone but I have an interview at {company} {interview.phrase}, "
                                      f"for a {role} role"), (f"guess who has an interview {interview.phrase}? at "
                                      f"{company}, {role} position. don't jinx it")]), "interview", long=True),
            Line(f, rng.choice(["you'll smash it", "ooh! fingers crossed", "they'd be lucky to have you"])))
    start_day = dates.next_weekday(ctx.day(s2), 0)
    start = When("monday", f"The Monday after {day_text(ctx.day(s2))} ({day_text(start_day)})", start_day)
    st.beat(s2, Line(f, f"wait how did the {company} interview go??", "ask"),
            Line(o, rng.choice([f"GOT IT. starting {start.phrase}", f"they said yes!!! I start {start.phrase}"]), "got"),
            Line(f, reaction(rng, "good")))
    st.qa(4, f"Which company hired {P}?", company, "ask", "got")
    st.qa_either(rng, 2, interview.answer, (f"When was {P}'s interview at {company}?", ("interview",)),
                 (f"When did {P} interview for the {role} role?", ("interview",)))
    st.qa(2, f"When did {P} begin the new job at {company}?", start.answer, "ask", "got")
    st.qa(1, f"What was {P}'s job before {p.sub} joined {company}?", old.title, "old", "ask", "got")
    st.qa(4, f"What position did {P} apply for?", role, "interview")
    st.qa(5, f"What salary did {company} offer {P}?", NM, "got")
    st.qa(5, f"Which role did {F} interview for at {company}?", NM, "interview")
    s3 = ctx.after(start_day, s2 + 1)
    if s3 is not None:
        st.beat(s3, Line(o, "first weeks at the new place done. my team is five people and nobody books meetings "
                            "before 10. I slept eight hours last night", "first", long=True),
                Line(f, rng.choice(["you sound so much happier", "this is the dream", "see, told you"])))
        st.qa(3, f"Does {P} seem happier after changing jobs?",
              f"Yes, the {old.title} job was wearing {p.obj} down and the new team is relaxed", "old", "first")
        st.qa(1, f"How big is {P}'s team at the company that hired {p.obj}?", "Five people", "ask", "got", "first")
    return st


def occupation(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P = p.name
    job = p.job
    thing = rng.choice(["the audit", "the big inspection", "the review with the new boss", "the staff review"])
    st = Story("occupation", o, words={"job": job.title})
    st.beat(s[0], Line(f, "how was work today?"),
            Line(o, f"{job.grind}. being a {job.title} at {job.place} is not glamorous, whatever people think. "
                    f"also {thing} is coming up and everyone is panicking", "job", long=True),
            Line(f, reaction(rng, "bad")))
    st.beat(s[1], Line(o, "remember the thing I told you about, the one everyone was panicking over?", "ref"),
            Line(f, "yes!! and?"),
            Line(o, rng.choice(["we passed!! with flying colours", "it went fine in the end, total anticlimax"]), "result"))
    st.qa(4, f"What does {P} do for a living?", job.title, "job")
    st.qa(4, f"Where does {P} work?", job.place, "job")
    st.qa(3, f"Would {P} be a good person to ask about {job.expertise}?", f"Yes, {P} is a {job.title}", "job")
    st.qa(1, f"How did {thing} at {P}'s work turn out?", "It went well", "job", "ref", "result")
    st.qa(5, f"What is the name of {P}'s manager?", NM, "job")
    return st


def project(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(3, 0, ctx.n - 1)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    first, second = ctx.fresh(pools.PROJECT_NAMES), ctx.fresh(pools.PROJECT_NAMES)
    aim = rng.choice(pools.PROJECT_AIMS)
    launch = ctx.future(s[2], "weekday", "week", "ordinal", "fortnight")
    st = Story("project", o, words={"project": second})
    st.beat(s[0], Line(o, rng.choice([f"we're starting a new thing at work, codename {first}. it's basically {aim}",
                                      f"new project at work! it's called {first} for now and it's {aim}"]), "start",
                       long=True), Line(f, rng.choice(["ooh fancy", "that actually sounds useful", "codename lol"])))
    st.beat(s[1], Line(o, rng.choice([f"RIP {first}. long live {second}. marketing renamed it and I have feelings",
                                      f"update: {first} is now called {second}. someone in marketing had a vision"]),
                       "rename"),
            Line(f, reaction(rng, "meh")))
    st.beat(s[2], Line(o, rng.choice([f"{second} goes live {launch.phrase}. I am not sleeping until then",
                                      f"launch day for {second} is {launch.phrase}. pray for me"]), "launch", long=True),
            Line(f, rng.choice(["you've got this", "drink water!", "rooting for you"])))
    st.qa(4, f"What is {P}'s work project supposed to do?", aim, "start")
    st.qa(1, f"What is the current name of the project {P} first called {first}?", second, "start", "rename")
    st.qa(1, f"What does {second} do?", aim, "start", "rename")
    st.qa_either(rng, 2, launch.answer, (f"When was {second} scheduled to go live?", ("launch",)),
                 (f"When was the project {P} first called {first} due to launch?", ("start", "rename", "launch")))
    st.qa(3, f"Was {P} likely working long hours before the {second} launch?", "Yes", "launch")
    st.qa(5, f"Who came up with the name {first}?", NM, "start")
    st.qa(5, f"What project is {F} leading at work?", NM, "start")
    s3 = ctx.after(launch.day, s[2] + 1)
    if s3 is not None:
        st.beat(s3, Line(f, "did the launch happen??", "ask"),
                Line(o, "it did! one outage, forty minutes, nobody died", "done"), Line(f, reaction(rng, "good")))
        st.qa(4, f"How did the release of {P}'s work project go?", "It launched with one forty-minute outage",
              "ask", "done")
    return st


def event(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(1, 0, ctx.n - 1)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    what, short, outcome, result, inference, because = rng.choice(pools.EVENTS)
    w = ctx.future(s[0], "weekday", "week", "ordinal", "fortnight", "month")
    s1 = ctx.after(w.day, s[0] + 1)
    if s1 is None:
        return None
    st = Story("event", o, words={"event": what})
    st.beat(s[0], Line(o, rng.choice([f"my {what} is {w.phrase} and I am a nervous wreck",
                                      f"the {what} is {w.phrase}. I've basically stopped sleeping"]), "plan", long=True),
            Line(f, rng.choice(["you'll be great", "you've prepared so much though", "deep breaths"])))
    st.beat(s1, Line(f, f"wait, how did the {short} go?!", "ask"), Line(o, outcome, "result", long=True),
            Line(f, reaction(rng, "good")))
    st.qa(2, f"When was {P}'s {what}?", w.answer, "plan")
    st.qa(4, f"What was the outcome of {P}'s {what}?", result, "ask", "result")
    st.qa(3, inference.format(P=P, pos=p.pos), because.format(P=P), "plan", "result")
    st.qa(5, f"When is {F}'s {what}?", NM, "plan")
    return st


def purchase(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    item, noun, caption, outing, hobby = rng.choice(pools.PURCHASES)
    w = ctx.past(s[0])
    st = Story("purchase", o, words={"noun": noun})
    if rng.random() < 0.5:
        st.beat(s[0], Line(o, f"treated myself to {item} {w.phrase}. no regrets. some regrets. no regrets", "buy",
                           long=True), Line(f, reaction(rng, "good")))
    else:
        st.beat(s[0], Line(o, f"look what I got {w.phrase}!!", "buy", caption=caption),
                Line(f, rng.choice(["ooh where from?", "stop that's so nice"])),
                Line(o, "secondhand, from a guy who was moving abroad. bargain"))
    st.beat(s[1], Line(o, f"finally used it properly, {outing}", "use", long=True), Line(f, reaction(rng, "good")))
    st.qa(4, f"What did {P} recently splurge on?", item, "buy")
    st.qa_either(rng, 2, w.answer, (f"When did {P} get the {noun}?", ("buy",)),
                 (f"When did {P} pick up {p.pos} {hobby} gear?", ("buy",)))
    st.qa(3, f"What hobby is {P} probably getting into?", hobby, "buy", "use")
    st.qa(1, f"What did {P} do the first time {p.sub} used {p.pos} new {noun}?", outing, "buy", "use")
    st.qa(5, f"How much did {P} pay for the {noun}?", NM, "buy")
    st.qa(5, f"Where did {F} get {ctx.p(f).pos} {noun} from?", NM, "buy")
    return st


def volunteer(ctx: Ctx, o: str) -> Story | None:
    s = ctx.sessions(2)
    if s is None:
        return None
    rng, p, f = ctx.rng, ctx.p(o), ctx.other(o)
    P, F = p.name, ctx.p(f).name
    place, routine, moment, happened = rng.choice(pools.VOLUNTEERING)
    st = Story("volunteer", o, words={"place": place})
    st.beat(s[0], Line(f, "are you around this weekend?"),
            Line(o, f"only afternoons, I signed up to help at {place}. {routine}", "start", long=True),
            Line(f, reaction(rng, "good")))
    st.beat(s[1], Line(o, f"best part of my week: {moment}", "moment", long=True), Line(f, reaction(rng, "good")))
    st.qa(4, f"Where does {P} give {p.pos} time for free?", place, "start")
    st.qa(4, f"What does {P} do as a volunteer?", routine, "start")
    st.qa(3, f"Would {P} probably support a neighbourhood charity drive?",
          f"Likely yes, {P} volunteers at {place}", "start", "moment")
    st.qa(1, f"What happened recently at the place where {P} volunteers?", happened, "start", "moment")
    st.qa(5, f"How long has {F} been volunteering?", NM, "start")
    return st
