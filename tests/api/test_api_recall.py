import pytest

from tests.conftest import recall, remember

CORPUS = [
    "The spare key hangs on a hook behind the garage door",
    "Anna's flight to Lisbon departs on the 14th of March",
    "User prefers dark mode in every editor",
    "The quarterly report is due to the finance team next Friday",
    "Our cat Miso is allergic to chicken-based food",
    "The staging database runs PostgreSQL 16 on port 5433",
    "Bought a new espresso machine, the grinder setting is 12",
    "The WiFi password for the cabin is written inside the pantry door",
]


@pytest.fixture
def seeded(client):
    return {c: remember(client, c)["id"] for c in CORPUS}


def ids(result):
    return [r["id"] for r in result["results"]]


def test_recall_finds_by_keyword(client, seeded):
    # Rare tokens that carry little meaning on their own: the keyword leg must find them.
    out = recall(client, "5433")
    assert ids(out)[0] == seeded[CORPUS[5]]
    assert out["results"][0]["source"] in ("keyword", "hybrid")


def test_recall_finds_by_meaning_without_shared_words(client, seeded):
    # No word in common with "Our cat Miso is allergic to chicken-based food".
    out = recall(client, "which meals make my pet sick")
    assert ids(out)[0] == seeded[CORPUS[4]]
    assert out["results"][0]["source"] == "vector"
    out = recall(client, "when is my sister flying to Portugal")
    assert ids(out)[0] == seeded[CORPUS[1]]


def test_recall_blends_both_legs(client, seeded):
    out = recall(client, "where is the garage key")
    top = out["results"][0]
    assert top["id"] == seeded[CORPUS[0]] and top["source"] == "hybrid"
    assert out["method"] == "hybrid"


def test_response_shape_matches_the_spec(client, seeded):
    out = recall(client, "espresso grinder", limit=3)
    assert set(out) >= {"results", "query", "method", "meta"}
    meta = out["meta"]
    assert meta["totalReturned"] == len(out["results"]) <= 3
    assert meta["noHits"] is False and meta["hasSupplementary"] is False
    stages = [s["name"] for s in meta["timings"]["stages"]]
    assert stages[0] == "memory_fts" and "query_embedding_wait" in stages and stages[-1] == "final_rank"
    row = out["results"][0]
    for key in ("id", "content", "score", "source", "type", "tags", "pinned", "importance", "who", "project",
                "created_at", "subject_type", "subject_id", "supplementary"):
        assert key in row
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)


def test_min_score_and_limit(client, seeded):
    assert len(recall(client, "garage key", limit=2)["results"]) <= 2
    everything = recall(client, "garage key", min_score=0.0, limit=50)["results"]
    threshold = 0.3
    assert any(r["score"] < threshold for r in everything) and any(r["score"] >= threshold for r in everything)
    high = recall(client, "garage key", min_score=threshold, limit=50)["results"]
    assert [r["id"] for r in high] == [r["id"] for r in everything if r["score"] >= threshold]
    assert recall(client, "zzqx unrelated", min_score=1.0)["meta"]["noHits"] is True


def test_filters(client):
    a = remember(client, "Deploys happen on Tuesdays", type="procedural", tags="ops,deploy", who="alice",
                 createdAt="2026-01-05T00:00:00Z")["id"]
    b = remember(client, "Deploys are frozen in December", type="rule", tags="ops", who="bob", pinned=True,
                 createdAt="2026-03-05T00:00:00Z")["id"]
    c = remember(client, "Deploy dashboards live in Grafana", importance=0.2, who="alice",
                 createdAt="2026-02-05T00:00:00Z")["id"]
    q = "deploys"
    assert set(ids(recall(client, q, type="procedural"))) == {a}
    assert set(ids(recall(client, q, tags="ops"))) == {a, b}
    assert set(ids(recall(client, q, tags=["ops", "deploy"]))) == {a}
    assert set(ids(recall(client, q, who="alice"))) == {a, c}
    assert set(ids(recall(client, q, pinned=True))) == {b}
    assert set(ids(recall(client, q, importance_min=0.5))) == {a, b}
    assert set(ids(recall(client, q, since="2026-02-01T00:00:00Z"))) == {b, c}
    assert set(ids(recall(client, q, until="2026-02-28"))) == {a, c}
    # GET alias forwards the same filters
    got = client.get("/api/memory/search", params={"q": q, "who": "bob", "pinned": "1"}).json()
    assert ids(got) == [b]


def test_private_memories_are_only_returned_to_their_agent(client):
    mine = remember(client, "Alice's locker code is 4321", agentId="alice", visibility="private")["id"]
    shared = remember(client, "The office locker room is on floor 2", agentId="alice")["id"]
    assert set(ids(recall(client, "locker", agentId="alice"))) == {mine, shared}
    assert set(ids(recall(client, "locker", agentId="bob"))) == {shared}
    assert set(ids(recall(client, "locker"))) == {shared}
    assert client.get(f"/api/memory/{mine}").status_code == 404
    assert client.get(f"/api/memory/{mine}", params={"agentId": "alice"}).status_code == 200
    assert client.get(f"/api/memory/{mine}", headers={"x-signet-agent-id": "alice"}).status_code == 200


