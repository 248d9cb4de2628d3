"""Deterministic synthetic memories and queries.

Sentences are built from vocabularies of names, verbs, objects, places, project code names and
dates. Slot values are drawn with Zipf-like weights, so a few words are very common and most are
rare, the way term frequencies look in real notes; the templates also put a handful of words
("project", "team", "user", years) into a large share of the rows. Each object and verb has a
paraphrase (different words, same meaning) used by the paraphrase queries.

Everything comes from `random.Random(seed)`: the same size and seed give the same rows in the
same order on every machine.
"""

from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass

GENERATOR_VERSION = 1  # bump when the output changes (the store cache is keyed on it)

NAMES = """Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil
Trent Victor Walter Yusuf Zara Priya Kenji Mateo Ingrid Tomasz Amara Dmitri Lucia Hamid Noor Svetlana
Joaquin Aiko Bjorn Chidi Dalia Emeka Farah Gustavo Hana Isak Jonas Kavya Lars Mei Nikolai Oona Pavel
Quinn Rosa Sanjay Tariq Uma Vera Wen Ximena Yara Zoltan Anika Bruno Cyrus Delphine Elio Fatima Gideon
Helga Idris Jalen Keiko Leandro Mirela Nadia Otto Paloma Rafael Signe Teodor Ulla Vikram Wanda""".split()

# (phrase used in memories, paraphrase used by paraphrase queries)
OBJECTS = [
    ("postgres database", "relational datastore"), ("login page", "sign-in screen"),
    ("quarterly budget", "three-month spending plan"), ("dark mode", "night theme"),
    ("deployment pipeline", "release automation"), ("api gateway", "request router"),
    ("onboarding checklist", "new-hire to-do list"), ("billing service", "invoicing backend"),
    ("search index", "lookup catalogue"), ("kubernetes cluster", "container fleet"),
    ("marketing plan", "promotion strategy"), ("hiring pipeline", "recruitment funnel"),
    ("customer survey", "client questionnaire"), ("mobile app", "phone application"),
    ("password reset flow", "credential recovery process"), ("cache layer", "memoization tier"),
    ("error dashboard", "failure monitoring board"), ("backup script", "snapshot job"),
    ("design system", "ui component library"), ("travel booking", "trip reservation"),
    ("flight to Tokyo", "plane trip to Japan"), ("dentist appointment", "teeth checkup"),
    ("birthday dinner", "celebration meal"), ("rent payment", "monthly lease charge"),
    ("tax return", "yearly revenue filing"), ("gym membership", "fitness club pass"),
    ("vegetarian diet", "meat-free eating"), ("coffee machine", "espresso maker"),
    ("laptop battery", "notebook power cell"), ("vpn config", "private tunnel settings"),
    ("ssl certificate", "tls credential"), ("feature flag", "runtime toggle"),
    ("load balancer", "traffic distributor"), ("unit tests", "automated checks"),
    ("code review", "peer inspection of changes"), ("sprint retrospective", "iteration look-back"),
    ("roadmap document", "long-term plan"), ("incident report", "outage write-up"),
    ("pricing page", "cost overview screen"), ("email template", "mail layout"),
    ("data warehouse", "analytics repository"), ("etl job", "data loading task"),
    ("slack channel", "team chat room"), ("wiki page", "internal knowledge article"),
    ("security audit", "vulnerability assessment"), ("rate limiter", "request throttle"),
    ("webhook handler", "callback endpoint"), ("docker image", "container build"),
    ("terraform module", "infrastructure template"), ("grafana alert", "metrics notification"),
    ("invoice template", "bill layout"), ("sales forecast", "revenue projection"),
    ("user interview", "customer conversation"), ("accessibility review", "a11y evaluation"),
    ("translation files", "localization strings"), ("payment provider", "card processor"),
    ("garden irrigation", "plant watering system"), ("car insurance", "vehicle coverage"),
    ("piano lessons", "keyboard tutoring"), ("wedding venue", "marriage ceremony location"),
]

VERBS = [
    ("fixed", "repaired"), ("deployed", "shipped"), ("reviewed", "inspected"), ("broke", "damaged"),
    ("rewrote", "reimplemented"), ("cancelled", "called off"), ("scheduled", "booked"),
    ("approved", "signed off on"), ("migrated", "moved over"), ("documented", "wrote up"),
    ("benchmarked", "measured the speed of"), ("paused", "put on hold"), ("renewed", "extended"),
    ("configured", "set up"), ("debugged", "troubleshot"), ("archived", "shelved"),
    ("tested", "verified"), ("redesigned", "reworked the look of"), ("upgraded", "updated"),
    ("discussed", "talked about"),
]

ADJECTIVES = """new old legacy shared internal public flaky slow fast critical experimental staging
production personal weekly monthly annual broken patched temporary default""".split()

PLACES = """Berlin Lisbon Nairobi Osaka Toronto Austin Denver Oslo Dublin Madrid Seoul Lagos Lima
Prague Warsaw Helsinki Bangalore Sydney Auckland Montreal Boston Chicago Zurich Vienna Athens Cairo
Mumbai Jakarta Manila Santiago Bogota Quito Reykjavik Tallinn Riga Vilnius Porto Seville Krakow Brno""".split()

_SYLLABLES = "zor vex kal min tra pel dun quo rif sab nex lum gar tho wix bel cor dra fen hul".split()
PROJECTS = sorted({(a + b + c).capitalize() for a in _SYLLABLES for b in _SYLLABLES for c in ("", "a", "on", "ix")})

