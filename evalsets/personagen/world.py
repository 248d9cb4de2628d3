"""The world the personas live in: places, jobs, pets, illnesses, hobbies and the other things
their lives are assembled from. Plain data; persona.py draws from it."""

from __future__ import annotations

# country, city, highlights (past tense, first person plural/singular neutral), souvenirs
COUNTRIES = [
    ("Japan", "Kyoto", ["walked through the bamboo groves at dawn before the tour buses arrived",
                        "sat through a tiny tea ceremony in an old merchant house"],
     ["a hand-painted tea bowl", "a set of lacquered chopsticks"]),
    ("Portugal", "Lisbon", ["rode the creaky yellow tram all the way up to the castle",
                            "ate custard tarts still warm from the oven every single morning"],
     ["a blue and white painted tile", "a tin of sardines with a gloriously retro label"]),
    ("Mexico", "Oaxaca", ["learned to make mole from a grandmother at a cooking class",
                          "watched the sunrise over the ruins at Monte Alban"],
     ["a woven table runner", "a little carved wooden jaguar"]),
    ("Morocco", "Marrakech", ["got hopelessly lost in the souks and loved every minute",
                              "spent a night in a desert camp under a sky absolutely full of stars"],
     ["a brass lantern", "a pair of embroidered slippers"]),
    ("Vietnam", "Hoi An", ["floated paper lanterns down the river at night",
                           "had a suit made by a tailor in about thirty hours flat"],
     ["a silk lantern", "a bag of proper mountain coffee"]),
    ("Peru", "Cusco", ["hiked up to Machu Picchu in the clouds and cried a little at the top",
                       "tried about twelve kinds of potato at the market"],
     ["an alpaca wool scarf", "a hand-woven blanket"]),
    ("Iceland", "Reykjavik", ["soaked in a steaming hot spring while it snowed",
                              "stood in a field at midnight watching the northern lights"],
     ["a chunky wool jumper", "a jar of black lava salt"]),
    ("Italy", "Naples", ["climbed Vesuvius and peered into the crater",
                         "queued forty minutes for pizza and would do it again"],
     ["a stovetop espresso pot", "a hand-painted lemon platter"]),
    ("Kenya", "Nairobi", ["fed the orphaned baby elephants at the sanctuary",
                          "spent three days on safari in the Maasai Mara"],
     ["a beaded bracelet", "a carved soapstone bowl"]),
    ("Greece", "Thessaloniki", ["swam in water so clear you could see your toes at ten metres",
                                "ate a ridiculous amount at the old market stalls"],
     ["a bottle of peppery olive oil", "a little evil-eye charm"]),
    ("South Korea", "Busan", ["wandered the enormous fish market at six in the morning",
                              "hiked to a temple built right on the sea cliffs"],
     ["a celadon tea cup", "a pack of ridiculous face masks"]),
    ("Turkey", "Istanbul", ["took the ferry across the Bosphorus at sunset",
                            "spent an afternoon in a proper old hammam"],
     ["a copper coffee pot", "a hand-knotted kilim cushion"]),
    ("Norway", "Tromso", ["kayaked in a fjord surrounded by snowy peaks",
                          "went dog sledding under a pink winter sky"],
     ["a patterned knitted hat", "a tiny carved troll"]),
    ("Argentina", "Buenos Aires", ["watched a tango show in a tiny bar in San Telmo",
                                   "spent a Sunday at the huge antiques market"],
     ["a mate gourd with a silver straw", "a leather notebook"]),
    ("India", "Jaipur", ["watched the sunrise from the walls of the Amber Fort",
                         "learned block printing from a family of textile makers"],
     ["a block-printed quilt", "a box of spices from the old bazaar"]),
    ("Thailand", "Chiang Mai", ["spent a day at an elephant sanctuary in the hills",
                                "ate far too much at the Sunday night market"],
     ["a hand-woven silk scarf", "a little brass temple bell"]),
    ("Georgia", "Tbilisi", ["soaked in the old sulphur baths",
                            "ate cheese bread the size of a canoe at a family supper"],
     ["a bottle of amber wine", "a clay drinking horn"]),
    ("Indonesia", "Yogyakarta", ["climbed Borobudur in the dark to watch the sunrise",
                                 "took a batik workshop and made a very wonky sarong"],
     ["a batik shirt", "a carved shadow puppet"]),
    ("Egypt", "Luxor", ["floated over the Valley of the Kings in a hot-air balloon",
                        "sailed down the Nile on a little felucca"],
     ["a papyrus print", "an alabaster cat statue"]),
    ("Chile", "Valparaiso", ["wandered the painted hillsides and rode the ancient funiculars",
                             "watched the sunset from a hilltop bar over the harbour"],
     ["a lapis lazuli pendant", "a little clay pot from a street market"]),
]

