"""Names in text, without a model: sentence splitting, proper-noun spans and entity triples.

Shared by the inline entity linker (at write time) and the offline `rules` provider (extraction).
A proper noun is a capitalized word that is not a stop word, or a word with inner capitals or
mixed letters and digits (PostgreSQL, iOS, qwen3) wherever it stands; at the start of a sentence,
where everything is capitalized, common sentence starters ("Run", "Maybe", "Hey", "Wow") are not
names. Calendar words (weekdays, months) are times, not entities. A leading "Name: " label (a
speaker, a role) is a name of its own and the text after it starts afresh, so "Caroline: Hey
Mel!" names Caroline, not "Caroline Hey Mel".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from signet_pipeline.text.fts_query import STOP_WORDS

# A period ends a sentence only before a capital or digit ("e.g. this" goes on); ! and ? end one
# before anything (chat writes "again?? living the life" in lower case).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|(?<=[!?])\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d+[.)])\s+")
WORD = re.compile(r"[A-Za-z0-9][\w'\u2019.+#-]*[\w+#]|[A-Za-z0-9]")
_WS = re.compile(r"\s+")

SENTENCE_STARTERS = frozenset("""
run use install call set add open restart deploy remember note please maybe also then now today yesterday
tomorrow currently recently finally however always never sometimes usually make check try keep avoid
everyone someone nobody yes sure
hey hi hello wow oh omg thanks thank haha hahaha lol yeah yep nope okay ok congrats congratulations sounds
glad good great awesome nice cool totally definitely absolutely honestly anyway well aww ugh hmm sorry
exactly true right love wish hope guess oops yay welcome bye cheers agreed indeed
""".split())
CALENDAR_WORDS = frozenset("""
monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
saturdays sundays january february march april may june july august september october november december
morning afternoon evening night
""".split())
# "Can't", "I'll", "We've", "Don't": a contraction is never a name (they led the mentions on real turns).
_CONTRACTION = re.compile(r"[a-z]['\u2019](?:t|ll|ve|re|d|m)$", re.IGNORECASE)
# "Harbor's": the name is "Harbor" (the possessive is grammar, not part of it).
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
# Words that make a weekday a named day: "Black Friday" names no entity "Black" (a weekday is no name).
_DAY_NAME_WORDS = frozenset("black cyber good ash palm easter holy shrove maundy giving super".split())
# Closed-class words the search's stop list keeps (they carry meaning there) but that never name anything.
_NEVER_NAMES = frozenset("every last next still mine yours ours theirs hers many much several either neither another "
                         "whose lots somebody anybody everybody nobody someone anyone everyone something anything "
                         "everything nothing".split())
# A name opening a sentence is followed by its verb, or by a comma and what it is ("Omar, my big brother,
# ..."). The first word is not a name when followed directly by an object ("Take lots of photos", "Grab
# me the address": a verb), or set off by other punctuation ("Wait, really?", "Mood, honestly.", "Lovely.",
# "Noted.": an interjection or a one-word reply). On the raw sentence: the tokens drop the punctuation.
_OBJECTS = frozenset("me it him her them us you the a an my your his their our this that these those some lots".split())
_OPENER_VERB = re.compile(r"^\W*[A-Za-z][\w'\u2019-]*\s+(?:{})\b".format("|".join(sorted(_OBJECTS))), re.IGNORECASE)
_OPENER_ALONE = re.compile(r"^\W*[A-Za-z][\w'\u2019-]*\s*(?:[.!?;:\u2026]"
                           r"|,(?!\s*(?:my|your|his|her|our|their|the|a|an)\b))",
                           re.IGNORECASE)
_LABEL = re.compile(r"^\s*([A-Z][\w'\u2019.-]*(?: [A-Z][\w'\u2019.-]*){0,3}):\s+(?=\S)")

MIN_ENTITY_NAME = 4  # spec: shorter canonical names are rejected (initials, "AI", "Bob": too ambiguous)
# A "Name: " label is a name by where it stands, whatever its length: "Jon: I moved" is about Jon. Role
# labels are labels but not people.
MIN_SPEAKER_NAME = 2
_ROLE_LABELS = frozenset({"user", "human", "assistant", "system", "agent", "model", "bot", "ai"})
# The headings of notes and mail are no labels at all ("Decision: we use Postgres", "PS: ...", "Re: ...").
_HEADINGS = frozenset("""
re fw fwd cc bcc ps nb dr mr mrs ms note notes update updates summary todo status context decision decisions
answer question goal goals problem issue bug error fix solution result results reason example warning
important tip hint plan next done action outcome background conclusion subject title topic date time location
source reference owner priority
""".split())
MAX_RELATION_WORDS = 5
_RELATION_EDGE_WORDS = frozenset({"the", "a", "an", "and", "but", "or", "so"})


def sentences(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text):
        part = _BULLET.sub("", part or "").strip()
        if part:
            out.append(part)
    return out


def canonical_name(name: str) -> str:
    """Lowercased, whitespace-normalized (the entity's dedup key)."""
    return _WS.sub(" ", name).strip().lower()


def is_proper(word: str, first: bool) -> bool:
    lower = word.lower()
    if lower in STOP_WORDS or lower in CALENDAR_WORDS or lower in _NEVER_NAMES or word == "I" \
            or _CONTRACTION.search(word):
        return False
    if any(c.isupper() for c in word[1:]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)):
        return True
    return word[0].isupper() and not (first and lower in SENTENCE_STARTERS)


