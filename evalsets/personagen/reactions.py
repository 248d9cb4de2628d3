"""How the listener reacts to a piece of news, by topic and mood: an exclamation, a comment that
refers back, and a follow-up question paired with the answers the teller may give. Answers stay
vague: they never state a fact that a question asks about."""

from __future__ import annotations

EXCLAIM = {
    "pos": ["That's brilliant!", "Oh wow, congratulations!", "Yay, that's great news!", "No way, that's amazing!",
            "Oh, I love that!", "That's so exciting!", "Oh, that's wonderful!", "Amazing, good for you!",
            "Ahh, that's fantastic!", "Oh, how lovely!", "Wait, that's huge!", "Honestly, that made my day!"],
    "neg": ["Oh no, that sounds rough.", "Ugh, I'm really sorry.", "Yikes, that's awful.",
            "Oh, that's so stressful.", "Oh dear, that sounds miserable.", "Ouch, that's rotten luck.",
            "Oh no, poor you.", "That's horrible, I'm sorry.", "Oh, that's grim.", "Ugh, what a nightmare."],
    "mild": ["Oh, nice!", "Ooh, lovely.", "Oh, that sounds fun!", "Aw, I love that.", "Oh, good for you.",
             "Ha, brilliant.", "Oh, how nice.", "Ooh, tell me more.", "Oh, that's sweet."],
    "neu": ["Oh, interesting!", "Ha, that sounds about right.", "Oh, fun.", "Huh, I didn't know that.",
            "Ha, classic.", "That makes sense.", "Oh, how funny.", "Ha, I love that.", "Wait, really?",
            "Ha, of course.", "Oh, go on then.", "Huh, fair enough."],
}

GENERIC_COMMENT = {
    "pos": ["I'm so happy for you.", "That's the best thing I've heard all week.", "You deserve nice things."],
    "neg": ["That's a lot to deal with.", "As if life wasn't busy enough already.", "Sending you a big hug."],
    "mild": ["That sounds really nice.", "I'm a bit jealous, honestly.", "Good for you."],
    "neu": ["I can totally picture it.", "You always have the best stories.", "That tracks, honestly."],
}

