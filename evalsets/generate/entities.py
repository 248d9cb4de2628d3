"""Entity pools: speakers, relatives, cities, jobs, animals.

Tuples carry the attributes the questions need (a city's country and language for open-domain
questions, a job's field, a breed's species and size), so an answer can be inferred from a turn
that never names it.
"""

from __future__ import annotations


def _words(text: str) -> list[str]:
    return text.split()


SPEAKERS_F = _words("""Maria Caroline Melanie Priya Joanna Nadia Elena Sofia Hannah Leila Rosa Ingrid Amara
Keiko Daniela Fiona Marisol Tessa Yasmin Greta Noor Camille Beatriz Irene Olga Lucia Hazel Mira
Talia Vanessa Ruth Selin Ada Paula""")
SPEAKERS_M = _words("""John Tomas Rahul Marcus Daniel Kofi Mateo Felix Andre Samir Jonah Lukas Omar
Henrik Caleb Dmitri Rafael Ethan Victor Isaac Nikhil Simon Gareth Joel Bruno Emeka Oscar Tariq
Hugo Patrick Arjun Wesley""")

RELATIVE_F = _words("""Lena Martha Chloe Beth Naomi Freya Alice Sadie Ines Clara Judith Mei Ola Rhea Bianca
Tilly Esme Dana Nora Agnes""")
RELATIVE_M = _words("""Theo Ben Ivan Kai Luca Gus Pablo Reuben Milo Sven Ravi Colin Anton Dev Elliot Nico
Malik Stefan Rory Abe""")

# (relation, gender or None when either works)
RELATIONS = [("sister", "f"), ("brother", "m"), ("cousin", None), ("aunt", "f"), ("uncle", "m"),
             ("best friend", None), ("college roommate", None), ("stepsister", "f"),
             ("stepbrother", "m"), ("childhood friend", None), ("godmother", "f"), ("niece", "f"),
             ("nephew", "m")]

# (city, country, language, continent)
CITIES = [
    ("Porto", "Portugal", "Portuguese", "Europe"), ("Lisbon", "Portugal", "Portuguese", "Europe"),
    ("Leeds", "England", "English", "Europe"), ("Bristol", "England", "English", "Europe"),
    ("Glasgow", "Scotland", "English", "Europe"), ("Lyon", "France", "French", "Europe"),
    ("Marseille", "France", "French", "Europe"), ("Valencia", "Spain", "Spanish", "Europe"),
    ("Seville", "Spain", "Spanish", "Europe"), ("Bologna", "Italy", "Italian", "Europe"),
    ("Turin", "Italy", "Italian", "Europe"), ("Munich", "Germany", "German", "Europe"),
    ("Hamburg", "Germany", "German", "Europe"), ("Rotterdam", "the Netherlands", "Dutch", "Europe"),
    ("Utrecht", "the Netherlands", "Dutch", "Europe"), ("Gothenburg", "Sweden", "Swedish", "Europe"),
    ("Bergen", "Norway", "Norwegian", "Europe"), ("Aarhus", "Denmark", "Danish", "Europe"),
    ("Krakow", "Poland", "Polish", "Europe"), ("Brno", "Czechia", "Czech", "Europe"),
    ("Ljubljana", "Slovenia", "Slovene", "Europe"), ("Cork", "Ireland", "English", "Europe"),
    ("Galway", "Ireland", "English", "Europe"), ("Athens", "Greece", "Greek", "Europe"),
    ("Split", "Croatia", "Croatian", "Europe"), ("Reykjavik", "Iceland", "Icelandic", "Europe"),
    ("Tbilisi", "Georgia", "Georgian", "Asia"), ("Istanbul", "Turkey", "Turkish", "Europe/Asia"),
    ("Austin", "the United States", "English", "North America"),
    ("Portland", "the United States", "English", "North America"),
    ("Denver", "the United States", "English", "North America"),
    ("Pittsburgh", "the United States", "English", "North America"),
    ("Minneapolis", "the United States", "English", "North America"),
    ("Savannah", "the United States", "English", "North America"),
    ("Tucson", "the United States", "English", "North America"),
    ("Halifax", "Canada", "English", "North America"), ("Montreal", "Canada", "French", "North America"),
    ("Calgary", "Canada", "English", "North America"), ("Oaxaca", "Mexico", "Spanish", "North America"),
    ("Wellington", "New Zealand", "English", "Oceania"), ("Hobart", "Australia", "English", "Oceania"),
    ("Perth", "Australia", "English", "Oceania"), ("Osaka", "Japan", "Japanese", "Asia"),
    ("Sapporo", "Japan", "Japanese", "Asia"), ("Busan", "South Korea", "Korean", "Asia"),
    ("Taipei", "Taiwan", "Mandarin Chinese", "Asia"), ("Hanoi", "Vietnam", "Vietnamese", "Asia"),
    ("Chiang Mai", "Thailand", "Thai", "Asia"), ("Cusco", "Peru", "Spanish", "South America"),
    ("Valparaiso", "Chile", "Spanish", "South America"),
    ("Cartagena", "Colombia", "Spanish", "South America"),
    ("Marrakesh", "Morocco", "Arabic", "Africa"), ("Cape Town", "South Africa", "English", "Africa"),
]

