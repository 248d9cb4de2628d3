"""Small talk between the story beats: greetings that notice how long it has been, goodbyes,
everyday exchanges, mentions of the third person, and decoys - lines that reuse a story's
words (its city, animal, room, ...) about someone else, so that word overlap alone does not
find the evidence. None of these lines states a fact about the two speakers that a question
asks about."""

from __future__ import annotations

from evalsets.convgen import pools
from evalsets.convgen.dates import WEEKDAYS
from evalsets.convgen.model import Ctx, Line, Story

EVERYDAY: tuple[tuple[str, ...], ...] = (
    ("it has not stopped raining here all week", "same, my shoes are permanently damp", "we need a holiday somewhere dry"),
    ("have you started {show} yet?", "not yet! is it good?", "the first two episodes are slow but then it gets so good",
     "ok adding it to the list"),
    ("I made {dish} tonight and it was actually decent", "look at you! recipe pls", "it's mostly vibes tbh"),
    ("three meetings back to back today, my brain is soup", "the kind that could have been an email?",
     "all three could have been emails"),
    ("did you see that video of the raccoon stealing cat food", "YES I've watched it like ten times"),
    ("any plans for the weekend?", "not really, laundry and maybe a long walk", "honestly that sounds perfect"),
    ("the coffee machine at work broke and everyone is miserable", "a tragedy",
     "we had a meeting about it. an actual meeting"),
    ("couldn't sleep last night, ended up reorganising my bookshelf at 2am", "that is such a you thing to do",
     "by colour this time"),
    ("grocery prices are insane, paid like nine for a bag of cherries", "cherries are a luxury item now"),
    ("my phone screen cracked again", "didn't you just fix it?", "yes. I'm cursed"),
    ("what are you listening to lately?", "a lot of {artist}, on repeat", "good choice"),
    ("I finally called my mom back, we talked for two hours", "two hours!", "she had updates on every single neighbour"),
    ("traffic was a nightmare this morning", "bus or car?", "bus. forty minutes to go four stops"),
    ("trying to drink more water this month", "how's it going?", "I bought a giant bottle with motivational quotes on it"),
    ("do you remember that restaurant we went to years ago? the one with the tiny tables", "the Lebanese one?",
     "yes!! we need to go back"),
    ("just finished a 1000-piece puzzle", "the patience!!", "400 of the pieces were sky. never again"),
    ("my neighbour is learning the trumpet", "oh no", "he's getting better though. slowly. very slowly"),
    ("I think I need new glasses, everything is a bit blurry", "go to the optician!", "I will. eventually. probably"),
    ("the new season of {show} is out", "no spoilers!!", "my lips are sealed"),
    ("I tried that new bubble tea place", "and?", "too sweet but I'll be back tomorrow"),
    ("the heating in our building is broken again", "in this weather??", "I'm wearing two jumpers indoors"),
    ("I cleaned the whole flat today", "who are you", "I know. it won't last"),
    ("random question, do you still have my umbrella", "...maybe", "haha keep it, it's yours now"),
    ("saw a double rainbow on the way home", "did you get a picture?", "obviously"),
    ("work is quiet this week for once", "enjoy it while it lasts", "I'm suspicious of it honestly"),
    ("happy {day}!!", "is it {day} already? where did the week go"),
    ("I've been on a soup kick. five soups this week", "that's a lot of soup", "I regret nothing"),
    ("the wifi has been dropping all day", "turn it off and on again", "did that. twice. I'm at a cafe now"),
    ("I went to bed at 9 last night like a grandma", "honestly iconic", "best sleep of my life"),
    ("ok what are you eating right now", "toast. you?", "cereal for dinner, don't judge"),
    ("my plant is finally growing a new leaf", "the monstera?", "yes!! it's been months"),
    ("someone at the gym was singing along to their headphones really loudly", "what song?",
     "something from the 90s, the whole room was into it"),
    ("the guy at the bakery remembered my order today", "you're a regular now", "I've made it"),
    ("I spent twenty minutes looking for my glasses and they were on my head", "a classic", "I'm not ok"),
    ("have you been to the market on the square lately?", "not in ages", "they have a cheese stall now, dangerous"),
    ("it's so hot, I'm melting", "drink water!!", "I'm lying on the floor as we speak"),
    ("my laptop made a weird noise and died", "noooo", "it came back to life but I don't trust it"),
    ("watched a documentary about octopuses last night", "and now you're an expert", "they have three hearts, did you know"),
    ("my inbox has 400 unread emails", "declare bankruptcy", "tempting"),
    ("I think the downstairs neighbours are learning salsa", "through the ceiling?", "every evening at 7 sharp"),
    ("I made a playlist for doing chores", "send it", "it's mostly ABBA"),
    ("just booked a haircut, first in six months", "finally lol", "I look like a haystack"),
    ("should I get a new phone or wait", "wait, yours still works", "you're right, you're right"),
)

