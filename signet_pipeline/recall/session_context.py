"""The session context ledger (spec recall "sessionKey"): rows a session was given in its current
context epoch — recall results and hook injections — are not given again unless the caller asks
(`includeRecalled`, then they come back marked `already_recalled`). Compaction starts a new epoch.
Also the transcripts recall `expand` attaches to results from a stored session."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from signet_pipeline.service import MemoryService
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.session")
TRANSCRIPT_CHARS = 4_000  # of a transcript attached to one recall result


@dataclass
class Ledger:
    session_key: str | None
    agent_id: str
    epoch: int = 0
    given: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, svc: MemoryService, session_key: str | None, agent_id: str) -> Ledger:
        if not session_key:
            return cls(None, agent_id)
        conn = svc.db.reader()
        epoch = sessions_store.context_epoch(conn, session_key, agent_id)
        return cls(session_key, agent_id, epoch, sessions_store.given(conn, session_key, agent_id, epoch))

    @property
    def enabled(self) -> bool:
        return self.session_key is not None

    def record(self, svc: MemoryService, memory_ids: list[str]) -> None:
        """Bookkeeping after the answer is known: a failure is logged, the recall still answers."""
        new = [m for m in memory_ids if m not in self.given]
        if not self.session_key or not new:
            return
        try:
            with svc.db.write() as conn:
                sessions_store.record_given(conn, self.session_key, self.agent_id, self.epoch, new, now_iso())
        except Exception:
            log.exception("could not record the context of session %s", self.session_key)


def start_new_epoch(svc: MemoryService, session_key: str, agent_id: str) -> int:
    with svc.db.write() as conn:
        return sessions_store.next_epoch(conn, session_key, agent_id, now_iso())


def transcripts_for(svc: MemoryService, rows: list[Row], agent_id: str) -> dict[str, str]:
    """memory id -> the (truncated) transcript of the session it came from, when one is stored."""
    keys = {r["id"]: r["session_id"] or r["source_id"] for r in rows if r["session_id"] or r["source_id"]}
    found = sessions_store.transcripts(svc.db.reader(), sorted(set(keys.values())), agent_id)
    return {mid: found[key][:TRANSCRIPT_CHARS] for mid, key in keys.items() if key in found}


def session_agent(svc: MemoryService, session_key: str) -> str | None:
    """The agent that started (or ended) this session: a caller that names only its session key
    reads as that agent (spec memory-api "agentId ... or an x-signet-session-key")."""
    return sessions_store.agent_of(svc.db.reader(), session_key)
