"""The things people's lives are made of: hobbies, places, books, food, pets, jobs, habits, traits.

Every entry names the key word a turn must contain for a question about it to be answerable."""

from __future__ import annotations

# (restaurant, cuisine, two vegetarian dishes as (dish, key word))
Restaurant = tuple[str, str, tuple[tuple[str, str], tuple[str, str]]]
# (exclusive group, key word, statements, question, answer, adversarial "why" question or "")
Trait = tuple[str, str, tuple[str, ...], str, str, str]

# (hobby, something they made or did, an outing that a fan of it would likely enjoy)
HOBBIES: list[tuple[str, str, str]] = [
    ("pottery", "my last bowl only leans a little", "a weekend ceramics workshop"),
    ("bouldering", "my forearms are still sore from Thursday", "a day pass at a new climbing gym"),
    ("birdwatching", "I spotted a grey heron by the canal", "a guided walk through a wetland reserve"),
    ("salsa dancing", "I only stepped on two toes last class", "a Latin dance social night"),
    ("woodworking", "I built a slightly wobbly stool", "a furniture-making course"),
    ("watercolor painting", "the sky in my last one actually looks like sky", "an outdoor sketching day"),
    ("knitting", "I'm halfway through a ridiculously long scarf", "a yarn and fibre festival"),
    ("gardening", "the tomatoes on the balcony are finally red", "a tour of a botanical garden"),
    ("photography", "I've been shooting mostly street scenes at dusk", "a photo walk around an old town"),
    ("calligraphy", "my capital letters are finally even", "an exhibition of hand lettering"),
    ("chess", "I've been playing quick games online every night", "a local chess tournament"),
    ("archery", "I hit the gold ring three times in a row", "an archery range open day"),
    ("trail running", "I did a muddy ten kilometres on Sunday", "a scenic trail race in the hills"),
    ("embroidery", "I stitched a tiny fox onto an old jacket", "a textile art fair"),
    ("astronomy", "I saw the rings of Saturn through a borrowed telescope", "a night at a dark-sky observatory"),
    ("beekeeping", "I got stung once but the honey was worth it", "a honey farm tour"),
    ("origami", "I folded a crane out of a receipt at lunch", "a paper-art workshop"),
    ("fencing", "I finally won a bout against the instructor", "a fencing taster session"),
    ("bonsai", "my little juniper survived the winter", "a bonsai exhibition"),
    ("swing dancing", "I learned my first aerial, sort of", "a big-band dance night"),
    ("rowing", "we were out on the water at six in the morning", "a regatta by the river"),
    ("jigsaw puzzles", "I finished a two-thousand piece map of the world", "a puzzle-swap café evening"),
]

# (a way of coping with work stress, the key word, the short answer)
STRESS: list[tuple[str, str, str]] = [
    ("going for long walks without my phone", "walks", "long walks"),
    ("swimming laps until my head empties", "swimming", "swimming"),
    ("baking bread and punching the dough", "bread", "baking bread"),
    ("writing everything down in a journal", "journal", "journaling"),
    ("going to a boxing class", "boxing", "boxing"),
    ("doing breathing exercises and a bit of meditation", "meditation", "meditation"),
    ("cycling along the river after work", "cycling", "cycling"),
    ("deep-cleaning the whole flat", "cleaning", "cleaning"),
    ("cooking a huge pot of soup", "soup", "cooking soup"),
    ("doing a hot yoga class", "yoga", "yoga"),
    ("repotting my houseplants", "houseplants", "tending houseplants"),
]

# (city, country)
CITIES: list[tuple[str, str]] = [
    ("Lisbon", "Portugal"), ("Kyoto", "Japan"), ("Nairobi", "Kenya"), ("Oaxaca", "Mexico"),
    ("Tbilisi", "Georgia"), ("Hanoi", "Vietnam"), ("Marrakech", "Morocco"), ("Reykjavik", "Iceland"),
    ("Cape Town", "South Africa"), ("Edinburgh", "Scotland"), ("Istanbul", "Turkey"),
    ("Buenos Aires", "Argentina"), ("Copenhagen", "Denmark"), ("Seoul", "South Korea"),
    ("Vancouver", "Canada"), ("Cartagena", "Colombia"), ("Ljubljana", "Slovenia"), ("Melbourne", "Australia"),
    ("Krakow", "Poland"), ("Valparaiso", "Chile"), ("Penang", "Malaysia"), ("Bergen", "Norway"),
    ("Naples", "Italy"), ("Seville", "Spain"), ("Dubrovnik", "Croatia"), ("Accra", "Ghana"),
]