def test_recall_updates_access_tracking_off_the_hot_path(client, svc, seeded):
    target = seeded[CORPUS[6]]
    recall(client, "espresso grinder setting")
    svc.access.flush()
    got = client.get(f"/api/memory/{target}").json()
    assert got["access_count"] == 1 and got["last_accessed"] is not None


def test_list_get_and_404(client, seeded):
    page = client.get("/api/memories", params={"limit": 3, "offset": 0}).json()
    assert len(page["memories"]) == 3
    assert page["stats"] == {"total": len(CORPUS), "withEmbeddings": len(CORPUS), "critical": 0}
    rest = client.get("/api/memories", params={"limit": 100, "offset": 3}).json()["memories"]
    assert len(rest) == len(CORPUS) - 3
    assert not {m["id"] for m in page["memories"]} & {m["id"] for m in rest}
    missing = client.get("/api/memory/does-not-exist")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get("/api/memory/jobs/999999").status_code == 404
    assert client.get("/api/memories", params={"limit": 0}).status_code == 422


def test_legacy_keyword_search(client, seeded):
    out = client.get("/memory/search", params={"q": "garage"}).json()
    assert [r["id"] for r in out["results"]] == [seeded[CORPUS[0]]]
    assert out["results"][0]["score"] == 1.0
    # words are OR-ed (FTS5 operators are plain words: `OR` is a stop word here)...
    assert len(client.get("/memory/search", params={"q": "garage OR cabin"}).json()["results"]) == 2
    # ...and broken syntax is plain words too, never an error
    broken = client.get("/memory/search", params={"q": 'garage AND ("'})
    assert broken.status_code == 200 and [r["id"] for r in broken.json()["results"]] == [seeded[CORPUS[0]]]
    listing = client.get("/memory/search").json()["results"]
    assert len(listing) == len(CORPUS)
    remember(client, "note from bob", who="bob")
    assert client.get("/memory/search", params={"distinct": "who"}).json() == {"values": ["bob"]}


def test_similar_to_a_stored_memory(client, seeded):
    anchor = seeded[CORPUS[1]]
    remember(client, "Anna returns from Portugal on the 21st of March")
    out = client.get("/memory/similar", params={"id": anchor, "k": 3}).json()["results"]
    assert anchor not in [r["id"] for r in out]
    assert "Portugal" in out[0]["content"]
    assert client.get("/memory/similar", params={"id": "nope"}).status_code == 404


def test_a_weak_keyword_only_hit_does_not_outrank_a_match_of_both_legs(client):
    for content in ["Where possible, leave the API rate limiter at its defaults",
                    "The spare house key hangs on a hook behind the garage door",
                    "Rotate the deploy key every ninety days", "The car key fob battery is a CR2032",
                    "Keyboard shortcuts are listed in the wiki", "Leave early on Fridays in summer"]:
        remember(client, content)
    out = recall(client, "where did I leave the spare key?", limit=3)
    assert "spare house key" in out["results"][0]["content"]


def test_scores_blend_both_signals(client, embedder):
    target = remember(client, "The spare key hangs behind the garage door")["id"]
    remember(client, "Garage sales happen on Saturdays")
    query = "garage key"
    out = recall(client, query)
    top = out["results"][0]
    assert top["id"] == target and top["source"] == "hybrid"
    cosine = float(embedder.embed_one(query) @ embedder.embed_one("The spare key hangs behind the garage door"))
    # best keyword hit -> keyword score 1.0; alpha 0.7
    assert abs(top["score"] - (0.7 * cosine + 0.3 * 1.0)) < 1e-3


def test_two_agents_may_hold_the_same_text(client):
    alice = remember(client, "Deploy password is hunter2", agentId="alice", visibility="private")
    bob = remember(client, "deploy password is HUNTER2.", agentId="bob", visibility="private")
    assert bob["deduped"] is False and bob["id"] != alice["id"]
    assert remember(client, "Deploy password is hunter2!", agentId="bob")["id"] == bob["id"]
    assert ids(recall(client, "deploy password", agentId="bob")) == [bob["id"]]
    assert ids(recall(client, "deploy password", agentId="alice")) == [alice["id"]]


def test_vector_leg_widens_when_other_agents_private_rows_crowd_it(client):
    for i in range(80):
        remember(client, f"private note {i} about the garden shed and its tools", agentId="alice", visibility="private")
    mine = remember(client, "the lawnmower lives in the shed", agentId="bob")["id"]
    out = recall(client, "where is the mower kept", agentId="bob", alpha=1.0)
    assert ids(out) == [mine]
