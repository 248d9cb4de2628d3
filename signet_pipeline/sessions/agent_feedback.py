"""Agent feedback on memories (the memory_feedback MCP tool, POST /api/memory/feedback): positive,
negative or correction signals, or -1..1 relevance ratings, about memories the caller can see,
kept in agent_feedback. It does not change a memory (memory_modify does), but it is a usage signal
like the session-end FTS confirmations (sessions/aspect_feedback.py): the aspects a rated memory's
attributes sit on, among the rating agent's own entities, move by `feedback.delta` x score
(positive 1, negative and correction -1), clamped to [minWeight, maxWeight], in the same
transaction, once per agent, memory and session."""

from __future__ import annotations

from typing import Any

from signet_pipeline.errors import NotFound
from signet_pipeline.recall.reads import visible
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.feedback_models import FeedbackRequest
from signet_pipeline.store import feedback as feedback_store
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import Actor, ensure_writable


def record(svc: MemoryService, req: FeedbackRequest, *, actor: Actor, agent_id: str,
           project_scope: str | None = None) -> dict[str, Any]:
    """One memory: stored if the agent can see the (live) memory — within the token's project, if
    it is scoped to one — else 404, so feedback cannot probe for memories the caller may not
    read. Ratings: the visible ones are recorded, the rest counted as ignored (the same answer for
    unknown and unreadable ids). A write: refused while mutations are frozen."""
    ensure_writable(svc)
    items = req.items()
    ids: list[int] = []
    cfg = svc.settings.pipeline.feedback
    deltas: dict[str, float] = {}
    with svc.db.write() as conn:
        now = now_iso()
        for memory_id, feedback_type, score in items:
            row = mem_store.get(conn, memory_id)
            if row is None or not visible(conn, row, agent_id) or (
                    project_scope is not None and row["project"] != project_scope):
                if req.ratings is None:
                    raise NotFound(f"memory {memory_id} not found")
                continue
            ids.append(feedback_store.insert(
                conn, memory_id=memory_id, agent_id=agent_id, session_id=req.session_id, feedback_type=feedback_type,
                score=score, correction_text=req.correction_text, actor=actor.name, actor_type=actor.type, now=now))
            # Weights move once per agent, memory and session (a repeated rating is recorded, not
            # re-applied), and only on the agent's own entities: rating a shared memory must not
            # reshape another agent's graph.
            if feedback_store.rated_before(conn, agent_id=agent_id, memory_id=memory_id, session_id=req.session_id,
                                           before_id=ids[-1]):
                continue
            signal = score if score is not None else (1.0 if feedback_type == "positive" else -1.0)
            for aspect_id in graph_store.agent_aspects_of(conn, memory_id, agent_id):
                deltas[aspect_id] = deltas.get(aspect_id, 0.0) + cfg.delta * signal
        updated = graph_store.adjust_aspect_weights(conn, deltas, low=cfg.min_weight, high=cfg.max_weight,
                                                    now=now) if cfg.enabled and deltas else 0
    if req.ratings is None:
        return {"success": True, "ok": True, "recorded": 1, "id": ids[0], "memoryId": req.memory_id,
                "feedbackType": req.feedback_type, "aspectsUpdated": updated}
    return {"success": True, "ok": True, "recorded": len(ids), "ignored": len(req.ratings) - len(ids),
            "aspectsUpdated": updated}