MONTHS = "January February March April May June July August September October November December".split()

# Words the templates put in a large share of the rows; frequent-term queries use them.
FREQUENT_WORDS = ["project", "team", "user", "2024", "meeting", "notes"]

TEMPLATES = [
    "{name} {verb} the {adj} {obj} for project {proj} in {place} on {date}.",
    "The team decided to keep the {obj} for the {proj} project starting {date}.",
    "User prefers the {obj} over the {obj2} when working on project {proj}.",
    "Meeting notes: {name} and the team {verb} the {obj} in {place}, follow up {date}.",
    "{name} learned that the {adj} {obj} is a problem after the {proj} release.",
    "Note from {name}: the {obj} in {place} was {verb} by the {proj} team.",
    "On {date} the user asked {name} about the {obj} and the {obj2}.",
    "{name} and {name2} {verb} the {obj} at the {place} office, ticket {ticket}.",
    "Reminder for the user: {name} {verb} the {adj} {obj} last week (project {proj}).",
    "{name} said the {obj2} must never block the {obj}; {place} meeting on {date}.",
]


@dataclass(frozen=True)
class Memory:
    content: str
    name: str
    verb: int  # index into VERBS
    obj: int  # index into OBJECTS
    place: str
    proj: str


@dataclass(frozen=True)
class Query:
    text: str
    kind: str  # keyword | paraphrase | frequent
    target: int | None  # index of the memory it was built from (keyword and paraphrase)


def _zipf_weights(n: int, s: float = 1.0) -> list[float]:
    return [1.0 / (rank + 1) ** s for rank in range(n)]


class _Sampler:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self._cum = {key: list(itertools.accumulate(_zipf_weights(n))) for key, n in (
            ("name", len(NAMES)), ("obj", len(OBJECTS)), ("verb", len(VERBS)), ("place", len(PLACES)),
            ("proj", len(PROJECTS)), ("adj", len(ADJECTIVES)))}

    def index(self, key: str) -> int:
        cum = self._cum[key]
        return bisect.bisect_right(cum, self.rng.random() * cum[-1])

    def date(self) -> str:
        year = (2023, 2024, 2024, 2025)[self.rng.randrange(4)]
        if self.rng.random() < 0.5:
            return f"{year}-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}"
        return f"{MONTHS[self.rng.randrange(12)]} {self.rng.randint(1, 28)}, {year}"

    def memory(self, template: str) -> Memory:
        name = NAMES[self.index("name")]
        verb, obj = self.index("verb"), self.index("obj")
        place, proj = PLACES[self.index("place")], PROJECTS[self.index("proj")]
        obj2 = (obj + 1 + self.index("obj")) % len(OBJECTS)
        text = template.format(
            name=name, name2=NAMES[self.index("name")], verb=VERBS[verb][0], obj=OBJECTS[obj][0],
            obj2=OBJECTS[obj2][0], adj=ADJECTIVES[self.index("adj")], place=place, proj=proj,
            date=self.date(), ticket=f"#{self.rng.randint(100, 99999)}")
        return Memory(text, name, verb, obj, place, proj)


def memories(size: int, seed: int) -> list[Memory]:
    """`size` distinct memories (content is unique, so none is deduplicated on ingest)."""
    rng = random.Random(seed)
    sampler = _Sampler(rng)
    seen: set[str] = set()
    out: list[Memory] = []
    while len(out) < size:
        mem = sampler.memory(rng.choice(TEMPLATES))
        if mem.content.lower() not in seen:
            seen.add(mem.content.lower())
            out.append(mem)
    return out


def queries(mems: list[Memory], count: int, seed: int) -> list[Query]:
    """A fixed mix: 40% keyword (words of one target memory), 30% paraphrase (the target's
    meaning in other words), 30% containing frequent terms. Texts are unique."""
    rng = random.Random(seed * 7919 + len(mems))
    sampler = _Sampler(rng)
    out: list[Query] = []
    seen: set[str] = set()
    kinds = ["keyword"] * 4 + ["paraphrase"] * 3 + ["frequent"] * 3
    attempts = 0
    while len(out) < count and attempts < count * 100:
        attempts += 1
        kind = kinds[len(out) % len(kinds)]
        target = rng.randrange(len(mems))
        m = mems[target]
        if kind == "keyword":
            extra = [w for w in (m.name, m.proj, m.place) if w in m.content][:2]
            text = f"{OBJECTS[m.obj][0]} {' '.join(extra)}".strip()
        elif kind == "paraphrase":
            text = rng.choice([
                "who {v} the {o}", "when was the {o} {v}", "has anyone {v} our {o} yet",
                "status of the {o} that got {v}"]).format(v=VERBS[m.verb][1], o=OBJECTS[m.obj][1])
        else:
            target = None
            freq = rng.sample(FREQUENT_WORDS, 2)
            text = f"{freq[0]} {freq[1]} {OBJECTS[sampler.index('obj')][0].split()[-1]}"
        if text not in seen:
            seen.add(text)
            out.append(Query(text, kind, target))
    return out


def fresh_contents(count: int, seed: int) -> list[str]:
    """New memories for write benchmarks; the 'Follow-up N' prefix keeps them out of any store."""
    rng = random.Random(seed + 1_000_003)
    sampler = _Sampler(rng)
    return [f"Follow-up {seed}-{i}: " + sampler.memory(rng.choice(TEMPLATES)).content for i in range(count)]
