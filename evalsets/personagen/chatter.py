"""Small talk: greetings, fillers, little question-and-answer exchanges and goodbyes, put together
from parts so that few turns repeat. None of it states a fact about anyone's life that a question
asks about."""

from __future__ import annotations

import random

from .reactions import ASIDES, EXCLAIM, GENERIC_COMMENT, GENERIC_FOLLOW, TAILS, TOPICS
from .timeline import WEEKDAYS

SLOTS = {
    "weather": ["absolutely miserable", "weirdly warm for the time of year", "grey and drizzly",
                "windy enough to flip umbrellas inside out", "bright but freezing", "muggy and thundery",
                "foggy every single morning", "glorious, for once", "wet and blustery"],
    "indoor": ["hiding indoors with endless cups of tea", "catching up on laundry and podcasts",
               "reorganising the kitchen cupboards for no real reason", "napping more than I'd like to admit",
               "trying to keep my houseplants alive", "rewatching old sitcoms under a blanket"],
    "show": ["The Lantern Keepers", "Salt and Static", "Midnight Auction", "The Borrowed Summer", "Paper Crowns",
             "The Lighthouse Accounts", "Deep Field", "Marlow Street", "The Orchard House", "Static Bloom"],
    "day": WEEKDAYS,
    "food": ["a big pot of vegetable soup", "a slightly burnt spinach lasagne", "cheese toasties",
             "a chickpea curry", "a stack of pancakes", "a lemony pasta", "a tray of roasted vegetables"],
    "drink": ["strong coffee", "green tea", "oat lattes", "instant coffee", "fizzy water"],
    "noise": ["drilling", "hammering", "someone practising piano scales", "a very loud tile cutter"],
    "podcast": ["ancient shipwrecks", "unsolved art heists", "the history of spices", "how bridges are built",
                "weird deep-sea creatures", "the origins of everyday words"],
    "chore": ["sorting out my wardrobe", "fixing the dripping tap", "defrosting the freezer", "cleaning the oven",
              "doing my tax return", "repotting my plants", "untangling every cable in the flat"],
    "sport": ["the football", "the tennis final", "the rugby", "the cycling"],
}

FILLERS = [
    "The weather here has been {weather} all week, so I've mostly been {indoor}.",
    "Have you watched {show} yet? I started it on {day} and somehow got through six episodes in one sitting.",
    "I made {food} for dinner last night and it turned out way better than expected, even the leftovers were good.",
    "I've been sleeping terribly lately, so I'm basically running on {drink} and good intentions at this point.",
    "The flat above mine is being renovated, so every morning now comes with a soundtrack of {noise}.",
    "I got hooked on a podcast about {podcast}, and now I bore everyone with facts nobody asked for.",
    "I spent most of {day} {chore}, which was deeply unglamorous but weirdly satisfying.",
    "A new bakery opened round the corner, and I'm trying very hard not to go there every single day.",
    "They've been digging up the road outside my window for weeks, and nobody seems to know why.",
    "I accidentally left my phone at home on {day} and it was honestly the most relaxing day I've had in ages.",
    "My houseplants are having a moment, the big one by the window put out three new leaves this week.",
    "I finally cleared out the junk drawer and found about forty rubber bands and a key I don't recognise.",
    "There was a power cut in our street on {day} night, so I ate {food} by candlelight like a Victorian ghost.",
    "I tried a new coffee place on {day}, and the barista drew a slightly alarming face in my latte.",
    "I keep meaning to drink more water, but mostly I forget and then gulp a whole litre at bedtime.",
    "Someone on my street leaves free books and plants on a little table outside, and it's made my week.",
    "I watched {sport} on {day} and shouted at the screen far more than I'd like to admit.",
    "My laptop decided to install updates right before an important call, so that was twenty minutes of panic.",
    "I've been trying to cook without recipes, which mostly means eating a lot of slightly strange soups.",
    "I finally finished {show}, and now I feel a bit lost without it, like I've said goodbye to friends.",
    "I spent {day} evening {chore} with a podcast about {podcast} on in the background, peak excitement.",
    "The supermarket moved everything around again, so I spent twenty minutes on {day} hunting for rice.",
]

