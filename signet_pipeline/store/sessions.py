"""SQL for harness sessions: sessions, session_memories and aspect_feedback_state, the context
ledger and transcripts, and session search (transcripts and session summaries, full-text)."""

from __future__ import annotations

import json

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar

FEEDBACK_COUNTERS = ("sessions_applied", "aspects_updated", "fts_confirmations", "decayed_aspects")


# A session belongs to the agent that registered it, else to the agent whose transcript it keeps
# (a checkpoint before any session-start): one key, one owner, whatever another agent sends.
_OTHER_OWNER = ("EXISTS (SELECT 1 FROM sessions WHERE session_key = ?1 AND agent_id != ?2) OR "
                "EXISTS (SELECT 1 FROM session_transcripts WHERE session_key = ?1 AND agent_id != ?2)")


def owned_by_another(conn: apsw.Connection, session_key: str, agent_id: str) -> bool:
    return bool(scalar(conn, f"SELECT {_OTHER_OWNER}", (session_key, agent_id)))


def start(conn: apsw.Connection, *, session_key: str, agent_id: str, harness: str, project: str | None,
          now: str, runtime_path: str | None = None) -> bool:
    """Register a session; False when the key was already known (a repeated session-start), or is
    another agent's."""
    return bool(list(conn.execute(
        "INSERT INTO sessions(session_key, agent_id, harness, project, started_at, runtime_path) "
        f"SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT ({_OTHER_OWNER}) ON CONFLICT(session_key) DO NOTHING RETURNING 1",
        (session_key, agent_id, harness, project, now, runtime_path),
    )))


def end(conn: apsw.Connection, *, session_key: str, agent_id: str, harness: str, reason: str | None,
        now: str) -> bool:
    """Mark a session ended; True only for the call that ended it (a session-end without a
    session-start still registers the session). Only the session's own agent ends it."""
    start(conn, session_key=session_key, agent_id=agent_id, harness=harness, project=None, now=now)
    return bool(list(conn.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE session_key = ? AND agent_id = ? AND ended_at IS NULL "
        "RETURNING 1", (now, reason, session_key, agent_id))))


def record_injected(conn: apsw.Connection, *, session_key: str, agent_id: str, memory_ids: list[str],
                    now: str) -> None:
    """Memories injected at session start, rank 1 first (a repeated start re-ranks them). Nothing is
    recorded on a session another agent owns: those rows are that agent's feedback signal."""
    if not _owns(conn, session_key, agent_id):
        return
    conn.executemany(
        "INSERT INTO session_memories(session_key, memory_id, agent_id, was_injected, rank, created_at, updated_at) "
        "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT(session_key, memory_id) DO UPDATE SET was_injected = 1, "
        "rank = excluded.rank, updated_at = excluded.updated_at",
        [(session_key, mid, agent_id, rank, now, now) for rank, mid in enumerate(memory_ids, 1)],
    )


def _owns(conn: apsw.Connection, session_key: str, agent_id: str) -> bool:
    """The agent's session, or one nobody registered yet (a prompt hook before any session-start)."""
    return not owned_by_another(conn, session_key, agent_id)


def record_prompt_injected(conn: apsw.Connection, *, session_key: str, agent_id: str, memory_ids: list[str],
                           now: str) -> None:
    """Memories a prompt hook injected, ranked after everything the session already holds (only on
    the agent's own session, as record_injected)."""
    if not _owns(conn, session_key, agent_id):
        return
    start = int(scalar(conn, "SELECT coalesce(max(rank), 0) FROM session_memories WHERE session_key = ?",
                       (session_key,)) or 0)
    conn.executemany(
        "INSERT INTO session_memories(session_key, memory_id, agent_id, was_injected, rank, created_at, updated_at) "
        "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT(session_key, memory_id) DO NOTHING",
        [(session_key, mid, agent_id, start + i, now, now) for i, mid in enumerate(memory_ids, 1)],
    )


def count_fts_hits(conn: apsw.Connection, *, session_key: str, agent_id: str, memory_ids: list[str],
                   now: str) -> int:
    """+1 fts_hit_count on the session's memories a full-text search by its own agent just matched
    (another agent's recall under the key is no confirmation of this one's); rows updated."""
    if not memory_ids:
        return 0
    marks = ", ".join("?" * len(memory_ids))
    return len(list(conn.execute(
        f"UPDATE session_memories SET fts_hit_count = fts_hit_count + 1, updated_at = ? "
        f"WHERE session_key = ? AND agent_id = ? AND memory_id IN ({marks}) RETURNING 1",
        (now, session_key, agent_id, *memory_ids),
    )))


