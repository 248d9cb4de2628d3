"""Small-talk pools: the distractor turns. Topics deliberately avoid anything a question asks
about (pets, moves, jobs changing, purchases, injuries, relatives, trips), so they never answer
or contradict a question, while sharing everyday words ("work", "home", "weekend") with them.
"""

from __future__ import annotations

SLOTS: dict[str, list[str]] = {
    "weather": ["absolutely miserable, rain every single day", "weirdly warm for this time of year",
                "so windy my umbrella turned inside out twice", "grey and drizzly, the usual",
                "sunny but freezing, which is the worst combination", "foggy every morning, very spooky",
                "all four seasons in one afternoon", "muggy and sticky, I can't sleep"],
    "show": ["The Lantern Keepers", "Saltwater Road", "Night Shift Diaries", "Copper Hill", "The Quiet Orchard",
             "Glass Harbour", "Tin Roof Kitchen", "The Long Winter Files", "Paper Moons", "Signal Lost",
             "The Night Ferry", "Harbour Lights Again", "Cold Case Cafe"],
    "band": ["The Velvet Tides", "Moth Parade", "Sunday Static", "Hollow Pines", "The Marigolds", "Neon Fjord",
             "Cassette Ghosts", "Little Lighthouse", "Paper Aeroplanes", "The Sleepy Radishes"],
    "dish_g": ["lasagna", "a big pot of chili", "banana bread", "a vegetable stir-fry", "leek and potato soup",
               "homemade pizza", "shepherd's pie", "a lemon drizzle cake", "fish tacos", "a chickpea curry",
               "stuffed peppers", "a frittata with whatever was in the fridge"],
    "outcome": ["it was actually edible", "I set off the smoke alarm twice", "it tasted better than it looked",
                "I forgot the salt, rookie mistake", "I ate the whole thing in one sitting", "it was a glorious mess"],
    "chore": ["fighting with the washing machine", "deep-cleaning the fridge", "assembling a bookshelf with zero instructions",
              "sorting out my tax paperwork", "reorganising the spice rack alphabetically", "defrosting the freezer",
              "scrubbing the grout in the bathroom", "ironing a mountain of shirts", "returning parcels at the post office"],
    "local": ["a jazz festival", "a night market", "a big food fair", "an open-air cinema", "a vintage clothes fair",
              "a fireworks show", "a book swap in the square", "a craft beer festival", "a lantern parade"],
    "memory": ["got completely lost looking for that lake", "stayed up all night finishing that group project",
               "tried to bake a cake for Sam and it collapsed", "got stuck in the lift for an hour",
               "sang karaoke until they kicked us out", "took the wrong train and ended up at the coast",
               "tried to assemble that tent in the rain"],
    "sight": ["the sunset over the river", "a cloud shaped exactly like a whale", "the latte art at my cafe this morning",
              "the frost on my window", "a double rainbow over the car park", "the huge moon tonight",
              "the cherry blossoms on my street", "a street mural someone just finished"],
    "podcast": ["a true crime podcast about a missing painting", "a history podcast about shipwrecks",
                "a podcast where two comedians rank sandwiches", "a science podcast about sleep",
                "a podcast about the worst inventions ever", "an interview show with retired astronauts"],
    "game": ["a cooperative board game about trains", "an old-school puzzle game on my phone", "that farming video game",
             "a word game that's ruining my sleep", "a card game with way too many rules", "a racing game from the nineties"],
    "drink": ["oat flat whites", "green tea", "iced coffee", "chai", "hot chocolate", "sparkling water with lime"],
    "lazy": ["a lot of sofa time", "catching up on sleep", "a long walk and then nothing", "batch cooking for the week",
             "tidying up and pretending to be productive", "a film marathon", "reading in the bath", "seeing a few friends"],
    "thought": ["why we all say 'see you later' when we mean tomorrow", "how strange it is that pineapples grow on bushes",
                "whether anyone actually reads the terms and conditions", "how fast this year is going",
                "what people did before podcasts", "why socks disappear in the wash"],
}

