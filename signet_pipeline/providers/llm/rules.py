"""The `rules` provider: the offline default of the pipeline. No model, no network, deterministic.
It does not generate free text: it answers the pipeline's tasks (extraction, entity triples, hints,
summaries, continuity, decisions) directly, in the JSON shapes the prompts ask an LLM for, and the
stages validate its answers exactly as a model's. Paraphrase, coreference and implicit facts need a
real model: `memory.pipelineV2.extraction.provider: ollama | openai` (docs/internals.md;
docs/decisions.md, "Rules provider by default")."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.llm.rules_questions import questions
from signet_pipeline.text.aspects import aspect_of, is_decision
from signet_pipeline.text.attribution import third_person, with_dates
from signet_pipeline.text.content import asks, infer_type, normalize_content
from signet_pipeline.text.contradiction import subject_words, syntactic_contradiction
from signet_pipeline.text.entities import WORD, sentences, split_label, triples
from signet_pipeline.text.transcripts import ROLES

_SMALL_TALK = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|lol|great|cool|nice|bye|good (morning|night|evening))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(maybe|might|perhaps|probably|possibly|i think|i guess|not sure|could be)\b", re.IGNORECASE)
_PRONOUN_LED = re.compile(r"^(it|this|that|these|those|they|he|she|him|her|them)\b", re.IGNORECASE)
# A reaction or aside before the clause ("Ha,", "Right,", "Not really,"): the test for what the
# sentence is about reads what follows it.
_LEAD_IN = re.compile(r"^\w+(?:\s\w+)?\s*,\s+")
# What leaves no main clause of its own: after a lead-in ("Second, which ...", "Fine, as long as ...")
# or opening a sentence that goes on from the one before ("tiny! but there's a park across the street").
_DEPENDENT = re.compile(r"^(which|who|whom|whose|as long as|as if|because|unless|although|though|but|and|or)\b",
                        re.IGNORECASE)
# Said to the other side ("good to hear from you", "you'd love it"): one turn does not say who that is.
_SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself|you're|you've|you'd|you'll|ya)\b", re.IGNORECASE)
_MEMORY_TO_FACT_TYPE = {"preference": "preference", "decision": "decision", "rule": "procedural",
                        "learning": "semantic", "issue": "fact", "fact": "fact"}
_PROCEDURAL = re.compile(r"^(run|use|install|call|set|add|open|restart|deploy|to \w+,?)\b|\bhow to\b", re.IGNORECASE)

MIN_WORDS = 3
BASE_CONFIDENCE = 0.8
TYPED_CONFIDENCE = 0.9  # preference/decision keywords are strong evidence of a durable fact
WEAK_CONFIDENCE = 0.5  # hedged or not self-contained: proposed, below the default write floor
ENTITY_CONFIDENCE = 0.6

# Decision thresholds on subject-word coverage (share of one side's words found in the other).
RESTATE_COVERAGE = 0.9
EXTEND_COVERAGE = 0.8
CONTRADICTION_COVERAGE = 0.6
USED_COVERAGE = 0.5  # continuity: an injected memory whose subject the conversation half took up was used


def _fact_type(sentence: str) -> str:
    memory_type = infer_type(sentence)
    if memory_type == "fact" and _PROCEDURAL.search(sentence):
        return "procedural"
    return _MEMORY_TO_FACT_TYPE[memory_type]


def _self_contained(sentence: str) -> bool:
    """False for what a reader cannot place without the conversation around it: led by a pronoun or
    a conjunction (after any lead-in), or said to "you"."""
    lead = _LEAD_IN.match(sentence)
    clause = sentence[lead.end():] if lead else sentence
    if _PRONOUN_LED.match(clause) or _DEPENDENT.match(clause):
        return False
    return not _SECOND_PERSON.search(sentence)


def _fact(sentence: str) -> dict[str, Any] | None:
    words = WORD.findall(sentence)
    if len(words) < MIN_WORDS or asks(sentence) or _SMALL_TALK.match(sentence):
        return None
    if not subject_words(sentence):
        return None
    fact_type = _fact_type(sentence)
    if _HEDGE.search(sentence) or not _self_contained(sentence):
        confidence = WEAK_CONFIDENCE
    elif fact_type in ("preference", "decision"):
        confidence = TYPED_CONFIDENCE
    else:
        confidence = BASE_CONFIDENCE
    return {"content": sentence, "type": fact_type, "confidence": confidence}


def _coverage(part: set[str], whole: set[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


class RulesLlm:
    name = "rules"

    def __init__(self, model: str = "rules-v1"):
        self.model = model

    def available(self) -> bool:
        return True

    def generate(self, prompt: str, *, json: bool = False, timeout: float | None = None) -> str:
        raise ProviderError("the rules provider answers pipeline tasks directly; it does not generate text")

    def extract(self, content: str, written_at: datetime | None = None) -> dict[str, Any]:
        """One fact per declarative sentence, made to stand alone: a "Name: " label's speaker in
        place of I/me/my, the date after relative times (text/attribution.py)."""
        facts: list[dict[str, Any]] = []
        entities: list[dict[str, Any]] = []
        seen: set[str] = set()
        speaker, body = split_label(content)
        for sentence in sentences(body):
            fact = _fact(sentence)
            if fact:
                standalone = third_person(sentence, speaker) if speaker else sentence
                fact["content"] = with_dates(standalone, written_at)
            key = normalize_content(sentence).content_hash
            if fact and key not in seen:
                seen.add(key)
                facts.append(fact)
            entities.extend({"source": a, "relationship": rel, "target": b, "confidence": ENTITY_CONFIDENCE}
                            for a, rel, b in triples(sentence))
        return {"facts": facts, "entities": entities}

    def decide(self, fact: str, candidates: list[tuple[str, str]]) -> dict[str, Any]:
        fact_words = subject_words(fact)
        fact_hash = normalize_content(fact).content_hash
        for candidate_id, content in candidates:
            cand_words = subject_words(content)
            covered, covering = _coverage(fact_words, cand_words), _coverage(cand_words, fact_words)
            if normalize_content(content).content_hash == fact_hash:
                return {"action": "none", "targetId": candidate_id, "confidence": 1.0,
                        "reason": "an existing memory has exactly this content"}
            # The spec's detector needs only two shared words; proposing to replace a memory asks
            # for more: most of the fact's subject must be the candidate's.
            if covered >= CONTRADICTION_COVERAGE and syntactic_contradiction(fact, content):
                return {"action": "update", "targetId": candidate_id, "confidence": 0.7,
                        "reason": "contradicts an existing memory on the same subject (negation or antonym)"}
            if covered >= RESTATE_COVERAGE and covering >= RESTATE_COVERAGE:
                return {"action": "none", "targetId": candidate_id, "confidence": 0.9,
                        "reason": "an existing memory already states this"}
            if covered >= RESTATE_COVERAGE:
                return {"action": "none", "targetId": candidate_id, "confidence": 0.8,
                        "reason": "an existing memory already covers this and says more"}
            if covering >= EXTEND_COVERAGE and len(fact_words) > len(cand_words):
                return {"action": "update", "targetId": candidate_id, "confidence": 0.75,
                        "reason": "refines a shorter existing memory with more detail"}
        return {"action": "add", "confidence": 0.8, "reason": "no candidate states or contradicts this fact"}

    def classify(self, entity: str, entity_type: str, facts: list[str], aspects: list[str]) -> dict[str, Any]:
        """Aspect from the facts' verbs, constraint for decision language, and a type for an entity
        still typed 'extracted' from how the facts talk about it."""
        items = [{"i": i, "aspect": aspect_of(fact), "kind": "constraint" if is_decision(fact) else "attribute"}
                 for i, fact in enumerate(facts)]
        return {"items": items, "entityType": _infer_type(entity, facts) if entity_type == "extracted" else None}

    def hints(self, content: str, limit: int) -> dict[str, Any]:
        """Questions built from the content's own clauses (providers/llm/rules_questions.py): they
        add question words and verb base forms, not the synonyms a model would."""
        return {"hints": questions(content, limit)}

    def summarize(self, conversation: str, limit: int) -> dict[str, Any]:
        """Statements from a conversation window ("User: ..." / "Assistant: ..." turns, or plain
        text): the user's confident declarative sentences and anyone's decisions, first `limit`."""
        statements: list[str] = []
        speaker = ""
        for line in conversation.splitlines():
            match = _SPEAKER.match(line)
            if match:
                speaker, line = ROLES[match.group(1).lower()], line[match.end():]
            for sentence in sentences(line):
                fact = _fact(sentence)
                if fact is None or fact["confidence"] < BASE_CONFIDENCE:
                    continue
                if speaker != "Assistant" or is_decision(sentence):
                    statements.append(sentence)
        return {"statements": statements[:limit]}


    def continuity(self, memories: list[tuple[str, str]], conversation: str) -> dict[str, Any]:
        """Relevance of each injected memory: the share of its subject words the conversation
        uses; a memory at least half taken up counts as used; the score is the mean relevance."""
        spoken = {w.lower() for w in WORD.findall(conversation)}
        relevances = [round(_coverage(subject_words(content), spoken), 3) for _, content in memories]
        per_memory = [{"id": prefix, "relevance": relevance} for (prefix, _), relevance in zip(memories, relevances)]
        return {"score": sum(relevances) / len(relevances) if relevances else 0.0, "confidence": 0.5,
                "memories_used": sum(r >= USED_COVERAGE for r in relevances), "novel_context_count": 0,
                "reasoning": "rules provider: share of each memory's subject words the conversation uses",
                "per_memory": per_memory}


_SPEAKER = re.compile(r"^(user|human|assistant|ai)\s*:\s*", re.IGNORECASE)


_PERSON_VERBS = re.compile(r"\b(prefers?|likes?|loves?|lives?|works?|said|says|met|wants?|feels?|married|"
                           r"maintains|joined|reviews|thinks|moved)\b", re.IGNORECASE)
_PROJECT_WORDS = re.compile(r"\b(project|repo|repository|roadmap|release|milestone)\b", re.IGNORECASE)
_SYSTEM_WORDS = re.compile(r"\b(server|service|database|cluster|api|daemon|deployed|runs on|hosted)\b", re.IGNORECASE)


def _infer_type(entity: str, facts: list[str]) -> str:
    """From how the facts speak of the entity itself: a fact about Marcus that names Lisbon types Marcus,
    not Lisbon ("unknown" then: a wrong type outlives a missing one)."""
    text = " ".join(facts)
    name = re.escape(entity)
    if any(any(c.isupper() for c in w[1:]) or any(c.isdigit() for c in w) for w in entity.split()):
        return "tool"  # PostgreSQL, iOS, qwen3
    if re.search(rf"\b{name}\s+(project|repo)\b|\bproject\s+{name}\b", text, re.IGNORECASE):
        return "project"
    if re.search(rf"\b{name}\s+(?:\w+\s+)?{_PERSON_VERBS.pattern}", text, re.IGNORECASE):
        return "person"  # Priya prefers, Marcus Lee said, Ana Costa also likes
    if re.search(rf"\b{name}\s+{_SYSTEM_WORDS.pattern}", text, re.IGNORECASE):
        return "system"  # the Zephyr daemon, Redis cluster
    if re.search(rf"\b{name}\s+{_PROJECT_WORDS.pattern}", text, re.IGNORECASE):
        return "project"  # the Heron release, Zephyr roadmap
    return "unknown"