# (topic, mood) -> comments that refer back ({ref}), and follow-ups paired with possible answers
TOPICS: dict[tuple[str, str], tuple[list[str], list[tuple[str, list[str]]]]] = {
    ("family", "pos"): (
        ["Your family always sounds like so much fun.", "That's such lovely news for all of you.",
         "Give everyone a big hug from me.", "I can hear how proud you are."],
        [("How's everyone taking it?", ["Everyone's over the moon, the family group chat hasn't stopped buzzing.",
                                        "We've all been phoning each other twice as often, it's quite sweet."]),
         ("When do you next get to see them?", ["Hopefully soon, I've already started planning what to bring.",
                                               "Not soon enough, but we video call most weekends."]),
         ("Were you one of the first to hear?", ["I was, and I've been unbearably smug about it ever since.",
                                                 "Second, which I'm choosing not to be bitter about."])]),
    ("family", "neu"): (
        ["Siblings, honestly.", "That sounds exactly like a family story.", "I'd love to meet them one day.",
         "I can just imagine the two of you together."],
        [("Are you two close?", ["Very, though we drive each other mad about once a month.",
                                 "Closer now than when we were kids, that's for sure."]),
         ("Do you talk a lot?", ["Most days, usually about absolutely nothing important.",
                                 "In bursts, silence for a week and then a two-hour call."]),
         ("Were you like that as kids too?", ["We fought like cats as kids, and now we're thick as thieves.",
                                              "Pretty much, some things never change."])]),
    ("friend", "pos"): (
        ["Everyone needs a friend like that.", "I love how far back you two go.", "That's a keeper, honestly."],
        [("How's {ref} doing these days?", ["Good, I think, busy as ever but happy.",
                                           "Hard to say, we mostly talk about me, which I should fix."]),
         ("Do you see each other much?", ["Not as much as we'd like, but we make up for it on the phone.",
                                          "Every couple of weeks, it's sacred at this point."])]),
    ("friend", "neu"): (
        ["That sounds like a good friend to have.", "Ha, I love hearing about {ref}.",
         "Friends like that are rare."],
        [("Are you two similar?", ["Not at all, which is probably why it works.",
                                   "More than either of us likes to admit."]),
         ("Do you see each other much?", ["Not as much as we'd like, but we make up for it on the phone.",
                                          "Every couple of weeks, it's sacred at this point."])]),
    ("plans", "pos"): (
        ["That's a weight off.", "What a good friend.", "Perfect, now you can actually switch off."],
        [("Are you all packed?", ["Not even slightly, but there's still time.",
                                  "I've packed and unpacked twice already."]),
         ("Are you excited?", ["Counting the days, honestly.", "So excited I can't concentrate on anything."])]),
    ("advice", "neu"): (
        ["Parents can be surprisingly wise.", "That's good advice, honestly.", "I didn't expect that."],
        [("Do you think you'll take the advice?", ["Probably, parents are annoyingly right sometimes.",
                                                  "I think so, it helped more than I expected."]),
         ("What's your gut telling you?", ["That I already know the answer, I just needed to hear it.",
                                          "To be brave, for once."])]),
    ("boss", "pos"): (
        ["Sounds like a good boss.", "Good managers are so rare.", "You landed on your feet there."],
        [("Do you get on well?", ["Really well, which makes the long days easier.",
                                  "Better than with any boss I've had."]),
         ("Is the rest of the team like that?", ["Mostly, it's a good bunch.",
                                                 "Not quite, but it helps to have one sane person in charge."])]),
    ("boss", "neu"): (
        ["Ha, people are full of surprises.", "Your workplace sounds like a sitcom.", "I love a hidden talent."],
        [("Did anyone else know?", ["Apparently half the office did, I'm always the last to hear.",
                                    "Nobody, it came completely out of nowhere."]),
         ("Does it show at work?", ["Now that I know, I see it everywhere.", "Oddly, yes, it explains a lot."])]),
    ("pet", "pos"): (
        ["I need photos immediately.", "{ref} sounds like a total character.",
         "Animals really do run the house, don't they?", "My heart just melted a bit."],
        [("How's the settling in going?", ["Better than expected, though I've lost the best spot on the sofa.",
                                           "Slowly, there was a lot of suspicious sniffing on day one."]),
         ("Is there fur on everything yet?", ["Literally everything I own, and I don't even mind.",
                                              "Not quite everything, give it a week."]),
         ("Who's training whom at this point?", ["Honestly, I think I'm the one being trained.",
                                                 "It's a draw, but I'm losing ground fast."])]),
    ("pet", "neu"): (
        ["Ha, pets are so weird.", "{ref} sounds like a menace, in the best way.", "Animals are the best."],
        [("Have you tried to stop it?", ["I tried once, then gave up and bought a bigger supply of everything.",
                                         "Every day, and every day I lose."]),
         ("Please tell me you've filmed it?", ["Obviously, I'll send you the evidence later.",
                                               "I keep trying, but it stops the moment the camera comes out."])]),
    ("pet", "neg"): (
        ["Poor thing, I hope the vet bill wasn't too scary.", "Animals give us such frights.",
         "That must have been so worrying."],
        [("Is the little one doing better now?", ["Much better, thankfully, back to demanding snacks at all hours.",
                                                  "Getting there, a bit sorry for themselves but recovering."]),
         ("Did you manage to sleep after all that?", ["Barely, I kept checking on them every hour.",
                                                      "Eventually, after a very large cup of tea."])]),
    ("work", "pos"): (
        ["You've worked so hard for this.", "That's a big step, honestly.", "They're lucky to have you.",
         "I had a feeling something like this was coming."],
        [("Are you nervous?", ["A bit, but mostly excited, I've been making lists at two in the morning.",
                               "Terrified, in a good way, I think."]),
         ("How's everyone at work taking it?", ["Everyone's been really supportive, which helps a lot.",
                                                "A few raised eyebrows, but mostly congratulations."]),
         ("How are you feeling about it all?", ["Excited, nervous and slightly sick, all at once.",
                                                "Like it's finally the right time."])]),
    ("work", "neu"): (
        ["Work sounds like a lot right now.", "That's very you.", "I wouldn't last a week in your job."],
        [("Do you still enjoy it?", ["Most days, yes, the people make it worth it.",
                                     "It has its moments, and I mean that both ways."]),
         ("How are the hours?", ["Long, but I've made my peace with it.",
                                 "Unpredictable, which keeps things interesting."])]),
    ("home", "pos"): (
        ["A fresh start, I love that.", "New routines always feel so full of possibility.",
         "That sounds like a massive upgrade."],
        [("Have you unpacked yet?", ["Half the boxes are still taped shut, and I'm living off three mugs.",
                                     "Mostly, apart from one mystery box I'm scared to open."]),
         ("How are the neighbours?", ["Lovely so far, one of them brought round a plant.",
                                      "Quiet, which is all I've ever wanted."]),
         ("Do you miss anything about the old routine?", ["Not a thing, honestly.",
                                                          "Only the bakery, and even that's fading."])]),
    ("home", "neg"): (
        ["That sounds exhausting.", "Journeys like that should be illegal.", "I'd lose my mind."],
        [("Is there any way around it?", ["I've tried every route, they're all equally bad.",
                                          "Not really, short of changing my whole life."]),
         ("How do you stay sane?", ["Podcasts, mainly, and a lot of sighing.",
                                    "Snacks and very long audiobooks."])]),
    ("health", "neg"): (
        ["Please take it easy.", "Bodies are so annoying sometimes.", "That must hurt so much."],
        [("How's the pain?", ["The painkillers help, and I'm becoming an expert in daytime television.",
                              "Manageable, as long as I don't do anything interesting."]),
         ("Is anyone helping you out?", ["People have been bringing food round, which has been lovely.",
                                         "Yes, everyone's been kind, I'm just a terrible patient."]),
         ("Are you resting properly?", ["I'm trying, but sitting still is not my talent.",
                                        "More or less, don't tell the doctor."])]),
    ("health", "pos"): (
        ["Good for you for making the best of it.", "Silver linings, right?", "That's a great way to cope."],
        [("Do you actually enjoy it?", ["I look forward to it now, which nobody saw coming.",
                                        "More than I'd ever admit to the doctor."]),
         ("Will you keep it up?", ["I think so, it's become the calmest part of my week.",
                                   "Probably, I've already bought the gear."])]),
    ("hobby", "pos"): (
        ["I love that you made time for something just for you.", "You're so creative.",
         "That's genuinely impressive."],
        [("Can I see some of it?", ["Next time, if you promise to be kind.",
                                    "I'll send you a photo, lower your expectations first."]),
         ("Is it hard?", ["Harder than it looks, but that's half the fun.",
                          "Very, but I lose track of time completely when I'm doing it."]),
         ("Are you going to keep at it?", ["Definitely, I'm hooked.", "As long as they'll have me."])]),
    ("travel", "pos"): (
        ["I'm so jealous.", "That sounds like a dream trip.", "I need the full story."],
        [("What was the food like?", ["Unreal, I'm still dreaming about it.",
                                      "So good that I'm already trying to recreate it badly at home."]),
         ("Would you go back?", ["Tomorrow, if I could, I've already looked at flights.",
                                 "In a heartbeat, there's so much we didn't see."]),
         ("Did you take loads of photos?", ["About nine hundred, and you'll have to see all of them.",
                                            "Hardly any, I was too busy enjoying it."])]),
    ("media", "neu"): (
        ["Now I'm curious.", "I've been looking for something new.", "Ha, the pressure is on."],
        [("Should I try it too?", ["Maybe, if you're in the right mood for it.",
                                   "Give it a go and tell me what you think."]),
         ("What's it about?", ["Hard to explain without spoiling it, honestly.",
                               "It's one of those things you have to experience yourself."])]),
    ("trait", "neu"): (
        ["That's so you.", "I'm not even surprised.", "Honestly, I admire that.", "Ha, I could never.",
         "That explains a lot, actually.", "You and me both, sometimes."],
        [("Have you always been like that?", ["Pretty much, ask anyone who grew up with me.", "Since forever, I think.",
                                              "Not always, it crept up on me over the years."]),
         ("Does it ever drive people mad?", ["Constantly, but they've learned to live with it.",
                                             "Only the people who know me well."]),
         ("Where does that come from, do you think?", ["No idea, it's just how I'm wired.",
                                                       "Probably how I was brought up, if I'm honest."])]),
    ("taste", "neu"): (
        ["Now I'm hungry.", "You've got great taste.", "I need to try that."],
        [("Can you send me the details?", ["I'll send them tonight, it's dead easy.",
                                           "Sure, remind me later or I'll forget."]),
         ("Where did you discover it?", ["Pure luck, it just popped up one day.",
                                         "A friend put me onto it, and I've been hooked since."])]),
}

