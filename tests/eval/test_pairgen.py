"""pairgen: deterministic LoCoMo-format data whose multi-hop questions need both speakers, across sessions."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from evalsets.pairgen import dumps, generate, write
from signet_eval.locomo import load

SEED = 7


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    return generate(SEED, 2)


def test_same_seed_same_bytes(samples: list[dict]) -> None:
    assert dumps(generate(SEED, 2)) == dumps(samples)
    assert dumps(generate(SEED + 1, 2)) != dumps(samples)


def test_loads_as_locomo(tmp_path, samples: list[dict]) -> None:
    path = tmp_path / "pairgen.json"
    write(path, SEED, 2)
    assert json.loads(path.read_text(encoding="utf-8")) == samples
    loaded = load(path)
    assert len(loaded) == 2
    for sample, raw in zip(loaded, samples):
        conv = raw["conversation"]
        sessions = [k for k in conv if re.fullmatch(r"session_\d+", k)]
        assert 10 <= len(sessions) <= 16
        assert all(12 <= len(conv[k]) <= 30 for k in sessions)
        assert len(sample.turns) == sum(len(conv[k]) for k in sessions)
        assert len(sample.questions) == len(raw["qa"])
        times = [t.at for t in sample.turns]
        assert times == sorted(times)


def test_category_shares(samples: list[dict]) -> None:
    cats = Counter(q["category"] for s in samples for q in s["qa"])
    total = sum(cats.values())
    assert set(cats) == {1, 2, 3, 4, 5}
    assert cats[1] / total >= 0.5  # two-person (>= 40 %) plus one-person multi-hop (~15 %)
    for cat in (2, 3, 4, 5):
        assert 0.07 <= cats[cat] / total <= 0.2
    assert all(("adversarial_answer" in q) == (q["category"] == 5) for s in samples for q in s["qa"])


def _turns(sample: dict) -> dict[str, dict]:
    return {t["dia_id"]: t for k, v in sample["conversation"].items() if isinstance(v, list) for t in v}


def test_two_person_questions_need_both_speakers_in_different_sessions(samples: list[dict]) -> None:
    for s in samples:
        turns, speakers = _turns(s), {s["conversation"]["speaker_a"], s["conversation"]["speaker_b"]}
        multi = [q for q in s["qa"] if q["category"] == 1]
        pair = [q for q in multi if {turns[e]["speaker"] for e in q["evidence"]} == speakers]
        assert len(pair) >= 0.4 * len(s["qa"])
        for q in pair:
            assert 2 <= len(q["evidence"]) <= 4
            sessions = [e.split(":")[0] for e in q["evidence"]]
            assert len(set(sessions)) == len(sessions), q
        for q in multi:  # every multi-hop question spans at least two sessions
            assert len({e.split(":")[0] for e in q["evidence"]}) >= 2, q


def test_evidence_turns_exist_and_dates_parse(samples: list[dict]) -> None:
    for s in samples:
        turns = _turns(s)
        for q in s["qa"]:
            assert all(e in turns for e in q["evidence"])
            if q["category"] == 5 and not q["evidence"]:
                assert q["adversarial_answer"] == "Not mentioned in the conversation"
        assert all(8 <= len(t["text"].split()) <= 40 for t in turns.values())
