"""personagen: deterministic LoCoMo-format conversations from simulated lives, and their questions."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime

import pytest

from evalsets import personagen
from evalsets.personagen.__main__ import main
from evalsets.personagen.quality import copy_answerable, single_turn_coverage

MONTHS = "January February March April May June July August September October November December".split()


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    return personagen.generate(29, 10)


def _sessions(conv: dict) -> list[tuple[int, datetime, list[dict]]]:
    out = []
    for key, value in conv.items():
        if m := re.fullmatch(r"session_(\d+)", key):
            n = int(m.group(1))
            when = datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            out.append((n, when, value))
    return sorted(out, key=lambda s: s[0])


def _turns(sample: dict) -> dict[str, dict]:
    return {t["dia_id"]: t for _, _, turns in _sessions(sample["conversation"]) for t in turns}


def test_same_seed_same_bytes_other_seed_differs():
    one = json.dumps(personagen.generate(29, 2))
    assert one == json.dumps(personagen.generate(29, 2))
    assert one != json.dumps(personagen.generate(30, 2))


def test_locomo_shape(samples):
    assert len(samples) == 10
    for sample in samples:
        assert set(sample) == {"sample_id", "conversation", "qa"}
        conv = sample["conversation"]
        speakers = {conv["speaker_a"], conv["speaker_b"]}
        assert len(speakers) == 2
        sessions = _sessions(conv)
        assert 12 <= len(sessions) <= 16
        assert [n for n, _, _ in sessions] == list(range(1, len(sessions) + 1))
        for (_, before, _), (_, after, _) in zip(sessions, sessions[1:]):
            assert 3 <= (after.date() - before.date()).days <= 20
        for n, _, turns in sessions:
            assert 15 <= len(turns) <= 25
            assert [t["dia_id"] for t in turns] == [f"D{n}:{k}" for k in range(1, len(turns) + 1)]
            assert all(t["speaker"] in speakers and t["text"] for t in turns)
            assert all(a["speaker"] != b["speaker"] for a, b in zip(turns, turns[1:]))
        for qa in sample["qa"]:
            assert set(qa) == {"question", "answer", "evidence", "category"}
            assert qa["category"] in (1, 2, 3, 4, 5) and qa["evidence"]


def test_size_and_turn_length(samples):
    texts = [t["text"] for s in samples for t in _turns(s).values()]
    assert 2500 <= len(texts) <= 3500
    average = sum(len(t.split()) for t in texts) / len(texts)
    assert 15 <= average <= 30
    repeated = sum(n for n in Counter(texts).values() if n > 1)
    assert repeated / len(texts) < 0.06


def test_every_evidence_id_exists(samples):
    for sample in samples:
        turns = _turns(sample)
        for qa in sample["qa"]:
            assert all(e in turns for e in qa["evidence"]), qa


def test_multi_hop_spans_sessions(samples):
    for sample in samples:
        for qa in sample["qa"]:
            if qa["category"] == 1:
                sessions = {e.split(":")[0] for e in qa["evidence"]}
                assert len(sessions) >= 2 and 2 <= len(qa["evidence"]) <= 4, qa


def test_category_shares(samples):
    counts = Counter(qa["category"] for s in samples for qa in s["qa"])
    total = sum(counts.values())
    share = {c: counts[c] / total for c in range(1, 6)}
    assert share[1] >= 0.40 and share[1] <= 0.50
    assert 0.15 <= share[3] <= 0.25
    assert 0.10 <= share[2] <= 0.20
    assert 0.10 <= share[4] <= 0.20
    assert 0.05 <= share[5] <= 0.15
    for sample in samples:  # and per conversation: multi-hop leads, about forty of them
        per = Counter(qa["category"] for qa in sample["qa"])
        assert per[1] / len(sample["qa"]) >= 0.40 and per[1] >= 30


def test_no_single_turn_answers_multi_hop_or_open_domain(samples):
    for sample in samples:
        turns = _turns(sample)
        names = {sample["conversation"]["speaker_a"], sample["conversation"]["speaker_b"]}
        for qa in sample["qa"]:
            texts = [turns[e]["text"] for e in qa["evidence"]]
            if qa["category"] in (1, 3):
                assert not copy_answerable(qa["question"], qa["answer"], texts, names), qa
            if qa["category"] == 3:  # the trait is implied, not named: few shared words
                assert 2 <= len(texts) <= 4
                assert len({turns[e]["speaker"] for e in qa["evidence"]}) == 1
                assert single_turn_coverage(qa["question"], texts, names) <= 0.4, qa


def test_temporal_answers_resolve_between_sessions(samples):
    date = re.compile(r"(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})")
    for sample in samples:
        sessions = {n: when for n, when, _ in _sessions(sample["conversation"])}
        for qa in sample["qa"]:
            if qa["category"] != 2:
                continue
            (evidence,) = qa["evidence"]
            n = int(evidence[1:].split(":")[0])
            m = date.search(qa["answer"])
            assert m, qa
            day = datetime(int(m.group(3)), MONTHS.index(m.group(2)) + 1, int(m.group(1))).date()
            assert day < sessions[n].date()
            if n > 1:
                assert day > sessions[n - 1].date()


def test_adversarial_answers(samples):
    for sample in samples:
        for qa in sample["qa"]:
            if qa["category"] == 5:
                assert qa["answer"] == "Not mentioned in the conversation"


def test_cli_writes_what_locomo_loads(tmp_path, capsys):
    from signet_eval.locomo import load

    out = tmp_path / "pg.json"
    main(["--seed", "5", "--conversations", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert printed.startswith("personagen: 2 conversations")
    loaded = load(out)
    raw = json.loads(out.read_text(encoding="utf-8"))
    assert len(loaded) == 2
    assert len(loaded[0].questions) == len(raw[0]["qa"])
    assert len(loaded[0].turns) == len(_turns(raw[0]))
