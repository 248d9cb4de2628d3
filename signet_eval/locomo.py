"""The LoCoMo JSON format: samples of two-speaker, multi-session conversations with QA items
whose evidence names the turns (dia_ids) that answer them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from signet_pipeline.timeutil import to_iso

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_SESSION = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"D\d+:\d+")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    at: datetime  # session time + the turn's position, so turns keep their order

    @property
    def content(self) -> str:
        """What is remembered: who said it, what was said, and a shared photo's caption."""
        return f"{self.speaker}: {self.text}"

    def remember_body(self, agent_id: str) -> dict:
        """The remember request of this turn: its speaker, its session time, a private agent."""
        return {"content": self.content, "sourceId": self.dia_id, "sourceType": "locomo", "who": self.speaker,
                "createdAt": to_iso(self.at), "agentId": agent_id, "visibility": "private"}


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    evidence: frozenset[str]
    category: int


@dataclass
class Sample:
    sample_id: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def parse_session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> aware UTC datetime."""
    cleaned = re.sub(r"\s+", " ", text.strip().replace(",", ", ")).replace(" ,", ",")
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y"):
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised session date {text!r}")


def parse_evidence(items: list[str] | None) -> frozenset[str]:
    """["D1:3", "D2:4; D5:1", "D3:1 D3:2"] -> the dia_ids, whatever separates them."""
    return frozenset(i for item in items or [] for i in _DIA_ID.findall(str(item)))


def _turn_text(raw: dict) -> str:
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def parse_sample(raw: dict, index: int) -> Sample:
    conv = raw["conversation"]
    sample = Sample(str(raw.get("sample_id", f"sample-{index}")))
    sessions = sorted(int(m.group(1)) for key in conv if (m := _SESSION.match(key)))
    for n in sessions:
        when = parse_session_time(conv[f"session_{n}_date_time"])
        for t, turn in enumerate(conv[f"session_{n}"] or []):
            text = _turn_text(turn)
            if text and turn.get("dia_id"):
                sample.turns.append(Turn(turn["dia_id"], turn.get("speaker", ""), text, when + timedelta(seconds=t)))
    for qa in raw.get("qa", []):
        answer = qa.get("answer", qa.get("adversarial_answer", ""))
        sample.questions.append(Question(str(qa["question"]), str(answer), parse_evidence(qa.get("evidence")),
                                         int(qa.get("category", 0))))
    return sample


def load(path: str | Path) -> list[Sample]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):  # a single sample
        data = [data]
    return [parse_sample(raw, i) for i, raw in enumerate(data)]
