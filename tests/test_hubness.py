import numpy as np

from signet_pipeline.recall.hubness import dampen_hubs, neighbour_similarity


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


def test_neighbour_similarity_ignores_self():
    v = np.stack([unit([1, 0]), unit([1, 0.01]), unit([0, 1])])
    sims = neighbour_similarity(v, 1)
    assert sims[0] > 0.99 and sims[2] < 0.1
