"""Knowledge graph: inline linker, triple persistence, retention hook, API endpoints."""

import pytest

from signet_pipeline.graph.persist import dependency_type, persist_triples
from signet_pipeline.models import ExtractedEntity, RememberRequest
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.text.aspects import aspect_of, is_decision
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import remember
from tests.conftest import remember as api_remember


def q(svc, sql, *params):
    return svc.db.reader().execute(sql, params).fetchall()


def test_linker_writes_entities_aspects_attributes_and_constraints(svc):
    mid = remember(svc, RememberRequest(
        content="We decided to use Postgres over MySQL for Signet. Nicholai prefers tabs. Bob likes jazz.")).id
    assert sorted(r[0] for r in q(svc, "SELECT name FROM entities")) == ["MySQL", "Nicholai", "Postgres", "Signet"]
    attrs = {(r[0], r[1], r[2], r[3]) for r in q(svc, """
        SELECT e.name, a.name, t.kind, t.importance FROM entity_attributes t JOIN entities e ON e.id = t.entity_id
        JOIN entity_aspects a ON a.id = t.aspect_id WHERE t.memory_id = ?""", mid)}
    assert ("Postgres", "decisions", "constraint", 0.85) in attrs
    assert ("Nicholai", "preferences", "attribute", 0.5) in attrs
    assert q(svc, "SELECT count(*) FROM memory_entity_mentions WHERE memory_id = ?", mid)[0][0] == 4


def test_linker_resolves_known_entities_and_counts_mentions_per_agent(svc):
    remember(svc, RememberRequest(content="Priya Sharma maintains the billing service"))
    remember(svc, RememberRequest(content="The billing service is owned by Priya Sharma now"))
    remember(svc, RememberRequest(content="Priya Sharma joined the team in March", agentId="other"))
    assert q(svc, "SELECT agent_id, mentions FROM entities WHERE canonical_name = 'priya sharma' ORDER BY agent_id") \
        == [("default", 2), ("other", 1)]


def types_of(svc, agent: str) -> dict[str, str]:
    return {e["canonical_name"]: e["entity_type"]
            for e in graph_store.list_entities(svc.db.reader(), agent_id=agent, limit=10, offset=0)}


def test_a_speaker_is_a_person_and_a_role_label_is_not(svc):
    remember(svc, RememberRequest(content="Priya: I've booked the flights to Lisbon.", agentId="a"))
    remember(svc, RememberRequest(content="User: I prefer green tea in the morning.", agentId="a"))
    remember(svc, RememberRequest(content="Priya: I ran into Marta at lunch.", agentId="a"))
    types = types_of(svc, "a")
    assert types["priya"] == "person" and types["lisbon"] == "place"
    assert types["marta"] == "extracted"  # nothing says what Marta is: left to the structural stage
    assert types.get("user", "extracted") == "extracted"


def test_a_speaker_is_a_person_whatever_the_length_of_the_name(svc):
    # "Jon", "Ana", "Li": shorter than an entity name may be in running text, but a label says who speaks.
    remember(svc, RememberRequest(content="Jon: I've opened a dance studio downtown.", agentId="a"))
    remember(svc, RememberRequest(content="Li: I moved to Osaka last spring.", agentId="a"))
    remember(svc, RememberRequest(content="AI: I think the tests pass now.", agentId="a"))
    # Someone else names a person the agent has met as a speaker: a mention of them; an unknown short
    # name (Bob) stays out, as the spec's length rule has it.
    gina = remember(svc, RememberRequest(content="Gina: I met Jon and Bob at the studio yesterday.", agentId="a")).id
    types = types_of(svc, "a")
    assert types["jon"] == "person" and types["li"] == "person"
    assert "ai" not in types and "bob" not in types
    named = {r[0] for r in q(svc, "SELECT e.canonical_name FROM memory_entity_mentions m JOIN entities e "
                                  "ON e.id = m.entity_id WHERE m.memory_id = ?", gina)}
    assert named == {"gina", "jon"}