GENERIC_FOLLOW = {
    "pos": [("How did it go?", ["Really well, actually, better than I expected.", "So well, I'm still buzzing."]),
            ("How are you feeling about it?", ["Honestly, really good.", "Happy, and a bit surprised."])],
    "neg": [("How are you holding up?", ["Slowly getting there, thanks for asking.", "Up and down, really."]),
            ("Is it getting any better?", ["A little, day by day.", "Better than last week, at least."])],
    "mild": [("How's it going so far?", ["Really nicely, thanks.", "So far so good, touch wood."]),
             ("Are you enjoying it?", ["Loving it, honestly.", "More than I thought I would."])],
    "neu": [("How did that come about?", ["Oh, it just sort of happened.", "It crept up on me, really."]),
            ("Is that a recent thing?", ["Not really, it's been building for a while.",
                                         "Fairly recent, I'm still getting used to it."]),
            ("What do you make of it?", ["I'm still working that out, to be honest.", "Honestly, no complaints."])],
}

ASIDES = {
    "pos": ["I've been hoping something like this would happen for you.", "Honestly, I want to hear every detail.",
            "I'm grinning at my phone like an idiot right now.", "You should be really proud of yourself.",
            "This is exactly the kind of news I needed today.", "I'm telling everyone, just so you know."],
    "neg": ["If you need anything at all, just shout, I mean it.", "I wish I could come round with soup and bad films.",
            "You really didn't need that on top of everything.", "Please be kind to yourself this week.",
            "I'm sending very strong get-well thoughts your way."],
    "mild": ["I love that for you.", "That sounds like exactly what you needed.",
             "It sounds like things are going your way."],
    "neu": ["I feel like I learn something new about you every time we talk.",
            "That's such a specific detail, I love it.",
            "I'm going to be thinking about that all day.", "Honestly, that made me smile.",
            "You never fail to surprise me."],
}