def tracked(conn: apsw.Connection, session_key: str) -> bool:
    """True when the session has memories a search could confirm (cheap guard for recall)."""
    return scalar(conn, "SELECT 1 FROM session_memories WHERE session_key = ? LIMIT 1", (session_key,)) is not None


def confirmed_memories(conn: apsw.Connection, session_key: str, agent_id: str) -> list[str]:
    """Memories injected into the agent's session that a later full-text search of it hit (spec:
    fts_hit_count > 0); another agent's injections under the same key are not this agent's signal."""
    return [r[0] for r in conn.execute(
        "SELECT memory_id FROM session_memories WHERE session_key = ? AND agent_id = ? AND was_injected = 1 "
        "AND fts_hit_count > 0", (session_key, agent_id))]


def count_feedback_session(conn: apsw.Connection, agent_id: str, now: str) -> int:
    """Count one more ended session toward the agent's decay interval; the sessions since the last decay."""
    return scalar(
        conn,
        "INSERT INTO aspect_feedback_state(agent_id, sessions_since_decay, updated_at) VALUES (?, 1, ?) "
        "ON CONFLICT(agent_id) DO UPDATE SET sessions_since_decay = sessions_since_decay + 1, "
        "updated_at = excluded.updated_at RETURNING sessions_since_decay",
        (agent_id, now),
    )


def record_feedback(conn: apsw.Connection, agent_id: str, *, aspects_updated: int, fts_confirmations: int,
                    decayed_aspects: int, decay_ran: bool, now: str) -> None:
    conn.execute(
        "UPDATE aspect_feedback_state SET sessions_applied = sessions_applied + 1, "
        "aspects_updated = aspects_updated + ?, fts_confirmations = fts_confirmations + ?, "
        "decayed_aspects = decayed_aspects + ?, "
        "sessions_since_decay = CASE WHEN ? THEN 0 ELSE sessions_since_decay END, "
        "last_decay_at = CASE WHEN ? THEN ? ELSE last_decay_at END, updated_at = ? WHERE agent_id = ?",
        (aspects_updated, fts_confirmations, decayed_aspects, decay_ran, decay_ran, now, now, agent_id),
    )


def feedback_totals(conn: apsw.Connection) -> dict[str, int]:
    """Cumulative aspect-feedback counters over every agent."""
    sums = ", ".join(f"COALESCE(SUM({c}), 0)" for c in FEEDBACK_COUNTERS)
    values = list(conn.execute(f"SELECT {sums} FROM aspect_feedback_state"))[0]
    return dict(zip(FEEDBACK_COUNTERS, values))


def forget_memories(conn: apsw.Connection, memory_ids: list[str]) -> int:
    """Retention: purged memories leave the sessions that saw them."""
    return len(list(conn.execute(
        "DELETE FROM session_memories WHERE memory_id IN (SELECT value FROM json_each(?)) RETURNING 1",
        (json.dumps(memory_ids),))))


# -- context ledger and transcripts (0014) ------------------------------------------------------

def context_epoch(conn: apsw.Connection, session_key: str, agent_id: str) -> int:
    return int(scalar(conn, "SELECT context_epoch FROM session_context WHERE session_key = ? AND agent_id = ?",
                      (session_key, agent_id)) or 0)


def next_epoch(conn: apsw.Connection, session_key: str, agent_id: str, now: str) -> int:
    """A new context (the harness compacted its window): earlier results may be given again."""
    return int(scalar(conn, "INSERT INTO session_context(session_key, agent_id, context_epoch, updated_at) "
                            "VALUES (?, ?, 1, ?) ON CONFLICT(session_key, agent_id) DO UPDATE SET "
                            "context_epoch = context_epoch + 1, updated_at = excluded.updated_at "
                            "RETURNING context_epoch", (session_key, agent_id, now)))


def given(conn: apsw.Connection, session_key: str, agent_id: str, epoch: int) -> set[str]:
    return {r[0] for r in conn.execute(
        "SELECT memory_id FROM session_recalls WHERE session_key = ? AND agent_id = ? AND context_epoch = ?",
        (session_key, agent_id, epoch))}