@dataclass(frozen=True)
class Span:
    start: int  # token range [start, end)
    end: int
    text: str


def tokens(text: str) -> list[str]:
    """The words of a text, possessives cut ("Harbor's" -> "Harbor")."""
    return [_POSSESSIVE.sub("", w) for w in WORD.findall(text)]


def sentence_spans(text: str) -> tuple[list[str], list[Span]]:
    """The words of one sentence and its proper-noun spans, an opening verb or interjection left out."""
    words = tokens(text)
    spans = proper_spans(words)
    if spans and spans[0].start == 0 and spans[0].end == 1 and (_OPENER_ALONE.match(text) or _OPENER_VERB.match(text)):
        spans = spans[1:]
    return words, spans


# A finite verb right after a sentence's first word makes that word its subject ("Gerald went",
# "Stefan says", "Marta and I"), as an apposition makes it a name ("Astrid, my sister, ...");
# "Talk soon", "Lovely talking", "Take care" have neither.
_SUBJECT_OF = re.compile(r"^\W*[\w-]+(?:['\u2019]s\s+(?!own\b)[a-z]+ing\b"
                         r"|['\u2019]s\s+(?:been|got|just|also|still|not)\b"
                         r"|\s+(?:(?:still|also|just|never|already|really|finally|always|even|only)\s+)?"
                         r"(?:is|was|has|hasn['\u2019]t|had|does|did|says|said|and|[a-z]+ed|[a-z]+[^s\W]s|went|got|gets|"
                         r"came|comes|made|makes|took|takes|told|tells|sent|left|gave|gives|thought|thinks|found|"
                         r"felt|feels|kept|brought|bought|met|won|lost|wrote|saw|knew|knows|heard|wants|needs|"
                         r"loves|likes|seems|looks|lives|works|will|would|can|could|should|might|must)\b"
                         r"|\s*,\s*(?:my|your|his|her|our|their|the|a|an)\b)")


def opening_name(sentence: str) -> str | None:
    """The one-word name a sentence (its label aside) starts with when nothing but its place says it
    is one: the place where a capitalised ordinary word ("Talk soon!", "Lovely talking") looks like a
    name. None when the sentence starts otherwise, a finite verb or an apposition follows the word, or
    the sentence names it again."""
    rest = split_label(sentence)[1]
    spans = sentence_spans(rest)[1]
    if not spans or spans[0].start != 0 or spans[0].end != 1 or _SUBJECT_OF.match(rest):
        return None
    if any(span.text == spans[0].text for span in spans[1:]):
        return None  # named again inside the sentence, where its capital means a name
    return spans[0].text


