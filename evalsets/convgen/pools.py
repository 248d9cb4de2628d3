"""Word pools the conversations draw from: people's names from many cultures, places with
their country and language (for light world-knowledge questions), jobs, pets, purchases,
events and hobbies. Plain tuples so that every draw is an index into a fixed order."""

from __future__ import annotations

from typing import NamedTuple


class City(NamedTuple):
    name: str
    country: str
    language: str  # the language most people there speak day to day


class Job(NamedTuple):
    title: str       # "nurse"
    place: str       # where the work happens: "the children's hospital"
    grind: str       # a complaint only this job would have
    expertise: str   # something one would ask this person about


NAMES: tuple[tuple[str, str], ...] = (
    ("Amara", "f"), ("Kwame", "m"), ("Priya", "f"), ("Hiroshi", "m"), ("Mateo", "m"), ("Sofía", "f"),
    ("Oluwaseun", "m"), ("Ngozi", "f"), ("Lars", "m"), ("Ingrid", "f"), ("Dmitri", "m"), ("Anya", "f"),
    ("Wei", "m"), ("Mei", "f"), ("Farah", "f"), ("Omar", "m"), ("Aroha", "f"), ("Tane", "m"),
    ("Siobhan", "f"), ("Declan", "m"), ("Thandiwe", "f"), ("Sipho", "m"), ("Camila", "f"), ("Joaquín", "m"),
    ("Leilani", "f"), ("Keoni", "m"), ("Zeynep", "f"), ("Emre", "m"), ("Ana", "f"), ("João", "m"),
    ("Nadia", "f"), ("Yusuf", "m"), ("Linh", "f"), ("Minh", "m"), ("Ji-woo", "f"), ("Min-jun", "m"),
    ("Aisha", "f"), ("Tariq", "m"), ("Elif", "f"), ("Ravi", "m"), ("Ananya", "f"), ("Arjun", "m"),
    ("Marisol", "f"), ("Diego", "m"), ("Astrid", "f"), ("Henrik", "m"), ("Chiara", "f"), ("Luca", "m"),
    ("Fatou", "f"), ("Moussa", "m"), ("Rania", "f"), ("Karim", "m"), ("Yuki", "f"), ("Kenji", "m"),
    ("Esperanza", "f"), ("Rafael", "m"), ("Olga", "f"), ("Pavel", "m"), ("Noor", "f"), ("Bilal", "m"),
    ("Imani", "f"), ("Jabari", "m"), ("Saoirse", "f"), ("Cian", "m"), ("Maja", "f"), ("Tomasz", "m"),
    ("Ximena", "f"), ("Tupac", "m"), ("Hana", "f"), ("Tomás", "m"), ("Beatriz", "f"), ("Sanjay", "m"),
    ("Greta", "f"), ("Felix", "m"), ("Adaeze", "f"), ("Chidi", "m"), ("Malia", "f"), ("Sione", "m"),
    ("Dalia", "f"), ("Avi", "m"), ("Paulina", "f"), ("Nikolai", "m"), ("Lucía", "f"), ("Andrés", "m"),
    ("Grace", "f"), ("Marcus", "m"), ("Ruth", "f"), ("Theo", "m"), ("Bushra", "f"), ("Idris", "m"),
)

CITIES: tuple[City, ...] = (
    City("Lyon", "France", "French"), City("Porto", "Portugal", "Portuguese"), City("Kyoto", "Japan", "Japanese"),
    City("Oaxaca", "Mexico", "Spanish"), City("Kraków", "Poland", "Polish"), City("Hanoi", "Vietnam", "Vietnamese"),
    City("Busan", "South Korea", "Korean"), City("Marrakesh", "Morocco", "Arabic"), City("Cusco", "Peru", "Spanish"),
    City("Tbilisi", "Georgia", "Georgian"), City("Gothenburg", "Sweden", "Swedish"), City("Bergen", "Norway", "Norwegian"),
    City("Valencia", "Spain", "Spanish"), City("Bologna", "Italy", "Italian"), City("Istanbul", "Turkey", "Turkish"),
    City("Chiang Mai", "Thailand", "Thai"), City("Cape Town", "South Africa", "English"),
    City("Nairobi", "Kenya", "Swahili"), City("Montreal", "Canada", "French"), City("Melbourne", "Australia", "English"),
    City("Wellington", "New Zealand", "English"), City("Edinburgh", "the United Kingdom", "English"),
    City("Munich", "Germany", "German"), City("Leipzig", "Germany", "German"), City("Rotterdam", "the Netherlands", "Dutch"),
    City("Zagreb", "Croatia", "Croatian"), City("Reykjavik", "Iceland", "Icelandic"),
    City("Buenos Aires", "Argentina", "Spanish"), City("Taipei", "Taiwan", "Mandarin"), City("Jaipur", "India", "Hindi"),
    City("Lagos", "Nigeria", "English"), City("Dublin", "Ireland", "English"), City("Vancouver", "Canada", "English"),
    City("Austin", "the United States", "English"), City("Denver", "the United States", "English"),
    City("Seville", "Spain", "Spanish"), City("Gdańsk", "Poland", "Polish"), City("Ljubljana", "Slovenia", "Slovenian"),
    City("Tallinn", "Estonia", "Estonian"), City("Naples", "Italy", "Italian"), City("Hamburg", "Germany", "German"),
    City("Accra", "Ghana", "English"), City("Manila", "the Philippines", "Filipino"), City("Santiago", "Chile", "Spanish"),
    City("Athens", "Greece", "Greek"), City("Budapest", "Hungary", "Hungarian"), City("Prague", "Czechia", "Czech"),
    City("Osaka", "Japan", "Japanese"), City("Quito", "Ecuador", "Spanish"), City("Helsinki", "Finland", "Finnish"),
)