def test_headings_are_no_speakers_and_each_speaker_of_a_memory_is_a_person(svc):
    remember(svc, RememberRequest(content="PS: I forgot my keys at the office.", agentId="a"))
    remember(svc, RememberRequest(content="Re: my order from Lisbon is late.", agentId="a"))
    remember(svc, RememberRequest(content="OK: I will send the draft tonight.", agentId="a"))
    remember(svc, RememberRequest(content="The release is OK but PS needs work.", agentId="a"))
    remember(svc, RememberRequest(content="Context: the billing rewrite.\nDecision: We will use Postgres.",
                                  agentId="a"))
    # A transcript in one memory: every speaker is a person, not only the first.
    remember(svc, RememberRequest(content="Jon: I moved to Osaka.\nLi: I moved to Porto too.", agentId="a"))
    # The memory that makes a person may name them again: "Bo" is known from its second sentence on.
    bo = remember(svc, RememberRequest(content="Bo: Bo here. I moved to Lyon. The cat likes Bo.", agentId="a")).id
    types = types_of(svc, "a")
    assert not {"ps", "re", "ok", "context", "decision"} & types.keys() and "postgres" in types
    assert types["jon"] == "person" and types["li"] == "person" and types["bo"] == "person"
    said = [r[0] for r in q(svc, "SELECT t.content FROM entity_attributes t JOIN entities e ON e.id = t.entity_id "
                                 "WHERE e.canonical_name = 'bo' AND t.memory_id = ? ORDER BY t.content", bo)]
    assert said == ["I moved to Lyon.", "The cat likes Bo."]


def test_a_later_mention_types_an_untyped_entity_and_never_retypes_a_typed_one(svc):
    remember(svc, RememberRequest(content="Kestrel is great.", agentId="a"))
    remember(svc, RememberRequest(content="My sister works at Kestrel now.", agentId="a"))
    remember(svc, RememberRequest(content="She moved to Kestrel, apparently.", agentId="a"))
    assert types_of(svc, "a")["kestrel"] == "organization"


def test_linking_is_off_when_the_graph_is_disabled(make_service):
    svc = make_service(memory={"pipelineV2": {"graphEnabled": False}})
    remember(svc, RememberRequest(content="Nicholai decided to use PostgreSQL for Signet"))
    assert q(svc, "SELECT count(*) FROM entities")[0][0] == 0


@pytest.mark.parametrize("sentence, aspect, decision", [
    ("We decided to use Postgres over MySQL", "decisions", True),
    ("Nicholai prefers dark mode", "preferences", False),
    ("Signet runs on SQLite", "stack", False),
    ("Alice works at Google", "work", False),
    ("Deploys must never happen on Fridays", "general", True),
    ("Maria moved to Lisbon last year", "location", False),
])
def test_aspects_from_verbs_and_decision_language(sentence, aspect, decision):
    assert (aspect_of(sentence), is_decision(sentence)) == (aspect, decision)


def triple(source, rel, target, confidence=0.8):
    return ExtractedEntity(source=source, relationship=rel, target=target, confidence=confidence)


def test_triples_persist_idempotently_with_a_running_average(svc):
    first = remember(svc, RememberRequest(content="Signet uses SQLite for storage"))
    second = remember(svc, RememberRequest(content="Signet keeps everything in SQLite"))
    source = mem_store.get(svc.db.reader(), first.id)
    report = persist_triples(svc, source, [triple("Signet", "uses", "SQLite", 0.8), triple("AI", "likes", "Signet")])
    assert (report.new_relations, report.rejected) == (1, 1)  # "AI" is shorter than 4 characters
    again = persist_triples(svc, source, [triple("Signet", "uses", "SQLite", 0.8)])
    assert (again.new_relations, again.new_mentions) == (0, 0)
    persist_triples(svc, mem_store.get(svc.db.reader(), second.id), [triple("Signet", "uses", "SQLite", 0.4)])
    assert q(svc, "SELECT mentions, round(confidence, 3), strength FROM relations") == [(2, 0.6, 1.0)]
    assert q(svc, "SELECT dependency_type, strength FROM entity_dependencies") == [("uses", 0.8)]
    mentions = dict(q(svc, "SELECT canonical_name, mentions FROM entities"))
    assert mentions == {"signet": 2, "sqlite": 2}  # the linker's mentions and the triples' are one link per memory