SIBLING_CITIES = ["Porto", "Lyon", "Osaka", "Montreal", "Melbourne", "Edinburgh", "Krakow", "Cape Town",
                  "Austin", "Hanoi", "Izmir", "Bergen", "Accra", "Guadalajara", "Wellington", "Rotterdam",
                  "Bilbao", "Dublin", "Adelaide", "Vancouver", "Leipzig", "Bologna", "Seville", "Halifax"]

AREAS = ["the old town", "Riverside", "Northgate", "the harbour district", "Elm Park", "Hillcrest",
         "the university quarter", "Millbrook", "Southbank", "Cedar Heights", "the market district",
         "Westfield", "Ashgrove", "Kingsway", "Larkhill", "the canal quarter"]

# (role1, workplace1, short1, role2, workplace2, short2)
JOB_PATHS = [
    ("junior sound engineer", "a local radio station", "the radio station",
     "audio producer", "a podcast studio across town", "the podcast studio"),
    ("staff nurse", "the children's hospital", "the hospital",
     "clinic coordinator", "a community health centre", "the health centre"),
    ("line cook", "a busy bistro near the cathedral", "the bistro",
     "head of kitchen", "a new food hall", "the food hall"),
    ("maths teacher", "a secondary school in the north of the city", "the school",
     "curriculum designer", "an education charity", "the charity"),
    ("junior accountant", "a mid-sized audit firm", "the audit firm",
     "finance lead", "a solar energy startup", "the startup"),
    ("data analyst", "an insurance company", "the insurance company",
     "data scientist", "a sports analytics firm", "the analytics firm"),
    ("paralegal", "a family law practice", "the law practice",
     "legal researcher", "a human rights organisation", "the rights organisation"),
    ("graphic designer", "a print shop", "the print shop",
     "product designer", "a travel app company", "the app company"),
    ("lab technician", "a university lab", "the university lab",
     "quality specialist", "a vaccine manufacturer", "the vaccine plant"),
    ("bookseller", "an independent bookshop", "the bookshop",
     "assistant editor", "a small publishing house", "the publishing house"),
    ("site engineer", "a construction firm", "the construction firm",
     "project manager", "a railway upgrade programme", "the railway programme"),
    ("pharmacy assistant", "a chain pharmacy", "the pharmacy",
     "clinical trial coordinator", "a research hospital", "the research hospital"),
    ("customer support lead", "a telecoms company", "the telecoms company",
     "operations manager", "a bike-sharing company", "the bike-sharing company"),
    ("architectural assistant", "a small architecture practice", "the practice",
     "urban planner", "the city council", "the council"),
]

