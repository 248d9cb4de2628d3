"""Self-check and summary statistics for generated (or any LoCoMo-format) data."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

from .textutil import content_words, overlap

_ID = re.compile(r"^D(\d+):(\d+)$")
_SPLIT = re.compile(r"[;,\s]+")


def evidence_ids(evidence: list[str]) -> list[str]:
    return [i for s in evidence for i in _SPLIT.split(s.strip()) if i]


def sessions(conv: dict) -> list[int]:
    return sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))


def turn_texts(conv: dict) -> dict[str, str]:
    return {t["dia_id"]: t["text"] for n in sessions(conv) for t in conv[f"session_{n}"]}


def self_check(samples: list[dict]) -> list[str]:
    errors: list[str] = []
    for s in samples:
        sid, conv = s["sample_id"], s["conversation"]
        names = {conv["speaker_a"], conv["speaker_b"]}
        ns = sessions(conv)
        if ns != list(range(1, len(ns) + 1)):
            errors.append(f"{sid}: sessions not numbered 1..N")
        stamps = [datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y") for n in ns]
        if stamps != sorted(stamps):
            errors.append(f"{sid}: sessions not chronological")
        for n in ns:
            prev = None
            for t_no, t in enumerate(conv[f"session_{n}"], start=1):
                if t["dia_id"] != f"D{n}:{t_no}" or t["speaker"] not in names or not t["text"].strip():
                    errors.append(f"{sid}: bad turn {t}")
                if t["speaker"] == prev:
                    errors.append(f"{sid}: {t['dia_id']} same speaker twice in a row")
                prev = t["speaker"]
        texts = turn_texts(conv)
        for q in s["qa"]:
            ids = evidence_ids(q["evidence"])
            if q["category"] not in (1, 2, 3, 4, 5):
                errors.append(f"{sid}: bad category {q}")
            if q["category"] != 5 and not ids:
                errors.append(f"{sid}: no evidence for {q['question']!r}")
            if q["category"] == 5 and "adversarial_answer" not in q:
                errors.append(f"{sid}: adversarial without adversarial_answer {q['question']!r}")
            if not str(q.get("answer", "")).strip():
                errors.append(f"{sid}: empty answer {q['question']!r}")
            for i in ids:
                if not _ID.match(i) or i not in texts:
                    errors.append(f"{sid}: evidence {i!r} does not exist ({q['question']!r})")
    return errors


def stats(samples: list[dict]) -> dict:
    cats: Counter = Counter()
    zero: Counter = Counter()
    n_sessions = n_turns = n_captions = multi_in_one = 0
    turns_per_session = []
    for s in samples:
        conv = s["conversation"]
        texts = turn_texts(conv)
        for n in sessions(conv):
            turns = conv[f"session_{n}"]
            n_sessions += 1
            n_turns += len(turns)
            turns_per_session.append(len(turns))
            n_captions += sum("blip_caption" in t for t in turns)
        for q in s["qa"]:
            c = q["category"]
            cats[c] += 1
            multi_in_one += any(len(evidence_ids([e])) > 1 for e in q["evidence"])
            ev = [texts[i] for i in evidence_ids(q["evidence"])]
            if c != 5 and not overlap(q["question"], ev):
                zero[c] += 1
    para_n = cats[3] + cats[4]
    return {
        "conversations": len(samples), "sessions": n_sessions, "turns": n_turns, "blip_captions": n_captions,
        "turns_per_session": (min(turns_per_session), round(n_turns / n_sessions, 1), max(turns_per_session)),
        "questions": sum(cats.values()), "per_category": {c: cats[c] for c in sorted(cats)},
        "evidence_strings_with_several_ids": multi_in_one,
        "zero_overlap_share_by_category": {c: round(zero[c] / cats[c], 3) for c in sorted(cats) if c != 5},
        "zero_overlap_share_single_hop_and_open_domain": round((zero[3] + zero[4]) / para_n, 3) if para_n else 0.0,
    }


def grounding_warnings(samples: list[dict]) -> list[str]:
    """Single-/multi-hop answers should share a content word with their evidence (open-domain and
    temporal answers are inferred, so they are not checked)."""
    out = []
    for s in samples:
        texts = turn_texts(s["conversation"])
        for q in s["qa"]:
            if q["category"] in (1, 4):
                ev = set().union(*(content_words(texts[i]) for i in evidence_ids(q["evidence"])))
                if not content_words(q["answer"]) & ev:
                    out.append(f"{s['sample_id']}: {q['question']!r} -> {q['answer']!r}")
    return out
