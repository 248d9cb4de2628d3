"""Turning a plan into sessions of alternating chat turns.

A session is a greeting, a shuffle of beats (a fact with the listener's reaction, small talk, asking after
old news), and a goodbye. Speakers alternate; when a fact's owner spoke last, the listener hands the floor back."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import datetime

from . import chatter
from .life import Fact, Plan
from .people import VOICES, Person
from .phrasing import TEMPLATES, fill

MIN_WORDS, MAX_WORDS = 8, 40
MIN_TURNS, MAX_TURNS = 12, 30
Line = tuple[Person, str, Fact | None]

# Sentence starts that may be lower-cased (never a name or a place).
_COMMON = {"my", "the", "so", "we", "just", "honestly", "okay", "oh", "did", "have", "guess", "that", "this",
           "it", "spent", "finally", "got", "big", "meet", "made", "work", "being", "long", "sometimes", "had",
           "small", "wait", "tiny", "don't", "ask", "people", "saturday", "turned", "remember", "still", "if",
           "you", "are", "when", "rough", "after", "someone", "anyway", "but", "ha", "thanks", "please",
           "never", "good", "every", "hey", "hi", "a", "even", "nothing", "mornings", "give", "glass",
           "skipping", "yes", "same", "ugh", "at", "true", "barely", "tomorrow", "that's", "reply-all",
           "lunch", "do", "ten", "it's", "i'm", "i've", "i", "i'd", "i'll", "love", "nice", "no", "oof", "aw",
           "see", "hmm", "really", "morning", "afternoon", "evening", "families", "definitely", "right",
           "sounds", "absolutely", "how", "random", "oh,", "okay,", "classic", "breakfast", "is",
           "last", "two", "three", "yesterday"}
_I_WORDS = {"i", "i'm", "i've", "i'd", "i'll"}


def words(text: str) -> int:
    return len(text.split())


def _lower_first(text: str, keep_i: bool) -> str:
    first = text.split()[0].strip(".,!?:").lower()
    if first not in _COMMON or (keep_i and first in _I_WORDS):
        return text
    return text[:1].lower() + text[1:]


class Talker:
    """Renders lines in each speaker's voice, varying templates across a conversation."""

    def __init__(self, rng: random.Random, plan: Plan):
        self.rng, self.plan = rng, plan
        self.used: set[str] = set()  # templates and chatter already spoken in this conversation

    def _fresh(self, options: list[str]) -> list[str]:
        """Options in random order, unused ones first, so repeats happen only when a pool runs dry."""
        shuffled = list(options)
        self.rng.shuffle(shuffled)
        return sorted(shuffled, key=lambda o: o in self.used)

    def voiced(self, who: Person, text: str, flourish: bool, upbeat: bool = False) -> str:
        """Style a line; `upbeat` allows a cheerful tail, which would jar after bad news."""
        voice = VOICES[who.voice]
        if flourish and self.rng.random() < 0.3:
            lead = self.rng.choice(voice.leads)
            # after "Also!" or "Small update:" a new sentence starts; after "Omg" or "Oh," it runs on
            text = f"{lead} {text if lead[-1] in '!:.' else _lower_first(text, keep_i=True)}"
        if flourish and upbeat and self.rng.random() < 0.25:
            tail = self.rng.choice(voice.tails)
            if words(text) + words(tail) <= MAX_WORDS:
                text = f"{text} {tail}"
        if voice.lowercase:
            text = _lower_first(text, keep_i=False)
        return text

    def fact_text(self, fact: Fact) -> str:
        slots = dict(fact.slots)
        if fact.when:
            slots["when"] = fact.when
        for template in self._fresh(TEMPLATES[fact.kind]):
            upbeat = chatter.MOOD[fact.kind] in chatter.FOLLOW_UPS
            text = self.voiced(fact.owner, fill(template, slots), flourish=True, upbeat=upbeat)
            low = text.lower()
            if (all(k.lower() in low for k in fact.keywords) and (not fact.when or fact.when.lower() in low)
                    and MIN_WORDS <= words(text) <= MAX_WORDS):
                self.used.add(template)
                return text
        raise ValueError(f"no template fits fact {fact.key}: {fact.slots}")

    def line(self, who: Person, options: list[str], slots: dict[str, str] | None = None) -> Line:
        """A chatter line from options, filled with the listener's name and any slots."""
        values = {**(slots or {}), "other": self.plan.other(who).name}
        for option in self._fresh(options):
            text = self.voiced(who, fill(option, values), flourish=False)
            if MIN_WORDS <= words(text) <= MAX_WORDS:
                self.used.add(option)
                return who, text, None
        raise ValueError(f"no chatter line fits: {options[:1]}")


@dataclass
class Beat:
    """A stretch of talk: fixed speakers (a fact and its reaction, asking after old news), or small talk
    whose lines alternate from whoever did not speak last."""
    lines: list[Line] = field(default_factory=list)
    chat: tuple[str, ...] = ()