# quirks shared by a sibling and a first manager: (summary, sibling line, manager line)
QUIRKS = [
    ("both keep bees",
     "{N} has turned {pos} rooftop into a home for two beehives and keeps sending me photos of honey frames.",
     "{N} handed out little jars of honey from {pos} own hives at the team meeting, apparently "
     "{sub}'s kept bees for years."),
    ("both are serious chess players",
     "{N} came third in a weekend chess tournament and now spends every evening studying openings.",
     "{N} challenged the whole office to lunchtime blitz chess and beat every single one of us in under five minutes."),
    ("both run marathons",
     "{N} is training for {pos} fourth marathon, so every phone call now comes with heavy breathing in the background.",
     "{N} came in on Monday wearing a medal, turns out {sub} ran a full marathon on Sunday and still answered emails."),
    ("both are obsessed with baking sourdough",
     "{N} has named {pos} sourdough starter and feeds it more reliably than {sub} feeds {obj}self.",
     "{N} brought in a loaf of homemade sourdough and gave a ten-minute talk on fermentation times "
     "at the coffee machine."),
    ("both restore old motorbikes",
     "{N} spends every weekend in a garage covered in oil, rebuilding a nineteen-seventies motorbike bolt by bolt.",
     "{N} rode in on a gleaming vintage motorbike {sub} restored {obj}self, and the whole team went outside to look."),
    ("both do stand-up comedy",
     "{N} has started doing five-minute sets at open mic comedy nights, and some of the jokes are about me.",
     "{N} told us on Friday that {sub} does stand-up at a comedy club on weekends, and now every "
     "meeting feels like a rehearsal."),
    ("both are keen birdwatchers",
     "{N} got up at four to see some rare wading bird on the marshes and called me practically shaking with joy.",
     "{N} keeps binoculars on {pos} desk and stopped a meeting mid-sentence because a kestrel landed "
     "on the window ledge."),
    ("both sing in choirs",
     "{N} joined a gospel choir and sent me a shaky video of {pos} first solo, I've watched it about forty times.",
     "{N} invited the whole team to {pos} choir's winter concert, and {sub} had a solo that gave me goosebumps."),
    ("both swim outdoors in winter",
     "{N} has joined a group that swims in the sea all winter, in the dark, in the freezing cold, by choice.",
     "{N} swims in the lake every morning before work, even in January, and arrives glowing and "
     "terrifyingly cheerful."),
    ("both play the accordion",
     "{N} bought an accordion off a neighbour and is teaching {obj}self folk tunes, the neighbours are being "
     "very patient.",
     "{N} played the accordion at the office party and got the entire finance team dancing, which I "
     "didn't know was possible."),
]

SIBLING_JOBS = ["firefighter", "primary school headteacher", "veterinary nurse", "air traffic controller",
                "pharmacist", "tattoo artist", "marine biologist", "physiotherapist", "wedding photographer",
                "structural engineer", "midwife", "train driver", "court interpreter", "park ranger",
                "dental hygienist", "sous chef", "museum curator", "paramedic", "sign language interpreter",
                "software tester"]

SIBLING_PLANS = ["train as a commercial pilot", "open a tiny bakery in the old post office",
                 "go back to university to study architecture", "spend a year teaching English in Chile",
                 "retrain as a paramedic", "become a carpenter's apprentice", "sail around the coast on a rented boat",
                 "start a mobile bike repair business", "do a master's in marine conservation",
                 "run a small vineyard with some friends"]

MANAGER_BACKGROUNDS = [
    ("spent ten years as a professional ballet dancer before retraining", "calm under pressure"),
    ("used to be an officer on a navy submarine", "unbothered by tiny meeting rooms"),
    ("ran a food truck for years before moving into management", "good at feeding the team"),
    ("was a competitive figure skater as a teenager", "obsessed with getting things exactly right"),
    ("trained as a lawyer but quit after a single year in court", "careful with every word in emails"),
    ("grew up on a sheep farm and still goes home for lambing every spring", "practical about everything"),
    ("used to be a session guitarist for a fairly famous band", "full of outrageous stories"),
    ("worked as a park ranger in the mountains for five years", "happiest when meetings are walks"),
    ("was a professional poker player for a while in {pos} twenties", "impossible to read in negotiations"),
    ("once worked as a stunt double in action films", "weirdly relaxed about deadlines"),
]

