"""Questions a statement answers, without a model (the `rules` provider's prospective hints).

For each declarative sentence: a subject (a "Name:" speaker prefix stands for first-person
"I/my", else a leading proper noun or the words before the first verb), the first verb turned
into its base form with a small irregular-verb table and suffix rules, and the rest of the clause.
Questions then ask for the parts the sentence holds: its object ("What does Simon love?"), a time
("When did Simon buy a bike?"), a place, a count, a reason, or the topic ("What did Simon say
about the hills?"). The grammar is English only and sometimes clumsy; hints serve keyword search,
where the words matter more than the grammar. A model (`extraction.provider`) can paraphrase,
which this cannot.
"""

from __future__ import annotations

import re

from signet_pipeline.text.entities import SENTENCE_STARTERS, WORD, is_proper, sentences
from signet_pipeline.text.fts_query import STOP_WORDS

_SPEAKER = re.compile(r"^\s*([A-Z][\w'-]*(?: [A-Z][\w'-]*)?):\s+")
_FIRST_PERSON = {"i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "my", "our"}
_SKIP = {"am", "is", "are", "was", "were", "be", "been", "have", "has", "had", "'ve", "'m", "do", "does", "did",
         "will", "would", "can", "could", "just", "really", "recently", "finally", "also", "always", "never",
         "actually", "still", "already", "even", "totally", "usually", "often", "sometimes", "not", "don't",
         "didn't", "to", "gonna"}
_HAVE = {"have", "has", "had", "'ve"}
_IRREGULAR = dict(pair.split(":") for pair in """
bought:buy went:go got:get took:take made:make saw:see met:meet began:begin found:find gave:give left:leave
felt:feel had:have did:do ran:run won:win wrote:write brought:bring thought:think told:tell said:say came:come
became:become sold:sell spent:spend built:build taught:teach caught:catch kept:keep lost:lose paid:pay sent:send
chose:choose drove:drive flew:fly grew:grow knew:know ate:eat fell:fall broke:break held:hold heard:hear led:lead
slept:sleep swam:swim sang:sing threw:throw wore:wear understood:understand moved:move loved:love liked:like
is:be are:be was:be were:be has:have does:do goes:go created:create changed:change arranged:arrange developed:develop
""".split())
_TIME = re.compile(r"\b((?:19|20)\d\d|january|february|march|april|may|june|july|august|september|october|november|"
                   r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|today|tomorrow|"
                   r"last (?:week|month|year|night|weekend)|next (?:week|month|year)|ago|since)\b", re.IGNORECASE)
_PLACE = re.compile(r"\b(?:in|at|to|from|near)\s+([A-Z][\w'-]+)")
_COUNT = re.compile(r"\b(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|dozen)\s+([a-z]{3,})\b", re.IGNORECASE)
_REASON = re.compile(r"\b(because|so that|due to)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:!?.(\[]|\b(?:because|but|and then|so that|which|who)\b")
_PREPOSITIONS = {"on", "in", "at", "with", "for", "about", "to", "from", "into", "by"}
_PAST = re.compile(r"[a-z]{2,}ed$")
_VOWELS = set("aeiou")
_PROGRESSIVE = re.compile(r"[a-z]{3,}ing$")
_BE = {"am", "is", "are", "was", "were", "been", "'m", "'re"}
_IMPERATIVE = SENTENCE_STARTERS - {"maybe", "also", "then", "now", "today", "yesterday", "tomorrow", "currently",
                                   "recently", "finally", "however", "always", "never", "sometimes", "usually",
                                   "everyone", "someone", "nobody", "yes", "sure", "please", "remember", "note"}


def _restore_e(stem: str) -> str:
    """Base form of a regular verb from its -ed stem: `decid` -> decide, `visit` stays (a heuristic)."""
    last, before = stem[-1], stem[-2] if len(stem) > 1 else ""
    single_vowel = before in _VOWELS and (len(stem) < 3 or stem[-3] not in _VOWELS)
    if last in "cvz" or (last == "s" and before != "s"):
        return stem + "e"
    if single_vowel and last in "dgkbmlprt" and not (before == "e" and last in "lprt") \
            and not (before == "i" and last in "tp"):
        return stem + "e"
    return stem


def base_form(verb: str) -> tuple[str, bool]:
    """(base form, past tense) of a verb as written."""
    v = verb.lower()
    if v in _IRREGULAR:
        return _IRREGULAR[v], v not in ("is", "are", "has", "does", "goes")
    if v.endswith("ied"):
        return v[:-3] + "y", True
    if _PAST.match(v) or _PROGRESSIVE.match(v):
        stem = v[:-2] if v.endswith("ed") else v[:-3]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in "bgmnprt":
            return stem[:-1], v.endswith("ed")  # stopped -> stop
        return _restore_e(stem), v.endswith("ed")
    if v.endswith(("ches", "shes", "sses", "xes")):
        return v[:-2], False
    if v.endswith("s") and not v.endswith("ss") and len(v) > 3:
        return v[:-1], False
    return v, False


def _looks_like_verb(word: str, index: int) -> bool:
    w = word.lower()
    if w in STOP_WORDS and w not in _IRREGULAR:
        return False
    return (w in _IRREGULAR or bool(_PAST.match(w) or _PROGRESSIVE.match(w))
            or (index > 0 and w.endswith("s") and not w.endswith("ss") and not word[0].isupper()))


class _Clause:
    def __init__(self, subject: str, verb: str, past: bool, rest: list[str]):
        self.subject, self.verb, self.past, self.rest = subject, verb, past, rest

    @property
    def aux(self) -> str:
        return "did" if self.past else ("do" if self.subject in ("we", "I") else "does")


def _proper_end(tokens: list[str], start: int) -> int:
    end = start + 1
    while end < len(tokens) and is_proper(tokens[end], False):
        end += 1
    return end


def _clause(sentence: str, speaker: str | None) -> _Clause | None:
    head = _CLAUSE_END.split(sentence, maxsplit=1)[0]
    tokens = WORD.findall(head)
    if len(tokens) < 3:
        return None
    start = 0
    if tokens[0].lower() in _IMPERATIVE:
        return _Clause("I", "", False, tokens)  # an instruction: asked as "How do I ...?"
    if tokens[0].lower() in _FIRST_PERSON:
        subject = speaker or "I"
        start = 1
    elif is_proper(tokens[0], False):
        end = _proper_end(tokens, 0)
        while end + 1 < len(tokens) and tokens[end].lower() == "and" and is_proper(tokens[end + 1], False):
            end = _proper_end(tokens, end + 1)  # "Dave and Bob discussed ...": both are the subject
        subject, start = " ".join(tokens[:end]), end
    else:
        subject = ""
    for i in range(start, min(len(tokens), start + 6)):
        word = tokens[i]
        following = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if word.lower() in _HAVE and following and not (base_form(following)[1] or following.endswith("en")
                                                        or following in _SKIP):
            return _Clause(subject or " ".join(tokens[:i]).lower(), "have", word.lower() == "had", tokens[i + 1:]) \
                if subject or i else None
        if word.lower() in _SKIP or word.lower() in _HAVE or "'" in word:
            continue
        right_after = subject and i == start and word.lower() not in STOP_WORDS and not is_proper(word, False)
        if right_after or _looks_like_verb(word, i):
            if not subject:
                subject = " ".join(tokens[:i]).lower()
                if not subject or len(subject.split()) > 4:
                    return None
            verb, past = base_form(word)
            rest = tokens[i + 1:]
            if verb == "be" or not rest:
                return None  # "Simon is a nurse": a copula makes no useful what-question here
            return _Clause(subject, verb, past, rest)
    return None


def _topic(words: list[str]) -> str:
    content = [w for w in words if w.lower() not in STOP_WORDS and len(w) > 2]
    return " ".join(content[:3])


def questions(content: str, limit: int) -> list[str]:
    """Up to `limit` distinct questions the content answers (possibly none)."""
    speaker_match = _SPEAKER.match(content)
    speaker = speaker_match.group(1) if speaker_match else None
    body = content[speaker_match.end():] if speaker_match else content
    out: list[str] = []
    for sentence in sentences(body)[:4]:
        if sentence.endswith("?"):
            continue
        clause = _clause(sentence, speaker)
        if clause is None:
            continue
        s, v, aux, rest = clause.subject, clause.verb, clause.aux, " ".join(clause.rest)
        if not v:  # an instruction: ask for its action, up to the first preposition
            action = [clause.rest[0].lower()]
            for word in clause.rest[1:]:
                if word.lower() in _PREPOSITIONS | {"before", "after", "when", "if"}:
                    break
                action.append(word)
            out.append(f"How do I {' '.join(action)}?")
            continue
        lead = clause.rest[0].lower()
        if lead == "to" and len(clause.rest) > 1:
            out.append(f"What {aux} {s} {v} to {clause.rest[1].lower()}?")
        elif lead in _PREPOSITIONS:
            out.append(f"What {aux} {s} {v} {lead}?")
        else:
            out.append(f"What {aux} {s} {v}?")
        if _TIME.search(sentence):
            before_time = _TIME.split(rest, maxsplit=1)[0].split()
            while before_time and before_time[-1].lower() in _PREPOSITIONS | {"last", "next", "on", "since"}:
                before_time.pop()
            out.append(f"When {aux} {s} {v} {' '.join(before_time)}?")
        place = _PLACE.search(sentence)
        if place and not _TIME.fullmatch(place.group(1)):
            out.append(f"Where {aux} {s} {v}?")
        count = _COUNT.search(sentence)
        if count and count.group(2).lower() not in STOP_WORDS:
            out.append(f"How many {count.group(2)} {aux} {s} {v}?")
        if _REASON.search(sentence):
            out.append(f"Why {aux} {s} {v} {rest}?")
        topic = _topic(clause.rest)
        if topic:
            out.append(f"What {aux} {s} say about {topic}?")
    cleaned = [re.sub(r"\s+", " ", q).replace(" ?", "?") for q in out]
    return list(dict.fromkeys(cleaned))[:limit]