def record_given(conn: apsw.Connection, session_key: str, agent_id: str, epoch: int, memory_ids: list[str],
                 now: str) -> None:
    conn.executemany("INSERT INTO session_recalls(session_key, agent_id, context_epoch, memory_id, first_at) "
                     "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                     [(session_key, agent_id, epoch, mid, now) for mid in memory_ids])


def save_transcript(conn: apsw.Connection, *, session_key: str, content: str, harness: str | None,
                    project: str | None, agent_id: str, now: str) -> bool:
    """Store or replace the session's transcript (session-end); False when nothing changed (the
    same text again, or the session belongs to another agent, who cannot overwrite it)."""
    return bool(list(conn.execute(
        "INSERT INTO session_transcripts(session_key, content, harness, project, agent_id, created_at, updated_at) "
        "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE session_key = ?1 "
        "AND agent_id != ?5) ON CONFLICT(session_key) DO UPDATE SET content = excluded.content, "
        "harness = excluded.harness, project = coalesce(excluded.project, session_transcripts.project), "
        "updated_at = excluded.updated_at "
        "WHERE session_transcripts.agent_id = excluded.agent_id AND session_transcripts.content != excluded.content "
        "RETURNING 1", (session_key, content, harness, project, agent_id, now, now))))


def add_transcript(conn: apsw.Connection, *, session_key: str, content: str, project: str | None, agent_id: str,
                   now: str) -> None:
    """A transcript sent along with a memory: kept only when the session has none yet (spec:
    INSERT OR IGNORE; session-end's full transcript is never replaced by a connector's part)."""
    conn.execute("INSERT INTO session_transcripts(session_key, content, project, agent_id, created_at, updated_at) "
                 "SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE session_key = ?1 "
                 "AND agent_id != ?4) ON CONFLICT(session_key) DO NOTHING",
                 (session_key, content, project, agent_id, now, now))


def summary_progress(conn: apsw.Connection, session_key: str, agent_id: str) -> tuple[int, str | None]:
    found = one(conn, "SELECT summarized_turns, summarized_hash FROM session_transcripts WHERE session_key = ? "
                      "AND agent_id = ?", (session_key, agent_id))
    return (found["summarized_turns"], found["summarized_hash"]) if found else (0, None)


def mark_summarized(conn: apsw.Connection, session_key: str, agent_id: str, turns: int, digest: str) -> None:
    conn.execute("UPDATE session_transcripts SET summarized_turns = ?, summarized_hash = ? WHERE session_key = ? "
                 "AND agent_id = ?", (turns, digest, session_key, agent_id))


def agent_of(conn: apsw.Connection, session_key: str) -> str | None:
    """The agent the session belongs to (_OTHER_OWNER); None for a key no agent has used yet."""
    return scalar(conn, "SELECT agent_id FROM sessions WHERE session_key = ?1 UNION ALL "
                        "SELECT agent_id FROM session_transcripts WHERE session_key = ?1 LIMIT 1", (session_key,))


def project_of(conn: apsw.Connection, session_key: str) -> str | None:
    """The project the session named at session-start."""
    return scalar(conn, "SELECT project FROM sessions WHERE session_key = ?", (session_key,))


def has_transcript(conn: apsw.Connection, session_key: str, agent_id: str) -> bool:
    return scalar(conn, "SELECT 1 FROM session_transcripts WHERE session_key = ? AND agent_id = ?",
                  (session_key, agent_id)) is not None


def transcripts(conn: apsw.Connection, session_keys: list[str], agent_id: str) -> dict[str, str]:
    """Transcripts of these sessions that belong to the agent."""
    marks = ", ".join("?" * len(session_keys))
    return dict(conn.execute(f"SELECT session_key, content FROM session_transcripts WHERE session_key IN ({marks}) "
                             "AND agent_id = ?", (*session_keys, agent_id))) if session_keys else {}


def transcripts_of(conn: apsw.Connection, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Transcripts for these (session key, owning agent) pairs that exist."""
    if not pairs:
        return {}
    found = conn.execute("SELECT t.session_key, t.agent_id, t.content FROM session_transcripts t JOIN json_each(?) p "
                         "ON t.session_key = p.value ->> 0 AND t.agent_id = p.value ->> 1", (json.dumps(pairs),))
    return {(key, agent): content for key, agent, content in found}


def replace_transcript(conn: apsw.Connection, session_key: str, content: str, summarized_hash: str | None) -> None:
    """Forgetting's edit, with the summarized part's new hash (its turns stay, minus the words), so
    the next summary still starts where the last one stopped."""
    conn.execute("UPDATE session_transcripts SET content = ?, summarized_hash = coalesce(?, summarized_hash) "
                 "WHERE session_key = ?", (content, summarized_hash, session_key))


def purge_transcripts_before(conn: apsw.Connection, before: str, limit: int) -> int:
    """Transcripts unchanged since before the cutoff, at most `limit` (only with
    retention.transcriptRetentionDays); a session whose summary is still queued keeps its transcript."""
    return len(list(conn.execute(
        "DELETE FROM session_transcripts WHERE session_key IN (SELECT t.session_key FROM session_transcripts t "
        "WHERE coalesce(t.updated_at, t.created_at) < ? AND NOT EXISTS (SELECT 1 FROM memory_jobs j WHERE "
        "j.session_key = t.session_key AND j.status IN ('pending', 'leased')) "
        "ORDER BY coalesce(t.updated_at, t.created_at) LIMIT ?) RETURNING 1", (before, limit))))


def purge_ledger_before(conn: apsw.Connection, before: str, limit: int) -> int:
    """Session-ledger rows older than the cutoff (a session that old is over; its context epochs
    are of no use to anyone), at most `limit`."""
    return len(list(conn.execute(
        "DELETE FROM session_recalls WHERE rowid IN (SELECT rowid FROM session_recalls WHERE first_at < ? LIMIT ?) "
        "RETURNING 1", (before, limit))))


# -- sessions through the API (0027): listing, bypass, search ---------------------------------

_SESSION = "session_key, agent_id, harness, project, runtime_path, started_at, ended_at, bypassed_at"


def sessions_of(conn: apsw.Connection, agent_id: str, *, ended: bool, limit: int) -> list[Row]:
    """The agent's sessions, newest first: those not ended, or every one with `ended`."""
    return rows(conn, f"SELECT {_SESSION} FROM sessions WHERE agent_id = ? AND (? OR ended_at IS NULL) "
                      "ORDER BY started_at DESC, session_key LIMIT ?", (agent_id, ended, limit))


def session_of(conn: apsw.Connection, session_key: str, agent_id: str) -> Row | None:
    return one(conn, f"SELECT {_SESSION} FROM sessions WHERE session_key = ? AND agent_id = ?", (session_key, agent_id))


def set_bypass(conn: apsw.Connection, session_key: str, agent_id: str, at: str | None) -> bool:
    """Bypass the agent's session from `at` (None: hooks serve it again); False when it has none."""
    return bool(list(conn.execute("UPDATE sessions SET bypassed_at = ? WHERE session_key = ? AND agent_id = ? "
                                  "RETURNING 1", (at, session_key, agent_id))))


def bypassed(conn: apsw.Connection, session_key: str, agent_id: str) -> bool:
    return scalar(conn, "SELECT 1 FROM sessions WHERE session_key = ? AND agent_id = ? AND bypassed_at IS NOT NULL",
                  (session_key, agent_id)) is not None


def search_transcripts(conn: apsw.Connection, match: str, agent_id: str, project: str | None,
                       limit: int) -> list[Row]:
    """The agent's transcripts matching `match` (an FTS5 expression), best first, each with an
    excerpt around its matches."""
    return rows(conn, "SELECT t.session_key, t.project, coalesce(t.updated_at, t.created_at) AS updated_at, "
                      "snippet(session_transcripts_fts, 0, '', '', '…', 24) AS excerpt, "
                      "bm25(session_transcripts_fts) AS raw FROM session_transcripts_fts "
                      "JOIN session_transcripts t ON t.rid = session_transcripts_fts.rowid "
                      "WHERE session_transcripts_fts MATCH :match AND t.agent_id = :agent "
                      "AND (:project IS NULL OR t.project = :project) ORDER BY raw LIMIT :limit",
                {"match": match, "agent": agent_id, "project": project, "limit": limit})


def search_summaries(conn: apsw.Connection, match: str, agent_id: str, project: str | None, memory_type: str,
                     limit: int) -> list[Row]:
    """The agent's own live session-summary memories matching `match`, best first, by session."""
    return rows(conn, "SELECT m.session_id AS session_key, m.project, m.updated_at, "
                      "snippet(memories_fts, 0, '', '', '…', 24) AS excerpt, bm25(memories_fts) AS raw "
                      "FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid "
                      "WHERE memories_fts MATCH :match AND m.type = :type AND m.agent_id = :agent "
                      "AND m.is_deleted = 0 AND m.session_id IS NOT NULL "
                      "AND (:project IS NULL OR m.project = :project) ORDER BY raw LIMIT :limit",
                {"match": match, "type": memory_type, "agent": agent_id, "project": project, "limit": limit})


def transcript_head(conn: apsw.Connection, session_key: str, agent_id: str, chars: int) -> Row | None:
    """The start of the agent's transcript of this session (a search for the key itself)."""
    return one(conn, "SELECT session_key, project, coalesce(updated_at, created_at) AS updated_at, "
                     "substr(content, 1, ?) AS excerpt FROM session_transcripts WHERE session_key = ? AND agent_id = ?",
               (chars, session_key, agent_id))
