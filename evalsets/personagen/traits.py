"""Personality traits, values and preferences. Each trait is shown, never named: a few first-person
statements imply it, and open-domain questions ask for an inference from them in other words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Trait:
    key: str
    conflicts: tuple[str, ...]
    statements: tuple[str, ...]            # said by the person, first person
    questions: tuple[tuple[str, str], ...]  # ({X}, {sub}, {pos} placeholders) -> inference with a reason


TRAITS = [
    Trait("introverted", ("extroverted",), (
        "I got invited to three different parties this weekend and politely dodged all of them, my sofa and a "
        "documentary were calling.",
        "After the team offsite I needed an entire Sunday with the curtains shut and my phone on silent just to "
        "feel human again.",
        "Honestly, one long dinner with a single close friend beats a packed room of forty people every time for "
        "me.",
        "I volunteered to do the spreadsheets at the fundraiser so I wouldn't have to stand at the door greeting "
        "strangers all day.",
        "When the office went open-plan I started booking the tiny phone booth for hours just to hear myself "
        "think."), (
        ("Would {X} enjoy hosting a big networking mixer?",
         "Probably not; {sub} finds large gatherings draining and recharges alone or one-on-one."),
        ("Would {X} rather spend a free Saturday at a crowded music festival or at home?",
         "At home; {sub} avoids parties and crowds and needs quiet time to recover after socialising."),
        ("Would a sales job built around cold-calling and client dinners suit {X}?",
         "Unlikely; {sub} prefers small, quiet interactions and avoids dealing with lots of strangers."))),
    Trait("extroverted", ("introverted",), (
        "I ended up chatting to a whole table of strangers at the pub quiz, and by the end of the night we'd "
        "formed a team together.",
        "If I spend a whole weekend alone I start going a bit stir-crazy, I need people around me to feel like "
        "myself.",
        "I've started organising a monthly potluck for the entire building, last time twenty-two neighbours "
        "squeezed into my living room.",
        "Working from home drives me up the wall, I end up phoning people just to hear another voice.",
        "I volunteered to give the toast at a colleague's leaving do and loved every second of being up there."), (
        ("Would {X} enjoy a week-long silent meditation retreat?",
         "Probably not; {sub} gets restless without company and thrives around lots of people."),
        ("Would {X} be happier in a solitary remote role or a job full of face-to-face contact?",
         "A people-facing job; {sub} draws energy from strangers, hosting and being around others."),
        ("Is {X} the type to throw a big birthday bash or skip celebrating?",
         "Throw a big bash; {sub} loves hosting crowds and feels flat when alone for long."))),
    Trait("risk-averse", ("adventurous",), (
        "I read every review and all the small print three times before I sign anything, I can't stand "
        "surprises with money.",
        "My savings sit in the most boring account possible, I'd rather earn almost nothing than risk losing a "
        "penny.",
        "I always get to the airport three hours early, even for short flights, just in case something goes "
        "wrong.",
        "People keep telling me to buy crypto, but the thought of watching a number crash makes me feel ill.",
        "I've kept the same bank, the same insurance and the same dentist for ten years, because switching feels "
        "like a gamble."), (
        ("Would {X} put money into a friend's brand-new startup?",
         "Unlikely; {sub} is very cautious with money and avoids anything that could lose value."),
        ("Would {X} enjoy skydiving or a night at the casino tables?",
         "Probably not; {sub} dislikes uncertainty and goes out of {pos} way to avoid things going wrong."),
        ("Does {X} tend to play it safe or take chances?",
         "Play it safe; {sub} double-checks everything and keeps {pos} money in the least volatile options."))),
    Trait("adventurous", ("risk-averse", "organised"), (
        "I booked a hot-air balloon ride on a whim and I'm already eyeing paragliding lessons next.",
        "I signed up for a beginners' scuba course even though deep water terrifies me, that's half the fun.",
        "My rule on holiday is to order the strangest thing on the menu, which is how I discovered I love durian.",
        "I once quit a stable job to drive across the country in a van, and I'd do it again tomorrow.",
        "The scarier an activity sounds, the faster I seem to sign up for it, my friends have stopped being "
        "surprised."), (
        ("Would {X} be tempted by a bungee jump?",
         "Very likely; {sub} seeks out thrills like ballooning and scuba even when they scare {obj}."),
        ("Would {X} prefer an all-inclusive resort or an unplanned backpacking route?",
         "The unplanned route; {sub} loves the unknown and chases new experiences."),
        ("How would {X} probably react to an invitation to go ice climbing?",
         "With enthusiasm; {sub} jumps at unusual, slightly frightening experiences."))),
    Trait("frugal", ("spendy",), (
        "I fixed the hole in my winter coat myself instead of buying another one, it's got at least five more "
        "years in it.",
        "My lunch is a packed box every single day, I worked out that buying sandwiches would cost me hundreds "
        "a year.",
        "I track every penny in a little notebook, and I get an embarrassing amount of joy from coming in under "
        "my monthly limit.",
        "Most of my furniture came from charity shops or the street on bin day, and I love it more than anything "
        "new.",
        "I cancelled three streaming subscriptions and just borrow DVDs from the library now."), (
        ("Is {X} more of a saver or a spender?",
         "A saver; {sub} budgets carefully, repairs things and buys second-hand rather than new."),
        ("Would {X} likely splurge on a designer handbag?",
         "Unlikely; {sub} watches every expense and prefers second-hand or repaired things."),
        ("What kind of holiday accommodation would {X} probably pick?",
         "Something cheap, like a hostel or budget guesthouse; {sub} hates wasting money."))),
    Trait("spendy", ("frugal", "eco-conscious"), (
        "I definitely spent too much on concert tickets this month, but you can't put a price on a front-row "
        "view.",
        "I treated the whole team to dinner after we hit our deadline, it wasn't cheap but seeing everyone happy "
        "was worth it.",
        "My rule is if something makes me smile I buy it, which is why my flat is full of lamps I didn't need.",
        "I upgraded to business class for a short flight just because the seats looked comfy, zero regrets.",
        "I got a fancy coffee machine delivered on Monday and a matching grinder on Tuesday, it's a problem."), (
        ("Is {X} more of a saver or a spender?",
         "A spender; {sub} happily splurges on treats, upgrades and other people."),
        ("Would {X} be likely to stick to a strict no-buy month?",
         "Probably not; {sub} buys things on impulse whenever they bring {obj} joy."),
        ("Would {X} pick a budget hostel or a luxury hotel for a weekend away?",
         "A luxury hotel; {sub} is happy to pay for comfort and treats."))),
    Trait("competitive", (), (
        "I lost the office table tennis final by two points and I've been practising my serve every evening "
        "since.",
        "Board game nights at my place always end with me demanding rematches until everyone else gives up and "
        "goes home.",
        "I keep a spreadsheet of my quiz scores against my friends, and yes, I'm currently top of the league.",
        "Even my step counter is a contest, I walked laps of the kitchen at midnight to beat a colleague's total.",
        "My friends refuse to play cards with me anymore, apparently I'm unbearable when I'm one point behind."), (
        ("How would {X} likely respond to losing a friendly match?",
         "By demanding a rematch and practising; {sub} hates losing and keeps score of everything."),
        ("Would {X} enjoy a job with sales leaderboards and rankings?",
         "Probably yes; {sub} is driven by beating others and tracking scores."),
        ("Would {X} be content to jog a charity fun run without checking the clock?",
         "Unlikely; {sub} turns even small things into contests and wants to win."))),
    Trait("animal lover", (), (
        "I spend my Saturday mornings walking dogs at the shelter, and I have to stop myself bringing one home "
        "every week.",
        "I can't pass a cat in the street without crouching down for a chat, my friends have given up waiting "
        "for me.",
        "I donated my birthday money to the hedgehog rescue near me, and they sent me a photo of the little guy "
        "I sponsored.",
        "I sobbed into a cushion at a nature documentary about elephant families on Sunday, full on tears.",
        "I carry a pocket of treats on every walk, just in case I meet a good boy or girl along the way."), (
        ("Would {X} enjoy volunteering at a wildlife sanctuary?",
         "Very likely; {sub} already gives {pos} time and money to creatures in need and adores them."),
        ("Would {X} be happy living in a building that bans pets?",
         "Unlikely; {sub} is devoted to animals and seeks them out everywhere."),
        ("What kind of charity would {X} most likely support?",
         "An animal welfare charity; {sub} already donates to rescues and volunteers with them."))),
    Trait("early riser", ("night owl",), (
        "My alarm goes off at half five and I'm happiest with a coffee on the balcony before anyone else is awake.",
        "By nine at night I'm useless, I fell asleep halfway through a film at a friend's place again.",
        "I get my best work done before eight, the inbox is quiet and my brain actually cooperates.",
        "I watched the sun come up from the hill near my place three times this week, it's my favourite part of "
        "the day.",
        "Lie-ins are wasted on me, even on holiday I'm up and dressed before the breakfast buffet opens."), (
        ("Would {X} enjoy working the late shift at a nightclub?",
         "Probably not; {sub} is sharpest at dawn and flags badly in the evening."),
        ("Would {X} choose a dawn hike or a midnight gig?",
         "The dawn hike; {sub} loves the first hours of the day and is sleepy by nine."),
        ("When is the best time to schedule a demanding meeting with {X}?",
         "First thing in the morning; {sub} does {pos} best thinking very early."))),
    Trait("night owl", ("early riser",), (
        "I do my best thinking after midnight, last night I reorganised my whole bookshelf at two in the morning.",
        "Anything scheduled before ten feels like a personal attack, my brain simply refuses to switch on.",
        "The city is so peaceful at three a.m., I like to walk home the long way after a late film.",
        "I tried the whole five a.m. routine thing and I was a zombie for a fortnight.",
        "My neighbours must think I'm a vampire, my kitchen light is always the last one on in the street."), (
        ("Would {X} thrive in a job that starts at six every morning?",
         "Probably not; {sub} comes alive late at night and struggles with early starts."),
        ("Would {X} prefer a sunrise yoga class or a late jazz gig?",
         "The late gig; {sub} is at {pos} best long after dark."),
        ("Around what hour does {X} tend to be sharpest?",
         "Late at night; {sub} does {pos} best thinking after midnight."))),
    Trait("organised", ("spontaneous", "adventurous"), (
        "My friends tease me about my colour-coded lists for groceries, chores and birthdays, but nothing ever "
        "gets forgotten.",
        "Before any trip I make a spreadsheet with train times, backup routes and opening hours, down to the "
        "minute.",
        "I batch cook on Sundays and label every box with the day it's meant to be eaten.",
        "I get genuinely stressed when plans change last minute, I like knowing exactly what the week looks like.",
        "My inbox is at zero every evening before I log off, I can't sleep otherwise."), (
        ("Would {X} enjoy a mystery holiday where the destination is only revealed at the airport?",
         "Probably not; {sub} likes everything arranged ahead and gets stressed by last-minute changes."),
        ("How would {X} likely prepare for moving house?",
         "With detailed lists and schedules; {sub} organises everything well in advance."),
        ("Would {X} suit a role coordinating events and logistics?",
         "Yes; {sub} is meticulous about scheduling and keeping track of details."))),
    Trait("spontaneous", ("organised",), (
        "I decided at breakfast to take the train to the coast, and by lunchtime I was eating chips on the beach.",
        "I never book anything ahead, half the fun is seeing where the day takes me.",
        "I joined a drumming class on the way past the studio because the music sounded fun through the window.",
        "My calendar is basically empty on purpose, I hate feeling locked into plans weeks ahead.",
        "I said yes to a friend's road trip with about an hour's notice and packed my bag in ten minutes."), (
        ("Would {X} enjoy a mystery trip where the destination is a surprise?",
         "Yes; {sub} loves acting on impulse and dislikes fixed arrangements."),
        ("Is {X} likely to have a summer holiday arranged half a year in advance?",
         "Unlikely; {sub} prefers to decide things on the spot."),
        ("Would a rigid, heavily scheduled job suit {X}?",
         "Probably not; {sub} hates being tied down and follows {pos} impulses."))),
    Trait("eco-conscious", ("spendy",), (
        "I haven't bought any new clothes this year, it's all swaps and repairs, fast fashion makes me queasy.",
        "I carry a little kit with a metal straw, a cloth bag and a fork everywhere, it's saved so much plastic.",
        "We started a compost heap in the shared garden and I've persuaded half the building to sort their food "
        "scraps.",
        "I took the overnight train instead of flying to the conference, it took longer but I felt much better "
        "about it.",
        "I spent Saturday morning picking litter off the riverbank with a volunteer group, three full sacks."), (
        ("Would {X} be likely to buy a big petrol SUV?",
         "Unlikely; {sub} goes out of {pos} way to cut waste and emissions."),
        ("What sort of gift would {X} appreciate most?",
         "Something second-hand, handmade or reusable; {sub} avoids waste and disposable things."),
        ("How would {X} feel about a shop that wraps every purchase in layers of packaging?",
         "Frustrated; {sub} works hard to avoid waste and rubbish."))),
    Trait("bookish", (), (
        "I finished four novels this month and there's already a teetering stack waiting on my bedside table.",
        "My idea of a perfect afternoon is a window seat, a pot of tea and five hundred pages I can't put down.",
        "I joined two reading groups at the library, one for crime and one for old Russian classics.",
        "I spent my whole lunch break in a second-hand bookshop and came out with nine paperbacks, which I did "
        "not need.",
        "I take a paperback everywhere, even to the dentist, just in case there's a queue."), (
        ("What would make a good birthday present for {X}?",
         "A novel or a bookshop voucher; {sub} reads constantly and is in reading groups."),
        ("Would {X} enjoy a literary festival?",
         "Very likely; {sub} devours novels and loves talking about them."),
        ("How is {X} likely to spend a long weekend with nothing planned?",
         "Curled up reading; {sub} gets through several novels a month."))),
    Trait("vegetarian", (), (
        "I haven't eaten meat in about six years now, and honestly lentils and I have never been closer.",
        "At the work barbecue I brought my own halloumi skewers, because the burgers weren't an option for me.",
        "I've been perfecting a mushroom stroganoff, my friends swear they don't even miss the beef.",
        "When I travel I always hunt down the local veggie spots first, it's how I find the best food.",
        "I read the ingredients on everything now, you'd be amazed how many sweets have gelatine in them."), (
        ("Would {X} enjoy dinner at a classic steakhouse?",
         "Probably not; {sub} doesn't eat meat and seeks out vegetarian food."),
        ("What kind of cookbook would {X} appreciate?",
         "A vegetarian one; {sub} cooks meat-free and loves plant-based dishes."),
        ("If {X} were in charge of the grill at a party, what would {sub} likely cook?",
         "Vegetables or halloumi, not meat; {sub} hasn't eaten meat in years."))),
]

BY_KEY = {t.key: t for t in TRAITS}
