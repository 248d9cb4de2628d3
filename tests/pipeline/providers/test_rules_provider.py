"""The offline `rules` provider and the syntactic contradiction detector."""

import pytest

from signet_pipeline.config_sections import ExtractionConfig
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.llm import create_llm
from signet_pipeline.providers.llm.http import OllamaLlm, OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.extraction.facts import extract
from signet_pipeline.text.contradiction import lexical_overlap, syntactic_contradiction
from signet_pipeline.text.entities import names, sentences, triples

RULES = RulesLlm()


def test_sentence_level_facts_typed_by_keyword_patterns():
    text = ("Hi there! Nicholai prefers tabs over spaces. We decided to use PostgreSQL for Signet.\n"
            "- Run make test before pushing to main\nWhat time is the standup? Ok.")
    result = extract(RULES, text)
    assert [(f.content, f.type) for f in result.facts] == [
        ("Nicholai prefers tabs over spaces.", "preference"),
        ("We decided to use PostgreSQL for Signet.", "decision"),
        ("Run make test before pushing to main", "procedural"),
    ]
    assert result.warnings == []


def test_hedged_and_pronoun_led_sentences_fall_below_the_write_floor():
    facts = extract(RULES, "Maybe we should try Redis for caching. It runs on port 6379. "
                           "The API listens on 3850.").facts
    confidence = {f.content: f.confidence for f in facts}
    assert confidence["Maybe we should try Redis for caching."] < 0.7
    assert confidence["It runs on port 6379."] < 0.7
    assert confidence["The API listens on 3850."] >= 0.7


@pytest.mark.parametrize("sentence", [
    "Ahh, that's fantastic!",  # a pronoun after a lead-in
    "Second, which I'm choosing not to be bitter about.",  # no main clause after the lead-in
    "Manageable, as long as I don't do anything interesting.",
    "but there is a park across the street with a lake.",  # goes on from the sentence before
    "Good to hear from you, it has been ages.",  # said to the other side, who one turn does not name
    "I think you would love the new bakery.",
])
def test_what_cannot_be_placed_without_the_conversation_falls_below_the_write_floor(sentence):
    [fact] = extract(RULES, "Bartek: " + sentence).facts
    assert fact.confidence < 0.7


def test_a_lead_in_before_a_clause_of_its_own_keeps_the_fact():
    [fact] = extract(RULES, "Bartek: Not really, I keep every receipt in a little notebook.").facts
    assert fact.confidence >= 0.7 and fact.content == "Not really, Bartek keeps every receipt in a little notebook."


def test_questions_are_no_facts_also_before_an_emoji_or_in_lower_case():
    text = "Kwame: how was work today (the 3rd)? 🙃 again?? we painted the hallway sage green!"
    assert [f.content for f in extract(RULES, text).facts] == ["we painted the hallway sage green!"]


def test_repeated_sentences_yield_one_fact():
    assert len(extract(RULES, "The build uses uv. The build uses uv.").facts) == 1


@pytest.mark.parametrize("sentence, expected", [
    ("Nicholai decided to use PostgreSQL for Signet", [("Nicholai", "decided to use", "PostgreSQL")]),
    ("Alice works at Google in Berlin.", [("Alice", "works at", "Google")]),
    ("Run the tests on GitHub Actions.", []),  # imperative starter is not a name; one span only
    ("the cat sat on the mat", []),
])
def test_entity_triples_from_proper_nouns_and_verb_phrases(sentence, expected):
    assert triples(sentence) == expected


@pytest.mark.parametrize("sentence, expected", [
    ("Decision: Python for the CLI, not Node.", ["Python", "Node"]),  # a heading is no part of a name
    ("The Black Friday sale starts at midnight.", []),  # a named day, not "Black"
    ("User prefers dark mode in every editor.", []),  # a role of the conversation
    ("Assistant: we chose Postgres over MySQL.", ["Postgres", "MySQL"]),
    ("We meet Priya Sharma on Friday.", ["Priya Sharma"]),
])
def test_headings_named_days_and_roles_are_no_entities(sentence, expected):
    assert names(sentence) == expected


def test_names_skip_sentence_starters_and_short_names():
    assert names("Run the tests on GitHub Actions with Bob and Priya Sharma.") == ["GitHub Actions", "Priya Sharma"]


def test_sentences_split_on_punctuation_newlines_and_bullets():
    assert sentences("One fact here. Two facts there!\n* three\n1) four") == [
        "One fact here.", "Two facts there!", "three", "four"]
    # ! and ? end a sentence before lower case too (chat); a period does not ("e.g. this").
    assert sentences("again?? living the life! yes e.g. this.") == ["again??", "living the life!", "yes e.g. this."]


@pytest.mark.parametrize("fact, candidate, action", [
    ("Nicholai prefers tabs over spaces", "nicholai prefers tabs over spaces.", "none"),  # same hash
    ("Tabs over spaces is what Nicholai prefers", "Nicholai prefers tabs over spaces", "none"),  # restatement
    ("The cache is not enabled in production", "The cache is enabled in production", "update"),  # negation
    ("Dark mode is disabled in the dashboard", "Dark mode is enabled in the dashboard", "update"),  # antonyms
    ("Nicholai prefers tabs over spaces in Python code", "Nicholai prefers tabs", "update"),  # extends
    ("Nicholai prefers tabs", "Nicholai prefers tabs over spaces in Python code", "none"),  # covered
    ("Bob listens to jazz while coding", "Nicholai prefers tabs", "add"),
])
def test_decisions_by_similarity_thresholds(fact, candidate, action):
    decision = RULES.decide(fact, [("m1", candidate)])
    assert decision["action"] == action
    assert decision["reason"]
    if action in ("update", "none"):
        assert decision["targetId"] == "m1"


def test_rules_never_generates_free_text():
    with pytest.raises(ProviderError):
        RULES.generate("write a poem")
    assert RULES.available()


@pytest.mark.parametrize("a, b, expected", [
    ("The deploy cache is enabled", "The deploy cache is disabled", True),
    ("The deploy cache is enabled", "The deploy cache isn't enabled", True),
    ("We never deploy on Fridays", "We deploy on Fridays", True),
    ("The deploy cache is enabled", "The deploy cache is enabled", False),
    ("Cats are not dogs", "Paris is lovely in spring", False),  # no shared subject
    ("The cache is not warm", "The oven is warm", False),  # one shared word is not enough
])
def test_syntactic_contradiction(a, b, expected):
    assert syntactic_contradiction(a, b) is expected


def test_overlap_ignores_stop_words_negations_and_antonyms():
    assert lexical_overlap("the cache is not enabled", "a cache was disabled") == 1


def test_factory_builds_the_configured_provider():
    assert isinstance(create_llm(ExtractionConfig()), RulesLlm)
    ollama = create_llm(ExtractionConfig(provider="ollama"))
    assert isinstance(ollama, OllamaLlm) and ollama.model == "qwen3:4b" and ollama.base_url == "http://localhost:11434"
    openai = create_llm(ExtractionConfig(provider="openai", base_url="http://127.0.0.1:9/", model="m", timeout=5000))
    assert isinstance(openai, OpenAICompatibleLlm) and openai.base_url == "http://127.0.0.1:9" and openai.timeout_s == 5
