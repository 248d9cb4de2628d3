"""Recall's graph path: traversal."""

import math

from signet_pipeline.graph.persist import persist_triples
from signet_pipeline.graph.traversal import traverse
from signet_pipeline.models import ExtractedEntity, RecallRequest, RememberRequest
from signet_pipeline.providers.embeddings.base import NoEmbeddings
from signet_pipeline.recall.scoring import Candidate
from signet_pipeline.recall.search import rank, recall_memories
from signet_pipeline.store import memories as mem_store
from signet_pipeline.write.remember import remember, remember_many

SMALL_POOLS = {"search": {"candidate_pool": 5}}


def plant(svc):
    """Zephyr depends on Kafka (a pipeline triple); a Kafka constraint says nothing about Zephyr."""
    link = remember(svc, RememberRequest(content="Zephyr streams its events through Kafka"))
    persist_triples(svc, mem_store.get(svc.db.reader(), link.id),
                    [ExtractedEntity(source="Zephyr", relationship="depends on", target="Kafka", confidence=0.9)])
    rule = remember(svc, RememberRequest(content="Kafka brokers must run with three replicas in production"))
    for i in range(8):  # enough Zephyr chatter to fill both legs' small pools
        remember(svc, RememberRequest(
            content=f"Zephyr dashboard note {i}: the Zephyr charts load slowly on Zephyr day {i}"))
    return rule.id


def test_traversal_finds_what_keyword_and_vector_search_miss(make_service, embedder):
    svc = make_service(**SMALL_POOLS)
    rule = plant(svc)
    # Neither leg's pool holds the rule (the Zephyr notes fill both); the walk Zephyr -> Kafka reaches it.
    result = recall_memories(svc, RecallRequest(query="Zephyr", limit=2, min_score=0))
    assert result.meta["candidates"]["graph"] >= 1
    assert result.meta["graph"]["focalEntities"] == 1 and result.meta["graph"]["traversedEntities"] == 2
    assert result.meta["graph"]["constraints"] == 1
    # It competes on the same score as every candidate; where nothing outranks it, it is returned.
    keyword_only = make_service(NoEmbeddings(), **SMALL_POOLS)
    found = recall_memories(keyword_only, RecallRequest(query="Zephyr", limit=20, min_score=0)).results
    hit = next((h for h in found if h.id == rule), None)
    assert hit is not None and hit.source == "graph"
    flat = make_service(NoEmbeddings(), memory={"pipelineV2": {"traversal": {"enabled": False}}}, **SMALL_POOLS)
    found = recall_memories(flat, RecallRequest(query="Zephyr", limit=20, min_score=0)).results
    assert rule not in {h.id for h in found}


def test_graph_candidates_leave_at_least_40_percent_of_slots_to_flat_results():
    fused = {f"g{i}": Candidate(0.9 - i / 100, "graph", 0.9, 0.0) for i in range(5)}
    fused |= {f"f{i}": Candidate(0.5 - i / 100, "hybrid", 0.5, 0.5) for i in range(5)}
    ranked = rank(fused, limit=5, min_score=0.1, graph_slots=5 - math.ceil(0.4 * 5))
    assert [mid for _, _, mid in ranked] == ["g0", "g1", "g2", "f0", "f1"]
    assert [mid for _, _, mid in rank(fused, limit=5, min_score=0.45, graph_slots=3)] == ["g0", "g1", "g2", "f0", "f1"]
    assert [mid for _, _, mid in rank(fused, limit=5, min_score=0.495, graph_slots=3)] == ["g0", "g1", "g2", "f0"]


def test_traversal_respects_visibility(make_service):
    svc = make_service(NoEmbeddings(), **SMALL_POOLS)
    rule = plant(svc)
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET visibility = 'private', agent_id = 'someone' WHERE id = ?", (rule,))
    found = recall_memories(svc, RecallRequest(query="Zephyr", limit=20, min_score=0)).results
    assert rule not in {h.id for h in found}


def plant_hub(svc) -> tuple[set[str], set[str]]:
    """Marta, named in 30 memories (each a constraint), and Quillon, named in two: (Marta's, Quillon's)."""
    marta = remember_many(svc, [RememberRequest(content=f"Marta always reviews release {i} of the billing code")
                              for i in range(30)], pipeline_jobs=False)
    quillon = remember_many(svc, [RememberRequest(content=f"Quillon ships the invoices on day {d}") for d in (3, 7)],
                            pipeline_jobs=False)
    return {r.id for r in marta}, {r.id for r in quillon}


def test_the_walk_takes_the_rarest_named_entity_first_and_leaves_hubs_out(make_service):
    svc = make_service(NoEmbeddings(), memory={"pipelineV2": {"traversal": {"maxMemories": 10}}})
    marta, quillon = plant_hub(svc)
    cfg, conn = svc.settings.pipeline.traversal, svc.db.reader()
    # Most mentioned first, Marta's constraints alone would fill the walk's 10 memories.
    walk = traverse(conn, "default", "what did Marta say about Quillon", None, cfg)
    assert quillon <= walk.memory_ids and len(walk.memory_ids & marta) == 8 and not walk.hubs
    walk = traverse(conn, "default", "what did Marta say about Quillon", None, cfg, hub_mentions=20)
    assert walk.memory_ids == quillon and len(walk.hubs) == 1 and len(walk.focal) == 1
    with svc.db.write() as conn_w:  # an entity the caller pinned is walked, hub or not
        conn_w.execute("UPDATE entities SET pinned = 1 WHERE canonical_name = 'marta'")
    walk = traverse(conn, "default", "what did Marta say about Quillon", None, cfg, hub_mentions=20)
    assert len(walk.memory_ids & marta) == 10 and not walk.hubs


def test_a_question_naming_a_short_named_speaker_walks_from_them(make_service):
    svc = make_service(NoEmbeddings())
    jon = {r.id for r in remember_many(svc, [RememberRequest(content=c, agentId="a") for c in (
        "Jon: I've opened a dance studio downtown.", "Jon: My studio has twenty students now.")])}
    remember(svc, RememberRequest(content="Gina: I launched my clothing store online.", agentId="a"))
    walk = traverse(svc.db.reader(), "a", "What did Jon open?", None, svc.settings.pipeline.traversal)
    assert walk.memory_ids == jon  # Jon's memories, not Gina's
    found = recall_memories(svc, RecallRequest(query="What did Jon open?", agentId="a", min_score=0))
    assert found.meta["graph"]["focalEntities"] == 1
    # Lower case it is a word, not a name: no entity is looked up for it.
    lowered = recall_memories(svc, RecallRequest(query="what did jon open?", agentId="a", min_score=0))
    assert lowered.meta["graph"]["focalEntities"] == 0


def test_recall_skips_entities_over_graph_hub_mentions(make_service):
    svc = make_service(NoEmbeddings(), search={"graphHubMentions": 20})
    _, quillon = plant_hub(svc)
    found = recall_memories(svc, RecallRequest(query="what did Marta say about Quillon", min_score=0))
    assert found.meta["graph"]["hubsSkipped"] == 1 and found.meta["graph"]["focalEntities"] == 1
    assert quillon <= {h.id for h in found.results}
