"""The second LoCoMo-format generator (evalsets.convgen): loadable, deterministic, with
evidence that exists, every category, real multi-hop and paraphrase, and the expected size."""

import json
import re

import pytest

from evalsets.convgen.__main__ import main
from signet_eval.locomo import load

SEEDS = (13, 7)
MONTH_YEAR = re.compile(r"\b(January|February|March|April|May|June|July|August|September|October|November|December)"
                        r"\b.*\b(19|20)\d\d\b")
STOP = {
    "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "for", "with", "by", "from",
    "as", "into", "about", "after", "before", "over", "than", "then", "so", "is", "are", "was", "were",
    "be", "been", "being", "am", "do", "does", "did", "has", "have", "had", "not", "no", "yes", "what",
    "when", "where", "who", "whom", "whose", "which", "why", "how", "that", "this", "these", "those", "it",
    "its", "i", "me", "my", "you", "your", "we", "our", "he", "him", "his", "she", "her", "they", "them",
    "their", "there", "here", "up", "out", "new", "just", "still", "now", "ever", "any", "some", "one",
    "two", "first", "last", "get", "got", "go", "went",
}


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 2}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """seed -> (its file, the same seed written again), both through the CLI."""
    tmp = tmp_path_factory.mktemp("convgen")
    out = {}
    for seed in SEEDS:
        first, again = tmp / f"s{seed}.json", tmp / f"s{seed}-again.json"
        main(["--seed", str(seed), "--conversations", "10", "--out", str(first)])
        main(["--seed", str(seed), "--conversations", "10", "--out", str(again)])
        out[seed] = (first, again)
    return out


def turns_of(raw: dict) -> dict[str, dict]:
    conv = raw["conversation"]
    return {t["dia_id"]: t for key, value in conv.items() if re.fullmatch(r"session_\d+", key) for t in value}


@pytest.mark.parametrize("seed", SEEDS)
def test_loads_and_is_deterministic(files, seed):
    first, again = files[seed]
    assert first.read_bytes() == again.read_bytes()
    samples = load(first)
    assert len(samples) == 10 and all(s.questions and s.turns for s in samples)
    assert len({s.sample_id for s in samples}) == 10
    other = files[SEEDS[1] if seed == SEEDS[0] else SEEDS[0]][0]
    assert first.read_bytes() != other.read_bytes()


@pytest.mark.parametrize("seed", SEEDS)
def test_evidence_exists_and_categories_behave(files, seed):
    raw = json.loads(files[seed][0].read_text(encoding="utf-8"))
    categories = set()
    for sample in raw:
        turns = turns_of(sample)
        for qa in sample["qa"]:
            categories.add(qa["category"])
            assert qa["evidence"] and all(d in turns for d in qa["evidence"]), qa
            if qa["category"] == 1:
                assert len(set(qa["evidence"])) >= 2, qa
            if qa["category"] == 2:
                assert MONTH_YEAR.search(qa["answer"]), qa
            if qa["category"] == 5:
                assert qa["answer"] == "Not mentioned in the conversation"
    assert categories == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("seed", SEEDS)
def test_sizes_are_in_range(files, seed):
    raw = json.loads(files[seed][0].read_text(encoding="utf-8"))
    total_turns = total_questions = 0
    for sample in raw:
        conv = sample["conversation"]
        sessions = [conv[k] for k in conv if re.fullmatch(r"session_\d+", k)]
        assert 10 <= len(sessions) <= 20
        assert all(15 <= len(session) <= 30 for session in sessions)
        assert all(f"session_{n}_date_time" in conv for n in range(1, len(sessions) + 1))
        total_turns += sum(len(session) for session in sessions)
        total_questions += len(sample["qa"])
    assert 2000 <= total_turns <= 3000
    assert 400 <= total_questions <= 600
    share = {c: sum(q["category"] == c for s in raw for q in s["qa"]) / total_questions for c in range(1, 6)}
    assert all(abs(share[c] - want) < 0.06 for c, want in {1: .2, 2: .2, 3: .15, 4: .3, 5: .15}.items()), share


@pytest.mark.parametrize("seed", SEEDS)
def test_paraphrase_is_real(files, seed):
    """Many single-hop questions share no content word with their evidence turns (names aside)."""
    raw = json.loads(files[seed][0].read_text(encoding="utf-8"))
    apart = total = 0
    for sample in raw:
        turns = turns_of(sample)
        names = {sample["conversation"]["speaker_a"].lower(), sample["conversation"]["speaker_b"].lower()}
        for qa in sample["qa"]:
            if qa["category"] != 4:
                continue
            total += 1
            asked = content_words(qa["question"]) - names
            evidence = " ".join(turns[d]["text"] + " " + turns[d].get("blip_caption", "") for d in qa["evidence"])
            apart += not asked & content_words(evidence)
    assert apart >= 0.2 * total, (apart, total)


def test_cli_prints_a_summary(tmp_path, capsys):
    main(["--seed", "3", "--conversations", "2", "--out", str(tmp_path / "two.json")])
    line = capsys.readouterr().out.strip()
    assert "2 conversations" in line and "multi-hop" in line and "adversarial" in line and "\n" not in line
    assert len(load(tmp_path / "two.json")) == 2