# Invented titles, so nothing leans on outside knowledge: (title, author, what it is about)
BOOKS: list[tuple[str, str, str]] = [
    ("The Salt Orchard", "Mira Okafor", "a family running a failing orchard by the sea"),
    ("Nine Lanterns", "Teo Marchetti", "a festival in a mountain village going wrong"),
    ("A Map of Quiet Rooms", "Hanne Solberg", "a woman cataloguing her late father's house"),
    ("The Glass Cartographer", "R. D. Amadi", "a mapmaker who draws cities that don't exist yet"),
    ("Small Hours in Tangier", "Yasmin Haddad", "two strangers stuck in a hotel during a storm"),
    ("Under the Copper Moon", "Lukas Brenner", "a heist on a night train"),
    ("The Beekeeper's Ledger", "Ada Nakamura", "a village secret hidden in farm accounts"),
    ("What the River Kept", "Sofia Lindqvist", "a drowned town resurfacing in a drought"),
    ("The Last Ferry North", "Callum Reid", "an island community deciding whether to leave"),
    ("Paper Moons", "Ines Albuquerque", "a puppet theatre touring after the war"),
    ("The Weight of Feathers", "Kofi Mensah", "a birdwatcher who witnesses a crime"),
    ("Echoes of Marrow Street", "Priti Rao", "three generations in one apartment block"),
    ("A House of Borrowed Light", "Elena Varga", "a lighthouse keeper's unlikely friendship"),
    ("The Ninth Winter", "Jonas Aalto", "a research station cut off for a year"),
]

# (restaurant, cuisine, two vegetarian dishes with their key words) — meat-free so no trait can clash.
RESTAURANTS: list[Restaurant] = [
    ("Casa Lumbre", "Mexican", (("the mushroom mole enchiladas", "enchiladas"), ("the squash blossom quesadillas", "quesadillas"))),
    ("The Copper Kettle", "pub", (("the leek and cheddar pie", "pie"), ("the beer-battered halloumi", "halloumi"))),
    ("Saffron Lane", "Indian", (("the paneer tikka", "paneer"), ("the dal makhani", "dal"))),
    ("Little Pho House", "Vietnamese", (("the tofu pho", "pho"), ("the crispy spring rolls", "spring rolls"))),
    ("Nori and Salt", "Japanese", (("the avocado maki", "maki"), ("the vegetable tempura", "tempura"))),
    ("Olive and Ember", "Greek", (("the spanakopita", "spanakopita"), ("the grilled halloumi salad", "halloumi"))),
    ("Blue Door Kitchen", "Ethiopian", (("the lentil platter", "lentil"), ("the spiced chickpea stew", "chickpea"))),
    ("Trattoria Nonna Vera", "Italian", (("the pumpkin ravioli", "ravioli"), ("the wild mushroom risotto", "risotto"))),
    ("Golden Wok", "Sichuan", (("the mapo tofu", "mapo"), ("the dry-fried green beans", "green beans"))),
    ("Cedar and Sumac", "Lebanese", (("the falafel plate", "falafel"), ("the stuffed vine leaves", "vine leaves"))),
    ("The Green Fig", "vegan", (("the jackfruit tacos", "jackfruit"), ("the cashew cheesecake", "cheesecake"))),
    ("Harbour Noodle Bar", "Malaysian", (("the vegetable laksa", "laksa"), ("the roti canai", "roti"))),
    ("Masa Verde", "Salvadoran", (("the bean and cheese pupusas", "pupusas"), ("the fried plantains", "plantains"))),
    ("Seoul Spoon", "Korean", (("the kimchi fried rice", "kimchi"), ("the japchae noodles", "japchae"))),
]

# (dish cooked at home, key word)
DISHES: list[tuple[str, str]] = [
    ("dumplings", "dumplings"), ("paella", "paella"), ("ramen from scratch", "ramen"), ("injera", "injera"),
    ("pierogi", "pierogi"), ("tamales", "tamales"), ("mushroom risotto", "risotto"), ("pad thai", "pad thai"),
    ("shakshuka", "shakshuka"), ("potato gnocchi", "gnocchi"), ("baklava", "baklava"), ("arepas", "arepas"),
    ("jollof rice", "jollof"), ("spanakopita", "spanakopita"),
]

# Invented bands and TV shows.
BANDS = ["Velvet Harbor", "The Midnight Orchards", "Lumen Drive", "Saltwater Choir", "Neon Atlas",
         "The Hollow Pines", "Brass Monsoon", "Kite Season", "Static Bloom", "Marigold Radio", "Paper Tigers Club"]
SHOWS = ["Harbor Lights", "The Quiet Detective", "Ember Valley", "Parallel Kitchens", "The Long Dig",
         "Midnight at Kestrel Farm", "Tidewater", "Second Chances Bakery", "The Orbit Files", "Glasshouse"]

