"""Places facts into sessions and writes the sessions turn by turn.

Each session: a greeting pair, then fact beats (statement, reaction, maybe a follow-up),
mention beats (a known entity comes up again in passing) and small-talk exchanges in random
order, then a goodbye pair. Speakers strictly alternate; when a fact's owner spoke last, the
other speaker first hands over the floor ("So what have you been up to?").
"""

from __future__ import annotations

import random

from . import chatter, mentions
from . import statements as S
from .profile import Fact, Person
from .textutil import article, cap
from .timeline import draw, session_dates

Source = tuple[str, Person, dict]  # a mention source: (kind, owner, context with its "lines")


def place(rng: random.Random, facts: list[Fact], n: int) -> None:
    by_id = {f.fid: f for f in facts}
    load = [0] * (n + 1)
    for f in facts:  # make_facts lists every fact after the fact it depends on
        hi = max(1, n // 4 + 1) if f.early else n
        hi = min(hi, n - max((g.gap for g in facts if g.dep == f.fid), default=0))
        lo = by_id[f.dep].session + f.gap if f.dep else 1
        picks = [rng.randint(lo, max(lo, hi)) for _ in range(3)]
        f.session = min(picks, key=lambda s: load[s])
        load[f.session] += 1


def fact_context(rng: random.Random, f: Fact) -> dict:
    p, d = f.owner, f.data
    c = {"sub": p.sub, "Sub": cap(p.sub), "obj": p.obj, "pos": p.pos}
    if f.when:
        c.update(when=f.when.phrase, When=cap(f.when.phrase))
    k = f.kind
    if k in ("pet", "rename"):
        species, breed = d["breed"][0], d["breed"][1]
        c.update(species=species, breed=breed, a_breed=article(breed), A_breed=cap(article(breed)), pet=d["name"],
                 age=d["age"], old=d["name"], new=d["new_name"], sub="she" if d["g"] == "f" else "he",
                 obj="her" if d["g"] == "f" else "him", pos="her" if d["g"] == "f" else "his")
        c["Sub"] = cap(c["sub"])
    elif k in ("home", "move"):
        c.update(city=d["city"][0], new=d["city"][0], years=rng.choice(["three", "four", "six", "ten"]))
        if k == "move":
            c["old"] = d["old"][0]
    elif k in ("job", "job2"):
        c.update(title=d["job"][0], workplace=d["job"][1])
        if k == "job2":
            c.update(old_title=d["old"][0], old_workplace=d["old"][1])
    elif k in ("rel_city", "rel_job"):
        rs = "she" if d["g"] == "f" else "he"
        c.update(relation=d["relation"], rel=d["name"], rel_city=d["city"][0], rsub=rs, Rsub=cap(rs),
                 robj="her" if d["g"] == "f" else "him", rel_title=d["job"][0], rel_workplace=d["job"][1])
    elif k == "hobby":
        c.update(name=d["name"], cls=d["cls"], detail=d["detail"], Detail=cap(d["detail"]))
    elif k == "health":
        ctx = rng.choice(d["ctx"])
        c.update(vp=d["vp"], ctx=ctx, Ctx=cap(ctx))
    elif k == "purchase":
        c.update(item=d["item"], short=d["short"])
    elif k == "dish":
        c["dish"] = d["dish"][0]
    elif k == "trip":
        c["dest"] = d["city"][0]
    elif k == "event":
        c.update(vp=d["vp"], detail=d["detail"])
    elif k == "author":
        c["author"] = d["author"][0]
    return c


def _photo(rng: random.Random, f: Fact, c: dict) -> tuple[str, str | None]:
    if f.kind == "pet" and rng.random() < 0.35:
        return f" Here's {c['pet']} on day one.", f"a photo of a {c['breed']} curled up on a blanket"
    if f.kind in ("purchase", "hobby") and rng.random() < 0.3:
        return rng.choice([" Look!", " Here it is.", " Photo evidence."]), f.data["cap"]
    return "", None


def fact_beat(rng: random.Random, f: Fact, last: str, seen: set[str], session_seen: set[str],
              brief: bool = False) -> list[dict]:
    p, c = f.owner, fact_context(rng, f)
    turns = []
    if last == p.name:
        turns.append(chatter.turn(p.other, chatter.pick(rng, S.PROMPTS, session_seen)))
    template = chatter.pick(rng, S.STATEMENTS[f.kind], seen)  # vary shapes within a conversation
    text = template.format(**c)
    if f.kind in S.EVENTFUL and template.startswith(("{When}", "I ", "We ", "My ")) and rng.random() < 0.35:
        text = f"{rng.choice(S.LEAD_INS)} {text}"
    extra, caption = _photo(rng, f, c)
    f.text = text + extra
    t = chatter.turn(p.name, f.text, caption)
    t["_fact"] = f
    turns.append(t)
    pool = S.REACTIONS[f.kind] if rng.random() < 0.65 else S.GENERIC_REACTIONS
    turns.append(chatter.turn(p.other, rng.choice(pool).format(**c)))
    if rng.random() < (0.15 if brief else 0.6):
        turns.append(chatter.turn(p.name, chatter.pick(rng, [x.format(**c) for x in S.FOLLOW_UPS[f.kind]], seen)))
        if rng.random() < 0.3:
            turns.append(chatter.turn(p.other, rng.choice(chatter.ACKS)))
    return turns


def _sources(state: dict, people: tuple[Person, Person]) -> list[Source]:
    out = []
    for p in people:
        for key, ctx in state[p.name].items():
            out.append((key.split(":")[0], p, ctx))
    return out


def _remember(state: dict, f: Fact, c: dict) -> None:
    """After a session: what can later be mentioned in passing, with current values."""
    kind, mine = mentions.kind_of(f.kind), state[f.owner.name]
    if kind is None:
        return
    if kind == "pet":
        c = dict(c, pet=c["new"] if f.kind == "rename" else c["pet"])
        c["lines"] = mentions.SAY["pet"] + (mentions.SAY["dog"] if c["species"] == "dog" else [])
    elif kind == "hobby":
        c["lines"] = f.data["mentions"]
    else:
        c["lines"] = mentions.SAY[kind]
    if kind == "job":
        w = c["workplace"]
        c["workplace_the"] = "the " + w.split(" ", 1)[1] if w.startswith(("a ", "an ")) else w
    key = f"{kind}:{f.fid}" if kind in ("rel", "purchase") else kind
    mine[key] = c


def mention_beat(rng: random.Random, src: Source, last: str, seen: set[str]) -> list[dict]:
    kind, p, c = src
    lines = [x.format(**c) for x in c["lines"]]
    if all(x in seen for x in lines):
        return []
    line = chatter.pick(rng, lines, seen)
    if last == p.name:
        ask = rng.choice(mentions.ASK[kind]).format(**c)
        return [chatter.turn(p.other, ask), chatter.turn(p.name, f"{rng.choice(mentions.ANSWER_OPENERS)} {line}")]
    return [chatter.turn(p.name, line), chatter.turn(p.other, rng.choice(mentions.REACTIONS))]


def build(rng: random.Random, people: tuple[Person, Person], facts: list[Fact], n: int) -> dict:
    a, b = people
    conv: dict = {"speaker_a": a.name, "speaker_b": b.name}
    place(rng, facts, n)
    state: dict = {a.name: {}, b.name: {}}
    seen: set[str] = set()  # lines already said in this conversation (only membership is used)
    for s, (day, stamp) in enumerate(session_dates(rng, n), start=1):
        here = [f for f in facts if f.session == s]
        for f in here:
            f.when = draw(rng, f.pool, day) if f.pool else None
        sources = _sources(state, people)
        target = rng.randint(12, 25)
        used: list[str] = []  # small-talk topics of this session
        session_seen: set[str] = set()
        room = max(1, (target - 4 - 4 * len(here)) // 2)
        beats: list[Fact | Source] = list(here)  # a fact to state, or a known entity to mention in passing
        beats += rng.sample(sources, min(len(sources), rng.randint(1, 4), room))
        rng.shuffle(beats)
        first = rng.choice(people)
        turns = chatter.opener(rng, first.name, first.other)
        while beats or len(turns) < target - 2:
            last = turns[-1]["speaker"]
            other = a.name if last == b.name else b.name
            if beats and (target - 2 - len(turns) <= 3 * len(beats) or rng.random() < 0.45):
                item = beats.pop()
                if isinstance(item, Fact):
                    turns += fact_beat(rng, item, last, seen, session_seen, brief=len(turns) >= target - 6)
                elif len(turns) < target - 2:  # mentions are optional once the session is long enough
                    turns += mention_beat(rng, item, last, seen)
            else:
                turns += chatter.exchange(rng, other, last, used, seen)
        last = turns[-1]["speaker"]
        turns += chatter.closer(rng, a.name if last == b.name else b.name, last)
        for t_no, t in enumerate(turns, start=1):
            t["dia_id"] = f"D{s}:{t_no}"
            f = t.pop("_fact", None)
            if f is not None:
                f.dia_id = t["dia_id"]
        for t in turns:  # LoCoMo key order: speaker, dia_id, text (+ blip_caption)
            t_ordered = {"speaker": t["speaker"], "dia_id": t["dia_id"], "text": t["text"]}
            if "blip_caption" in t:
                t_ordered["blip_caption"] = t["blip_caption"]
            t.clear()
            t.update(t_ordered)
        conv[f"session_{s}_date_time"] = stamp
        conv[f"session_{s}"] = turns
        for f in here:
            f.date = day
            _remember(state, f, fact_context(random.Random(0), f))
    return conv