# What the photo of each "sight" shows (its blip_caption).
CAPTIONS: dict[str, str] = {
    "the sunset over the river": "an orange sunset reflected on a wide river",
    "a cloud shaped exactly like a whale": "a large white cloud in a blue sky",
    "the latte art at my cafe this morning": "a latte with a leaf pattern in the foam",
    "the frost on my window": "fern-like frost patterns on a window pane",
    "a double rainbow over the car park": "a double rainbow over a parking lot",
    "the huge moon tonight": "a large full moon above rooftops",
    "the cherry blossoms on my street": "pink cherry blossom trees lining a street",
    "a street mural someone just finished": "a colorful mural on a brick wall",
}

TOPICS = {
    "weather": {
        "start": ["The weather here has been {weather}.", "Is it just me or is the weather {weather} lately?",
                  "Weather report from my window: {weather}.", "Honestly the weather has been {weather} all week."],
        "reply": ["Ugh, same here, I've forgotten what the sun looks like.", "Lucky you, it's been the opposite here.",
                  "At least it's good tea weather.", "I've given up on planning anything outdoors.",
                  "I actually don't mind it, it's cosy."],
    },
    "tv": {
        "start": ["Have you started {show} yet?", "I binged half of {show} this weekend, oops.",
                  "Okay, I finally watched {show}. We need to talk.", "Is {show} worth it? Everyone keeps recommending it."],
        "reply": ["Not yet, is it good?", "Yes! That finale broke me.", "I tried the first episode and got distracted.",
                  "No spoilers please, I'm two episodes behind.", "It's slow at first, stick with it."],
        "more": ["The second season is better, trust me.", "The soundtrack alone is worth it.", "I keep thinking about the ending."],
    },
    "cooking": {
        "start": ["Tried making {dish_g} last night and {outcome}.", "I made {dish_g} for dinner, {outcome}.",
                  "Meal prep attempt: {dish_g}. Verdict: {outcome}."],
        "reply": ["Ha, that's the spirit.", "Send me the recipe!", "Honestly that's all we can ask for.",
                  "I had cereal for dinner, so you're winning."],
    },
    "workday": {
        "start": ["Work's been a lot this week, three deadlines at once.", "My inbox is a disaster, I'm declaring bankruptcy.",
                  "Had the longest meeting of my life today. It could have been an email.",
                  "Work is quiet this week, which makes me suspicious.", "I left work on time today for once!"],
        "reply": ["Hang in there, the weekend's close.", "The eternal struggle.", "Ha, enjoy it while it lasts.",
                  "Please tell me you at least got a proper lunch.", "Sounds like you've earned a quiet evening."],
    },
    "sleep": {
        "start": ["I slept terribly, someone's car alarm went off at three.", "I'm running on about four hours of sleep.",
                  "Went to bed at nine last night like a grandma and it was glorious.",
                  "Does anyone actually feel rested? Asking for me."],
        "reply": ["Coffee, immediately.", "I'm the same, my sleep schedule is chaos.", "Early nights are underrated.",
                  "Nap later, you've earned it."],
    },
    "music": {
        "start": ["I've had {band} on repeat all week.", "Have you heard the new {band} album?",
                  "{band} are touring again, I'm tempted.", "Found a band called {band} and I can't stop listening."],
        "reply": ["Never heard of them, send me a song.", "Oh I love them!", "Adding them to my playlist now.",
                  "Not really my thing, but I'll give it a go."],
    },
    "chores": {
        "start": ["Spent the whole morning {chore}.", "Today's thrilling activity: {chore}.",
                  "I've been putting off {chore} for weeks and finally did it."],
        "reply": ["Adulting at its finest.", "So productive, I'm impressed.", "I really should do the same.",
                  "That deserves a reward, honestly."],
    },
    "local": {
        "start": ["There's {local} in town this weekend.", "Apparently there's {local} nearby this weekend, I might go.",
                  "Walked past {local} setting up today, it looked fun."],
        "reply": ["Ooh, that sounds fun!", "You should go and report back.", "I love that kind of thing.",
                  "Sounds busy, I'd probably stay home."],
    },
    "weekend": {
        "start": ["Any plans for the weekend?", "What did you get up to at the weekend?", "How was your weekend?"],
        "reply": ["Not really, probably {lazy}.", "Mostly {lazy}, honestly.", "Pretty quiet, {lazy}.",
                  "Nothing exciting, {lazy}."],
    },
    "tech": {
        "start": ["My phone decided to update itself in the middle of a call.", "The wifi keeps dropping, I'm losing my mind.",
                  "My laptop fan sounds like a jet engine now.", "I accidentally deleted all my photos from one folder. Found them though."],
        "reply": ["Technology is a scam.", "Have you tried turning it off and on again?", "Ugh, the worst.",
                  "That happened to me last month, so annoying."],
    },
    "nostalgia": {
        "start": ["Remember when we {memory}?", "I was just thinking about the time we {memory}.",
                  "Random memory: when we {memory}. I still laugh about it."],
        "reply": ["Oh my gosh, I'd forgotten about that!", "Never again, haha.", "Classic us.", "Best day, honestly."],
    },
    "podcast": {
        "start": ["I'm listening to {podcast} and it's weirdly gripping.", "Any podcast recommendations? I just finished {podcast}."],
        "reply": ["Sounds very niche, I'm in.", "I mostly listen to music, but that sounds fun.", "Send me the link!"],
    },
    "drinks": {
        "start": ["I'm on my third {drink} of the day.", "I've switched to {drink} in the afternoons, feeling very healthy."],
        "reply": ["Living your best life.", "Same, it's the only thing keeping me going.", "Respect."],
    },
    "games": {
        "start": ["I've been playing {game} way too much.", "We played {game} last night and nobody won."],
        "reply": ["Ha, I know that feeling.", "Is it fun? I need a new one.", "Sounds like chaos, I love it."],
    },
    "thoughts": {
        "start": ["Do you ever think about {thought}?", "Random thought: {thought}."],
        "reply": ["Constantly.", "I have never once thought about that, but now I will.", "You need more sleep, haha."],
    },
}