# (title, workplace, short place for "the person who works at ...", field)
JOBS = [
    ("a pediatric nurse", "the children's hospital", "the children's hospital", "healthcare"),
    ("a chemistry teacher", "Westbrook High", "a high school", "education"),
    ("a line cook", "a tapas bar downtown", "a tapas bar", "restaurants and food service"),
    ("a junior architect", "a small design studio", "an architecture studio", "architecture"),
    ("a paralegal", "an immigration law firm", "a law firm", "law"),
    ("a data analyst", "a shipping logistics company", "a logistics company", "data and analytics"),
    ("a physiotherapist", "a sports injury clinic", "a sports clinic", "healthcare"),
    ("a bus driver", "the city transit authority", "the transit authority", "public transport"),
    ("a graphic designer", "a branding agency", "a branding agency", "design and marketing"),
    ("a vet tech", "an animal clinic", "an animal clinic", "veterinary care"),
    ("a sound engineer", "a recording studio", "a recording studio", "music production"),
    ("a librarian", "the central public library", "the public library", "libraries and information"),
    ("a park ranger", "the state park service", "the park service", "conservation and outdoors"),
    ("an electrician", "a building contractor", "a building contractor", "construction trades"),
    ("a pharmacist", "a neighbourhood pharmacy", "a pharmacy", "healthcare"),
    ("a pastry chef", "a sourdough bakery", "a bakery", "baking and food"),
    ("a game tester", "an indie game studio", "a game studio", "video games and software"),
    ("a social worker", "the county family services office", "family services", "social services"),
    ("an air traffic controller", "the regional airport", "the airport", "aviation"),
    ("a florist", "a flower shop on the high street", "a flower shop", "retail and horticulture"),
    ("a barista", "a specialty coffee roastery", "a coffee roastery", "hospitality"),
    ("an accountant", "a mid-size accounting firm", "an accounting firm", "finance"),
    ("a translator", "a localization agency", "a localization agency", "languages and translation"),
    ("a museum curator", "the city history museum", "a museum", "arts and culture"),
    ("a dental hygienist", "a family dental practice", "a dental practice", "healthcare"),
    ("a software developer", "a fintech startup", "a fintech startup", "software"),
    ("a marine biologist", "the coastal research institute", "a research institute", "science"),
    ("a real estate agent", "a property agency", "a property agency", "real estate"),
    ("a firefighter", "the station on Ninth Street", "a fire station", "emergency services"),
    ("a radio producer", "the local public radio station", "a radio station", "media"),
    ("a bike mechanic", "a repair shop by the river", "a bike shop", "retail and repair"),
    ("a zookeeper", "the city zoo", "the zoo", "animal care"),
    ("a yoga instructor", "a studio near the station", "a yoga studio", "fitness and wellness"),
    ("a wedding planner", "an events company", "an events company", "events and hospitality"),
]

# (species, breed phrase without article, size, needs daily walks)
BREEDS = [
    ("dog", "beagle", "medium-sized", True), ("dog", "border collie", "medium-sized", True),
    ("dog", "greyhound", "large", True), ("dog", "dachshund", "small", True),
    ("dog", "corgi", "small", True), ("dog", "labrador", "large", True),
    ("dog", "shiba inu", "medium-sized", True), ("dog", "whippet", "medium-sized", True),
    ("dog", "cocker spaniel", "medium-sized", True), ("dog", "Australian shepherd", "large", True),
    ("dog", "pug", "small", True), ("dog", "terrier mix", "small", True),
    ("cat", "tabby", "small", False), ("cat", "Maine coon", "large", False),
    ("cat", "Siamese", "small", False), ("cat", "ragdoll", "medium-sized", False),
    ("cat", "black shorthair", "small", False), ("rabbit", "lop-eared rabbit", "small", False),
    ("rabbit", "Netherland dwarf rabbit", "small", False), ("bird", "cockatiel", "small", False),
    ("bird", "budgie", "small", False), ("guinea pig", "long-haired guinea pig", "small", False),
]
SPECIES_ALT = {"dog": "puppy", "cat": "kitten", "rabbit": "bunny", "bird": "bird", "guinea pig": "cavy"}
ALL_SPECIES = ["dog", "cat", "rabbit", "bird", "guinea pig", "hamster", "tortoise", "ferret"]

PET_NAMES = _words("""Biscuit Pickle Mochi Juniper Waffles Pepper Miso Olive Ziggy Nugget Clementine Basil
Tofu Pixel Maple Sprout Noodle Winnie Otis Dumpling Rocket Toast Cricket Pumpkin Bean Frankie
Scout Poppy Kiwi Marlowe Sorrel Pesto Gnocchi Button Fig Truffle Banjo Radish Comet Marzipan""")

PET_AGES = ["ten weeks old", "about two years old", "a senior who needed a quiet home",
            "barely six months", "four, according to the shelter", "the runt of the litter"]