# small-talk questions and the answers they can get
EXCHANGES = [
    ("Have you been watching anything good lately?",
     ["Mostly {show}, which I'm slightly embarrassed to say I've watched twice.",
      "Not really, I keep starting things and falling asleep twenty minutes in.",
      "I've been rewatching old favourites, new things feel like too much effort right now."]),
    ("Any plans for the weekend?",
     ["Not much, probably {chore} and a long walk if the weather behaves.",
      "Absolutely nothing, and I intend to protect that nothing with my life.",
      "A bit of {chore}, a bit of sofa, the usual glamorous stuff."]),
    ("How's the weather over your way?",
     ["Honestly {weather}, so I've mostly been {indoor}.",
      "It's been {weather}, which suits my mood surprisingly well.",
      "Changeable, I've needed sunglasses and an umbrella on the same walk."]),
    ("Are you sleeping any better these days?",
     ["Not really, I'm running on {drink} and stubbornness.",
      "A bit, I've banned my phone from the bedroom, which helps.",
      "Some nights, the neighbour's {noise} doesn't help."]),
    ("What did you have for dinner last night?",
     ["{food}, which was better than it had any right to be.",
      "Toast, if I'm honest, it was one of those days.",
      "Leftovers of leftovers, a proud tradition."]),
    ("Have you found any good podcasts recently?",
     ["There's a great one about {podcast}, I'll send you the link.",
      "I've been stuck on one about {podcast}, it's oddly gripping.",
      "Not lately, I keep going back to music instead."]),
    ("How's your week been otherwise?",
     ["Busy but fine, the usual mix of errands and emails.",
      "Pretty quiet, which I'm not complaining about.",
      "Long, I spent most of {day} {chore}."]),
    ("Did you catch {sport} at the weekend?",
     ["I did, and I'm still not over how it ended.",
      "Only the highlights, but that was stressful enough.",
      "No, I was busy {chore}, tell me what happened."]),
]

HELLO_GAP = ["It's been {gap} since we last talked, so I want the full update.",
             "Long time no chat, it's been {gap} already, can you believe it?",
             "Sorry it's taken me {gap} to get back in touch.",
             "It feels like forever, though apparently it's only been {gap}.",
             "I was just scrolling through old photos and thought of you.",
             "Perfect timing, I just made a cup of tea and I've got time for a proper catch-up.",
             "I've been saving up things to tell you for {gap}."]
HELLO_FIRST = ["I'm so glad we finally set up these catch-ups, life's been too busy to talk properly.",
               "Okay, I promised I'd be better at staying in touch, so here I am.",
               "It's been far too long since we had a proper chat."]
HELLO_ASK = ["How have you been?", "What's been going on with you?", "How are things on your end?",
             "How's everything?", "What's new with you?", "How's life treating you?", "Tell me everything.",
             "How are you doing?"]
REPLY_HI = ["{hi} {S}!", "Hey {S}!", "{S}! Hello!", "Hi {S}!", "Hey you!", "Oh, hi {S}!"]
REPLY_STATE = ["So good to hear from you.", "I'm alright, tired but alright.", "Things have been busy but mostly good.",
               "It's been quite a stretch over here, let me tell you.", "I'm doing okay, thanks for asking.",
               "You have no idea how much I needed a chat today.", "I was literally just thinking about you.",
               "Honestly, it's been a bit of a whirlwind."]
REPLY_MORE = ["", "", "I've got news, as usual.", "Where do I even start?", "Let me think where to begin.",
              "Grab a coffee, this could take a while."]
CLOSE_LEAD = ["Anyway, I should probably go,", "Oh, look at the time,", "Right, I'd better get going,",
              "Okay, I have to run,", "Ugh, I need to dash,", "Sorry to cut this short,",
              "I'd better leave it there,", "Right, that's me for now,"]
CLOSE_REASON = ["I've got an early start tomorrow.", "dinner isn't going to cook itself.", "my phone's about to die.",
                "I promised to help a neighbour carry some boxes.", "the washing machine is beeping at me.",
                "I've got a pile of emails waiting.", "I need to get to the shops before they close.",
                "I'm meant to be somewhere in twenty minutes.", "the kettle's just boiled.",
                "I've got a call in five minutes.", "I can hear the delivery driver at the door.",
                "I really need some sleep."]
CLOSE_SIGN = ["This was really nice, let's talk again soon!", "Thanks for the chat, {O}.",
              "Catch up again in a week or two?", "Lovely talking, as always!", "Thanks for listening to all my news!",
              "Same time next week, more or less?", "I always feel better after these.", "Speak soon, {O}!"]
BYE_A = ["Same here, go!", "No worries at all!", "Of course!", "Go, go!", "Definitely!", "Ha, off you go!",
         "Totally fine!", "Absolutely, run!"]
BYE_B = ["Take care of yourself and keep me posted on {ref}.", "It was lovely catching up, talk soon, {S}!",
         "Let's not leave it so long next time.", "Say hi to everyone for me.", "I'll message you about {ref} soon.",
         "Good luck with {ref}!", "Speak soon, and don't work too hard.", "Mind how you go, {S}."]
BYE_C = ["", "", "Bye for now!", "Talk soon!", "Big hugs."]
ACKS = ["Glad to hear it.", "Ha, fair enough.", "Oh, I know that feeling.", "Same here, honestly.",
        "That sounds about right.", "I can imagine.", "Love that for you.", "Ha, classic.", "Oh, nice.",
        "Honestly, relatable.", "Ha, that made me laugh.", "Mood, honestly.", "Sounds lovely.", "Oh, same."]
TRANSITIONS = ["Oh, I meant to tell you!", "So, update from me.", "Okay, here's my news.",
               "Oh, and something I forgot to mention.", "Right, my turn.", "Speaking of news, here's mine.",
               "Oh, before I forget.", "Okay, so, on my end.", "Anyway, news from here.", "Oh, you'll like this."]