MONOLOGUES: tuple[str, ...] = (  # long turns that share everyday words with the questions
    ("Today was one of those days where everything goes slightly wrong. Missed the bus by about four seconds, "
    "spilled coffee on my sleeve, and then the lift at work was out. I took the stairs, all nine floors. "
    "I'm choosing to call it cardio."),
    ("I went down a rabbit hole last night reading about lighthouses. Some keepers lived out there for months "
    "at a time with nobody to talk to. No internet, nothing. I think I'd last about a day."),
    ("The weekend was so quiet, in a good way. Slept in, made a big breakfast, walked to the river and back. "
    "Didn't look at my phone for hours. I should do that more often, honestly."),
    ("There's a new place on the corner that does only soup and bread. The queue at lunch is ridiculous. "
    "I waited twenty minutes for a lentil soup. Worth it? Unclear. Will I go back tomorrow? Obviously."),
    ("My manager scheduled a meeting about having fewer meetings. I'm not even joking. It ran over by fifteen "
    "minutes. Somebody made slides. I have so many questions."),
    ("Went to the cinema on my own for the first time. It was kind of great? Nobody stealing my popcorn, "
    "nobody whispering. I picked the worst seat though, right under the speaker."),
    ("The building next door is being renovated and the drilling starts at 7am sharp. Every. Single. Day. "
    "I've started timing my shower to the breaks in the noise. This is my life now."),
    ("Had the strangest dream that I was back at school and had an exam in a subject I never took. "
    "Woke up genuinely stressed. Had to remind myself I'm a grown adult with a job."),
    ("I tried to fix the wobbly table with a folded napkin and now it wobbles the other way. "
    "I have a degree, you know. Two, actually. Neither helped."),
    ("The train this morning was so packed that I held the same pole as four strangers. We're basically "
    "family now. One of them was eating an apple very loudly. I know everything about that apple."),
    ("Spent my whole lunch break trying to pick a birthday card for my aunt. They're all either too sad or "
    "too rude. Ended up with one that has a cat in a hat. She'll love it, she loves cats."),
    ("Someone left a box of free books on our street and I took four. I now own a cookbook from 1987 and a "
    "guide to birds of a country I've never visited. No regrets."),
    ("Our office moved to a new floor and nobody can find anything. The printer is somewhere, allegedly. "
    "I've walked past the same plant six times today."),
    ("My cousin's kid explained a video game to me for forty minutes. I understood none of it. Nodded the "
    "whole time. I think I agreed to play it with him next weekend."),
)

DECOYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "pet": (("my coworker brought her {species} to the office today", "best office day ever"),
            ("saw the tiniest {young} at the park and almost cried", "the little paws!!"),
            ("there's a {species} in my building that cries every time the lift opens", "poor thing lol")),
    "move": (("my cousin keeps saying she'll move to {city}, she's been saying it for ten years", "classic"),
             ("our neighbours just moved out, the flat has been empty for weeks", "new neighbours, exciting")),
    "sibling": (("my friend's {rel} just had twins", "twins!!"),
                ("everyone I know seems to have family in {city} lately", "it's the place to be apparently")),
    "relationship": (("went to a wedding and the speeches were endless", "the best man or the dad?", "both. both were endless"),
                     ("my coworker met someone at a pub quiz and won't stop talking about it", "cute though")),
    "health": (("my dentist appointment got moved again", "third time?", "fourth"),
               ("everyone at work has a cold, I'm doing vitamins like it's a sport", "stay strong")),
    "diet": (("the new {place} downtown had a line around the block", "for meat? in this economy?"),
             ("my cousin went vegan for a week and then had a burger", "a whole week though")),
    "job": (("we had interviews at work all afternoon, I'm so tired of small talk", "were any of them good?", "one. maybe"),
            ("someone at work quit by email at midnight", "iconic")),
    "occupation": (("my aunt wanted to be a {job} when she was young", "what stopped her?", "she says 'life'"),),
    "project": (("our team has a launch next quarter too, chaos everywhere", "launch season"),
                ("someone named a server {project} at my work lol", "very creative")),
    "event": (("my cousin has her {event} coming up too, she's weirdly calm about it", "teach me her ways"),
              ("a guy at work keeps talking about his {event}", "and you're being supportive?", "I'm nodding a lot")),
    "purchase": (("I almost bought a {noun} online last night but chickened out", "wise or sad, can't tell"),),
    "volunteer": (("there's a sign outside {place} asking for help", "maybe I'll go", "you say that every time"),),
    "trip": (("my boss just got back from {city}, she won't stop showing everyone photos", "the slideshow era"),
             ("flights are so expensive this year", "it's criminal")),
    "tries": (("the kid next door is learning {thing}, send help", "oh no", "he practises at 7am"),),
    "book": (("I started three books this month and finished zero", "that's a lot of starting"),
             ("someone on the bus was reading {title}", "that's a sign")),
    "reno": (("my friend's landlord painted her whole {room} beige without asking", "landlord beige", "the worst colour"),),
    "third_hobby": (("my uncle got into {hobby} in his sixties", "never too late"),),
    "third_party": (("I went to a birthday at {venue} once, way too loud", "was it fun though?", "very"),),
}

