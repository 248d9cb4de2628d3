"""Duplicate memories: GET /api/repair/dedup-stats (a read) and the repair action deduplicate.

Duplicates are live, current (not superseded) memories of one scope
(agent, visibility, project — spec: dedup per agentId, visibility and scope):
- exact: the same dedup key, i.e. the content casefolded (NFKC), every run of characters other
  than letters and digits read as one space ("Use tabs, not spaces." = "use tabs not spaces").
  The content hash only folds case and trailing punctuation, and the write path already refuses
  a second live memory of one hash per agent, so this catches what slipped past it.
- near: vectors of the configured model with cosine >= repair.dedupSemanticThreshold (0.92),
  among each agent's newest SEMANTIC_SCAN_MAX memories. Reported only, never merged: a
  paraphrase can carry a different fact ("port 3000" / "port 3001").
deduplicate merges exact groups: the keeper is pinned first, then the most important, then the
oldest; the others are tombstoned with a history row, and their links point at the keeper.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from signet_pipeline.errors import MutationsFrozen
from signet_pipeline.service import MemoryService
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import memory_writes as writes
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import Actor

SEMANTIC_SCAN_MAX = 5_000  # newest memories per agent compared pairwise (the scan is quadratic)
SAMPLES = 5
_NON_WORD = re.compile(r"[\W_]+")


def dedup_key(content: str) -> str:
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", content).casefold()).strip()


def _best_first(row: Row) -> tuple:
    return -row["pinned"], -row["importance"], row["created_at"], row["rid"]


def exact_groups(rows: list[Row]) -> list[list[Row]]:
    """Groups of 2+ exact duplicates (module docstring), each keeper first, largest groups first."""
    groups: dict[tuple[str, str, str | None, str], list[Row]] = {}
    for row in rows:
        key = dedup_key(row["content"])
        if key:
            groups.setdefault((row["agent_id"], row["visibility"], row["project"], key), []).append(row)
    return sorted((sorted(g, key=_best_first) for g in groups.values() if len(g) > 1), key=lambda g: -len(g))


@dataclass
class NearDuplicates:
    pairs: int = 0
    memories: int = 0
    scanned: int = 0  # memories with a vector that were compared
    agents_truncated: int = 0  # scopes holding more than SEMANTIC_SCAN_MAX memories
    by_agent: dict[str, int] = field(default_factory=dict)
    samples: list[tuple[float, Row, Row]] = field(default_factory=list)  # highest cosines


def near_duplicates(svc: MemoryService, rows: list[Row], threshold: float) -> NearDuplicates:
    """Pairs of one scope (agent, visibility) with cosine >= threshold that are not exact
    duplicates, counted in blocks of 512 rows (nothing quadratic is held in Python)."""
    out = NearDuplicates()
    index = svc.vector_index()
    if index is None:
        return out
    scopes: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        scopes.setdefault((row["agent_id"], row["visibility"]), []).append(row)
    for (agent, _), scope in scopes.items():
        out.agents_truncated += len(scope) > SEMANTIC_SCAN_MAX
        newest = scope[-SEMANTIC_SCAN_MAX:]
        vectors = index.vectors([r["content_hash"] for r in newest])
        kept = [r for r in newest if r["content_hash"] in vectors]
        out.scanned += len(kept)
        if len(kept) < 2:
            continue
        matrix = np.stack([vectors[r["content_hash"]] for r in kept])
        keys: dict[str, int] = {}
        key_ids = np.array([keys.setdefault(dedup_key(r["content"]), len(keys)) for r in kept])
        involved = np.zeros(len(kept), dtype=bool)
        for start in range(0, len(kept), 512):
            sims = matrix[start:start + 512] @ matrix.T
            rows_at = np.arange(start, start + sims.shape[0])
            mask = (sims >= threshold) & (np.arange(len(kept))[None, :] > rows_at[:, None]) \
                & (key_ids[rows_at][:, None] != key_ids[None, :])
            found = int(mask.sum())
            if not found:
                continue
            out.pairs += found
            out.by_agent[agent] = out.by_agent.get(agent, 0) + found
            involved[rows_at[mask.any(axis=1)]] = True
            involved[mask.any(axis=0)] = True
            flat = np.flatnonzero(mask)
            best = flat[np.argsort(-sims.ravel()[flat])[:SAMPLES]]
            out.samples += [(float(sims.ravel()[f]), kept[start + f // len(kept)], kept[f % len(kept)]) for f in best]
        out.memories += int(involved.sum())
    out.samples = sorted(out.samples, key=lambda p: -p[0])[:SAMPLES]
    return out


def _brief(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "content": row["content"][:120], "pinned": bool(row["pinned"]),
            "importance": row["importance"], "createdAt": row["created_at"]}


def stats(svc: MemoryService) -> dict[str, Any]:
    """Exact groups and near pairs, with counts, samples and per-agent totals (read-only)."""
    rows = mem_store.dedup_rows(svc.db.reader())
    groups = exact_groups(rows)
    threshold = svc.settings.repair.dedup_semantic_threshold
    near = near_duplicates(svc, rows, threshold)
    agents: dict[str, dict[str, int]] = {}
    for g in groups:
        agents.setdefault(g[0]["agent_id"], {"exactGroups": 0, "nearPairs": 0})["exactGroups"] += 1
    for agent, n in near.by_agent.items():
        agents.setdefault(agent, {"exactGroups": 0, "nearPairs": 0})["nearPairs"] = n
    return {
        "live": len(rows),
        "exact": {"groups": len(groups), "memories": sum(len(g) for g in groups),
                  "removable": sum(len(g) - 1 for g in groups),
                  "samples": [{"agentId": g[0]["agent_id"], "size": len(g), "keep": _brief(g[0]),
                               "duplicates": [_brief(r) for r in g[1:1 + SAMPLES]]} for g in groups[:SAMPLES]]},
        "near": {"pairs": near.pairs, "memories": near.memories, "threshold": threshold, "scanned": near.scanned,
                 "agentsTruncated": near.agents_truncated,
                 "samples": [{"agentId": a["agent_id"], "cosine": round(c, 4), "a": _brief(a), "b": _brief(b)}
                             for c, a, b in near.samples]},
        "byAgent": agents,
    }


def merge(svc: MemoryService, actor: Actor) -> dict[str, Any]:
    """Merge up to repair.dedupBatchSize exact groups in one short transaction (groups are found
    before it; a keeper deleted meanwhile skips its group)."""
    if svc.settings.pipeline.mutations_frozen:
        raise MutationsFrozen("mutations are frozen (memory.pipelineV2.mutationsFrozen): nothing deduplicated")
    groups = exact_groups(mem_store.dedup_rows(svc.db.reader()))
    batch = groups[: svc.settings.repair.dedup_batch_size]
    now = now_iso()
    merged, dropped_total = 0, 0
    links: dict[str, int] = {}
    with svc.db.write() as conn:
        for group in batch:
            keep = group[0]
            if mem_store.get(conn, keep["id"]) is None:
                continue
            dropped = list(writes.soft_delete_many(conn, [r["id"] for r in group[1:]], now=now, actor=actor.name))
            if not dropped:
                continue
            moved = writes.merge_references(conn, dropped, keep["id"], now=now)
            content = {r["id"]: r["content"] for r in group}
            for memory_id in dropped:
                history_store.record(conn, memory_id=memory_id, event="deleted", now=now,
                                     old_content=content[memory_id], changed_by=actor.name, actor_type=actor.type,
                                     reason="deduplicate", metadata={"mergedInto": keep["id"]},
                                     request_id=actor.request_id)
            history_store.record(conn, memory_id=keep["id"], event="merged", now=now, changed_by=actor.name,
                                 actor_type=actor.type, reason="deduplicate",
                                 metadata={"mergedFrom": dropped, **moved}, request_id=actor.request_id)
            merged += 1
            dropped_total += len(dropped)
            links = {k: links.get(k, 0) + v for k, v in moved.items()}
    return {"groupsMerged": merged, "memoriesRemoved": dropped_total, "groupsRemaining": len(groups) - merged,
            **links}