HAND_BACK = ["What about you?", "Anyway, how about you?", "But enough about me, what's new with you?",
             "Anyway, how's your side of things?", "Your turn, what's new?"]


SEGUES = ["Anyway, random question:", "Okay, totally unrelated, but", "Changing the subject completely,",
          "Right, important question:", "Oh, I keep forgetting to ask,", "Sorry, my brain's all over the place today.",
          "I feel like we never talk about the small stuff.", "Okay, lighter topic.", "Tell me something normal.",
          "I've been wondering,", "So, quick one:"]


def hello(hour: int) -> str:
    return "Morning" if hour < 12 else ("Hey" if hour < 17 else "Evening")


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


class Chatter:
    """Draws small talk for a run of conversations; a text already used is redrawn a few times."""

    def __init__(self, rng: random.Random, seen: set[str] | None = None):
        self.rng = rng
        self.seen = seen if seen is not None else set()

    def _fresh(self, make) -> str:
        text = make()
        for _ in range(12):
            if text not in self.seen:
                break
            text = make()
        self.seen.add(text)
        return text

    def _slots(self, template: str) -> str:
        return template.format(**{k: self.rng.choice(v) for k, v in SLOTS.items()})

    def _join(self, *parts: str) -> str:
        return " ".join(p for p in parts if p)

    def filler(self, lead: str = "", ask: bool = False) -> str:
        rng = self.rng

        def make() -> str:
            text = self._slots(rng.choice(FILLERS))
            return self._join(lead, text, rng.choice(HAND_BACK) if ask else "")
        return self._fresh(make)

    def small_question(self, lead: str = "") -> tuple[str, list[str]]:
        rng = self.rng
        question, answers = rng.choice(EXCHANGES)
        question = self._slots(question)

        def make() -> str:
            intro = rng.choice(SEGUES)
            if intro[-1] in ".!?":
                return self._join(lead, intro, question)
            return self._join(lead, intro, question[0].lower() + question[1:])
        return self._fresh(make), answers

    def small_answer(self, answers: list[str], hand_back: bool) -> str:
        rng = self.rng
        return self._fresh(lambda: self._join(_cap(self._slots(rng.choice(answers))),
                                              rng.choice(HAND_BACK) if hand_back else ""))

    def ack(self) -> str:
        return self.rng.choice(ACKS)

    def transition(self) -> str:
        return self.rng.choice(TRANSITIONS)

    def react(self, topic: str, mood: str, ref: str, ask: bool) -> tuple[str, list[str]]:
        """An exclamation, maybe a comment, and with `ask` a follow-up; returns the text and the
        answers the follow-up can get."""
        rng = self.rng
        pools = TOPICS.get((topic, mood)) or (TOPICS.get((topic, "pos")) if mood == "mild" else None)
        comments, follows = pools or (GENERIC_COMMENT[mood], GENERIC_FOLLOW[mood])
        question, answers = rng.choice(follows) if ask else ("", [])

        def make() -> str:
            comment = rng.choice(comments + GENERIC_COMMENT[mood]) if ask or rng.random() < 0.85 else ""
            aside = rng.choice(ASIDES[mood]) if rng.random() < (0.55 if ask else 0.2) else ""
            if aside and comment and aside.split()[0] == comment.split()[0]:
                aside = ""  # "Honestly, ... Honestly, ..." reads badly
            return self._join(rng.choice(EXCLAIM[mood]), comment.format(ref=ref), aside, question.format(ref=ref))
        return self._fresh(make), answers

    def answer(self, answers: list[str], mood: str, hand_back: bool) -> str:
        rng = self.rng
        return self._fresh(lambda: self._join(rng.choice(answers), rng.choice(TAILS[mood]),
                                              rng.choice(HAND_BACK) if hand_back else ""))

    def opener(self, hour: int, other: str, gap: str | None) -> str:
        rng = self.rng
        middle = HELLO_FIRST if gap is None else HELLO_GAP
        return self._fresh(lambda: self._join(f"{hello(hour)} {other}!", rng.choice(middle).format(gap=gap),
                                              rng.choice(HELLO_ASK)))

    def reply(self, hour: int, starter: str) -> str:
        rng = self.rng
        return self._fresh(lambda: self._join(rng.choice(REPLY_HI).format(hi=hello(hour), S=starter),
                                              rng.choice(REPLY_STATE), rng.choice(REPLY_MORE)))

    def closing(self, other: str) -> str:
        rng = self.rng
        return self._fresh(lambda: self._join(rng.choice(CLOSE_LEAD), rng.choice(CLOSE_REASON),
                                              rng.choice(CLOSE_SIGN).format(O=other)))

    def closing_reply(self, starter: str, ref: str) -> str:
        rng = self.rng
        return self._fresh(lambda: self._join(rng.choice(BYE_A), rng.choice(BYE_B).format(S=starter, ref=ref),
                                              rng.choice(BYE_C)))
