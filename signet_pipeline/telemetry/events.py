"""Telemetry events: counts, durations and codes only. Every field is a number, a flag or a short
identifier (`Code`: letters, digits and `_.:/-`, at most 80), so an event cannot carry memory
content, query text, credentials or session keys: a model with free text does not validate."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Code = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:/-]{1,80}$")]
_NOT_CODE = re.compile(r"[^A-Za-z0-9_.:/-]+")


def code(value: str) -> str:
    """A configured name (provider, model) as a Code: other characters become "-"."""
    return (_NOT_CODE.sub("-", value) or "unknown")[:80]
Ms = Annotated[float, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    event: str

    def properties(self) -> dict:
        return self.model_dump(exclude={"event"}, exclude_none=True)


class LlmCall(Event):
    """One provider call (LLM generation, embedding, fetch) made by the pipeline or the API."""

    event: Literal["llm.generate", "provider.call"]
    provider: Code
    model: Code
    ok: bool
    timeout: bool = False
    durationMs: Ms
    inputTokens: Count | None = None
    outputTokens: Count | None = None


class RecallPerformed(Event):
    event: Literal["recall.performed"] = "recall.performed"
    type: Code  # hybrid | temporal | ...
    results: Count
    latencyMs: Ms


class RememberPerformed(Event):
    event: Literal["remember.performed"] = "remember.performed"
    deduped: bool
    latencyMs: Ms


class PipelineError(Event):
    event: Literal["pipeline.error"] = "pipeline.error"
    stage: Code
    code: Code


class JobsDrained(Event):
    """One drain batch of a queue."""

    event: Literal["pipeline.batch"] = "pipeline.batch"
    jobType: Code
    jobs: Count
    failed: Count
    durationMs: Ms