GREET = {"soon": ("hey again!", "back so soon haha", "me again"), "week": ("hiii how's your week going", "hey! how are things",
         "hello hello"), "long": ("ok it has been WAY too long", "sorry for disappearing, the last few weeks were a blur",
         "hi stranger!!")}
GREET_BACK = ("hey!! good, busy, you?", "all good here, tired but good", "haha I was literally about to text you",
              "hiya! surviving", "heyy, just got home")
BYE = (("ok I have to run, talk soon!", "bye!! 💛"), ("gotta go make dinner", "enjoy! talk later"),
       ("my battery is dying, more soon", "go charge it lol"), ("I should sleep", "night night"),
       ("meeting in 5, bye!", "good luck"), ("ok back to work for me", "same, ugh"))
THIRD_BITS = ("{T} says hi btw", "{T} and I watched {show} last night", "{T} sent me the funniest meme",
              "{T} thinks you'd love this place", "had lunch with {T} today, we laughed so much",
              "{T} is obsessed with {show} now, it's all I hear about", "{T} asked about you the other day")
HOME_BITS = ("{T} made pancakes again, the kitchen is a disaster", "{T} left the milk out AGAIN",
             "{T} is blasting music in the next room", "{T} fell asleep on the sofa at 8pm lol")


def _fill(ctx: Ctx, s: int, text: str) -> str:
    rng = ctx.rng
    slots = {"show": rng.choice(pools.SHOWS), "dish": rng.choice(pools.DISHES), "artist": rng.choice(pools.ARTISTS),
             "day": WEEKDAYS[ctx.day(s).weekday()]}
    if ctx.third:
        slots["T"] = ctx.third.name
    for key, value in slots.items():
        text = text.replace("{" + key + "}", value)
    return text


def opener(ctx: Ctx, s: int) -> list[Line]:
    rng = ctx.rng
    x = rng.choice(["A", "B"])
    gap = ctx.gap(s) if s else 7
    first = rng.choice(GREET["soon" if gap <= 3 else "week" if gap <= 14 else "long"])
    hour = ctx.times[s].hour
    if rng.random() < 0.3:
        first = "good morning!" if hour < 11 else "are you still up?" if hour >= 21 else first
    return [Line(x, first), Line(ctx.other(x), rng.choice(GREET_BACK))]


def closer(ctx: Ctx) -> list[Line]:
    x = ctx.rng.choice(["A", "B"])
    bye, back = ctx.rng.choice(BYE)
    return [Line(x, bye), Line(ctx.other(x), back)]


def _unsaid(ctx: Ctx, scripts: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """A script not used yet in this conversation (it is marked used)."""
    fresh = [script for script in scripts if script[0] not in ctx.said]
    if not fresh:
        return None
    script = ctx.rng.choice(fresh)
    ctx.said.add(script[0])
    return script


def exchange(ctx: Ctx, s: int, stories: list[Story]) -> list[Line]:
    """One bit of small talk in session s: everyday, an echo of a story's words, or the third person."""
    rng = ctx.rng
    x = rng.choice(["A", "B"])
    roll = rng.random()
    script = None
    if roll < 0.3 and stories:
        story = rng.choice(stories)
        script = _unsaid(ctx, DECOYS.get(story.kind, ()))
        script = script and tuple(_words(line, story.words) for line in script)
    elif roll < 0.42 and ctx.third:
        x, home = ctx.third.holder, ctx.third.relation in ("roommate", "son", "daughter")
        bits = THIRD_BITS + HOME_BITS if home else THIRD_BITS
        script = (rng.choice(bits), rng.choice(["haha", "lol say hi back", "classic", "love that", "aw"]))
    elif roll < 0.58:
        speech = _unsaid(ctx, tuple((m,) for m in MONOLOGUES))
        script = speech and (speech[0], rng.choice(["haha", "lol", "oh no", "classic", "that's so you",
                                                    "honestly same", "I love this"]))
    if not script:
        script = _unsaid(ctx, EVERYDAY) or rng.choice(EVERYDAY)
    lines, who = [], x
    for n, text in enumerate(script):
        lines.append(Line(who, _fill(ctx, s, text), long=n == 0 and rng.random() < 0.25))
        who = ctx.other(who)
    return lines


def _words(text: str, words: dict[str, str]) -> str:
    for key, value in words.items():
        text = text.replace("{" + key + "}", value)
    return text
