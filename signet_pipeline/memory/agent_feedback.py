"""Agent feedback on a memory (the memory_feedback MCP tool, POST /api/memory/feedback): a
positive, negative or correction signal about a memory the caller can see, kept in agent_feedback
for memory-quality work. It does not change the memory: memory_modify does that."""

from __future__ import annotations

from signet_pipeline.errors import NotFound
from signet_pipeline.memory.feedback_models import FeedbackRequest
from signet_pipeline.memory.reads import visible
from signet_pipeline.memory.remember import Actor
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.store import feedback as feedback_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import now_iso


def record(svc: MemoryService, req: FeedbackRequest, *, actor: Actor, agent_id: str) -> dict:
    """Store the feedback if the agent can see the (live) memory; 404 otherwise, so feedback
    cannot probe for memories the caller may not read."""
    with svc.db.write() as conn:
        if not visible(conn, mem_store.get(conn, req.memory_id), agent_id):
            raise NotFound(f"memory {req.memory_id} not found")
        feedback_id = feedback_store.insert(
            conn, memory_id=req.memory_id, agent_id=agent_id, session_id=req.session_id,
            feedback_type=req.feedback_type, correction_text=req.correction_text, actor=actor.name,
            actor_type=actor.type, now=now_iso())
    return {"success": True, "id": feedback_id, "memoryId": req.memory_id, "feedbackType": req.feedback_type}