PHOTO_LINES = ["Look at {sight}!", "Had to share {sight}.", "Okay, check out {sight}.", "This was {sight}, so pretty."]
PHOTO_REPLIES = ["Wow, that's gorgeous!", "That's beautiful.", "Ooh, frame that.", "Okay, now I'm jealous."]

OPENERS = ["Hey {other}! It's been a minute, how's everything?", "Hi {other}, long time no talk!",
           "Morning! Got a sec to catch up?", "{other}! Finally free to chat.", "Hey you, how's your week going?",
           "Hi! Sorry, I've been terrible at replying lately.", "Evening! How are things?",
           "Hey {other}, I was just thinking about you.", "Hiya! Are you around?", "Hello! Quick catch-up?",
           "Hey! Free for a chat?", "{other}, hi! How's life?", "Hey stranger!", "Good morning! Coffee and a catch-up?",
           "Hi! What a week. How are you holding up?", "Hey {other}, got a minute?", "Yo! How's it going?",
           "Hi there! I have so much to tell you."]
GREET_REPLIES = ["Hey! Good to hear from you. Busy, but fine.", "Hi! All good here, how about you?",
                 "Ah, hello! I was about to message you.", "Hey {other}! Yes, let's catch up.",
                 "Hi hi! Surviving, mostly.", "Hello! Perfect timing, I just sat down.",
                 "Hey! Can't complain. Well, I can, but I won't.", "Hi! Always. What's up?", "Hey! Yes, go on.",
                 "Hello! Just finished dinner, perfect time.", "Hey! Tired, but happy to hear from you.",
                 "Oh hi! I was literally just thinking about you.", "Hi {other}! All good, mostly.", "Hey! Sure, what's new?"]
CLOSERS = ["Anyway, I should get going, {reason}. Talk soon!", "Okay, I need to run, {reason}. Catch you later!",
           "Right, {reason}, so I'll let you go. Bye!", "Gotta dash, {reason}. Speak soon!"]
REASONS = ["dinner's about to burn", "early start tomorrow", "my battery's dying", "I have a call in five minutes",
           "the laundry's done", "I promised I'd be somewhere at seven", "I'm falling asleep on the sofa",
           "the pasta water is boiling over", "someone's at the door", "I have to catch a train", "it's way past my bedtime",
           "I still haven't answered a single email today", "I need to go buy groceries before the shop closes"]
CLOSER_REPLIES = ["Bye! Take care.", "Talk soon, {other}!", "Good chatting, have a lovely evening.",
                  "See you! Keep me posted.", "Bye, speak soon!", "Go go go! Chat soon.",
                  "Night! This was nice.", "Later! Don't be a stranger.", "Bye! Let's not leave it so long next time."]