# a health episode: the injury as said (first person), the cause, the doctor's restriction (first
# person), the same restriction recalled later, the activity taken up meanwhile (name, detail),
# the restriction told about the person (third person), and "When did X ...?" wording
HEALTH = [
    dict(injury="sprained my ankle", cause="stepping off a kerb while reading a text, which is so embarrassing",
         restriction="no running or dancing for at least six weeks", recall="I'm not allowed to run",
         activity=("swimming", "swimming laps at the leisure centre three mornings a week"),
         told="no running or dancing for at least six weeks", when_q="sprain {pos} ankle"),
    dict(injury="threw my back out", cause="lifting a bookcase on my own like an absolute idiot",
         restriction="no lifting and no long hours sitting for a while", recall="lifting anything is off-limits",
         activity=("pilates", "going to a gentle pilates class twice a week with a very strict instructor"),
         told="no lifting and no long hours of sitting for a while", when_q="throw {pos} back out"),
    dict(injury="broke my wrist", cause="slipping on wet tiles at the train station",
         restriction="my arm stays in a cast for six weeks", recall="my arm is stuck in plaster",
         activity=("audiobooks", "getting through an audiobook a week on long walks"),
         told="{pos} arm has to stay in a cast for six weeks", when_q="break {pos} wrist"),
    dict(injury="hurt my knee badly", cause="twisting it on an uneven path on a hike",
         restriction="stairs and hills are off the table for a couple of months", recall="hills are banned for now",
         activity=("stationary cycling", "riding a stationary bike at the gym while watching cooking shows"),
         told="no stairs or hills for a couple of months", when_q="hurt {pos} knee"),
    dict(injury="got a nasty concussion", cause="walking straight into an open cupboard door at work",
         restriction="screens and bright lights need to be limited for a few weeks",
         recall="I'm meant to avoid screens",
         activity=("jigsaw puzzles", "doing thousand-piece jigsaw puzzles at the kitchen table every evening"),
         told="to limit screens and bright lights for a few weeks", when_q="get a concussion"),
    dict(injury="strained a tendon in my elbow", cause="after far too many hours typing with terrible posture",
         restriction="I'm meant to rest the arm and type as little as possible", recall="I have to rest my arm",
         activity=("tai chi", "doing tai chi in the park with a group of retirees on Sunday mornings"),
         told="to rest the arm and type as little as possible", when_q="strain {pos} elbow"),
    dict(injury="had my appendix out", cause="after what I honestly thought was just a bad stomach ache",
         restriction="no heavy lifting or exercise for a month", recall="proper exercise is still banned",
         activity=("evening walks", "walking a slow loop around the park every evening after dinner"),
         told="no heavy lifting or exercise for a month", when_q="have {pos} appendix out"),
]

# species, descriptions, habits, vet findings (finding, consequence)
PETS = [
    ("dog", ["rescue greyhound", "scruffy terrier mix", "border collie", "elderly beagle", "wire-haired dachshund"],
     ["stealing one sock from every pair and burying it in the garden",
      "howling along whenever the ice cream van goes past",
      "refusing to walk in the rain and lying down on the pavement in protest"],
     [("a grass seed stuck deep in {pos} paw", "{sub} had to wear a cone for a week"),
      ("a tummy bug from eating something awful in the park", "{sub}'s on plain rice and chicken for days"),
      ("the start of arthritis in {pos} hips", "{sub}'s on joint supplements now")]),
    ("cat", ["ginger tabby", "grey rescue cat", "fluffy black cat", "skinny Siamese"],
     ["sitting on the laptop the moment a video call starts",
      "knocking exactly one glass off the table every morning",
      "sleeping in the bathroom sink like it was designed for {obj}"],
     [("a bad tooth that had to come out", "{sub}'s on soft food for a while"),
      ("a small kidney issue", "{sub}'s on special food for the rest of {pos} life"),
      ("an ear infection from goodness knows where", "{sub} needs drops twice a day")]),
    ("rabbit", ["lop-eared rabbit", "tiny dwarf rabbit", "big grey rabbit"],
     ["doing little jumping twists across the living room when {sub}'s happy",
      "chewing through every charging cable in the flat",
      "thumping {pos} foot loudly whenever dinner is late"],
     [("overgrown teeth that needed filing down", "{sub} gets checked every two months now"),
      ("a sluggish gut from not eating enough hay", "{sub}'s on a strict hay diet")]),
    ("parrot", ["African grey parrot", "green-cheeked conure", "cockatiel"],
     ["copying the phone's ringtone so perfectly that everyone keeps answering it",
      "saying hello in a deep voice to anyone who walks in",
      "dancing on {pos} perch whenever old pop songs come on"],
     [("a vitamin deficiency from only eating sunflower seeds", "{sub}'s on a proper pellet diet now"),
      ("a feather-plucking habit caused by stress", "{sub} needs more toys and attention")]),
    ("tortoise", ["Hermann's tortoise", "spur-thighed tortoise"],
     ["escaping from the garden and marching down the street like {sub} owns it",
      "following people around the kitchen whenever vegetables are being chopped"],
     [("a shell infection", "{sub} needs a special cream rubbed in twice a day"),
      ("a beak that had grown too long", "{sub} had it trimmed and eats much better now")]),
]

