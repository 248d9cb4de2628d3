"""The people who talk: a culturally mixed name pool, pronouns, and a speaking voice per person."""

from __future__ import annotations

import random
from dataclasses import dataclass

# (name, gender) — gender only picks pronouns; "n" speakers are referred to as they/their.
NAMES: list[tuple[str, str]] = [
    ("Amara", "f"), ("Tomas", "m"), ("Priya", "f"), ("Kenji", "m"), ("Leila", "f"), ("Mateo", "m"),
    ("Ngozi", "f"), ("Sven", "m"), ("Aiyana", "f"), ("Dmitri", "m"), ("Fatima", "f"), ("Hiroshi", "m"),
    ("Ingrid", "f"), ("Jamal", "m"), ("Kalani", "n"), ("Lucia", "f"), ("Mei", "f"), ("Nikolai", "m"),
    ("Oluwaseun", "m"), ("Paloma", "f"), ("Rahul", "m"), ("Saoirse", "f"), ("Tariq", "m"), ("Uma", "f"),
    ("Valentina", "f"), ("Wei", "m"), ("Ximena", "f"), ("Yusuf", "m"), ("Zanele", "f"), ("Anders", "m"),
    ("Bongani", "m"), ("Chiara", "f"), ("Dario", "m"), ("Esra", "f"), ("Farid", "m"), ("Gita", "f"),
    ("Hamza", "m"), ("Isabela", "f"), ("Jae-won", "m"), ("Kavya", "f"), ("Lars", "m"), ("Malia", "f"),
    ("Nasrin", "f"), ("Obinna", "m"), ("Pilar", "f"), ("Quang", "m"), ("Rosa", "f"), ("Santiago", "m"),
    ("Thandiwe", "f"), ("Umar", "m"), ("Vikram", "m"), ("Wanjiru", "f"), ("Yara", "f"), ("Zeynep", "f"),
    ("Aleksander", "m"), ("Carmen", "f"), ("Desmond", "m"), ("Elif", "f"), ("Femi", "m"), ("Greta", "f"),
    ("Hana", "f"), ("Idris", "m"), ("Joaquin", "m"), ("Kwame", "m"), ("Liesel", "f"), ("Marisol", "f"),
    ("Nadia", "f"), ("Oskar", "m"), ("Pania", "f"), ("Rangi", "m"), ("Sakura", "f"), ("Teodor", "m"),
    ("Yaw", "m"), ("Zainab", "f"), ("Noa", "n"), ("Aroha", "f"), ("Emeka", "m"), ("Svetlana", "f"),
    ("Mariam", "f"), ("Arjun", "m"), ("Soo-ah", "f"), ("Kai", "n"), ("Lior", "n"), ("Nils", "m"),
    ("Chidi", "m"), ("Ines", "f"), ("Rafael", "m"), ("Leilani", "f"), ("Bilal", "m"), ("Astrid", "f"),
    ("Rowan", "n"), ("Sami", "n"), ("Tevita", "m"), ("Ayesha", "f"), ("Matthias", "m"), ("Folake", "f"),
]

PRONOUNS = {"f": ("she", "her", "her"), "m": ("he", "him", "his"), "n": ("they", "them", "their")}


@dataclass(frozen=True)
class Voice:
    """How someone types: lead-ins before news, tails after it, and whether they skip capitals."""
    leads: tuple[str, ...]
    tails: tuple[str, ...]
    lowercase: bool = False


VOICES: dict[str, Voice] = {
    "bubbly": Voice(("Omg", "Okay so", "Guess what,", "Oh my gosh,", "Eek,"),
                    ("So excited about it!", "Honestly the best!", "I can't stop smiling about it.")),
    "dry": Voice(("Well,", "So,", "Right, so", "For the record,", "Small update:"),
                 ("Make of that what you will.", "Not bad, all things considered.", "Could be worse, really.")),
    "warm": Voice(("Oh,", "You know what,", "Funny thing,", "Oh, by the way,"),
                  ("It made my week, honestly.", "It felt really good.", "I'll tell you more next time.")),
    "chill": Voice(("ngl", "tbh", "so yeah", "lol okay", "fun fact,"),
                   ("pretty chill overall", "anyway yeah", "so that's a thing now lol"), lowercase=True),
    "chatty": Voice(("Oh, before I forget,", "Okay, random update:", "Also!", "Right, so get this:"),
                    ("Anyway, I could talk about this forever.", "Sorry, I'm rambling again.",
                     "Remind me to tell you the rest later.")),
}


@dataclass(frozen=True)
class Person:
    name: str
    gender: str
    voice: str

    @property
    def subj(self) -> str:
        return PRONOUNS[self.gender][0]

    @property
    def obj(self) -> str:
        return PRONOUNS[self.gender][1]

    @property
    def pos(self) -> str:
        return PRONOUNS[self.gender][2]


def pick_pair(rng: random.Random, used: set[str]) -> tuple[Person, Person]:
    """Two speakers with different voices; names are not reused across conversations of one set."""
    pool = [n for n in NAMES if n[0] not in used] or NAMES
    (na, ga), (nb, gb) = rng.sample(pool, 2)
    va, vb = rng.sample(sorted(VOICES), 2)
    used.update((na, nb))
    return Person(na, ga, va), Person(nb, gb, vb)


def pick_other_names(rng: random.Random, exclude: set[str], k: int) -> list[tuple[str, str]]:
    """Names for third people (relatives, friends) that never collide with the speakers."""
    return rng.sample([n for n in NAMES if n[0] not in exclude], k)
