"""A person's storyline: every fact they reveal over the conversation, as first-person turn content,
with where it belongs in time and what it builds on."""

from __future__ import annotations

import random
import re

from .facts import Fact
from .persona import Person, article


def third(text: str, pro: dict) -> str:
    """'sprained my ankle' -> 'sprained her ankle'."""
    return re.sub(r"\bmy\b", pro["pos"], text)


def storyline(p: Person, tag: str, rng: random.Random, taken: dict[str, set[int]]) -> list[Fact]:
    """The facts of `p` in dependency order; keys are prefixed with `tag`. `taken` remembers which
    wording each fact got for the other speaker, so the two say things differently."""
    k = lambda name: f"{tag}.{name}"  # noqa: E731
    out: list[Fact] = []

    def add(name: str, options: list[str], ctx: dict, **kw) -> Fact:
        kw["after"] = tuple(k(a) for a in kw.get("after", ()))
        kw["apart"] = tuple(k(a) for a in kw.get("apart", ()))
        used = taken.setdefault(name, set())
        choice = rng.choice([i for i in range(len(options)) if i not in used] or list(range(len(options))))
        used.add(choice)
        fact = Fact(k(name), p.name, options[choice].format(**ctx, when="{when}"), **kw)
        out.append(fact)
        return fact

    pro = p.pro
    s1 = {**p.sib1.ctx("S"), "rel": p.sib1_rel, "age": p.sib1_age, "city": p.sib1_city,
          "job": p.sib1_job, "a_job": article(p.sib1_job)}
    s2 = {**p.sib2.ctx("S"), "rel": p.sib2_rel, "age": p.sib2_age, "plan": p.sib2_plan}
    fr = {**p.friend.ctx("F"), "a_job": article(p.friend_job), "title": p.rec_title, "kind": p.rec_kind,
          "consume": {"book": "read", "series": "watch", "podcast": "listen to"}[p.rec_kind],
          "consumed": {"book": "read", "series": "watched", "podcast": "listened to"}[p.rec_kind],
          "verdict": p.verdict[0]}
    pet = {**p.pet.ctx("P"), "breed": p.pet_breed, "a_breed": article(p.pet_breed),
           "habit": p.pet_habit.format(**p.pet.pro)}
    pet["finding"] = p.pet_vet[0].format(**p.pet.pro)
    pet["consequence"] = p.pet_vet[1].format(**p.pet.pro)
    role1, work1, short1, role2, work2, short2 = p.job
    jb = {"role1": role1, "work1": work1, "short1": short1, "role2": role2, "work2": work2, "short2": short2,
          "a_role2": article(role2), "a_role1": article(role1), "parent": p.parent,
          "years": rng.choice(["three", "four", "five", "six"]),
          **p.manager1.ctx("M"), **p.manager2.ctx("N")}
    jb["advice"] = p.advice[0].format(psub=p.parent_pro["sub"])
    jb["psub"] = p.parent_pro["sub"]
    jb["bg"] = p.manager2_bg[0].format(pos=p.manager2.pro["pos"])
    jb["explain"] = p.manager2_bg[1]
    country1, city1 = p.trip1[0], p.trip1[1]
    country2, city2 = p.trip2[0], p.trip2[1]
    tr = {"country1": country1, "city1": city1, "h1": p.trip1_highlight, "country2": country2, "city2": city2,
          "h2": p.trip2_highlight, "souvenir": p.souvenir, "S": p.sib1.name, "P": p.pet.name, "F": p.friend.name}
    h = p.health

    # family
    add("sib1.intro", [
        "I was on the phone with my {age} {rel} {S} for two hours last night, {S_sub} always knows exactly how to "
        "cheer me up.",
        "My {age} {rel} {S} came round for dinner and we ended up laughing about our childhood until well past "
        "midnight.",
        "You'd like my {age} {rel} {S}, {S_sub}'s the loud, funny one in our family and I'm the one who does the "
        "washing up."], s1, lo=0.0, hi=0.2, ref=f"your {p.sib1_rel}")
    add("sib2.intro", [
        "My {age} {rel} {S} borrowed my good suitcase and returned it with a wheel missing, some things never "
        "change.",
        "My {age} {rel} {S} rang me at midnight to describe a dream in great detail, {S_sub}'s always been the "
        "dramatic one.",
        "I spent Saturday helping my {age} {rel} {S} paint {S_pos} bedroom a shade of green {S_sub} now deeply "
        "regrets."], s2, lo=0.1, hi=0.4, apart=("sib1.intro",), ref=p.sib2.name)
    add("sib1.quirk", [p.quirk[1]], {"N": p.sib1.name, **p.sib1.pro},
        lo=0.15, hi=0.45, after=("sib1.intro",), ref=p.sib1.name)
    add("sib1.city", [
        "{S} finally signed the lease on a flat in {city}, so now I have the perfect excuse to visit {city} every "
        "few months.",
        "{S} has officially moved to {city}, {S_sub} sent me a video tour of the new place and the view is "
        "ridiculous.",
        "{S} is properly settled in {city} now and already knows every good bakery in the neighbourhood, "
        "typical."], s1, lo=0.2, hi=0.6, after=("sib1.intro",), ref=f"{p.sib1.name}'s new place", mood="mild")
    add("sib1.job", [
        "{S} just qualified as {a_job} after years of evening classes, and we're all ridiculously proud of "
        "{S_obj}.",
        "{S} has been working as {a_job} for a while now and comes home with the wildest stories every single "
        "week.",
        "{S} finally landed a permanent post as {a_job}, and {S_sub}'s pretending it's no big deal."],
        s1, lo=0.3, hi=0.8, after=("sib1.intro",), apart=("sib1.city",), ref=f"{p.sib1.name}'s job", mood="pos")
    rel_q = f"{p.sib1_age} {p.sib1_rel}" if p.sib1_rel == p.sib2_rel else p.sib1_rel  # which one, if two
    other = {**s1, **p.sib1_other.ctx("B"), "kid": "girl" if p.sib1_other.gender == "f" else "boy",
             "parentword": "mum" if p.sib1.gender == "f" else "dad"}
    if p.sib1_event == "baby":
        add("sib1.event", [
            "{S} became a {parentword} {when}! A tiny {kid} called {B}, and I've already bought far too many "
            "little outfits.",
            "The big family news is that {S} had a baby {when}, a little {kid} named {B}, and I'm completely "
            "smitten already."], other, lo=0.5, hi=0.95, after=("sib1.intro",), ref="the baby", mood="pos",
            event=f"{p.name}'s {rel_q} have a baby")
    else:
        add("sib1.event", [
            "{S} got married {when} to {B}, a tiny ceremony in a garden with about twenty people, and I cried "
            "through the whole thing.",
            "{S} and {B} tied the knot {when}, just a registry office and a long lunch afterwards, and it was "
            "perfect."], other, lo=0.5, hi=0.95, after=("sib1.intro",), ref="the wedding", mood="pos",
            event=f"{p.name}'s {rel_q} get married")
    add("sib2.plan", [
        "{S} has decided to {plan}, and honestly I think it might be the best idea {S_sub}'s ever had.",
        "Big news from {S}: {S_sub} wants to {plan}, and {S_sub}'s already sent off the paperwork."],
        s2, lo=0.4, hi=0.9, after=("sib2.intro",), ref=f"{p.sib2.name}'s plan", mood="pos")

    # friend
    add("friend.intro", [
        "My best friend {F} and I have known each other since we were eleven, and {F_sub} still finishes my "
        "sentences, usually wrongly.",
        "My best friend {F} turned up at my door with soup when I had a cold, {F_sub}'s been doing that kind of "
        "thing since school.",
        "I had a long walk with my best friend {F} on Sunday, we've been friends since university and {F_sub}'s "
        "still the first person I call."], fr, lo=0.0, hi=0.25, apart=("sib1.intro",), ref=p.friend.name,
        mood="mild")
    add("friend.job", [
        "{F} started a new contract as {a_job}, and {F_sub} already has outrageous stories about the people "
        "there.",
        "{F} has been working as {a_job} for years now, and somehow {F_sub} still loves every minute of it."],
        fr, lo=0.3, hi=0.7, after=("friend.intro",), ref=f"{p.friend.name}'s work")
    add("friend.rec", [
        "{F} keeps telling me to {consume} the {kind} '{title}', {F_sub} says it'll change my life, so no "
        "pressure.",
        "{F} has been nagging me for weeks to {consume} '{title}', apparently I'm the last person alive who "
        "hasn't."], fr, lo=0.15, hi=0.4, after=("friend.intro",), ref=f"the {p.rec_kind}")
    add("friend.outcome", [
        "I finally {consumed} the {kind} {F} kept pushing on me, and I {verdict}.",
        "Okay, confession time: I gave in and {consumed} the {kind} {F} recommended, and I {verdict}."],
        fr, lo=0.5, hi=0.9, after=("friend.rec",), ref=f"the {p.rec_kind}")

    # pet
    add("pet.intro", [
        "I adopted {a_breed} from the shelter {when}, {P_pos} name is {P} and {P_sub}'s already claimed the sofa "
        "as {P_pos} own.",
        "Meet the newest member of my household: {P}, {a_breed} I brought home from the rescue centre {when}, and "
        "I'm smitten.",
        "So I did a thing {when}: I went to the animal rescue just to look and came home with {P}, {a_breed}."],
        pet, lo=0.0, hi=0.2, ref=p.pet.name, mood="pos", event=f"{p.name} adopt {p.pet.name}")
    add("pet.habit", [
        "{P} has developed a habit of {habit}, and I have no idea where {P_sub} picked it up.",
        "The latest from {P}: {P_sub}'s taken to {habit}, which is adorable and also a real problem."],
        pet, lo=0.2, hi=0.6, after=("pet.intro",), ref=p.pet.name)
    add("pet.vet", [
        "I had to rush {P} to the vet {when}, turns out {P_sub} had {finding}, so {consequence}.",
        "Scary moment {when}: {P} stopped eating and the vet found {finding}, so now {consequence}."],
        pet, lo=0.55, hi=0.95, after=("pet.intro",), ref=f"poor {p.pet.name}", mood="neg",
        event=f"{p.name} take {p.pet.name} to the vet")
    add("friend.sitter", [
        "{F} has kindly agreed to stay at my place and look after {P} while I'm away in {country1}, which is a "
        "huge relief.",
        "Good news, {F} is going to house-sit and feed {P} during my {country1} trip, so I can actually relax."],
        tr, lo=0.2, hi=0.4, after=("friend.intro", "pet.intro"), gap=1, ref="the trip", mood="mild")

    # work
    add("job1", [
        "I've been {a_role1} at {work1} for about {years} years now, and the hours are long but I love the people.",
        "Work's been hectic, being {a_role1} at {work1} means everyone needs something from you at once.",
        "I'm still {a_role1} at {work1}, and most days I genuinely enjoy it, even when it's total chaos."],
        jb, lo=0.0, hi=0.15, ref="work")
    add("mgr1.intro", [
        "My manager {M} pulled me aside to say my last project was the best {M_sub}'s seen all year, I nearly "
        "fell off my chair.",
        "My manager {M} is one of those people who remembers everyone's birthday and actually listens in "
        "meetings, I got lucky.",
        "I had my yearly review with my manager {M}, and {M_sub} was so encouraging it was almost suspicious."],
        jb, lo=0.05, hi=0.3, apart=("sib1.intro", "job1"), ref=p.manager1.name, mood="mild")
    add("mgr1.quirk", [p.quirk[2]], {"N": p.manager1.name, **p.manager1.pro},
        lo=0.2, hi=0.5, after=("mgr1.intro", "sib1.quirk"), gap=1, apart=("sib1.intro",), ref=p.manager1.name)
    add("offer", [
        "I got a call {when} offering me {a_role2} job at {work2}, it's more money but it's a big leap into the "
        "unknown.",
        "Something big happened {when}: {work2} offered me a position as {a_role2}, and I haven't slept properly "
        "since."], jb, lo=0.35, hi=0.5, after=("job1", "mgr1.quirk"), gap=1, ref="the offer", mood="pos",
        event=f"{p.name} get the job offer from {short2}")
    add("talk", [
        "I talked the offer through with my {parent} over Sunday lunch, and {psub} told me {advice}.",
        "I had a long phone call with my {parent} about the job thing, and {psub} said {advice}, which surprised "
        "me."], jb, lo=0.4, hi=0.6, after=("offer",), gap=1, ref=f"your {p.parent}'s advice")
    add("notice", [
        "I handed in my notice {when}, so it's official, I'm leaving {short1} at the end of the month and I feel "
        "sick and excited.",
        "It's done, I resigned {when}! My last day at {short1} is in three weeks and I already know I'll cry at "
        "the leaving drinks."], jb, lo=0.45, hi=0.7, after=("talk",), gap=1, ref="the new job", mood="pos",
        event=f"{p.name} hand in {pro['pos']} notice at {short1}")
    add("mgr2.intro", [
        "First weeks at {short2} done! My new manager {N} seems lovely, {N_sub} took the whole team out for lunch "
        "on my first day.",
        "The new job is going well so far, my manager {N} has a very calm way of explaining things that makes me "
        "feel less of a fraud."], jb, lo=0.6, hi=0.85, after=("notice",), gap=1, ref="the new job", mood="mild")
    add("mgr2.bg", [
        "I found out at lunch that {N} {bg}, which explains why {N_sub}'s so {explain}.",
        "Fun fact I learned this week: {N} {bg}, and suddenly it all makes sense, {N_sub}'s always so "
        "{explain}."], jb, lo=0.7, hi=1.0, after=("mgr2.intro",), gap=1, ref=p.manager2.name)

    # home and commute
    cm = {"old": p.commute_old[0], "new": p.commute_new[0], "area_old": p.area_old, "area_new": p.area_new}
    add("commute.old", [
        "My commute is honestly the worst part of the job, it's {old} each way and I arrive already grumpy.",
        "The commute is slowly breaking me, {old} each way, and I spend half of it wondering why I live where I "
        "live."], cm, lo=0.0, hi=0.25, ref="that commute", mood="neg")
    add("move", [
        "I finally moved {when}, from the cramped flat in {area_old} to a little place in {area_new}, and I'm "
        "still living out of boxes.",
        "The big move happened {when}! Goodbye {area_old}, hello {area_new}, and goodbye to about half my "
        "belongings too."], cm, lo=0.25, hi=0.45, after=("commute.old",), ref="the new place", mood="pos",
        event=f"{p.name} move to {p.area_new}")
    add("commute.new", [
        "Best thing about the new place: getting to work is now {new}, I've basically been handed an extra hour "
        "a day.",
        "I still can't get over how easy getting in to work is now, it's {new}, and I actually arrive in a good "
        "mood."], cm, lo=0.35, hi=0.7, after=("move",), ref="the new routine", mood="mild")

    # health and hobby
    hc = {"injury": h["injury"], "cause": h["cause"], "restriction": h["restriction"], "recall": h["recall"],
          "detail": h["activity"][1]}
    add("hobby.intro", [p.hobby["intro"]], {}, lo=0.0, hi=0.2, ref=f"the {p.hobby['name']}", mood="mild")
    add("hobby.milestone", [p.hobby["milestone"]], {}, lo=0.2, hi=0.45, after=("hobby.intro",), ref="that",
        mood="pos", event=f"{p.name} " + p.hobby["when_q"].format(**pro))
    add("injury", [
        "I {injury} {when}, {cause}, and the doctor says {restriction}.",
        "Bit of a rubbish week: I {injury} {when}, {cause}, and the doctor's verdict: {restriction}."],
        hc, lo=0.4, hi=0.6, ref="the injury", mood="neg", event=f"{p.name} " + h["when_q"].format(**pro))
    add("recovery", [
        "Since {recall}, I've started {detail}, and weirdly I think I'll keep it up even once I'm better.",
        "Recovery update: {recall}, so I've been {detail}, which is far more fun than I expected."],
        hc, lo=0.55, hi=0.9, after=("injury",), ref=f"the {h['activity'][0]}", mood="mild")

    # travel
    add("trip1", [
        "I got back from {country1} {when}! {S} and I spent ten days there, mostly in {city1}, and we {h1}.",
        "I flew home from {country1} {when}, still a bit dazed. {S} and I based ourselves in {city1} and {h1}."],
        tr, lo=0.25, hi=0.5, after=("friend.sitter", "sib1.intro"), gap=1, apart=("sib1.job",), ref="the trip",
        mood="pos", event=f"{p.name} get back from {country1}")
    add("souvenir", [
        "I finally gave {S2} {souvenir} I picked up in {city1}, and {S2_sub} hasn't stopped showing it off.",
        "{S2} came over to collect {S2_pos} present from {city1}, {souvenir}, and pretended to be cool about it "
        "for about four seconds."],
        {**tr, **p.sib2.ctx("S2"), "souvenir": p.souvenir}, lo=0.45, hi=0.95, after=("trip1", "sib2.intro"),
        gap=1, ref="the present", mood="mild")
    add("trip2", [
        "I went to {country2} on my own for a long weekend, got back {when}, and I {h2} in {city2}.",
        "Quick trip report: I spent five days in {city2}, in {country2}, came home {when}, and I {h2}."],
        tr, lo=0.6, hi=0.95, after=("trip1",), ref="the trip", mood="pos", event=f"{p.name} get back from {country2}")

    # tastes
    add("dish", [
        "I've been on a big {cuisine} cooking kick lately, I made {dish} three times this week and I'm still not "
        "sick of it.",
        "My new comfort food is {dish}, I've made it so often my neighbours probably think I live on it."],
        {"cuisine": p.dish[0], "dish": p.dish[1]}, lo=0.0, hi=1.0, ref="the cooking")
    add("music", [
        "I've had {music} on repeat all week while I work, {note}.",
        "My soundtrack lately is {music}, honestly {note}."],
        {"music": p.music[0], "note": p.music[1]}, lo=0.0, hi=1.0, ref="the music")

    # traits: three statements each, in different sessions
    for i, trait in enumerate(p.traits):
        lines = rng.sample(list(trait.statements), 3)
        for j, line in enumerate(lines):
            after = (f"trait{i}.{j - 1}",) if j else ()
            add(f"trait{i}.{j}", [line.replace("{", "{{").replace("}", "}}")], {},
                lo=(0.0, 0.3, 0.6)[j], hi=(0.35, 0.7, 1.0)[j], after=after, gap=2, ref="that")
    return out
