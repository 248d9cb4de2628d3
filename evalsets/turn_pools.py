"""Word pools and clause templates for evalsets.turns: people talking about their lives, work and
plans. Written for this generator alone (not shared with generate/ or convgen/), so a pipeline
gain measured on these turns is not a gain on the evaluation sets' wording.

Templates are first-person clauses with {slots}; turns.py fills the slots from the speaker's life
(`Life`) and these pools. A clause has no capital and no final stop: turns.py joins clauses with
"and", "but", "because", "so" or commas into sentences.
"""

SPEAKERS = ["Noor", "Tobias", "Maren", "Kwame", "Ilona", "Sebastian", "Priya", "Anselm", "Yuki", "Dario",
            "Solveig", "Emeka", "Carla", "Henrik", "Ayesha", "Matteo", "Lena", "Oluwaseun", "Rosa", "Viktor"]
OTHERS = ["Agnes", "Bruno", "Celine", "Desmond", "Elif", "Fergus", "Gisela", "Hamid", "Imogen", "Jonas", "Kasia",
          "Leandro", "Mireille", "Nikolai", "Odile", "Pavel", "Quentin", "Rahel", "Stellan", "Thandiwe", "Ulrike",
          "Valentin", "Wanjiru", "Xavier", "Yasmin", "Zoltan", "Annika", "Benedikt", "Cosima", "Dariusz",
          "Esther", "Florin", "Greer", "Hollis", "Ingmar", "Jovana", "Kieran", "Liesel", "Marius", "Nadia"]
CITIES = ["Lisbon", "Utrecht", "Leeds", "Graz", "Tampere", "Bologna", "Nantes", "Krakow", "Aarhus", "Bilbao",
          "Ljubljana", "Galway", "Ghent", "Dresden", "Porto", "Malmo", "Brno", "Lyon", "Cork", "Basel", "Trieste",
          "Bergen", "Seville", "Vilnius"]
EMPLOYERS = ["Brightwater Logistics", "Halden Clinic", "Corvid Games", "Marlow & Finch", "Tessellate Labs",
             "the Orchard Street library", "Kestrel Insurance", "Quarry Hill School", "Lumen Biotech",
             "Saltmarsh Brewery", "the city planning office", "Fernhill Architects", "Northgate Hospital",
             "Pinecone Robotics", "Vesper Foods", "Holloway Press"]
JOBS = ["a nurse", "a data analyst", "a primary teacher", "a structural engineer", "a product designer",
        "an accountant", "a line cook", "a pharmacist", "a translator", "a backend developer", "a physiotherapist",
        "a project manager", "a librarian", "an electrician", "a paralegal", "a lab technician"]
PROJECTS = ["Atlas", "Juniper", "Harbor", "Meridian", "Bluebell", "Cobalt", "Tern", "Saffron", "Granite", "Willow"]
RELATIONS = ["sister", "brother", "cousin", "aunt", "uncle", "niece", "nephew", "best friend", "flatmate",
             "grandmother", "neighbour"]
PETS = [("dog", "a scruffy terrier"), ("cat", "a grey tabby"), ("dog", "an old greyhound"), ("rabbit", "a lop rabbit"),
        ("cat", "a very loud Siamese"), ("dog", "a spaniel puppy"), ("parrot", "a green parakeet")]
PET_NAMES = ["Pickle", "Mango", "Biscotti", "Juno", "Pepper", "Otis", "Noodle", "Marble", "Clementine", "Waffles"]
HOBBIES = [("climbing", "the bouldering gym"), ("pottery", "the community studio"), ("running", "the river path"),
           ("choir singing", "the church hall"), ("woodworking", "my garage"), ("swimming", "the public pool"),
           ("chess", "the café on Mill Road"), ("baking sourdough", "my kitchen"), ("birdwatching", "the wetlands"),
           ("salsa dancing", "the studio above the bakery"), ("cycling", "the coast road"),
           ("painting watercolours", "the park"), ("gardening", "our allotment"), ("volunteering", "the food bank")]
INSTRUMENTS = ["the cello", "the ukulele", "piano", "the drums", "the violin", "bass guitar"]
BOOKS = [("The Overstory", "Richard Powers"), ("Piranesi", "Susanna Clarke"), ("Middlemarch", "George Eliot"),
         ("Klara and the Sun", "Kazuo Ishiguro"), ("The Dispossessed", "Ursula Le Guin"),
         ("Homegoing", "Yaa Gyasi"), ("Stoner", "John Williams"), ("The Remains of the Day", "Kazuo Ishiguro")]
SHOWS = ["a Danish crime series", "that baking competition", "a documentary about octopuses",
         "an old Hitchcock film", "the new season of that space drama", "a stand-up special"]
DISHES = ["a lentil curry", "paella", "a huge pot of chili", "dumplings from scratch", "a lemon tart", "shakshuka",
          "mushroom risotto", "a roast chicken", "banana bread", "pierogi"]