TAILS = {
    "pos": ["I keep catching myself grinning about it.", "It still feels a bit unreal.",
            "I'm trying not to get ahead of myself.", "It's been a long time coming.",
            "Thanks for being so excited with me.", "I'll tell you more when it's all sunk in.", ""],
    "neg": ["I'm trying to take it one day at a time.", "It could have been so much worse.",
            "I'm mostly tired of talking about it.", "Thanks for asking, though, it helps.",
            "Everyone's been lovely about it, which helps.", ""],
    "mild": ["It's a nice little thing to have.", "I'm enjoying it more than I expected.", ""],
    "neu": ["It made for a good story, at least.", "I'll keep you posted.", "You know how these things go.",
            "It's funny how these things happen.", "I hadn't really thought about it until you asked.", ""],
}

TOPIC_OF = {"sib1": "family", "sib2": "family", "souvenir": "family", "friend": "friend", "pet": "pet",
            "job1": "work", "mgr1": "boss", "mgr2": "boss", "offer": "work", "talk": "advice", "notice": "work",
            "commute": "home", "move": "home", "injury": "health", "recovery": "health", "hobby": "hobby",
            "trip1": "travel", "trip2": "travel", "dish": "taste", "music": "taste"}


def topic_of(key: str) -> str:
    """'a.pet.vet' -> 'pet'; recommendations are 'media'; traits have no topic."""
    head = key.split(".")[1]
    if key.endswith(("friend.rec", "friend.outcome")):
        return "media"
    if key.endswith("friend.sitter"):
        return "plans"
    return "trait" if head.startswith("trait") else TOPIC_OF.get(head, "")