def test_triples_resolve_a_short_name_the_agent_knows_as_a_person(svc):
    # Facts written before Jon spoke (so the linker has not tied them to Jon already).
    jon_fact = remember(svc, RememberRequest(content="Jon works at Acme.", agentId="a")).id
    other = remember(svc, RememberRequest(content="Jonathan works at Acme.", agentId="a")).id
    town = remember(svc, RememberRequest(content="The office in Acmeville is far.", agentId="a")).id
    maybe = remember(svc, RememberRequest(content="They will sue Acme.", agentId="a")).id
    remember(svc, RememberRequest(content="Sue: I started at Acme today.", agentId="a"))
    remember(svc, RememberRequest(content="Jon: I've opened a dance studio downtown.", agentId="a"))
    turn = remember(svc, RememberRequest(content="Gina: Jon works at Acme now, and Bo at Kestrel.", agentId="a"))
    source = mem_store.get(svc.db.reader(), turn.id)
    report = persist_triples(svc, source, [triple("Jon", "works at", "Acme"), triple("Bo", "works at", "Kestrel"),
                                           triple("AI", "likes", "Acme"), triple("Sue", "joined", "Kestrel")],
                             facts=[(jon_fact, "Jon works at Acme."), (other, "Jonathan works at Acme."),
                                    (town, "The office in Acmeville is far."), (maybe, "They will sue Acme.")])
    # Jon is the agent's person (a speaker): the triple lands on that entity. Bo and AI are unknown.
    assert (report.new_relations, report.rejected) == (2, 2)
    assert q(svc, "SELECT s.canonical_name, s.entity_type, r.relation_type, t.canonical_name FROM relations r "
                  "JOIN entities s ON s.id = r.source_entity_id JOIN entities t ON t.id = r.target_entity_id "
                  "ORDER BY 1") == [("jon", "person", "works at", "acme"), ("sue", "person", "joined", "kestrel")]
    # A fact becomes an end's attribute when it names it as a word: not "Jon" in "Jonathan", "Acme" in
    # "Acmeville", nor the person Sue in "They will sue".
    attached = q(svc, "SELECT e.canonical_name, t.memory_id FROM entity_attributes t JOIN entities e "
                      "ON e.id = t.entity_id WHERE t.aspect_id IS NULL ORDER BY 1")
    assert attached == [("jon", jon_fact)]  # (the linker gave Acme its facts with an aspect already)


@pytest.mark.parametrize("relationship, expected", [
    ("uses", "uses"), ("is built with", "uses"), ("depends on", "depends_on"), ("works at", "part_of"),
    ("met", "related_to"),
])
def test_dependency_types(relationship, expected):
    assert dependency_type(relationship) == expected


def test_forgetting_memories_decrements_mentions_and_removes_orphans(svc):
    a = remember(svc, RememberRequest(content="Nicholai maintains Signet")).id
    b = remember(svc, RememberRequest(content="Signet ships weekly releases")).id
    with svc.db.write() as conn:
        pinned = conn.execute("SELECT id FROM entities WHERE canonical_name = 'nicholai'").fetchone()[0]
    remember(svc, RememberRequest(content="Gregor reviews the Signet roadmap"))
    with svc.db.write() as conn:
        graph_store.set_pinned(conn, entity_id=pinned, agent_id="default", pinned=True, now=now_iso())
        decremented, removed = graph_store.forget_memories(conn, [a, b], now=now_iso())
    assert decremented == 2 and removed == 0  # nicholai is pinned; signet still has the third memory
    assert dict(q(svc, "SELECT canonical_name, mentions FROM entities")) == {"nicholai": 0, "signet": 1, "gregor": 1}
    with svc.db.write() as conn:
        graph_store.set_pinned(conn, entity_id=pinned, agent_id="default", pinned=False, now=now_iso())
        c = conn.execute("SELECT memory_id FROM memory_entity_mentions LIMIT 1").fetchone()[0]
        assert graph_store.forget_memories(conn, [c], now=now_iso()) == (2, 2)
    assert q(svc, "SELECT canonical_name FROM entities") == [("nicholai",)]  # unpinned but not touched by that purge
    assert q(svc, "SELECT count(*) FROM entity_attributes WHERE status = 'active'")[0][0] == 0


