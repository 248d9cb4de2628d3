"""Extraction (spec memory-pipeline "Extraction Stage"): raw memory text -> facts + entity triples.

Validation is strict and partial-failure safe: malformed output produces warnings, never an
exception, and whatever valid items there are come back. Only a provider failure raises (the
job then fails and is retried by the queue).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from signet_pipeline.models import ExtractedEntity, ExtractedFact
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json

MAX_INPUT_CHARS = 12_000
TRUNCATION_MARKER = "[truncated]"
MAX_FACTS = 20
MAX_ENTITIES = 50
FACT_MIN_CHARS, FACT_MAX_CHARS = 10, 2000
FACT_TYPES = ("fact", "preference", "decision", "procedural", "semantic")

PROMPT = """Extract durable knowledge from the memory below.

Return ONLY a JSON object with two arrays:
- "facts": each {{"content": a self-contained statement (10-2000 characters), "type": one of
  fact | preference | decision | procedural | semantic, "confidence": 0..1}}
- "entities": each {{"source": entity, "relationship": verb phrase, "target": entity, "confidence": 0..1}}
Skip greetings, small talk and ephemeral details. At most {max_facts} facts and {max_entities} entities.
Each fact must stand on its own: name the person instead of I/me/my (a memory that starts with
"Name:" was said by Name), and give the date of relative times ("yesterday", "last week") as well.
{written}
Example: "Nicholai prefers tabs and decided to use PostgreSQL for Signet" ->
{{"facts": [{{"content": "Nicholai prefers tabs over spaces", "type": "preference", "confidence": 0.9}},
  {{"content": "Nicholai decided to use PostgreSQL for Signet", "type": "decision", "confidence": 0.9}}],
 "entities": [{{"source": "Nicholai", "relationship": "decided to use", "target": "PostgreSQL", "confidence": 0.9}}]}}

Memory:
{content}
"""


class ExtractionResult(BaseModel):
    facts: list[ExtractedFact] = []
    entities: list[ExtractedEntity] = []
    warnings: list[str] = []
    parse_failed: bool = False  # the reply held no usable JSON (analytics: EXTRACTION_PARSE_FAIL)


def prepare_input(content: str) -> str:
    if len(content) <= MAX_INPUT_CHARS:
        return content
    return content[:MAX_INPUT_CHARS] + " " + TRUNCATION_MARKER


def build_prompt(content: str, written_at: datetime | None = None) -> str:
    written = f"The memory was written on {written_at:%A %d %B %Y}.\n" if written_at else ""
    return PROMPT.format(content=prepare_input(content), max_facts=MAX_FACTS, max_entities=MAX_ENTITIES,
                         written=written)


def _confidence(value: Any, where: str, warnings: list[str]) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        warnings.append(f"{where}: confidence {value!r} is not a number, using 0.5")
        return 0.5
    if not 0.0 <= number <= 1.0:
        warnings.append(f"{where}: confidence {number} clamped to [0, 1]")
    return min(1.0, max(0.0, number))


def _fact(item: Any, i: int, warnings: list[str]) -> ExtractedFact | None:
    where = f"fact {i}"
    if not isinstance(item, dict) or not isinstance(item.get("content"), str):
        warnings.append(f"{where}: not an object with a string content, skipped")
        return None
    content = item["content"].strip()
    if len(content) < FACT_MIN_CHARS:
        warnings.append(f"{where}: shorter than {FACT_MIN_CHARS} characters, skipped")
        return None
    if len(content) > FACT_MAX_CHARS:
        warnings.append(f"{where}: longer than {FACT_MAX_CHARS} characters, truncated")
        content = content[:FACT_MAX_CHARS]
    fact_type = str(item.get("type", "")).strip().lower()
    if fact_type not in FACT_TYPES:
        warnings.append(f"{where}: unknown type {item.get('type')!r} coerced to fact")
        fact_type = "fact"
    return ExtractedFact(content=content, type=fact_type,
                         confidence=_confidence(item.get("confidence"), where, warnings))


def _entity(item: Any, i: int, warnings: list[str]) -> ExtractedEntity | None:
    where = f"entity {i}"
    raw = item if isinstance(item, dict) else {}
    fields = {k: value.strip() if isinstance(value := raw.get(k), str) else ""
              for k in ("source", "relationship", "target")}
    if not all(fields.values()):
        warnings.append(f"{where}: needs non-empty source, relationship and target, skipped")
        return None
    return ExtractedEntity(**fields, confidence=_confidence(item.get("confidence"), where, warnings))


def parse_extraction(reply: str | dict[str, Any]) -> ExtractionResult:
    """Validate a model reply (text, or the object a task-answering provider returns). Never raises."""
    warnings: list[str] = []
    data = reply if isinstance(reply, dict) else extract_json(reply)
    if not isinstance(data, dict):
        return ExtractionResult(warnings=["reply is not a JSON object; nothing extracted"], parse_failed=True)
    facts_value, entities_value = data.get("facts"), data.get("entities")
    if not isinstance(facts_value, list) and not isinstance(entities_value, list):
        return ExtractionResult(warnings=["reply has neither a facts nor an entities list; nothing extracted"],
                                parse_failed=True)
    raw_facts: list[Any] = facts_value if isinstance(facts_value, list) else []
    raw_entities: list[Any] = entities_value if isinstance(entities_value, list) else []
    if "facts" in data and not isinstance(data["facts"], list):
        warnings.append("facts is not a list, ignored")
    if len(raw_facts) > MAX_FACTS:
        warnings.append(f"{len(raw_facts)} facts, kept the first {MAX_FACTS}")
    if len(raw_entities) > MAX_ENTITIES:
        warnings.append(f"{len(raw_entities)} entities, kept the first {MAX_ENTITIES}")
    facts = [f for i, item in enumerate(raw_facts[:MAX_FACTS]) if (f := _fact(item, i, warnings))]
    entities = [e for i, item in enumerate(raw_entities[:MAX_ENTITIES]) if (e := _entity(item, i, warnings))]
    return ExtractionResult(facts=facts, entities=entities, warnings=warnings)


def extract(llm: Llm, content: str, *, timeout: float | None = None,
            written_at: datetime | None = None) -> ExtractionResult:
    """Run the extraction prompt; `written_at` (when the memory's event or writing took place)
    lets relative times be dated. Raises ProviderError when the provider fails."""
    if isinstance(llm, AnswersTasks):
        result = parse_extraction(llm.extract(content[:MAX_INPUT_CHARS], written_at=written_at))
    else:
        result = parse_extraction(llm.generate(build_prompt(content, written_at), json=True, timeout=timeout))
    if len(content) > MAX_INPUT_CHARS:
        result.warnings.insert(0, f"input of {len(content)} characters truncated to {MAX_INPUT_CHARS}")
    return result
