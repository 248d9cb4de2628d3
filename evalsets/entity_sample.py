"""A labelled sample for entity precision: conversational turns as people write them, each with the
entities a person would name in it (people, places, organisations, tools, projects, pets) and the
speaker, who is a person.

Written from its own brief, not from any evaluation set: two pairs of friends and a pair of
colleagues talking over a few weeks about family, hobbies, travel, work and tools; most turns open
with a contraction ("I've", "Can't"), an imperative ("Take", "Grab"), an interjection or a time word,
name a weekday or month, or use a possessive ("Dario's"), the things that made the linker name
non-entities. Names shorter than four characters are left out of the labels: the spec's linker
rejects them (MIN_ENTITY_NAME).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Turn:
    text: str  # "Speaker: words"
    entities: dict[str, str]  # canonical name -> type a person would give it


def _t(text: str, **entities: str) -> Turn:
    return Turn(text, {k.replace("_", " "): v for k, v in entities.items()})


SAMPLE: list[Turn] = [
    _t("Priya: I've finally booked the flights to Lisbon for Saturday, can't wait!", priya="person", lisbon="place"),
    _t("Dario: Can't believe you're going without me. Take lots of photos of the tiles.", dario="person"),
    _t("Priya: Didn't you say your sister Marta lived there for a year?", priya="person", marta="person"),
    _t("Dario: Yeah, Marta's flat was near Alfama, she worked at a bakery called Padaria Nova.",
       dario="person", marta="person", alfama="place", padaria_nova="organization"),
    _t("Priya: Grab me the bakery's address later, I'll drop by on Monday.", priya="person"),
    _t("Dario: Sure. I'll text it tonight after my shift at Kestrel Labs.", dario="person", kestrel_labs="organization"),
    _t("Priya: How's the new job going? Last time you sounded swamped.", priya="person"),
    _t("Dario: Honestly it's better now. We moved the whole pipeline to Airflow in March.",
       dario="person", airflow="tool"),
    _t("Priya: Wait, I thought Kestrel used Jenkins for everything?", priya="person", kestrel="organization",
       jenkins="tool"),
    _t("Dario: They did, until Jenkins fell over twice during the Orion launch.", dario="person", jenkins="tool",
       orion="project"),
    _t("Priya: Haha, classic. Tell Felipe I said hi when you see him.", priya="person", felipe="person"),
    _t("Dario: Will do. Felipe's training for the Berlin marathon again, by the way.",
       dario="person", felipe="person", berlin="place"),
    _t("Priya: I've never run more than ten kilometres. Thursday's yoga is my limit.", priya="person"),
    _t("Dario: Don't sell yourself short, you hiked Snowdon last summer.", dario="person", snowdon="place"),
    _t("Priya: That was mostly because Biscuit dragged me up the path.", priya="person", biscuit="pet"),
    _t("Dario: How is Biscuit? Still stealing socks?", dario="person", biscuit="pet"),
    _t("Priya: Every single day. The vet at Greenway Clinic says he's perfectly healthy though.",
       priya="person", greenway_clinic="organization"),
    _t("Noor: Morning! Did you get a chance to look at the Figma mockups for Lighthouse?",
       noor="person", figma="tool", lighthouse="project"),
    _t("Tomasz: Not yet, I'm stuck reviewing Henrik's pull request in GitLab.",
       tomasz="person", henrik="person", gitlab="tool"),
    _t("Noor: No rush. Wednesday's demo with the Halden team is what matters.",
       noor="person", halden="organization"),
    _t("Tomasz: Right. Should I ask Ingrid to join? She wrote most of the Postgres migration.",
       tomasz="person", ingrid="person", postgres="tool"),
    _t("Noor: Please do. Also remind her the Lighthouse budget review moved to June.",
       noor="person", lighthouse="project"),
    _t("Tomasz: Let's keep it short, Halden's people hate long decks.", tomasz="person", halden="organization"),
    _t("Noor: Agreed. Take the slides from Ingrid's folder in Dropbox and trim them.",
       noor="person", ingrid="person", dropbox="tool"),
    _t("Tomasz: I'll do it after lunch. Going to the Thai place on Carver Street?",
       tomasz="person", carver_street="place"),
    _t("Noor: Can't today, I've got a dentist appointment in Uppsala.", noor="person", uppsala="place"),
    _t("Tomasz: Ouch. Hope it goes well. Ping me on Slack when you're back.", tomasz="person", slack="tool"),
    _t("Noor: Will do. Sunday I'm driving to my parents in Gothenburg anyway.", noor="person", gothenburg="place"),
    _t("Tomasz: Nice, say hi to them. Mine are visiting from Krakow in August.", tomasz="person", krakow="place"),
    _t("Noor: Are you taking them to Skansen? My nephew Elias loved it.",
       noor="person", skansen="place", elias="person"),
    _t("Grace: Guess what, I adopted a kitten! Her name is Pepper.", grace="person", pepper="pet"),
    _t("Hannah: Oh my god, pictures please! Where did you find her?", hannah="person"),
    _t("Grace: At the Northside Animal Shelter, the one near Riverside Park.",
       grace="person", northside_animal_shelter="organization", riverside_park="place"),
    _t("Hannah: I've been thinking of volunteering there on Saturdays.", hannah="person"),
    _t("Grace: You should! Ask for Colette, she runs the volunteer program.", grace="person", colette="person"),
    _t("Hannah: Maybe after my pottery course ends. Colette's schedule is probably full anyway.",
       hannah="person", colette="person"),
    _t("Grace: Which pottery course? The one at Clayworks Studio?", grace="person", clayworks_studio="organization"),
    _t("Hannah: Yes! We made bowls last week. Mine looked like a hat.", hannah="person"),
    _t("Grace: Haha. Bring it to book club on Friday, Imogen will love it.", grace="person", imogen="person"),
    _t("Hannah: We're reading Middlemarch this month, right? I'm only halfway through.",
       hannah="person", middlemarch="work"),
    _t("Grace: Same. Honestly George Eliot's sentences take me forever.", grace="person", george_eliot="person"),
    _t("Hannah: Didn't Imogen say she'd host at her place in Camden?", hannah="person", imogen="person",
       camden="place"),
    _t("Grace: She did. Let's bring that lemon cake from Ottolenghi's recipe.", grace="person", ottolenghi="person"),
    _t("Hannah: I'm in. Remind me on Thursday, I'll forget otherwise.", hannah="person"),
]
