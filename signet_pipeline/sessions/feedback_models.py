"""The request of POST /api/memory/feedback (pydantic only: the MCP tool table reuses it without
loading the domain). Two shapes: one memory with a type (the spec's agent_feedback row), or the
reference clients' ratings map `{sessionKey, agentId, feedback: {memoryId: -1..1}}`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from signet_pipeline.request_rules import NOT_BLANK, NOT_GIVEN, STRICT, given, required_when, rules

FeedbackType = Literal["positive", "negative", "correction"]
MAX_CORRECTION_CHARS = 10_000
MAX_RATINGS = 200
Score = Annotated[float, Field(ge=-1.0, le=1.0)]
# The two shapes, one or the other; a correction says what is right.
_SHAPES = rules(
    {"oneOf": [{"required": ["ratings"],
                "properties": {"ratings": given(), "memory_id": NOT_GIVEN, "feedback_type": NOT_GIVEN}},
               {"required": ["memory_id", "feedback_type"],
                "properties": {"memory_id": given(), "feedback_type": given(), "ratings": NOT_GIVEN}}]},
    required_when("feedback_type", "correction", correction_text={"pattern": NOT_BLANK}))


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, json_schema_extra=_SHAPES, **STRICT)

    memory_id: str | None = Field(None, min_length=1, max_length=100,
                                  validation_alias=AliasChoices("memory_id", "memoryId"),
                                  description="the memory the feedback is about")
    feedback_type: FeedbackType | None = Field(None, validation_alias=AliasChoices("feedback_type", "feedbackType"),
                                               description="positive: it helped; negative: wrong or irrelevant; "
                                                           "correction: wrong, and correction_text says what is right")
    correction_text: str | None = Field(None, min_length=1, max_length=MAX_CORRECTION_CHARS,
                                        validation_alias=AliasChoices("correction_text", "correctionText"),
                                        description="what is right (required for a correction)")
    ratings: dict[str, Score] | None = Field(None, max_length=MAX_RATINGS,
                                             validation_alias=AliasChoices("ratings", "feedback"),
                                             description="instead of memory_id: several memories at once, memory id "
                                                         "-> relevance from -1 (harmful) to 1 (directly helpful); "
                                                         "0 = unused (nothing recorded)")
    session_id: str | None = Field(None, min_length=1, max_length=200,
                                   validation_alias=AliasChoices("session_id", "sessionId", "sessionKey",
                                                                 "session_key"),
                                   description="the session the feedback comes from")
    agent_id: str | None = Field(None, min_length=1, max_length=200,
                                 validation_alias=AliasChoices("agent_id", "agentId"),
                                 description="the agent giving it (a token's agent wins)")

    @model_validator(mode="after")
    def _one_shape(self) -> FeedbackRequest:
        if self.ratings is not None:
            if self.memory_id is not None or self.feedback_type is not None:
                raise ValueError("give either ratings or memory_id with feedback_type, not both")
            return self
        if self.memory_id is None or self.feedback_type is None:
            raise ValueError("memory_id and feedback_type are required (or ratings)")
        if self.feedback_type == "correction" and not (self.correction_text or "").strip():
            raise ValueError("correction_text is required when feedback_type is correction")
        return self

    def items(self) -> list[tuple[str, str, float | None]]:
        """(memory id, feedback type, score) rows to record; unused (0) ratings record nothing."""
        if self.ratings is None:
            return [(self.memory_id or "", self.feedback_type or "", None)]
        return [(mid, "positive" if score > 0 else "negative", score) for mid, score in self.ratings.items() if score]
