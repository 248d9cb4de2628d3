import json

from signet_eval import metrics
from signet_eval.harness import run
from signet_eval.locomo import load, parse_evidence, parse_session_time


def test_parses_the_locomo_format():
    [sample] = load("tests/data/locomo_tiny.json")
    assert len(sample.turns) == 10 and sample.turns[0].dia_id == "D1:1"
    assert sample.turns[2].content == ("Maria: Great, he already sleeps on my sofa. "
                                       "[shares a photo: a puppy asleep on a grey couch]")
    assert sample.turns[5].at.isoformat() == "2023-06-27T10:37:00+00:00"
    assert sample.turns[6].at > sample.turns[5].at  # turns keep their order inside a session
    bakery = sample.questions[2]
    assert bakery.evidence == {"D2:1", "D2:3"} and bakery.category == 1
    assert sample.questions[4].answer == "Tom never mentioned a cat" and not sample.questions[4].evidence
    assert parse_session_time("9:05 am on 3 January, 2024").day == 3
    assert parse_evidence(["D1:3", "D2:4;D5:1", "D3:1 D3:2"]) == {"D1:3", "D2:4", "D5:1", "D3:1", "D3:2"}


def test_metrics_count_evidence_turns_behind_each_result():
    gold = frozenset({"D1:1", "D2:3"})
    ranked = [["D9:9"], ["D2:3", "D7:1"]] + [["D8:8"]] * 8 + [["D1:1"]]
    s = metrics.score(ranked, gold, 1)
    assert s.recall == {5: 0.5, 10: 0.5, 25: 1.0} and s.all10 == 0.0 and s.any10 == 1.0
    agg = metrics.aggregate([s, metrics.score([["D1:1"], ["D2:3"]], gold, 4)])
    assert agg["overall"]["n"] == 2 and agg["overall"]["all@10"] == 0.5
    assert agg["multi-hop"]["R@10"] == 0.5 and agg["single-hop"]["R@10"] == 1.0


def test_end_to_end_through_the_rest_api(tmp_path):
    out = tmp_path / "report.json"
    lines: list[str] = []
    report = run("tests/data/locomo_tiny.json", out=out, alphas=[0.3], min_scores=[0.99], log=lines.append)
    saved = json.loads(out.read_text())
    assert saved["results"].keys() == {"signet", "signet a=0.3", "signet min=0.99", "bm25", "dense", "blend"}
    assert saved["results"]["signet min=0.99"]["overall"]["R@25"] < 1.0  # the threshold drops results
    signet = saved["results"]["signet"]
    assert signet["overall"]["n"] == 4  # the adversarial question has no evidence
    assert signet["single-hop"]["R@10"] == 1.0  # ten turns: everything is in the top 10
    assert 0 < report["latency"]["client_p50_ms"] < 5000
    assert "vs blend" in "\n".join(lines)


def test_generated_data_is_deterministic_valid_and_loadable(tmp_path):
    from evalsets.generate import generate
    from signet_eval.locomo import parse_sample

    first, second = generate(3, 2), generate(3, 2)
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    assert json.dumps(generate(4, 2), sort_keys=True) != json.dumps(first, sort_keys=True)
    samples = [parse_sample(raw, i) for i, raw in enumerate(first)]
    for sample in samples:
        ids = {t.dia_id for t in sample.turns}
        assert {q.category for q in sample.questions} == {1, 2, 3, 4, 5}
        for q in sample.questions:
            assert q.evidence <= ids
            assert q.evidence or q.category == 5


def test_generator_self_check_catches_broken_evidence():
    from evalsets.generate import generate
    from evalsets.generate.check import self_check

    data = generate(5, 1)
    assert self_check(data) == []
    data[0]["qa"][0]["evidence"] = ["D99:1"]
    assert self_check(data)
