"""Aspect feedback at session end (spec "Behavioral Feedback Loop", applyFtsOverlapFeedback and
decayAspectWeights).

Memories injected at session start that a later full-text search of the same session hit
(session_memories.fts_hit_count > 0) confirm the aspects their active attributes sit on: each
aspect gains `delta` per confirmed memory, clamped to [minWeight, maxWeight]. Every
`decayIntervalSessions` ended sessions of an agent, its aspects not updated for `staleDays` lose
`decayRate` (floored at minWeight). Traversal walks aspects by weight, so confirmed aspects are
walked first. One short write transaction, SQL only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from pydantic.alias_generators import to_camel

from signet_pipeline.config_sections import FeedbackConfig
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import parse_iso, to_iso


@dataclass(frozen=True)
class FeedbackOutcome:
    confirmed_memories: int = 0
    fts_confirmations: int = 0
    aspects_updated: int = 0
    decayed_aspects: int = 0
    decay_ran: bool = False

    def as_dict(self) -> dict[str, int | bool]:
        return {to_camel(k): v for k, v in asdict(self).items()}


def apply_session_feedback(db: Database, *, session_key: str, agent_id: str, cfg: FeedbackConfig,
                           now: str) -> FeedbackOutcome:
    """Apply FTS-overlap feedback for one ended session, then decay when the agent's interval is due."""
    if not cfg.enabled:
        return FeedbackOutcome()
    with db.write() as conn:
        confirmed = sessions_store.confirmed_memories(conn, session_key, agent_id)
        per_aspect = graph_store.aspect_confirmations(conn, confirmed)
        updated = graph_store.adjust_aspect_weights(
            conn, {aspect: cfg.delta * count for aspect, count in per_aspect.items()},
            low=cfg.min_weight, high=cfg.max_weight, now=now)
        decay_due = sessions_store.count_feedback_session(conn, agent_id, now) >= cfg.decay_interval_sessions
        decayed = 0
        if decay_due:
            stale_before = to_iso(parse_iso(now) - timedelta(days=cfg.stale_days))
            decayed = graph_store.decay_stale_aspects(conn, agent_id, stale_before=stale_before,
                                                      rate=cfg.decay_rate, floor=cfg.min_weight)
        outcome = FeedbackOutcome(confirmed_memories=len(confirmed), fts_confirmations=sum(per_aspect.values()),
                                  aspects_updated=updated, decayed_aspects=decayed, decay_ran=decay_due)
        sessions_store.record_feedback(conn, agent_id, aspects_updated=updated,
                                       fts_confirmations=outcome.fts_confirmations, decayed_aspects=decayed,
                                       decay_ran=decay_due, now=now)
    return outcome


def telemetry(db: Database) -> dict[str, int]:
    """Cumulative counters (spec getFeedbackTelemetry), over every agent."""
    totals = sessions_store.feedback_totals(db.reader())
    return {
        "feedbackSessions": totals["sessions_applied"],
        "feedbackAspectsUpdated": totals["aspects_updated"],
        "feedbackFtsConfirmations": totals["fts_confirmations"],
        "feedbackDecayedAspects": totals["decayed_aspects"],
    }