# a hobby: name, intro line, milestone line (with {when}), "When did X ...?" wording, and a
# single-hop question answered by the intro line
HOBBIES = [
    dict(name="pottery", intro="I finally signed up for a pottery course on Wednesday evenings, and my first mug "
                               "honestly looks like an ashtray.",
         milestone="Two of my glazed bowls actually sold at the craft market {when}, strangers paid real money "
                   "for something I made with my hands!", when_q="sell {pos} bowls at the craft market",
         single=("On which evening does {X} have {pos} pottery course?", "Wednesday evenings")),
    dict(name="woodworking", intro="I joined an evening woodworking class at the community workshop, and the smell "
                                   "of sawdust is already my favourite thing.",
         milestone="I finished my first proper bookshelf {when}, all dovetail joints, and it doesn't even wobble.",
         when_q="finish {pos} first bookshelf",
         single=("Where does {X} do woodworking?", "At an evening class at the community workshop")),
    dict(name="film photography", intro="I bought a second-hand film camera and joined a group that does photo "
                                        "walks around the city every other Saturday.",
         milestone="One of my prints got picked for the library's local exhibition, they hung it on the wall "
                   "{when} and I went to stare at it twice.", when_q="have {pos} print hung in the library exhibition",
         single=("What kind of camera did {X} buy?", "A second-hand film camera")),
    dict(name="the cello", intro="I've started cello lessons with a retired orchestra player down the road, and "
                                 "my scales currently sound like a goose in distress.",
         milestone="I played my first proper recital piece at my teacher's student concert {when}, and I didn't "
                   "stop once.", when_q="play at {pos} teacher's student concert",
         single=("Who teaches {X} the cello?", "A retired orchestra player who lives down the road")),
    dict(name="allotment gardening", intro="I finally got an allotment plot after two years on the waiting list, "
                                           "it's mostly brambles but it's all mine.",
         milestone="I harvested my first real basket of tomatoes and courgettes {when}, and I made everyone at "
                   "work take some home.", when_q="harvest {pos} first basket of tomatoes",
         single=("How long was {X} on the waiting list for an allotment?", "Two years")),
    dict(name="embroidery", intro="I've taken up embroidery in the evenings, it's the only thing that stops me "
                                  "scrolling on my phone until midnight.",
         milestone="I finished the huge floral hoop I've been stitching since forever {when}, and it's framed "
                   "above my desk now.", when_q="finish {pos} big floral embroidery hoop",
         single=("Why did {X} take up embroidery?", "It stops {obj} scrolling on {pos} phone until midnight")),
    dict(name="Spanish lessons", intro="I signed up for Spanish classes at the language school near the "
                                        "station, twice a week, with a teacher who refuses to speak English.",
         milestone="I passed my first Spanish exam {when}, the speaking part was terrifying but I got through it.",
         when_q="pass {pos} first Spanish exam",
         single=("How often does {X} have Spanish classes?", "Twice a week, at a language school near the station")),
    dict(name="choir singing", intro="I joined a community choir that rehearses in an old church hall on "
                                     "Tuesday nights, and apparently I'm a second alto.",
         milestone="We sang our first concert {when}, in front of about two hundred people, and I only came in "
                   "early once.", when_q="sing {pos} first choir concert",
         single=("When does {X}'s choir rehearse?", "On Tuesday nights, in an old church hall")),
]

