"""Where the recall stages spend their time: the pieces of `vector_search` and `memory_fts`
timed one by one, with the query plan of the id-mapping SQL, plus the embedder's batch rate
(the floor of bulk ingest).

These call the same store/index functions recall uses (read only). They mirror recall's
internals, so if those change shape this module reports the failure instead of stopping the run.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bench.dataset import Memory, Query
from bench.stats import Timer, summary
from signet_pipeline.models import RecallRequest
from signet_pipeline.service import MemoryService
from signet_pipeline.text.fts_query import build_match

SAMPLE = 60  # queries timed per piece
EMBED_SAMPLE = 1024  # memories embedded to measure the embedder's batch throughput


def _plan(conn, sql: str, params: dict) -> list[str]:
    return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]


def recall_pieces(svc: MemoryService, queries: list[Query]) -> dict:
    from signet_pipeline.recall.search import build_filter
    from signet_pipeline.store import memories as mem_store

    cfg = svc.settings.search
    pool = cfg.candidate_pool
    conn = svc.db.reader()
    index = svc.vector_index()
    search_ms, mapping_ms, fts_ms = [], [], []
    plan: list[str] = []
    sample = queries[:SAMPLE]
    vectors = [svc.embed_query(q.text) for q in sample]  # embed first: no model run between timings
    for q, vector in zip(sample[:5], vectors):  # warm-up
        mem_store.live_ids_by_hashes(conn, [h for h, _ in index.search(vector, pool + 10)],
                                     build_filter(svc, RecallRequest(query=q.text)))
    for q, vector in zip(sample, vectors):
        req = RecallRequest(query=q.text)
        flt = build_filter(svc, req)
        with Timer() as t:
            hits = index.search(vector, pool + 10)
        search_ms.append(t.ms)
        hashes = [h for h, _ in hits]
        with Timer() as t:
            mem_store.live_ids_by_hashes(conn, hashes, flt)
        mapping_ms.append(t.ms)
        match = build_match(q.text)
        if match:
            with Timer() as t:
                mem_store.fts_search(conn, match, flt, pool)
            fts_ms.append(t.ms)
        if not plan:
            where, params = flt.sql()
            params["hashes"] = json.dumps(hashes)
            plan = _plan(conn, "SELECT m.content_hash, m.id FROM memories m WHERE m.content_hash IN "
                               f"(SELECT value FROM json_each(:hashes)) AND {where}", params)
    return {"index_search": summary(search_ms), "id_mapping": summary(mapping_ms),
            "fts_search": summary(fts_ms), "id_mapping_plan": plan}


def embed_rate(svc: MemoryService, mems: list[Memory]) -> dict:
    texts = [m.content for m in mems[:EMBED_SAMPLE]]
    with Timer() as t:
        svc.embedder.embed(texts)
    return {"texts": len(texts), "seconds": round(t.ms / 1000, 2), "rate_per_s": round(len(texts) / (t.ms / 1000), 1)}


def run(svc: MemoryService, queries: list[Query], mems: list[Memory], log: Callable[[str], None]) -> dict:
    out: dict = {}
    try:
        out["pieces"] = recall_pieces(svc, queries)
        p = out["pieces"]
        log(f"    pieces: index.search p50 {p['index_search']['p50']:.2f} ms, id mapping SQL p50 "
            f"{p['id_mapping']['p50']:.2f} ms, fts_search p50 {p['fts_search']['p50']:.2f} ms; "
            f"id mapping plan: {' / '.join(p['id_mapping_plan'])}")
    except Exception as exc:  # recall internals changed: report, keep going
        out["pieces_error"] = f"{type(exc).__name__}: {exc}"
        log(f"    pieces: not measured ({out['pieces_error']})")
    out["embed"] = embed_rate(svc, mems)
    log(f"    embedder alone, batched: {out['embed']['rate_per_s']:.0f} texts/s")
    return out
