"""Question wordings per fact kind.

`{X}`, `{sub}`, `{obj}`, `{pos}` are the person the question is about; other fields come from the
fact (`questions.fact_fields`). "direct" wordings reuse the statement's words; "para" wordings
are written to share none of them and are kept only when the overlap check finds zero shared
content words with the actual evidence turn.
"""

from __future__ import annotations

SINGLE = {
    "home": {"direct": [("Which city does {X} live in?", "{city}")],
             "para": [("Which city does {X} call home?", "{city}"), ("Where is {X} based?", "{city}")]},
    "move": {"direct": [("Where does {X} live now?", "{city}"), ("Which city did {X} move to?", "{city}")],
             "para": [("Which city is {X} based in these days?", "{city}"), ("Where has {X} recently settled?", "{city}")]},
    "job": {"direct": [("What is {X}'s job?", "{title_a}"), ("Where does {X} work?", "at {workplace}")],
            "para": [("What is {X}'s profession?", "{title_a}"), ("How does {X} earn a living?", "as {title_a}")]},
    "job2": {"direct": [("What is {X}'s new job?", "{title_a} at {workplace}"), ("Where does {X} work now?", "at {workplace}")],
             "para": [("What role did {X} accept most recently?", "{title_a} at {workplace}"),
                      ("Which employer hired {X} most recently?", "{workplace}")]},
    "pet": {"direct": [("What breed is {X}'s {species}?", "{a_breed}"), ("What kind of pet did {X} adopt?", "{a_breed_species}")],
            "para": [("What kind of animal did {X} bring home?", "{a_breed_species}"),
                     ("What type of companion joined {X}'s household?", "{a_breed_species}"),
                     ("Which animal does {X} look after?", "{a_breed_species} called {cur}")]},
    "pet_name": {"direct": [("What is the name of {X}'s {species}?", "{pet}")],
                 "para": [("What does {X} call {pos} animal companion?", "{pet}")]},
    "rename": {"direct": [("What is {X}'s {species} called now?", "{new}")],
               "para": [("What does {X}'s animal answer to these days?", "{new}"),
                        ("By what name does {X}'s companion go at present?", "{new}")]},
    "rel_city": {"direct": [("Where does {X}'s {relation} live?", "{rel_city}"), ("What is the name of {X}'s {relation}?", "{rel}")],
                 "para": [("Which city does {X}'s {relp} reside in?", "{rel_city}"),
                          ("Where would {X} travel to see {pos} {relp}?", "{rel_city}")]},
    "rel_job": {"direct": [("Where did {rel} start working?", "at {rel_workplace}"), ("What job did {rel} get?", "{rel_title_a}")],
                "para": [("What is {rel}'s occupation?", "{rel_title_a}")]},
    "hobby": {"direct": [("What hobby did {X} take up?", "{name}"), ("What activity did {X} start doing?", "{name}")],
              "para": [("What new pastime has {X} gotten into?", "{name}"),
                       ("How has {X} been spending free evenings lately?", "{name}")]},
    "health": {"direct": [("What health problem did {X} have?", "{noun}")], "para": [("{pq}", "{pa}")]},
    "purchase": {"direct": [("What did {X} buy?", "{item}")],
                 "para": [("What did {X} splurge on?", "{item}"), ("Which new possession did {X} recently acquire?", "{item}")]},
    "dish": {"direct": [("What is {X}'s favourite food?", "{dish}")],
             "para": [("Which meal does {X} never get tired of?", "{dish}"), ("What is {X}'s go-to comfort meal?", "{dish}")]},
    "trip": {"direct": [("Where is {X} travelling to?", "{dest}")],
             "para": [("Which destination will {X} be visiting soon?", "{dest}"), ("Where is {X} vacationing?", "{dest}")]},
    "event": {"direct": [("{q}", "{a}")], "para": [("{pq}", "{pa}")]},
    "author": {"direct": [("Which author has {X} been reading?", "{author}")],
               "para": [("Whose novels is {X} hooked on?", "{author}"), ("Which writer does {X} keep returning to?", "{author}")]},
}

