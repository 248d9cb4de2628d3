"""A yes/no question about one named person ("Would Ana likely enjoy a pottery class?") is also asked
as that person's own statement ("Ana: I enjoy a pottery class."). What answers an inference about a
person is what they said of themselves, remembered in the first person under their name ("Ana: I've
been throwing pots every Saturday"), and it shares few words with the question; the statement, in the
form such a memory takes, is closer to it than the question is. recall/search.py scores the
statement's candidates as it scores a half's (recall/halves.py) and a memory keeps its best score, if
it is what someone says of themselves: in the first person, not asking. Under a name, a short turn's
vector is mostly the name: "Ana: hiii how's your week going" is close to any "Ana: I ..." and says
nothing of her; nor does a question she asks, nor a fact the pipeline wrote of her in the third person
(its turn, in her words, may take the score).

Only a question led by an auxiliary whose subject is a name (text/entities.py `is_proper`): hedges and
hypothetical modals leave ("would", "likely": a statement asserts), "can" stays (an ability), "is"
becomes "am", the person's pronouns and possessive the first person. Not an alternative question ("Is Ana
a saver or a spender?": nobody says "I am a saver or a spender", and the whole question already holds
both), nor one about something of theirs ("Does Ana's dog ...": not her statement), nor one about two
("Would Ana and Ben ..."). A name is a capitalised word, not known to be a person: "Does Postgres support
JSON?" becomes "Postgres: I support JSON.", which costs a recall and can lift only first-person memories."""

from __future__ import annotations

from signet_pipeline.text.attribution import speaks_in_first_person
from signet_pipeline.text.content import asks
from signet_pipeline.text.entities import is_proper

MAX_QUESTION = 300  # characters: a yes/no question about a person is a sentence, not a prompt
_AUXILIARIES = {"would": "", "could": "", "might": "", "will": "", "should": "", "does": "", "do": "",
                "can": "can", "is": "am"}
_HEDGES = frozenset("likely probably possibly perhaps really".split())
# The person's pronouns become the first person; one that means someone else only blurs the vector a little.
_FIRST_PERSON = {"he": "I", "she": "I", "they": "I", "him": "me", "them": "me", "his": "my", "her": "my",
                 "their": "my", "himself": "myself", "herself": "myself", "themselves": "myself"}
_JOINERS = frozenset({"and", "&"})  # "or" anywhere: no statement
_APOSTROPHES = ("'", "’")


def as_statement(query: str) -> str | None:
    """The question as its subject's own first-person statement; None when it is not a yes/no question
    about one named person."""
    text = query.strip()
    if len(text) > MAX_QUESTION or not text.endswith("?"):
        return None
    aux, *words = text.rstrip("?").split() or [""]
    if aux.lower() not in _AUXILIARIES or any(w.lower() == "or" for w in words):
        return None
    name: list[str] = []
    while words and _name_word(words[0]):
        name.append(words.pop(0))
    if not name or not words or words[0].lower() in _JOINERS:  # "Would Ana and Ben ...": not one person
        return None
    person, aux = " ".join(name), _AUXILIARIES[aux.lower()]
    lowered = [w.lower() for w in words]
    # "Would Ana be likely to go", "Is Ana likely to go" -> "I go"; "Is Ana to blame" keeps its "to".
    lead = 1 if not aux and lowered[0] == "be" else 0
    if (lead or aux == "am") and len(lowered) > lead + 1 and lowered[lead] in _HEDGES and lowered[lead + 1] == "to":
        aux, words = "", words[lead + 2:]
    words = [w for w in words if w.lower() not in _HEDGES]
    if not aux and words and words[0].lower() == "be":  # "Would Ana be interested" -> "I am interested"
        words[0] = "am"
    own = {f"{person}{mark}".lower() for mark in ("'s", "’s", *_APOSTROPHES)}
    said = [_FIRST_PERSON.get(w.lower(), "my" if w.lower() in own else w) for w in words]
    return f"{person}: I {' '.join([aux, *said]) if aux else ' '.join(said)}." if said else None


def _name_word(word: str) -> bool:
    """A word of the subject's name: proper, not a possessive ("Ana's", "James'"), nor set off by a comma."""
    return is_proper(word, False) and word[-1].isalnum() and word.lower() not in _HEDGES \
        and not word.lower().endswith(("'s", "’s"))


def says_of_oneself(content: str) -> bool:
    """The memory speaks in the first person and does not ask: what a statement's score may lift."""
    return speaks_in_first_person(content) and not asks(content)