def proper_spans(tokens: list[str]) -> list[Span]:
    """Runs of consecutive proper-noun tokens, but the first half of a named day ("Black Friday")."""
    spans: list[Span] = []
    i = 0
    while i < len(tokens):
        if is_proper(tokens[i], i == 0):
            j = i + 1
            while j < len(tokens) and is_proper(tokens[j], False):
                j += 1
            if not _named_day(tokens[j - 1], tokens[j] if j < len(tokens) else ""):
                spans.append(Span(i, j, " ".join(tokens[i:j])))
            i = j
        else:
            i += 1
    return spans


def _named_day(word: str, following: str) -> bool:
    return word.lower() in _DAY_NAME_WORDS and following[:1].isupper() and following.lower() in CALENDAR_WORDS


def split_label(sentence: str) -> tuple[str | None, str]:
    """("Name", the rest) for a sentence that starts with a "Name: " label; (None, the rest) after a
    heading ("Note: ...", "Decision: Python ..." is no speaker, and "Decision" no part of a name); else
    (None, sentence)."""
    m = _LABEL.match(sentence)
    if m and canonical_name(m.group(1)) in _HEADINGS:
        return None, sentence[m.end():]
    if not m or not all(is_proper(w, i == 0) for i, w in enumerate(m.group(1).split())):
        return None, sentence
    return m.group(1), sentence[m.end():]


FIRST_PERSON = re.compile(r"\b(I|I'm|I've|I'll|I'd|me|my|mine|myself|we|we're|we've|our|ours|us)\b", re.IGNORECASE)


def is_short_name(word: str) -> bool:
    """A word under an entity name's minimum written as a given name is ("Jon", "Li"; not "PS", "OK", "AI")."""
    return MIN_SPEAKER_NAME <= len(word) < MIN_ENTITY_NAME and word.isalpha() and word.istitle()


def is_speaker_name(label: str) -> bool:
    """Whether a "Name: " label names a person: not a role, and a short one written as a name."""
    canonical = canonical_name(label)
    if canonical in _ROLE_LABELS:
        return False
    return len(canonical) >= MIN_ENTITY_NAME or is_short_name(label)


def names(sentence: str, speaker: str | None = None, known: Callable[[str], bool] | None = None) -> list[str]:
    """Proper-noun names in a sentence that can be entities (first occurrence order). The speaker — a
    "Name: " label of the sentence, or `speaker` (the label of the text it came from) — is one when
    the sentence talks about them ("Ana: I moved to Porto" is about Ana; "Ana: Wow, nice!" is about
    nothing), whatever the name's length (a short one written as a name: "Jon:", not "PS:"). Other names
    shorter than MIN_ENTITY_NAME only when written as a name and `known(canonical name)` says the agent has
    met them (as a speaker: "Marek: I ran into Ana")."""
    label, rest = split_label(sentence)
    label = label or speaker
    spoken = label if label and FIRST_PERSON.search(rest) else None
    found = ([spoken] if spoken else []) + [s.text for s in sentence_spans(rest)[1]]

    def kept(name: str) -> bool:
        canonical = canonical_name(name)
        if canonical in _ROLE_LABELS:  # "User prefers dark mode": a role of the conversation, not someone
            return False
        return len(canonical) >= MIN_ENTITY_NAME or (name == spoken and is_speaker_name(name)) \
            or (known is not None and is_short_name(name) and known(canonical))

    return list(dict.fromkeys(n for n in found if kept(n)))


def triples(sentence: str) -> list[tuple[str, str, str]]:
    """(proper-noun span, short lowercase verb phrase, proper-noun span) within one sentence."""
    words, spans = sentence_spans(split_label(sentence)[1])
    found = []
    for a, b in zip(spans, spans[1:]):
        gap = words[a.end:b.start]
        while gap and gap[0].lower() in _RELATION_EDGE_WORDS:
            gap.pop(0)
        while gap and gap[-1].lower() in _RELATION_EDGE_WORDS:
            gap.pop()
        if not 1 <= len(gap) <= MAX_RELATION_WORDS or not all(w.islower() for w in gap):
            continue
        if all(w in STOP_WORDS for w in gap):
            continue  # "for", "in": a preposition alone is not a relationship
        found.append((a.text, " ".join(gap), b.text))
    return found
