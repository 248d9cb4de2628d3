"""Later, casual mentions of an entity already introduced (the pet, the city, the workplace, a
relative, the hobby, a purchase). They reuse the entity's name in turns that state nothing the
questions ask about, so a keyword hit on "Biscuit" or "Porto" is usually not the evidence.
"""

from __future__ import annotations

SAY = {
    "pet": ["{pet} figured out how to open the cupboard with the treats. We are doomed.",
            "{pet} has claimed my desk chair as {pos} own, so I'm working from the sofa.",
            "{pet} was so good at the vet today, not a single complaint.",
            "{pet} is snoring next to me as we speak.",
            "{pet} refuses to let me sleep past six, every single day.",
            "I came home and {pet} had shredded an entire toilet roll. Art, apparently.",
            "{pet} knocked a glass of water onto my laptop. Laptop survived, barely.",
            "Someone in the park stopped me just to say hi to {pet}. {Sub}'s famous now.",
            "{pet} has a new favourite toy and it's a cardboard box."],
    "dog": ["{pet} dragged me around the park for an hour this morning.",
            "{pet} met a giant dog on our walk and hid behind my legs.",
            "{pet} rolled in something unspeakable on our walk, so: bath time."],
    "home": ["{city} is having the strangest weather, sunshine and hail in the same hour.",
             "The whole centre of {city} is dug up for roadworks right now.",
             "There's a street food market in {city} this weekend, might wander down.",
             "I swear every cafe in {city} raised their prices this month.",
             "Buses in {city} were on strike again today, so I walked everywhere.",
             "{city} was gorgeous tonight, the sunset over the rooftops was unreal.",
             "Half of {city} seems to be out on the terraces now that it's warmer."],
    "job": ["Another chaotic day at {workplace_the}.", "Someone brought homemade brownies to {workplace_the} and I had three.",
            "We're short-staffed at {workplace_the}, so I'm covering extra shifts.",
            "Finally got my time off approved at {workplace_the}. Small victories.",
            "The coffee machine at {workplace_the} broke and morale collapsed instantly.",
            "There was a fire drill at {workplace_the} in the middle of the busiest hour, naturally."],
    "rel": ["{rel} sent me the funniest video this morning.", "Had a long video call with {rel} last night.",
            "{rel} is getting into gardening, {rsub} sends me photos of every single tomato.",
            "{rel} called just to ask how to boil an egg. I worry sometimes.",
            "{rel} and I are doing a long-distance film club now, we watched an old western this week.",
            "Got a postcard from {rel}, which is very retro of {robj}."],
    "hobby": [],  # per-item mentions live in items.HOBBIES
    "purchase": ["Honestly the {short} is the best money I've spent all year.",
                 "Still figuring out all the settings on the {short}.",
                 "The {short} has a permanent spot in the living room now.",
                 "My neighbour asked to borrow the {short}. Absolutely not."],
    "dish": ["Had {dish} for dinner again, zero regrets.",
             "Found a new spot that does {dish}, it's fine but not as good as my usual.",
             "Tried to make {dish} from scratch. The kitchen is a crime scene."],
    "author": ["Stayed up way too late with another {author} book.",
               "The library finally had the {author} one I was waiting for."],
}

ASK = {
    "pet": ["How's {pet} doing?", "Any new {pet} stories?", "Is {pet} behaving?", "How's little {pet}?"],
    "home": ["How's life in {city} these days?", "What's the weather doing over in {city}?", "How's {city} treating you?"],
    "job": ["How's work going?", "Busy week at work?", "How are things at {workplace_the}?"],
    "rel": ["How's {rel} doing?", "Heard from {rel} lately?"],
    "hobby": ["How's {name} going?", "Still keeping up with {name}?"],
    "purchase": ["Are you still happy with the {short}?", "Getting much use out of the {short}?"],
    "dish": ["Eaten anything good lately?"],
    "author": ["Reading anything good at the moment?"],
}

ANSWER_OPENERS = ["Ha, funny you ask.", "Oh, let me think.", "Well.", "Mm, let's see.", "Oh, that reminds me.",
                  "Ha, glad you asked.", "Okay so.", "Funny story, actually."]
REACTIONS = ["Ha, classic.", "Oh no, haha.", "Sounds about right.", "That's so funny.", "Of course.", "Love that.",
             "Ha! Amazing.", "Oh dear.", "Honestly, iconic.", "Ha, I can picture it."]


def kind_of(fact_kind: str) -> str | None:
    """Which mention pool an introduced fact feeds (None: the fact is never casually re-mentioned)."""
    return {"pet": "pet", "rename": "pet", "home": "home", "move": "home", "job": "job", "job2": "job",
            "rel_city": "rel", "hobby": "hobby", "purchase": "purchase", "dish": "dish", "author": "author"}.get(fact_kind)