def test_entity_endpoints_list_pinned_first_and_pin_unpin(client):
    api_remember(client, "Signet stores memories in SQLite. Signet recalls them with FTS5 and vectors.")
    api_remember(client, "Gregor reviews the Signet roadmap with Priya Sharma")
    listing = client.get("/api/knowledge/entities").json()
    assert listing["entities"][0]["canonicalName"] == "signet" and listing["total"] == 5  # + sqlite, fts5
    priya = next(e for e in listing["entities"] if e["name"] == "Priya Sharma")
    pinned = client.post(f"/api/knowledge/entities/{priya['id']}/pin")
    assert pinned.status_code == 200 and pinned.json()["pinned"] is True
    assert client.get("/api/knowledge/entities").json()["entities"][0]["id"] == priya["id"]
    assert client.get("/api/knowledge/entities", params={"q": "greg"}).json()["entities"][0]["name"] == "Gregor"
    assert client.delete(f"/api/knowledge/entities/{priya['id']}/pin").json()["pinned"] is False
    missing = client.post("/api/knowledge/entities/nope/pin")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    other_agent = client.post(f"/api/knowledge/entities/{priya['id']}/pin", params={"agentId": "someone-else"})
    assert other_agent.status_code == 404
    assert client.get("/api/knowledge/entities", params={"limit": 0}).status_code == 422


def test_constellation_nests_aspects_and_attributes(client):
    api_remember(client, "We decided to use Postgres over MySQL for Signet")
    body = client.get("/api/knowledge/constellation").json()
    postgres = next(e for e in body["entities"] if e["canonicalName"] == "postgres")
    assert postgres["aspects"][0]["name"] == "decisions"
    assert postgres["aspects"][0]["attributes"][0]["kind"] == "constraint"
    assert body["dependencies"] == []


def test_community_asset_recovers_planted_groups(svc, workspace):
    import random

    import dagster as dg
    import igraph as ig

    from signet_pipeline.defs.graph.assets import entity_communities
    from signet_pipeline.defs.resources import SignetStoreResource

    rng = random.Random(3)
    groups, size = 4, 25
    now = now_iso()
    with svc.db.write() as conn:
        ids = [[graph_store.upsert_entity(conn, agent_id="default", name=f"Node{g}x{i}", canonical=f"node{g}x{i}",
                                          now=now) for i in range(size)] for g in range(groups)]
        flat = [(g, e) for g, members in enumerate(ids) for e in members]
        for (ga, a), (gb, b) in ((x, y) for i, x in enumerate(flat) for y in flat[i + 1:]):
            if rng.random() < (0.3 if ga == gb else 0.01):
                graph_store.upsert_dependency(conn, source_id=a, target_id=b, dependency_type="related_to",
                                              strength=rng.uniform(0.5, 1.0), now=now)
    result = dg.materialize([entity_communities], resources={"signet": SignetStoreResource(workspace=str(workspace))})
    meta = result.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
    assert meta["quality"].value == {"default": "strong"} and meta["modularity"].value >= 0.5
    assigned = dict(q(svc, "SELECT id, community_id FROM entities"))
    planted = [g for g, _ in flat]
    found_labels = {cid: i for i, cid in enumerate(sorted(set(assigned.values())))}
    found = [found_labels[assigned[e]] for _, e in flat]
    assert ig.compare_communities(planted, found, method="nmi") >= 0.9
    assert q(svc, "SELECT count(*), sum(size) FROM entity_communities") == [(len(found_labels), groups * size)]


def test_link_memory_reports_what_it_wrote_and_relinking_adds_nothing(svc):
    from signet_pipeline.graph.linker import link_memory

    text = "We decided to use Postgres over MySQL. Nicholai prefers tabs."
    with svc.db.write() as conn:
        first = link_memory(conn, memory_id="m-1", content=text, agent_id="default", now=now_iso())
        again = link_memory(conn, memory_id="m-1", content=text, agent_id="default", now=now_iso())
    assert (first.entities, first.mentions, first.attributes, first.constraints) == (3, 3, 3, 2)
    assert (again.mentions, again.attributes, again.constraints) == (0, 0, 0)
