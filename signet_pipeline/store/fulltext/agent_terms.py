"""SQL for the per-agent term statistics (agent_terms, agent_term_totals; migration 0034).

The triggers keep them with every write; this module reads them for recall, adds a bulk load's rows
in one pass (store/bulk_load.py), and checks and rebuilds them (repair check-fts).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import apsw

from signet_pipeline.store.db import one, scalar
from signet_pipeline.store.fulltext.functions import text_stemmer

_UPSERT_TERMS = ("INSERT INTO agent_terms(agent_id, term, docs) VALUES (?, ?, ?) "
                 "ON CONFLICT(agent_id, term) DO UPDATE SET docs = docs + excluded.docs")
_UPSERT_TOTALS = ("INSERT INTO agent_term_totals(agent_id, docs) VALUES (?, ?) "
                  "ON CONFLICT(agent_id) DO UPDATE SET docs = docs + excluded.docs")


@dataclass(frozen=True)
class AgentTerms:
    docs: int  # the agent's live rows
    store_docs: int  # live rows of every agent
    counts: dict[str, int]  # term -> the agent's live rows holding it (0 if none)


def for_agent(conn: apsw.Connection, agent_id: str, terms: set[str]) -> AgentTerms:
    """The agent's statistics for these terms: two primary-key reads, no cache needed."""
    totals = one(conn, "SELECT coalesce((SELECT docs FROM agent_term_totals WHERE agent_id = ?), 0) AS docs, "
                       "coalesce((SELECT sum(docs) FROM agent_term_totals), 0) AS store_docs", (agent_id,)) or {}
    found = dict(conn.execute("SELECT term, docs FROM agent_terms WHERE agent_id = ? "
                              "AND term IN (SELECT value FROM json_each(?))", (agent_id, json.dumps(sorted(terms)))))
    return AgentTerms(int(totals.get("docs") or 0), int(totals.get("store_docs") or 0),
                      {t: int(found.get(t, 0)) for t in terms})


def add_rows_after(conn: apsw.Connection, rid: int) -> None:
    """Count the live rows past `rid` (a bulk load's, its per-row trigger set aside) in one pass:
    counted here rather than through signet_terms() and json_each, which took 2.5x as long a row."""
    stems = text_stemmer(conn)
    terms: Counter[tuple[str, str]] = Counter()
    docs: Counter[str] = Counter()
    for agent, content in conn.execute("SELECT agent_id, content FROM memories WHERE is_deleted = 0 AND rid > ?",
                                       (rid,)):
        docs[agent] += 1
        terms.update((agent, term) for term in stems(content))
    conn.executemany(_UPSERT_TERMS, ((agent, term, n) for (agent, term), n in terms.items()))
    conn.executemany(_UPSERT_TOTALS, docs.items())


def drifted_agents(conn: apsw.Connection) -> int:
    """Agents whose counted rows differ from their live rows (a cheap check; terms are not recounted)."""
    return int(scalar(conn, "SELECT count(*) FROM ("
                            "SELECT agent_id, count(*) AS docs FROM memories WHERE is_deleted = 0 "
                            "GROUP BY agent_id) live "
                            "FULL JOIN agent_term_totals t USING (agent_id) "
                            "WHERE coalesce(live.docs, 0) != coalesce(t.docs, 0)") or 0)


def rebuild(conn: apsw.Connection) -> None:
    """Recount every agent's statistics from the live rows (inside the caller's write transaction)."""
    conn.execute("DELETE FROM agent_terms")
    conn.execute("DELETE FROM agent_term_totals")
    add_rows_after(conn, 0)
