"""The self-check: every question must be answerable from its evidence turns, and shaped as the brief says.

Runs on the JSON that is written, so what is checked is exactly what a benchmark will load."""

from __future__ import annotations

import re
from typing import NoReturn

from .dates import parse_session, resolve
from .questions import QA

MIN_WORDS, MAX_WORDS = 8, 40
MIN_PAIR_SHARE = 0.40


class CheckError(AssertionError):
    """A generated sample breaks a promise the data set makes; never written out."""


def _fail(sample_id: str, msg: str) -> NoReturn:
    raise CheckError(f"{sample_id}: {msg}")


def check_sample(sample: dict, qas: list[QA]) -> None:
    sid, conv = sample["sample_id"], sample["conversation"]
    speakers = {conv["speaker_a"], conv["speaker_b"]}
    numbers = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
    if numbers != list(range(1, len(numbers) + 1)):
        _fail(sid, f"sessions not numbered 1..n: {numbers}")
    turns, dates, prev = {}, {}, None
    for n in numbers:
        when = parse_session(conv[f"session_{n}_date_time"])
        if prev and when <= prev:
            _fail(sid, f"session {n} is not later than session {n - 1}")
        prev, dates[n] = when, when.date()
        last = None
        for i, turn in enumerate(conv[f"session_{n}"], start=1):
            if turn["dia_id"] != f"D{n}:{i}" or turn["speaker"] not in speakers or turn["speaker"] == last:
                _fail(sid, f"bad turn {turn}")
            if not MIN_WORDS <= len(turn["text"].split()) <= MAX_WORDS:
                _fail(sid, f"{turn['dia_id']} has {len(turn['text'].split())} words: {turn['text']!r}")
            last, turns[turn["dia_id"]] = turn["speaker"], turn
    everything = " ".join(t["text"] for t in turns.values()).lower()
    for qa in qas:
        _check_question(sid, qa, turns, dates, speakers, everything)
    pair = sum(q.kind == "pair" for q in qas)
    if pair < MIN_PAIR_SHARE * len(qas):
        _fail(sid, f"only {pair} of {len(qas)} questions need both speakers")


def _check_question(sid: str, qa: QA, turns: dict, dates: dict, speakers: set[str], everything: str) -> None:
    where = f"{qa.question!r}"
    if not qa.answer or len(qa.answer) > 150:
        _fail(sid, f"{where}: answer missing or long: {qa.answer!r}")
    sessions, said_by = [], set()
    for fact, words in qa.parts:
        turn = turns.get(fact.dia_id)
        if turn is None or turn["text"] != fact.text or turn["speaker"] != fact.owner.name:
            _fail(sid, f"{where}: evidence {fact.dia_id} is not the turn that states {fact.key}")
        low = turn["text"].lower()
        missing = [w for w in words if w.lower() not in low]
        if missing:
            _fail(sid, f"{where}: {fact.dia_id} lacks {missing}: {turn['text']!r}")
        sessions.append(fact.session)
        said_by.add(turn["speaker"])
    distinct = len(set(sessions)) == len(sessions)
    if qa.kind == "pair" and not (2 <= len(qa.parts) <= 4 and said_by == speakers and distinct):
        _fail(sid, f"{where}: two-person question needs both speakers in different sessions")
    if qa.kind == "solo" and not (len(qa.parts) >= 2 and len(said_by) == 1 and distinct):
        _fail(sid, f"{where}: one-person multi-hop needs one speaker across sessions")
    if qa.kind in ("temporal", "open", "single") and len(qa.parts) != 1:
        _fail(sid, f"{where}: expected exactly one evidence turn")
    if qa.kind == "temporal":
        f = qa.timed
        if f is None or f.when is None or f.when.lower() not in f.text.lower():
            _fail(sid, f"{where}: the time phrase is not in the evidence turn")
        elif resolve(f.when, dates[f.session]) != qa.answer:
            _fail(sid, f"{where}: answer {qa.answer!r} does not follow from {f.when!r} on {dates[f.session]}")
    if qa.kind == "adversarial":
        if qa.not_about is None or (qa.not_about.name in said_by):
            _fail(sid, f"{where}: adversarial evidence comes from the person asked about")
        if not qa.parts and (not qa.absent or any(re.search(r"\b" + re.escape(w), everything) for w in qa.absent)):
            _fail(sid, f"{where}: the 'never said' topic does appear in the conversation")