JOBS: tuple[Job, ...] = (
    Job("nurse", "the children's hospital", "another double shift on the ward", "a cough that won't go away"),
    Job("software engineer", "a payments startup", "a production outage at 3am", "fixing a slow laptop"),
    Job("chemistry teacher", "a secondary school", "forty lab reports to mark by Monday", "why bread dough rises"),
    Job("line cook", "a tapas bar", "a Saturday service with two people off sick", "sharpening kitchen knives"),
    Job("architect", "a small studio", "a client who wants the whole facade changed again", "planning a loft conversion"),
    Job("paramedic", "the ambulance service", "a night of call-outs with no break", "what goes in a first-aid kit"),
    Job("graphic designer", "an agency", "a logo on its fourteenth revision", "choosing fonts for a wedding invite"),
    Job("accountant", "a mid-size firm", "tax season and twelve-hour days", "filing a tax return"),
    Job("vet technician", "an animal clinic", "a very angry cat and three scratches", "a dog that won't eat"),
    Job("electrician", "a contractor", "a whole day crawling around an attic", "a light switch that sparks"),
    Job("data analyst", "a logistics company", "a dashboard nobody reads", "making sense of a spreadsheet"),
    Job("physiotherapist", "a sports clinic", "back-to-back appointments all day", "a stiff neck from desk work"),
    Job("journalist", "a regional newspaper", "a deadline moved up by six hours", "checking whether a story is true"),
    Job("pharmacist", "a pharmacy on the high street", "the flu-season queue out the door", "mixing two medications"),
    Job("UX researcher", "a travel app company", "six user interviews in one day", "why an app feels confusing"),
    Job("civil engineer", "the city's bridge team", "a site visit in horizontal rain", "whether a crack in a wall matters"),
    Job("librarian", "the central library", "a printer jam that took the whole morning", "a good book for a teenager"),
    Job("social worker", "the county family services", "a caseload that never shrinks", "finding local support services"),
    Job("dentist", "a family practice", "a patient who bit my finger", "sensitive teeth"),
    Job("bike mechanic", "a repair shop", "twelve flat tyres before lunch", "a squeaky bike chain"),
    Job("sound engineer", "a recording studio", "a band that wanted forty takes", "setting up speakers"),
    Job("translator", "a legal translation agency", "a 90-page contract due tomorrow", "a tricky phrase in a letter"),
    Job("florist", "a flower shop", "Valentine's week and four hours of sleep", "keeping cut flowers alive"),
    Job("marine biologist", "a coastal research station", "a week of counting seagrass", "what lives in rock pools"),
)

COMPANY_HEADS = ("Bright", "North", "Tide", "Kestrel", "Copper", "Lumen", "Harbor", "Juniper", "Quarry", "Saffron",
                 "Orbit", "Ember", "Maple", "Cobalt", "Fern", "Granite")
COMPANY_TAILS = ("loop", "wind Labs", "water Studio", " Health", "field Analytics", "stone Games", " Robotics",
                 "line Logistics", " & Finch", "works", " Energy", "gate Media")
NEW_ROLES = ("product manager", "team lead", "senior designer", "operations coordinator", "research associate",
             "project engineer", "content strategist", "quality analyst")

PROJECT_NAMES = ("Heron", "Atlas", "Lantern", "Marigold", "Basalt", "Tangerine", "Kite", "Driftwood", "Nimbus",
                 "Pebble", "Sundial", "Falcon", "Orchard", "Compass", "Juniper", "Quartz")
