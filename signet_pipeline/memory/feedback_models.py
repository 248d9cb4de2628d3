"""The request of POST /api/memory/feedback (pydantic only: the MCP tool table reuses it without
loading the domain)."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

FeedbackType = Literal["positive", "negative", "correction"]
MAX_CORRECTION_CHARS = 10_000


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    memory_id: str = Field(..., min_length=1, max_length=100, validation_alias=AliasChoices("memory_id", "memoryId"),
                           description="the memory the feedback is about")
    feedback_type: FeedbackType = Field(..., validation_alias=AliasChoices("feedback_type", "feedbackType"),
                                        description="positive: it helped; negative: wrong or irrelevant; "
                                                    "correction: wrong, and correction_text says what is right")
    correction_text: str | None = Field(None, min_length=1, max_length=MAX_CORRECTION_CHARS,
                                        validation_alias=AliasChoices("correction_text", "correctionText"),
                                        description="what is right (required for a correction)")
    session_id: str | None = Field(None, min_length=1, max_length=200,
                                   validation_alias=AliasChoices("session_id", "sessionId", "sessionKey", "session_key"),
                                   description="the session the feedback comes from")

    @model_validator(mode="after")
    def _correction_says_what_is_right(self) -> "FeedbackRequest":
        if self.feedback_type == "correction" and not (self.correction_text or "").strip():
            raise ValueError("correction_text is required when feedback_type is correction")
        return self