OPEN = {
    "home": [("Which country does {X} live in?", "{country}"), ("What language do most people speak where {X} lives?", "{language}")],
    "move": [("Which country does {X} live in now?", "{country}"),
             ("What language would {X} mostly hear around {pos} current neighbourhood?", "{language}")],
    "job": [("What field does {X} work in?", "{field}")],
    "job2": [("What field does {X} work in now?", "{field}")],
    "pet": [("Does {X}'s animal need to be taken out for daily walks?", "{walks}"),
            ("Roughly how big is {X}'s pet likely to get?", "{size}")],
    "rel_city": [("In which country does {X}'s {relp} live?", "{rel_country}")],
    "rel_job": [("What field does {rel} work in?", "{rel_field}")],
    "hobby": [("Is {X}'s new pastime mostly done indoors or outdoors?", "{setting}"),
              ("What broad kind of activity did {X} recently take up?", "{hcat}")],
    "health": [("{oq}", "{oa}")],
    "purchase": [("{oq}", "{oa}"), ("What sort of thing did {X} recently spend money on?", "{pcat}")],
    "dish": [("Which country's cuisine does {X}'s favourite meal come from?", "{country}")],
    "trip": [("Which country is {X} visiting soon?", "{country}"), ("What language might {X} practise before the trip?", "{language}"),
             ("On which continent will {X} spend the upcoming getaway?", "{continent}")],
    "author": [("What genre of books does {X} seem to enjoy?", "{genre}")],
}

WHEN = {
    "pet": {"direct": ["When did {X} adopt {pet}?", "When did {X} get {pos} {species}?"],
            "para": ["When did {X}'s household gain a new animal?"]},
    "move": {"direct": ["When did {X} move to {city}?"], "para": ["When did {X} relocate?"]},
    "job2": {"direct": ["When does {X} start the new job at {workplace}?"],
             "para": ["When was {X}'s first day in the new role expected?"]},
    "hobby": {"direct": ["When did {X} start {name}?"], "para": ["When did {X} pick up {pos} latest pastime?"]},
    "health": {"direct": ["When did {X} {base}?"], "para": []},
    "purchase": {"direct": ["When did {X} buy the {short}?"], "para": ["When did {X} acquire {pcat}?"]},
    "trip": {"direct": ["When is {X} going to {dest}?"], "para": ["When does {X}'s holiday abroad begin?"]},
    "event": {"direct": ["When did {X} {base}?"], "para": []},
}

GER = {"pet": "adopting {pet}", "move": "moving to {city}", "job2": "starting at {workplace}", "hobby": "taking up {name}",
       "health": "{ger}", "purchase": "buying {item}", "trip": "travelling to {dest}", "event": "{ger}"}

# Asked about the wrong speaker: {X} is the other person, the trap answer is the owner's.
WRONG = {
    "pet": [("When did {X} adopt {pet}?", "{when}"), ("What breed is {X}'s {species} {pet}?", "{breed}")],
    "move": [("When did {X} move to {city}?", "{when}"), ("Why did {X} decide to leave {old}?", "to move to {city}")],
    "job2": [("When does {X} start working at {workplace}?", "{when}")],
    "rel_city": [("Where does {X}'s {relation} {rel} live?", "{rel_city}")],
    "rel_job": [("Where did {rel}, {X}'s {relation}, start working?", "{rel_workplace}")],
    "hobby": [("When did {X} start {name}?", "{when}"), ("How is {X} finding {name} so far?", "{detail}")],
    "health": [("When did {X} {base}?", "{when}")],
    "purchase": [("When did {X} buy {item}?", "{when}")],
    "dish": [("How often does {X} eat {dish}?", "as often as possible; it is a favourite")],
    "trip": [("When is {X} flying to {dest}?", "{when}")],
    "event": [("When did {X} {base}?", "{when}")],
    "author": [("Which {author} book is {X} reading?", "another {author} book")],
}

RELATION_PARA = {"sister": "sibling", "brother": "sibling", "stepsister": "step-sibling", "stepbrother": "step-sibling",
                 "aunt": "parent's sister", "uncle": "parent's brother", "niece": "sibling's daughter",
                 "nephew": "sibling's son", "godmother": "godparent", "best friend": "closest pal",
                 "childhood friend": "oldest pal", "college roommate": "former university flatmate",
                 "cousin": "aunt's or uncle's child"}

ABSENT_RELATIONS = ["sister", "brother", "cousin", "aunt", "uncle", "best friend", "grandfather", "neighbour"]