def _fact_beat(t: Talker, fact: Fact) -> Beat:
    owner, other = fact.owner, t.plan.other(fact.owner)
    mood = chatter.MOOD[fact.kind]
    first = (owner, t.fact_text(fact), fact)
    if fact.kind in chatter.DETAILS and t.rng.random() < 0.35:
        ask, answer = t.rng.choice(chatter.DETAILS[fact.kind])
        return Beat([first, t.line(other, [ask], fact.slots), t.line(owner, [answer], fact.slots)])
    beat = [first, t.line(other, chatter.REACTIONS[mood], fact.slots)]
    roll = t.rng.random()
    if mood in chatter.FOLLOW_UPS and roll < 0.6:
        beat.append(t.line(owner, chatter.FOLLOW_UPS[mood]))
        if roll < 0.25:
            beat.append(t.line(other, chatter.LISTENER_CLOSERS))
    elif mood == "sympathy" and roll < 0.5:
        beat.append(t.line(owner, chatter.SAD_FOLLOW_UPS))
    return Beat(beat)


def _small_talk(t: Talker) -> Beat:
    topics = sorted(chatter.SMALL_TALK)
    fresh = [k for k in topics if k not in t.used] or topics
    topic = t.rng.choice(fresh)
    t.used.add(topic)
    options = chatter.SMALL_TALK[topic]
    unused = [e for e in options if e[0] not in t.used] or options
    exchange = t.rng.choice(unused)
    t.used.add(exchange[0])
    return Beat(chat=exchange)


def _callback(t: Talker, fact: Fact) -> Beat:
    ask, answer = t.rng.choice(chatter.CALLBACKS[fact.kind])
    return Beat([t.line(t.plan.other(fact.owner), [ask], fact.slots), t.line(fact.owner, [answer], fact.slots)])


def _assemble(t: Talker, opening: list[Line], beats: list[Beat], closing: tuple[str, str]) -> list[Line]:
    """Lay beats out so speakers alternate: prefer the next beat that starts with the other speaker;
    only when none does, the listener hands the floor back with a prompt."""
    turns, remaining = list(opening), list(beats)
    while remaining:
        last = turns[-1][0]
        beat = next((b for b in remaining if b.chat or b.lines[0][0] != last), remaining[0])
        remaining.remove(beat)
        if beat.chat:
            who = t.plan.other(last)
            for text in beat.chat:
                turns.append((who, t.voiced(who, text, flourish=False), None))
                who = t.plan.other(who)
            continue
        if beat.lines[0][0] == last:
            turns.append(t.line(t.plan.other(last), chatter.PROMPTS))
        turns.extend(beat.lines)
    last = turns[-1][0]
    turns.append(t.line(t.plan.other(last), [closing[0]]))
    turns.append(t.line(last, [closing[1]]))
    return turns


def _daypart(when: datetime) -> str:
    return "morning" if when.hour < 12 else "afternoon" if when.hour < 17 else "evening"


def build_session(t: Talker, number: int, when: datetime, callbacks_ready: list[Fact]) -> list[Line]:
    """One session's turns: the facts planned for it, some chatter, maybe asking after older news."""
    rng, plan = t.rng, t.plan
    facts = sorted((f for f in plan.facts.values() if f.session == number), key=lambda f: f.key)
    beats = [_fact_beat(t, f) for f in facts]
    if callbacks_ready and rng.random() < 0.6:
        beats.append(_callback(t, callbacks_ready.pop(rng.randrange(len(callbacks_ready)))))
    rng.shuffle(beats)
    starter = rng.choice([plan.a, plan.b])
    opening = [t.line(starter, chatter.OPENINGS[_daypart(when)]),
               t.line(plan.other(starter), chatter.GREETING_REPLIES)]
    closing = rng.choice(chatter.CLOSINGS)
    target = rng.randint(MIN_TURNS, MAX_TURNS - 2)
    turns = _assemble(t, opening, beats, closing)
    for _ in range(20):  # grow with small talk up to the target length
        if len(turns) >= target:
            break
        beats.insert(rng.randint(0, len(beats)), _small_talk(t))
        turns = _assemble(t, opening, beats, closing)
    while len(turns) > MAX_TURNS:  # too long: drop small talk first, then fact beats' follow-ups
        chat = [b for b in beats if b.chat]
        if chat:
            beats.remove(chat[-1])
        else:
            longest = max(beats, key=lambda b: len(b.lines))
            if len(longest.lines) <= 2:
                break
            longest.lines.pop()
        turns = _assemble(t, opening, beats, closing)
    if not MIN_TURNS <= len(turns) <= MAX_TURNS:
        raise ValueError(f"session {number} has {len(turns)} turns")
    return turns


CALLBACK_KINDS = set(chatter.CALLBACKS)


def render(rng: random.Random, plan: Plan, times: list[datetime]) -> list[list[dict]]:
    """All sessions as LoCoMo turn dicts; stamps each fact with its turn number and text."""
    t = Talker(rng, plan)
    sessions: list[list[dict]] = []
    ready: list[Fact] = []
    for n, when in enumerate(times, start=1):
        turns = build_session(t, n, when, ready)
        out = []
        for i, (who, text, fact) in enumerate(turns, start=1):
            text = re.sub(r"\s+", " ", text).strip()
            if fact is not None:
                fact.turn, fact.text = i, text
            out.append({"speaker": who.name, "dia_id": f"D{n}:{i}", "text": text})
        ready += [f for f in plan.facts.values() if f.session == n and f.kind in CALLBACK_KINDS]
        sessions.append(out)
    return sessions