PROJECT_AIMS = ("an app that helps flatmates split chores", "a dashboard that shows free hospital beds",
                "a new checkout for the online shop", "a tool that turns meeting notes into task lists",
                "a booking system for the city's sports halls", "a chatbot that answers questions about bus routes",
                "a map of every public water fountain", "an internal tool to track equipment repairs")

PETS = (  # species, breed as said, the young one's word, needs daily walks
    ("dog", "beagle", "puppy", True), ("dog", "border collie", "puppy", True),
    ("dog", "retired greyhound", "dog", True), ("dog", "dachshund mix", "puppy", True),
    ("dog", "shiba inu", "puppy", True), ("cat", "ginger tabby", "kitten", False),
    ("cat", "Maine Coon", "kitten", False), ("cat", "black shorthair", "kitten", False),
    ("rabbit", "lop-eared rabbit", "bunny", False),
)
PET_NAMES = ("Biscuit", "Mochi", "Pepper", "Juniper", "Olive", "Bento", "Ziggy", "Nacho", "Pickle", "Turnip",
             "Waffles", "Miso", "Clementine", "Noodle", "Gizmo", "Pretzel", "Saffron", "Bramble")
PET_SOURCES = ("the shelter on the edge of town", "a rescue group my coworker volunteers with",
               "a family two streets over whose litter was too big", "the animal rescue near the market")
CHEWED = ("two socks and a phone charger", "the corner of the rug", "a whole roll of toilet paper",
          "a pair of sandals", "the TV remote")

SHOWS = ("Severance", "The Bear", "Slow Horses", "Shogun", "Only Murders in the Building", "Bake Off",
         "Reservation Dogs", "Abbott Elementary", "Dark", "Squid Game")
DISHES = ("shakshuka", "dal makhani", "mushroom risotto", "bibimbap", "pierogi", "jollof rice", "pad see ew",
          "mapo tofu", "chana masala", "miso ramen", "black bean tacos", "spanakopita")
ARTISTS = ("Fela Kuti", "Björk", "Rosalía", "Khruangbin", "Nina Simone", "Arooj Aftab", "Bad Bunny", "Radiohead")
CUISINES = (("Indian", "dal and three kinds of paratha"), ("Ethiopian", "misir wot with injera"),
            ("Sichuan", "mapo tofu with mushrooms instead of pork"), ("Lebanese", "a huge tray of mujadara"),
            ("Mexican", "black bean enchiladas"), ("Korean", "kimchi fried rice"))

INJURIES = (  # what happened, doing what, what the doctor said, body part, first thing back
    ("sprained my ankle", "five-a-side football", "rest, ice and physio twice a week", "ankle", "a slow 3k jog"),
    ("pulled something in my lower back", "carrying a friend's sofa up four flights",
     "gentle stretching and no lifting for a month", "back", "a beginners' yoga class"),
    ("fractured my wrist", "a bike crash on the canal path", "a cast for six weeks", "wrist", "a short, careful bike ride"),
    ("tore a muscle in my calf", "a badminton match", "a compression sleeve and no sprinting for three weeks",
     "calf", "twenty lengths at the pool"),
)

EVENTS = (  # the event, a short word for it, the good outcome as said and as answered, an inference and its answer
    ("driving test", "test", "PASSED!! only two minor faults, the examiner even smiled", "Passed, with two minor faults",
     "Can {P} legally drive on {pos} own now?", "Yes, {P} passed the driving test"),
    ("half marathon", "race", "finished! 2 hours 7 minutes, and I did not walk once",
     "Finished in 2 hours 7 minutes without walking",
     "Is {P} likely in decent running shape?", "Yes, {P} ran a half marathon without walking"),
    ("citizenship interview", "citizenship interview", "they approved it on the spot. I cried in the corridor",
     "Approved on the spot", "Is {P} likely to be able to vote in the next national election there?",
     "Probably yes, the citizenship was approved"),
    ("thesis defence", "defence", "they passed me with minor corrections!! it's over", "Passed with minor corrections",
     "Has {P} most likely finished {pos} doctorate?", "Yes, apart from minor corrections"),
    ("piano exam", "exam", "got a distinction, still shaking", "A distinction",
     "Can {P} probably play the piano fairly well?", "Yes, {P} passed a piano exam with distinction"),
    ("first pottery exhibition", "exhibition", "sold six pieces on the opening night!", "Six pieces sold on the opening night",
     "Would {P} probably welcome a commission for a set of mugs?", "Likely yes, {P} sells pottery and just exhibited"),
)

