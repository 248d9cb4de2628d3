"""How a line ends up looking in the chat: short reactions, rambling padding around a
statement, texting typos, lowercase and emoji, each at the speaker's own rate. None of it
changes a fact: typos only touch common words, never names or places."""

from __future__ import annotations

import random
import re

from evalsets.convgen.model import Style

STYLES: tuple[Style, ...] = (
    Style(lower=0.02, emoji=0.05, typo=0.0, ramble=0.8),   # writes in full sentences
    Style(lower=0.5, emoji=0.2, typo=0.1, ramble=0.65),    # casual
    Style(lower=0.9, emoji=0.3, typo=0.25, ramble=0.45),    # fast texter
    Style(lower=0.3, emoji=0.4, typo=0.05, ramble=0.6),    # emoji person
)

REACTIONS = {
    "good": ("omg congrats!!", "yesss", "that's amazing", "wait that's huge", "so happy for you", "love this",
             "ahh finally!", "haha yes"),
    "bad": ("oh no", "noooo", "ugh I'm sorry", "that's awful", "oof", "sending hugs", "wait are you ok??"),
    "wow": ("omg no way", "WHAT", "wait what", "no wayyy", "stop it", "you're kidding", "huh! didn't see that coming"),
    "meh": ("haha", "lol", "fair", "true", "mm yeah", "ha classic", "makes sense", "same honestly", "ok ok"),
}

LEADS = ("Okay so, update.", "Sorry, I've been meaning to tell you this all week.", "Honestly it's been a strange few days.",
         "So much has happened since we last talked.", "Right, where do I even start.", "You're going to laugh.",
         "I was literally just thinking about you.", "Work has been nonstop but anyway.", "Quick life update.",
         "Not sure if I told you this already.", "Brace yourself.", "This week has been a rollercoaster.",
         "I meant to text you on the weekend.", "Okay, story time.", "Before I forget.", "Random, but.")
TAILS = ("Anyway, that's my news.", "I still can't quite believe it.", "I'll tell you more next time.",
         "It's a whole saga, honestly.", "My mom already has opinions about it, obviously.",
         "Not how I pictured this month going.", "I keep telling everyone at work about it.",
         "We'll see how it goes I guess.", "Life is weird like that.", "That's where things are.",
         "Tell me I'm not crazy.", "It's been on my mind since.",
         "The group chat has already been informed.", "Anyway, how's your day been?", "More soon, I promise.",
         "I'm trying to be calm about it.", "Classic me.", "It still feels a bit unreal.",
         "Sorry, that was a lot of text.")
MIDDLES = ("I know, I know.", "It sounds silly when I say it out loud.", "Don't laugh.", "Long story.",
           "I had to sit down for a second.", "Which is very me.", "Yes, really.",
           "I didn't plan any of this.", "You know how it is.")

TYPOS = (("definitely", "definately", 1.0), ("really", "rly", 0.8), ("because", "bc", 1.0), ("you", "u", 0.8),
         ("though", "tho", 1.0), ("tomorrow", "tmrw", 1.0), ("probably", "prob", 1.0), ("something", "smth", 0.8),
         ("people", "ppl", 0.8), ("about", "abt", 0.6), ("going to", "gonna", 1.0), ("want to", "wanna", 1.0),
         ("tonight", "tonite", 0.6), ("thanks", "thx", 0.8), ("with", "w", 0.3), ("weird", "wierd", 1.0),
         ("the", "teh", 0.1), ("receive", "recieve", 1.0), ("until", "untill", 0.6), ("honestly", "honestyl", 0.4),
         ("just", "jsut", 0.15), ("and", "adn", 0.05))

EMOJI = ("😂", "😭", "😅", "🙃", "👀", "🥲", "✨", "💀", "😬", "🫠")


def articles(text: str) -> str:
    """'a accountant' -> 'an accountant' (templates fill in nouns; 'u' is left alone: 'a ukulele')."""
    return re.sub(r"\b([Aa]) (?=[aeioAEIO])", r"\1n ", text)


def reaction(rng: random.Random, mood: str) -> str:
    return rng.choice(REACTIONS[mood])


def ramble(rng: random.Random, text: str, reply: bool = False) -> str:
    """Pad a statement into 3-6 sentences; a reply to a question starts with its answer."""
    parts = [text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")]
    if not reply and rng.random() < 0.6:
        parts.insert(0, rng.choice(LEADS))
    if rng.random() < 0.4:
        parts.append(rng.choice(MIDDLES))
    tails = rng.sample(TAILS, rng.randint(1, 2))
    parts.extend(tails[:1] if tails[-1].split()[0] == tails[0].split()[0] else tails)
    return " ".join(parts)


def dress(rng: random.Random, text: str, style: Style, long: bool, reply: bool = False) -> str:
    """The line as this speaker would type it (`reply`: it answers the line before)."""
    text = articles(text)
    if long and not text.endswith("?") and rng.random() < style.ramble:
        text = ramble(rng, text, reply)
    for word, typo, weight in TYPOS:
        pattern = rf"\b{word}\b"
        if re.search(pattern, text) and rng.random() < style.typo * weight:
            text = re.sub(pattern, typo, text, count=1)
    if rng.random() < style.lower:
        text = text.lower()
        if text.endswith(".") and not text.endswith(".."):
            text = text[:-1]
    if rng.random() < style.emoji:
        text = f"{text} {rng.choice(EMOJI)}"
    return text