ROOMS = ["the kitchen", "the spare room", "the hallway", "the bathroom", "the balcony", "the attic", "the living room"]
FIXES = ["the boiler", "a leaking tap", "the washing machine", "the back door lock", "the radiator", "the oven"]
COURSES = ["Spanish", "first aid", "pottery", "Python", "photography", "sign language", "bookkeeping",
           "Italian cooking"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WHEN_PAST = ["yesterday", "last weekend", "on Saturday", "this morning", "last night", "a couple of days ago",
             "last week", "on Sunday afternoon", "the other day", "earlier today", "on Tuesday evening",
             "over the bank holiday", "two weeks ago", "on Friday night", "at the start of the month", "last Thursday"]
WHEN_FUTURE = ["next month", "this weekend", "on Friday", "in two weeks", "after the holidays", "next spring",
               "in September", "tomorrow", "at the end of the month", "over Easter", "next Tuesday",
               "in the summer", "before Christmas", "the week after next"]
FREQUENCIES = ["every Tuesday", "twice a week", "on weekends", "every other Thursday", "most evenings",
               "once a month", "every morning before work", "on Sunday mornings", "three times a week"]
PLACES = ["Castle Park", "the Moorfield market", "the harbour", "the botanical garden", "the old quarry lake",
          "the Rialto cinema", "the night market", "the climbing wall in Eastgate", "the Sunday flea market",
          "the little Greek place on Dock Street", "the science museum", "the lido", "the farmers' market",
          "the Arden hills", "the jazz bar on Quay Lane", "the waterfront", "the garden centre", "the ice rink"]
THINGS = ["a second-hand bike", "a new kettle", "a standing desk", "a pair of hiking boots", "a sewing machine",
          "a record player", "an electric piano", "a tent", "a coffee grinder", "a sofa bed", "a drone",
          "a telescope", "a bread maker", "winter tyres", "a rowing machine", "a vintage camera"]
EVENTS = ["the team offsite", "my cousin's wedding", "the school fair", "the marathon", "the open day",
          "the office party", "the quiz night", "the book launch", "the street party", "the conference in Vienna",
          "the charity run", "the leaving do", "the neighbourhood clean-up", "the christening"]
AMOUNTS = ["twenty minutes", "two hours", "the whole afternoon", "most of the evening", "half the day",
           "a full week", "three evenings in a row"]

# First-person clauses by life area. Slots: {employer} {job} {city} {project} {boss} {colleague} {friend}
# {relation} {relname} {relcity} {pet} {petname} {pettype} {hobby} {venue} {instrument} {book} {author}
# {show} {dish} {room} {fix} {course} {day} {past} {future} {freq} {othercity} {place} {thing} {event}
# {amount} {n}
CLAUSES = {
    "work": [
        "I spent {amount} on {day} rewriting the {project} report for {boss}",
        "we shipped the first part of {project} at {employer} {past}",
        "{boss} wants the {project} numbers ready by {future}",
        "I've been working as {job} at {employer} for almost {n} years now",
        "{colleague} and I presented the {project} plan to the whole department {past}",
        "the night shifts at {employer} ran over {amount} {past}",
        "I had my yearly review with {boss} {past}",
        "half the team at {employer} was out sick during {event}",
        "I'm training two new people on the {project} work {freq}",
        "{colleague} is leaving {employer} {future} to start her own business",
        "the {project} team is moving to the office in {othercity} {future}",
        "I stayed late on {day} to fix a mistake in the {project} budget",
        "{boss} asked me to lead the {project} team after {event}",
        "the commute to {employer} took me {amount} {past}",
        "{colleague} covered my shift on {day} so I could go to {event}",
        "we had a fire drill at {employer} {past} and lost {amount}",
        "I got a small raise at {employer} after the {project} launch",
    ],
    "family": [
        "my {relation} {relname} is coming to stay with us {future}",
        "my {relation} {relname} moved to {relcity} {past} for a job at {employer}",
        "we drove up to see my parents {past} and took them to {place}",
        "my {relation} {relname} had a baby girl {past}",
        "my mum called {amount} {past} to ask about {event}",
        "{relname} and I haven't really talked since {event}",
        "my dad finally retired from his job in {relcity} {past}",
        "we spent {past} helping {relname} paint her new flat in {relcity}",
        "my {relation} {relname} is applying to universities in {othercity}",
        "the kids spent {past} at their grandparents' place in {relcity}",
        "my {relation} {relname} got engaged at {place} {past}",
        "{relname} borrowed {thing} from us and hasn't given it back",
        "I took my {relation} {relname} to {place} for her birthday {past}",
    ],
    "home": [
        "we repainted {room} {past}",
        "the landlord still hasn't repaired {fix} in our flat in {city}",
        "we're thinking of leaving {city} for somewhere with a garden",
        "I finally put up the shelves in {room} {past}",
        "our neighbour {friend} lent us {thing} {past}",
        "{fix} broke again on {day}",
        "we've lived in {city} for {n} years now",
        "the rent on our flat in {city} went up by {n} percent",
        "I spent {amount} on {day} clearing out {room}",
        "I bought {thing} for {room} {past}",
        "a pipe burst in {room} {past} and flooded the floor",
    ],
    "health": [
        "I ran {n} kilometres around {place} {past}",
        "my knee has been sore since {event}",
        "I've been sleeping badly since {event}",
        "I started physiotherapy for my back {past}",
        "I cut coffee down to one cup a day {past}",
        "the doctor told me {past} to take it easy for {n} weeks",
        "I've been going to the pool {freq}",
        "I caught a nasty cold at {event}",
        "I walked to {place} and back {past}",
    ],
    "leisure": [
        "I'm halfway through {book} by {author}",
        "we watched {show} at {friend}'s place {past}",
        "I cooked {dish} for {friend} on {day}",
        "I've been doing {hobby} at {venue} {freq}",
        "I started learning {instrument} {past}",
        "{petname} chewed through the cable of {thing} {past}",
        "I took {petname} to the vet {past}",
        "{friend} talked me into joining a quiz team at {place}",
        "I finished a jigsaw with {n} hundred pieces {past}",
        "I entered a photo of {place} in the {city} library's competition",
        "we spent {amount} at {place} {past}",
        "I picked up {thing} at {place} {past}",
        "{friend} and I went to a concert at {place} {past}",
        "I tried {dish} at {place} {past}",
    ],
    "plans": [
        "we're flying to {othercity} {future} to see {relname}",
        "I signed up for a {course} course at the community college {past}",
        "I'm going to ask {boss} for a four-day week {future}",
        "we want to cycle from {city} to {othercity} {future}",
        "I'm planning a surprise party for {friend} at {place}",
        "I've booked a week in {othercity} {future}",
        "I'm going to run the half marathon in {city} {future}",
        "we're saving up to buy a flat near {place}",
        "I want to take {petname} camping in the Arden hills {future}",
        "{friend} and I are going to {event} {future}",
    ],
}
# What follows a main clause, by connective.
BECAUSE = ["the trains were cancelled again", "{colleague} was off sick", "it rained the whole weekend",
           "I needed a break from screens", "{relname} asked me to", "the deadline moved up by a week",
           "we couldn't agree on a date", "I promised {friend} months ago", "my back was killing me",
           "the car is still at the garage", "I want to spend more time outside", "money is a bit tight this month"]
BUT = ["it took much longer than I thought", "I'm not sure it was worth it", "{friend} loved it",
       "nobody told me about the change", "we still had a good time", "I'm glad it's done",
       "the weather ruined half of it", "I can't complain", "{boss} wasn't impressed",
       "I'll probably do it again next year", "it cost twice what we planned"]
SO = ["I'm exhausted today", "we're staying in this weekend", "I have to redo half of it",
      "I'll see {relname} a lot more", "the flat is a mess right now", "I finally have some free evenings",
      "I'm behind on everything else", "{petname} is staying with {friend} for a few days"]
AND = ["{friend} came along", "it was great", "I can't wait to go back", "I've been tired ever since",
       "we ended up eating at that Lebanese place", "it made me think of you"]
QUESTIONS = ["How did the {their_hobby} go this week?", "Did you ever hear back from {their_employer}?",
             "What are you doing {future}?", "How is your {their_relation} {their_relname} getting on?",
             "Are you still going to {their_venue}?", "Have you finished {book} yet?",
             "How's {their_petname} doing?", "Did the move to {their_city} feel strange at first?",
             "When do you start the new role?", "What did {their_boss} say about it?",
             "Do you want to come along next time?", "How do you find the time for all of it?",
             "Is {their_relcity} nice this time of year?", "What was the best part?"]
REACTIONS = ["Oh wow, that sounds exhausting!", "That's brilliant news!", "Ha, I can picture it.", "No way!",
             "I'm so sorry to hear that.", "Good for you!", "That sounds lovely.", "Ugh, I know the feeling.",
             "Honestly, same here.", "Oh no, poor you!", "That's so exciting!", "Wait, really?"]
HEDGES = ["I think", "maybe", "probably", "I guess"]
FEELINGS = ["I'm really proud of how it turned out", "I feel a bit guilty about it", "it made my whole week",
            "I'm still annoyed about it", "I didn't expect to enjoy it so much", "it's been a lot lately"]
# Life changes: one clause each, then the speaker's life changes (turns.py applies it).
CHANGES = {
    "job": "I handed in my notice and I start as {job} at {employer} on Monday",
    "move": "we're moving to {city} at the end of the month because of my new contract",
    "pet": "we adopted {pet} from the shelter and called her {petname}",
    "hobby": "I've taken up {hobby} at {venue}",
}