# (species, kinds/breeds) and pet names.
PETS: list[tuple[str, list[str]]] = [
    ("dog", ["beagle", "border collie", "retired greyhound", "corgi mix", "scruffy terrier"]),
    ("cat", ["ginger tabby", "black cat", "grey shorthair", "fluffy calico"]),
    ("rabbit", ["lop-eared rabbit", "dwarf rabbit"]),
    ("parrot", ["green-cheeked parrot", "chatty little parrot"]),
    ("tortoise", ["Hermann's tortoise", "tiny tortoise"]),
    ("hamster", ["Syrian hamster", "fluffy hamster"]),
]
PET_NAMES = ["Biscuit", "Miso", "Pepper", "Mango", "Olive", "Juniper", "Noodle", "Waffles", "Pixel",
             "Clementine", "Ziggy", "Tofu", "Basil", "Luna", "Chai", "Pickles", "Dumpling", "Sprout"]

JOBS = ["nurse", "graphic designer", "high school teacher", "software tester", "pastry chef", "physiotherapist",
        "paralegal", "data analyst", "architect", "bike mechanic", "sound engineer", "librarian", "translator",
        "social worker", "project manager", "pharmacist", "journalist", "urban planner", "florist",
        "accountant", "electrician", "museum curator", "copywriter", "dental hygienist", "vet", "park ranger",
        "event planner", "lab technician", "wedding photographer", "carpenter", "radio producer"]

# (relation, gender) of a third person a speaker talks about.
RELATIONS: list[tuple[str, str]] = [("sister", "f"), ("brother", "m"), ("cousin", "n"), ("aunt", "f"),
                                     ("uncle", "m"), ("best friend", "n"), ("stepbrother", "m")]

# (place a speaker bumped into someone, key word)
MEET_PLACES: list[tuple[str, str]] = [
    ("the farmers market", "farmers market"), ("a pub quiz", "pub quiz"), ("the train station", "train station"),
    ("a neighbourhood cleanup", "cleanup"), ("the vet clinic", "vet clinic"), ("a street food festival", "festival"),
    ("a book swap at the library", "book swap"), ("the dentist's waiting room", "dentist"),
]

LANGUAGES = ["Spanish", "Japanese", "Portuguese", "Korean", "Arabic", "Italian", "Swahili", "Mandarin",
             "German", "Turkish", "Greek", "Dutch", "Polish", "Hindi"]
LEARN_WAYS = ["with an app on the bus", "with a tutor on Thursday evenings", "at a night class",
              "by watching soap operas with subtitles", "with a conversation group at a café"]

# (weekend routine as a gerund phrase, key word, short answer)
WEEKENDS: list[tuple[str, str, str]] = [
    ("sleeping in and making a ridiculous pancake breakfast", "pancake", "lazy pancake breakfasts"),
    ("volunteering at the animal shelter on Saturday mornings", "shelter", "volunteering at an animal shelter"),
    ("hiking with a group from work", "hiking", "group hikes"),
    ("visiting my grandmother and doing her grocery run", "grandmother", "visiting their grandmother"),
    ("playing five-a-side football in the park", "football", "five-a-side football"),
    ("digging through flea markets for old records", "flea market", "flea markets for records"),
    ("a long bike ride out to the coast", "bike ride", "long bike rides"),
    ("brunch with the same three friends at the same café", "brunch", "brunch with friends"),
    ("laundry, cleaning and meal prep for the week", "meal prep", "chores and meal prep"),
    ("working a shift at my friend's bakery", "bakery", "working at a bakery"),
    ("catching the first film showing at the cinema", "cinema", "early cinema showings"),
    ("swimming in the lake if the weather allows", "lake", "lake swimming"),
]

# (how they celebrated a birthday, key word, short answer)
BIRTHDAYS: list[tuple[str, str, str]] = [
    ("a karaoke night with way too many friends", "karaoke", "a karaoke night"),
    ("a quiet picnic by the river", "picnic", "a picnic by the river"),
    ("an escape room and an enormous cake", "escape room", "an escape room"),
    ("a surprise party my roommates threw", "surprise party", "a surprise party"),
    ("a long dinner at my favourite noodle place", "noodle", "dinner at a noodle place"),
    ("a day trip to the seaside", "seaside", "a seaside day trip"),
    ("a bowling night with my cousins", "bowling", "bowling"),
]

