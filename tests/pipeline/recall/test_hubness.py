import numpy as np

from signet_pipeline.recall.hubness import by_family, dampen_hubs


def unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


def pool():
    rng = np.random.default_rng(3)
    topic = unit(rng.normal(size=16))
    vectors = {f"m{i}": unit(topic + 1.5 * rng.normal(size=16)) for i in range(20)}
    vectors["hub"] = topic  # as close to every candidate as a generic memory is
    return vectors


def test_a_hub_loses_more_than_a_specific_memory():
    vectors = pool()
    cosines = {mid: 0.5 for mid in vectors}
    adjusted = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5)
    assert adjusted["hub"] < 0.5
    assert adjusted["hub"] == min(adjusted.values())
    # the correction is relative to the pool: on average nothing moves
    assert abs(np.mean([adjusted[m] - 0.5 for m in vectors])) < 0.05


def test_no_penalty_small_pools_and_missing_vectors_are_left_alone():
    vectors = pool()
    cosines = {mid: 0.5 for mid in vectors} | {"no-vector": 0.7}
    assert dampen_hubs(cosines, vectors, penalty=0.0, neighbours=5) == cosines
    assert dampen_hubs({"m1": 0.5, "m2": 0.4}, vectors, penalty=1.0, neighbours=5) == {"m1": 0.5, "m2": 0.4}
    assert dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5)["no-vector"] == 0.7


def test_by_family_keeps_each_familys_closest_member_and_leaves_out_the_rows_own():
    sims = np.array([[0.9, 0.2, 0.5], [0.1, 0.8, 0.3]])
    grouped = by_family(sims, ["a", "b", "a"], ["a", "c"])
    assert grouped.tolist() == [[-np.inf, 0.2], [0.3, 0.8]]


def with_facts():
    """The pool, plus a remembered memory with three derived facts that restate it, and one like it without."""
    rng = np.random.default_rng(5)
    vectors = pool()
    turn = unit(rng.normal(size=16))
    vectors["turn"] = turn
    vectors.update({f"fact{i}": unit(turn + 0.2 * rng.normal(size=16)) for i in range(3)})
    vectors["alone"] = unit(rng.normal(size=16))
    sources = {f"fact{i}": "turn" for i in range(3)}
    return vectors, lambda mid: sources.get(mid, mid)


def test_a_memory_is_no_hub_for_the_facts_derived_from_it():
    vectors, family = with_facts()
    cosines = {mid: 0.5 for mid in vectors}
    plain = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5)
    assert plain["turn"] < plain["alone"] - 0.2  # its own facts made it look like a hub
    by_family = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5, family=family)
    assert abs(by_family["turn"] - by_family["alone"]) < 0.1
    # a fact keeps its source among its neighbours: facts gain nothing on the memory they came from
    assert all(by_family[f"fact{i}"] < by_family["turn"] for i in range(3))
    assert by_family["hub"] == min(by_family[m] for m in vectors if family(m) == m)  # a hub is still one


def test_families_of_one_change_nothing():
    vectors = pool()
    cosines = {mid: 0.5 for mid in list(vectors)[:15]}
    extra = {mid: 0.4 for mid in list(vectors)[15:]}
    plain = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5, extra=extra)
    grouped = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5, extra=extra, family=lambda mid: mid)
    assert grouped.keys() == plain.keys()
    assert all(abs(grouped[m] - plain[m]) < 1e-6 for m in plain)


def test_a_graph_candidate_is_compared_with_other_families_too():
    vectors, family = with_facts()
    cosines = {mid: 0.5 for mid in vectors if mid != "turn"}
    plain = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5, extra={"turn": 0.5})
    grouped = dampen_hubs(cosines, vectors, penalty=1.0, neighbours=5, extra={"turn": 0.5}, family=family)
    assert grouped["turn"] > plain["turn"] + 0.1
