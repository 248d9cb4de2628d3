"""The `rules` provider: the offline default of the pipeline. No model, no network, deterministic.

It does not generate free text; it answers the pipeline's tasks directly, in the same JSON shapes
the prompts ask an LLM for, and the stages validate its answers exactly as they validate a model's:

- extraction: one fact per self-contained declarative sentence, typed with the spec's keyword
  patterns; questions, greetings and fragments are skipped; hedged or pronoun-led sentences get
  a confidence below the write threshold (recorded as proposals, not written);
- entity triples: two proper-noun spans joined by a short lowercase verb phrase
  ("Nicholai decided to use PostgreSQL" -> Nicholai / decided to use / PostgreSQL);
- decisions: token-overlap thresholds against the candidates (restatement -> none, a shorter
  candidate the fact extends -> update, a syntactic contradiction -> update, else add).

What it cannot do (paraphrase, coreference, implicit facts) needs a real model: configure
`memory.pipelineV2.extraction.provider: ollama | openai`.
"""

from __future__ import annotations

import re
from typing import Any

from signet_pipeline.errors import ProviderError
from signet_pipeline.memory.content import infer_type, normalize_content
from signet_pipeline.memory.contradiction import subject_words, syntactic_contradiction
from signet_pipeline.memory.fts_query import STOP_WORDS

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d+[.)])\s+")
_WORD = re.compile(r"[A-Za-z0-9][\w'\u2019.+#-]*[\w+#]|[A-Za-z0-9]")
_SMALL_TALK = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|lol|great|cool|nice|bye|good (morning|night|evening))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(maybe|might|perhaps|probably|possibly|i think|i guess|not sure|could be)\b", re.IGNORECASE)
_PRONOUN_LED = re.compile(r"^(it|this|that|these|those|they|he|she|him|her|them)\b", re.IGNORECASE)
_MEMORY_TO_FACT_TYPE = {"preference": "preference", "decision": "decision", "rule": "procedural",
                        "learning": "semantic", "issue": "fact", "fact": "fact"}
_PROCEDURAL = re.compile(r"^(run|use|install|call|set|add|open|restart|deploy|to \w+,?)\b|\bhow to\b", re.IGNORECASE)

_SENTENCE_STARTERS = frozenset("""
run use install call set add open restart deploy remember note please maybe also then now today yesterday
tomorrow currently recently finally however always never sometimes usually make check try keep avoid
everyone someone nobody yes sure
""".split())

MIN_WORDS = 3
BASE_CONFIDENCE = 0.8
TYPED_CONFIDENCE = 0.9  # preference/decision keywords are strong evidence of a durable fact
WEAK_CONFIDENCE = 0.5  # hedged or not self-contained: proposed, below the default write floor
ENTITY_CONFIDENCE = 0.6
MAX_RELATION_WORDS = 5
_RELATION_EDGE_WORDS = frozenset({"the", "a", "an", "and", "but", "or", "so"})

# Decision thresholds on subject-word coverage (share of one side's words found in the other).
RESTATE_COVERAGE = 0.9
EXTEND_COVERAGE = 0.8
CONTRADICTION_COVERAGE = 0.6


def sentences(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text):
        part = _BULLET.sub("", part or "").strip()
        if part:
            out.append(part)
    return out


def _fact_type(sentence: str) -> str:
    memory_type = infer_type(sentence)
    if memory_type == "fact" and _PROCEDURAL.search(sentence):
        return "procedural"
    return _MEMORY_TO_FACT_TYPE[memory_type]


def _fact(sentence: str) -> dict[str, Any] | None:
    words = _WORD.findall(sentence)
    if len(words) < MIN_WORDS or sentence.endswith("?") or _SMALL_TALK.match(sentence):
        return None
    if not subject_words(sentence):
        return None
    fact_type = _fact_type(sentence)
    if _HEDGE.search(sentence) or _PRONOUN_LED.match(sentence):
        confidence = WEAK_CONFIDENCE
    elif fact_type in ("preference", "decision"):
        confidence = TYPED_CONFIDENCE
    else:
        confidence = BASE_CONFIDENCE
    return {"content": sentence, "type": fact_type, "confidence": confidence}


def _is_proper(word: str, first: bool) -> bool:
    lower = word.lower()
    if lower in STOP_WORDS or word == "I":
        return False
    if any(c.isupper() for c in word[1:]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)):
        return True  # PostgreSQL, iOS, qwen3: names whatever their position
    # Every sentence starts with a capital: there, only words that are not common starters count.
    return word[0].isupper() and not (first and lower in _SENTENCE_STARTERS)


def triples(sentence: str) -> list[dict[str, Any]]:
    """(proper-noun span, short lowercase verb phrase, proper-noun span) within one sentence."""
    tokens = _WORD.findall(sentence)
    spans: list[tuple[int, int]] = []  # [start, end) token ranges of proper-noun runs
    i = 0
    while i < len(tokens):
        if _is_proper(tokens[i], i == 0):
            j = i + 1
            while j < len(tokens) and _is_proper(tokens[j], False):
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    found = []
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        gap = [w for w in tokens[e1:s2]]
        while gap and gap[0].lower() in _RELATION_EDGE_WORDS:
            gap.pop(0)
        while gap and gap[-1].lower() in _RELATION_EDGE_WORDS:
            gap.pop()
        if not 1 <= len(gap) <= MAX_RELATION_WORDS or not all(w.islower() for w in gap):
            continue
        if all(w in STOP_WORDS for w in gap):
            continue  # "for", "in": a preposition alone is not a relationship
        found.append({"source": " ".join(tokens[s1:e1]), "relationship": " ".join(gap),
                      "target": " ".join(tokens[s2:e2]), "confidence": ENTITY_CONFIDENCE})
    return found


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

    def extract(self, content: str) -> dict[str, Any]:
        facts, entities, seen = [], [], set()
        for sentence in sentences(content):
            fact = _fact(sentence)
            key = normalize_content(sentence).content_hash
            if fact and key not in seen:
                seen.add(key)
                facts.append(fact)
            entities.extend(triples(sentence))
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