COMMUTES_OLD = [
    ("a fifty-minute bus ride with a change at the interchange", "a fifty-minute bus ride with a change"),
    ("over an hour on two different trains", "over an hour on two trains"),
    ("forty-five minutes crawling through traffic in my car", "a forty-five-minute drive in traffic"),
    ("a packed train followed by a twenty-minute walk in the rain", "a packed train plus a twenty-minute walk"),
    ("two buses that never, ever connect properly", "two badly connecting buses"),
]
COMMUTES_NEW = [
    ("a twelve-minute bike ride along the canal", "a twelve-minute bike ride"),
    ("a ten-minute walk through the park", "a ten-minute walk"),
    ("one tram, twenty minutes door to door, no changes", "a single twenty-minute tram ride"),
    ("a fifteen-minute ferry ride across the harbour", "a fifteen-minute ferry ride"),
    ("a quick cycle down the hill, eight minutes on a good day", "an eight-minute cycle"),
]

RECOMMENDATIONS = {
    "book": ["The Salt Orchard", "Night Ferry to Tangier", "A Short History of Weather", "The Cartographer's "
             "Daughter", "Glass Harbour", "Lanterns Over Lagos", "The Quiet Tenant", "Winter in Valparaiso"],
    "series": ["Harbour Lights", "The Ninth Floor", "Small Town Sheriffs", "Copper and Ash", "The Understudy",
               "Northern Static"],
    "podcast": ["Tiny Disasters", "The Long Way Round", "Ghosts of the Archive", "Unreliable Narrators"],
}
# what the person said of it, and the gist (third person)
VERDICTS = [("couldn't stop until I'd finished the whole thing", "loved it and finished it in a rush"),
            ("found it painfully slow and gave up halfway", "found it slow and gave up halfway"),
            ("cried at the ending on a crowded bus", "was moved to tears by the ending"),
            ("loved the first half but the ending made no sense", "liked the first half but not the ending"),
            ("have already pushed it on three other people", "loved it enough to recommend it to others")]

# what the parent said (in the person's words), and the gist (about the person: {sub}/{pos})
PARENT_ADVICE = [
    ("that I'd regret it forever if I didn't at least try", "{sub} would regret it forever if {sub} didn't try"),
    ("to ask to meet the team first, because a good boss matters more than money",
     "to meet the team first because a good boss matters more than money"),
    ("to stop overthinking and trust my gut for once", "to stop overthinking and trust {pos} gut"),
    ("that {psub} took a similar leap at my age and it was the best decision {psub} ever made",
     "that a similar leap had been the best decision of {ppos} own life"),
    ("to negotiate the salary up before saying yes, and not to be shy about it",
     "to negotiate a higher salary before saying yes"),
]

DISHES = [("Sichuan", "mapo tofu with extra chilli"), ("Ethiopian", "spicy red lentil stew with flatbread"),
          ("Indian", "chana masala made from a neighbour's recipe"),
          ("Mexican", "black bean tacos with pickled onions"),
          ("Lebanese", "smoky aubergine dip and herby flatbreads"), ("Japanese", "miso-glazed aubergine"),
          ("Italian", "a slow-cooked tomato risotto"), ("Korean", "kimchi fried rice with a crispy egg"),
          ("Greek", "spinach and feta pie"), ("Thai", "green curry with loads of basil")]

MUSIC = [("old Cuban son records", "it makes even spreadsheets feel like a holiday"),
         ("a Malian desert blues band", "the guitar lines are hypnotic"),
         ("nineties trip-hop", "it's perfect for concentrating"),
         ("Baroque harpsichord music", "it sounds like very elegant typing"),
         ("Nigerian highlife from the seventies", "it's impossible to be grumpy with it on"),
         ("Icelandic ambient stuff", "it's like a weighted blanket for the ears"),
         ("Brazilian bossa nova", "it makes my kitchen feel like a cafe"),
         ("K-pop, completely unashamedly", "the choruses are absurdly catchy")]

ABSENT_RELATIONS = ["cousin", "grandfather", "stepbrother", "godmother", "stepsister"]
ABSENT_INSTRUMENTS = ["the violin", "the saxophone", "the drums", "the harp", "the trumpet"]