PURCHASES = (  # what, the short noun, photo caption, first outing, the hobby it points to
    ("a secondhand road bike", "bike", "a silver road bike leaning against a brick wall",
     "did 40 km along the river without stopping", "cycling"),
    ("an inflatable kayak", "kayak", "a yellow kayak on a pebble beach",
     "paddled out to the little island on the lake", "kayaking"),
    ("an old film camera", "camera", "an old film camera on a wooden table",
     "shot a whole roll at the botanical garden", "film photography"),
    ("a telescope", "telescope", "a white telescope on a tripod on a balcony",
     "saw Saturn's rings from the balcony", "stargazing"),
    ("a sewing machine", "sewing machine", "a sewing machine next to a pile of fabric",
     "made a tote bag out of an old curtain", "sewing"),
    ("a pizza oven for the garden", "pizza oven", "a small outdoor pizza oven with flames inside",
     "made eight pizzas for the neighbours", "outdoor cooking"),
)

VOLUNTEERING = (  # where, the routine, a moment from it as said and as answered
    ("the food bank", "sorting donations on Saturday mornings", "we packed 300 parcels before noon",
     "They packed 300 parcels before noon"),
    ("an after-school club", "helping kids with maths homework", "one of my kids finally got fractions",
     "A child they help finally understood fractions"),
    ("the animal shelter", "walking the older dogs on Sundays", "the grumpy old terrier let me pet him",
     "A grumpy old terrier finally let them pet him"),
    ("a community garden", "weeding and watering twice a week", "the tomatoes we planted are taller than me",
     "The tomatoes they planted grew taller than them"),
    ("a literacy charity", "reading with adults who are learning English", "my learner read a whole page out loud",
     "Their learner read a whole page out loud"),
)

TRIES = {  # what was tried, the word for the set, the outing a fan would enjoy
    "instruments": (("guitar", "ukulele", "cello", "drums", "violin", "banjo", "saxophone", "piano"),
                    "a live folk music night"),
    "sports": (("bouldering", "padel", "fencing", "rowing", "kickboxing", "ultimate frisbee", "archery"),
               "a weekend sports camp"),
    "crafts": (("pottery", "knitting", "woodworking", "watercolour painting", "embroidery", "calligraphy"),
               "a craft fair"),
}
QUIT_REASONS = (  # as said, as answered
    ("my fingers could not take it", "It hurt too much on the fingers"),
    ("the class clashed with work", "The class clashed with work"),
    ("the teacher was way too intense", "The teacher was too intense"),
    ("it's so much harder than it looks", "It was much harder than it looked"),
    ("honestly it was too expensive", "It was too expensive"),
    ("I kept skipping practice", "They kept skipping practice"),
)

BOOKS = (("Piranesi", "Susanna Clarke"), ("The Remains of the Day", "Kazuo Ishiguro"),
         ("Pachinko", "Min Jin Lee"), ("Project Hail Mary", "Andy Weir"), ("Circe", "Madeline Miller"),
         ("Homegoing", "Yaa Gyasi"), ("The Overstory", "Richard Powers"), ("A Gentleman in Moscow", "Amor Towles"),
         ("Things Fall Apart", "Chinua Achebe"), ("The Shadow of the Wind", "Carlos Ruiz Zafón"))

ROOMS = ("kitchen", "bedroom", "living room", "hallway", "bathroom")
COLOURS = ("sage green", "terracotta", "deep navy", "butter yellow", "dusty pink", "warm white", "forest green")
RENO_NEXT = (("the floor", "ripped up the old carpet and sanded the boards"), ("the shelves", "built shelves into the alcove"),
             ("the lights", "swapped the ceiling light for a vintage pendant"), ("the door", "stripped and oiled the old door"))

MEET_PLACES = ("at a climbing gym", "at a friend's barbecue", "at a language exchange night", "at a pub quiz",
               "on a dating app", "at a cousin's wedding", "in a pottery class")
PARTNER_TREATS = ("homemade gnocchi", "a three-course Thai dinner", "a very burnt lasagne that was still great",
                  "fresh dumplings from scratch")

THIRD_RELATIONS = ("roommate", "best friend", "coworker", "son", "daughter")
THIRD_HOBBIES = (  # hobby, a proud result, the competition
    ("baking sourdough", "baked a loaf with a perfect crust", "the neighbourhood bake-off"),
    ("chess", "beat a guy rated 1800 online", "a weekend rapid tournament"),
    ("trail running", "did 25 km up and down the ridge", "a mountain trail race"),
    ("street photography", "took a photo of a man feeding pigeons that is honestly art", "the city photo contest"),
    ("competitive karaoke", "nailed a Whitney Houston song", "the bar's karaoke championship"),
)
VENUES = ("a rooftop bar", "the Georgian restaurant on the corner", "a karaoke room", "a picnic in the park",
          "a tiny jazz bar downtown")