# (what they did, the question's verb phrase with {pos}, key word)
MILESTONES: list[tuple[str, str, str]] = [
    ("ran my first half marathon", "run {pos} first half marathon", "half marathon"),
    ("passed my driving test", "pass {pos} driving test", "driving test"),
    ("gave a talk at a conference in front of two hundred people", "give {pos} conference talk", "conference"),
    ("moved into my new flat", "move into {pos} new flat", "flat"),
    ("finally got my wisdom teeth out", "have {pos} wisdom teeth removed", "wisdom teeth"),
    ("hosted my first proper dinner party", "host {pos} first dinner party", "dinner party"),
    ("finished the quilt I'd been sewing for a year", "finish {pos} quilt", "quilt"),
    ("got my citizenship papers approved", "get {pos} citizenship approved", "citizenship"),
]

# Traits for "would X likely enjoy ..." questions:
# (exclusive group, key word, statements, question, answer, adversarial "why" question or "")
TRAITS: list[Trait] = [
    ("fear", "heights", ("I'm terrified of heights, even a step ladder makes my knees go funny.",
                         "A friend wanted to go to a rooftop bar and I had to admit I'm scared of heights.",
                         "Glass lifts are my nightmare, heights and I have never been friends."),
     "Would {p} enjoy a glass-floored skywalk at the top of a tower?", "Probably not; {p} is afraid of heights",
     "Why does {p} avoid tall glass lifts and rooftop bars?"),
    ("animals", "allergic", ("I would love a cat but I'm so allergic, my eyes swell shut within minutes.",
                             "A friend's cat sat on me and I sneezed for an hour, I'm badly allergic to cats."),
     "Would {p} enjoy an afternoon at a cat café?", "Probably not; {p} is allergic to cats",
     "Why does {p} keep away from cats?"),
    ("water", "seasick", ("Even a ferry ride makes me seasick, I spend the whole time staring at the horizon.",
                          "I took a boat tour once and was seasick the entire two hours, never again."),
     "Would {p} enjoy a week-long sailing holiday?", "Probably not; {p} gets seasick", ""),
    ("food", "spicy", ("Spicy food is my love language, I put chilli oil on basically everything.",
                       "I ordered the spicy version and asked for extra chillies, no regrets at all."),
     "Would {p} like a restaurant famous for fiery Sichuan hot pot?", "Likely yes; {p} loves spicy food", ""),
    ("food", "dessert", ("I have the worst sweet tooth, I plan my whole day around dessert.",
                         "Skipping dinner and going straight to dessert is my idea of a good evening."),
     "Would {p} enjoy a pastry crawl through a bakery district?", "Likely yes; {p} has a sweet tooth", ""),
    ("sleep", "sunrise", ("I'm up before sunrise every single day, even without an alarm.",
                          "Nothing beats being out at sunrise when the streets are still empty."),
     "Would {p} be up for a dawn hike?", "Likely yes; {p} is an early riser who loves sunrise", ""),
    ("sleep", "night owl", ("I'm a total night owl, my best ideas show up around two in the morning.",
                            "Mornings are not my thing, I'm a night owl through and through."),
     "Would {p} enjoy a 6 am fitness bootcamp?", "Probably not; {p} is a night owl", ""),
    ("interest", "history", ("I could spend a whole day in a history museum reading every single plaque.",
                             "I've been reading about medieval history again, it's my comfort topic."),
     "Would {p} enjoy a guided tour of a medieval castle?", "Likely yes; {p} loves history", ""),
    ("climate", "heat", ("I'm useless in the heat, anything above twenty-five degrees and I melt.",
                         "Give me snow any day, the heat just flattens me."),
     "Would {p} enjoy a midsummer trip to the desert?", "Probably not; {p} can't stand the heat",
     "Why does {p} dread summer heatwaves?"),
    ("social", "alone", ("Big parties drain me, I need a quiet evening alone afterwards to recharge.",
                         "After a busy week I just want to be alone with a book and a blanket."),
     "Would {p} prefer a quiet night in over a huge house party?", "Likely yes; {p} recharges alone", ""),
]

# Topics nobody in any conversation ever raises: (question, word starts that must appear nowhere).
NEVER_SAID: list[tuple[str, tuple[str, ...]]] = [
    ("What instrument does {p} play in a band?", ("instrument", "guitar", "piano", "violin", "drums")),
    ("What is the name of {p}'s motorcycle?", ("motorcycle", "motorbike")),
    ("Which university did {p} graduate from?", ("university", "graduat")),
    ("What tattoo did {p} get?", ("tattoo",)),
    ("How much did {p} win in the lottery?", ("lottery",)),
    ("Where does {p} go surfing?", ("surf",)),
    ("What did {p} name {pos} boat?", ("boat", "sailboat")),
    ("When did {p} go skydiving?", ("skydiv", "parachute")),
    ("Which marathon in Boston did {p} run?", ("boston",)),
    ("What breed of horse does {p} ride?", ("horse", "riding")),
]
