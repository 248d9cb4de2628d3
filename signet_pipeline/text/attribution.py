"""Making a sentence stand on its own: who "I" is and when "yesterday" was.

A conversation turn ("Caroline: I went to a support group yesterday.") read alone loses its
speaker and its time. `third_person` puts the speaker where the first person was ("Caroline went
to a support group yesterday."); `with_dates` adds the absolute date after a relative time
expression, resolved against when the memory was written ("... yesterday (7 May 2023)."). Rules,
not a parser: common verbs get their third-person form, the rest keep theirs.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from signet_pipeline.text.entities import is_proper

_IRREGULAR = {"am": "is", "'m": " is", "have": "has", "'ve": " has", "do": "does", "don't": "doesn't",
              "go": "goes", "was": "was", "were": "was"}
# Present-tense verbs common in conversation, which after a third-person subject take -s.
_VERBS = frozenset("""
love like enjoy hate want need think feel live work play make take get know see hope plan try keep
start teach study run cook paint read write sing dance swim walk visit own use prefer believe miss remember
collect volunteer practice attend spend travel grow speak wish mean find bake draw build call
laugh cry eat drink watch listen look wait sleep wake text talk say tell ask help buy sell pay move stay
drive ride fly climb hike knit sew train lift learn forget guess wonder worry care mind agree admit
reckon suppose doubt trust bring carry send check fix clean wash change join quit leave stop finish win
lose pick choose decide wear catch follow meet host organise organize coach manage record post film edit
sketch design code track jog cycle surf ski skate garden shop save owe fancy adore
""".split())
_CONTRACTIONS = {"i'm": "is", "i've": "has", "i'll": "will", "i'd": "would"}
# "I'd" is "I had" before these ("I'd better", "I'd been"); "I would" otherwise.
_HAD = frozenset("better been had gotten forgotten".split())
# Adverbs that may stand between "I" and its verb ("I still laugh about it").
_ADVERBS = ("still|also|really|just|always|never|usually|often|sometimes|actually|finally|even|genuinely|"
            "honestly|totally|literally|definitely|mostly|only|now|rarely|hardly")
_PRONOUNS = "I['’]m|I['’]ve|I['’]ll|I['’]d|I|me|myself|my|mine"  # chat apps often type ’ for '
# The pronoun, then the word after it (past any adverb), unless that word is a pronoun too ("tell me I'm").
_FIRST = re.compile(rf"\b({_PRONOUNS})\b(\s+((?:(?:{_ADVERBS})\s+)*)(?!(?:{_PRONOUNS})\b)(\w+))?", re.IGNORECASE)
# "I" keeps its verb after a question's auxiliary ("should I get ...") and in a plural subject ("Tom and I
# watch", "my wife and I have").
_AUXILIARIES = frozenset("should shall could would can will do did does may might must".split())
_DETERMINERS = frozenset("my our his her their the".split())
_PUNCTUATION = ",;:.!?\"'()“”‘’…"


def _third(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower not in _VERBS:
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person(sentence: str, speaker: str) -> str:
    """`sentence` with its singular first person replaced by `speaker`."""
    def swap(m: re.Match[str]) -> str:
        word, rest, next_word = m.group(1), m.group(2) or "", m.group(4)
        lower = word.lower().replace("’", "'")
        if lower == "i'd" and next_word and next_word.lower() in _HAD:
            return f"{speaker} had{rest}"
        if lower in _CONTRACTIONS:
            return f"{speaker} {_CONTRACTIONS[lower]}{rest}"
        if lower == "i":
            if not next_word or _keeps_verb(sentence[:m.start()]):
                return f"{speaker}{rest}"
            return f"{speaker}{rest[:-len(next_word)]}{_third(next_word)}"
        if lower in ("me", "myself"):
            return f"{speaker}{rest}"
        return f"{speaker}'s{rest}"  # my, mine
    return _FIRST.sub(swap, sentence)


def _keeps_verb(before: str) -> bool:
    """`before` (the text before an "I") ends on an auxiliary, or on "<name> and " or "<my wife> and ".
    Only its last three words are read: patterns anchored at its end rescanned it per "I" (seconds for
    a long turn)."""
    *_, prior, word, last = ["", "", "", *before.rsplit(None, 3)]
    if last.strip(_PUNCTUATION).lower() in _AUXILIARIES:
        return True
    if last != "and" or not word:
        return False
    word = word.strip(",;:")
    return is_proper(word, not prior or prior.endswith((".", "!", "?"))) or prior.lower() in _DETERMINERS


def speaks_in_first_person(sentence: str) -> bool:
    return bool(_FIRST.search(sentence))


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3}
_RELATIVE = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|this morning|last night|"
    r"(last|next) (week|weekend|month|year|" + "|".join(_DAYS) + r")|"
    r"(\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten) (day|week|month|year)s? ago)\b",
    re.IGNORECASE)


def _day(d: date) -> str:
    return f"{d.day} {d.strftime('%B')} {d.year}"


def _month(d: date) -> str:
    return f"{d.strftime('%B')} {d.year}"


def _resolve(expr: str, at: date) -> str | None:
    e = expr.lower()
    if e in ("yesterday", "last night"):
        return _day(at - timedelta(days=1))
    if e in ("today", "tonight", "this morning"):
        return _day(at)
    if e == "tomorrow":
        return _day(at + timedelta(days=1))
    parts = e.split()
    if parts[0] in ("last", "next"):
        sign = -1 if parts[0] == "last" else 1
        unit = parts[1]
        if unit in _DAYS:
            delta = (at.weekday() - _DAYS.index(unit)) % 7 or 7
            return _day(at - timedelta(days=delta) if sign < 0 else at + timedelta(days=(7 - delta) % 7 or 7))
        if unit in ("week", "weekend"):
            return f"the {unit} {'before' if sign < 0 else 'after'} {_day(at)}"
        if unit == "month":
            first = at.replace(day=1)
            month = (first - timedelta(days=1)) if sign < 0 else (first + timedelta(days=32))
            return _month(month)
        if unit == "year":
            return str(at.year + sign)
    if parts[-1] == "ago":
        count = _NUMBERS.get(" ".join(parts[:-2]), None)
        count = count if count is not None else int(parts[0]) if parts[0].isdigit() else None
        if count is None:
            return None
        unit = parts[-2].rstrip("s")
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit] * count
        when = at - timedelta(days=days)
        return _day(when) if unit in ("day", "week") else _month(when) if unit == "month" else str(when.year)
    return None


def with_dates(sentence: str, at: datetime | None) -> str:
    """`sentence` with the absolute date after each relative time expression it holds."""
    if at is None:
        return sentence

    def add(m: re.Match[str]) -> str:
        resolved = _resolve(m.group(0), at.date())
        return f"{m.group(0)} ({resolved})" if resolved else m.group(0)
    return _RELATIVE.sub(add, sentence)
